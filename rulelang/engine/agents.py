"""Agents: the decisions a player makes, as a small protocol, and the two built-in players.

An agent answers the engine's questions (buy? bid? how to leave jail? which tax? what to
do between rolls?). The engine validates every answer (actions.IllegalAction). Subclass
`Agent` and override what you need; its defaults are legal, passive answers.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar, Final

from mypy_extensions import mypyc_attr

from . import actions as act
from .actions import PAY_FINE, USE_CARD, Bid, Build, Lift, Lot, Mortgage, Sell, SellAll, Trade
from .game import QUIET_ACCOUNT, seed_key
from .tables import Choice

if TYPE_CHECKING:
    from .game import Game


@mypyc_attr(allow_interpreted_subclasses=True)
class Agent:
    """The decision protocol, with legal, passive defaults."""

    # class constants (ClassVar: a compiled agent must not make them fields of each instance)
    name: ClassVar[str] = "agent"
    # what the agent does, in a sentence or two (`rulelang explain NAME`; a compiled class
    # keeps no docstring)
    about: ClassVar[str] = ""
    unsaved: ClassVar[tuple[str, ...]] = ()  # attributes seat_at derives: a save skips them
    attentive: ClassVar[bool] = True  # claims rent at all
    claim_delay: ClassVar[int] = 0  # players who roll before it claims (rent_claim_window)

    def seat_at(self, game: Game, seat: int) -> None:
        """Called once when the game seats the agent."""

    def buy(self, game: Game, seat: int, pos: int) -> bool:
        """Buy the lot at its printed price? A player short of cash is asked too when its
        sales and mortgages could raise the price: it is then asked to raise_funds."""
        return False

    def bid(self, game: Game, seat: int, lot: Lot, high: int) -> int | None:
        """A bid above `high`, or None to drop out."""
        return None

    def jail(self, game: Game, seat: int) -> str:
        """'card', 'pay' (before rolling) or 'roll'."""
        return "roll"

    def tax(self, game: Game, seat: int, options: tuple) -> int:
        """Index of the chosen option; options are ('money', amount) or ('worth', percent)."""
        return 0

    def raise_funds(self, game: Game, seat: int, owed: int):
        """One Sell, SellAll or Mortgage toward holding `owed` in cash, or None to stop: for
        a purchase, stopping declines it; for a debt the engine makes the sales and mortgages
        itself while they could still pay it (Game.raise_funds)."""
        return None

    def manage(self, game: Game, seat: int):
        """One action between rolls (Build, Sell, SellAll, Mortgage, Lift, Trade) or None."""
        return None

    def between(self, game: Game, seat: int):
        """One action between two turns, before the turn of `game.state.current` (Build,
        Sell, SellAll, Mortgage, Lift, Trade: a prisoner may buy a jail card), or None to
        pass until the next turn."""
        return None

    def accept_trade(self, game: Game, seat: int, proposer: int, trade: Trade) -> bool:
        return False

    def lift_on_transfer(self, game: Game, seat: int, pos: int) -> bool:
        return False

    def wants_building(self, game: Game, seat: int, kind: str) -> bool:
        return False

    def place_building(self, game: Game, seat: int, kind: str, lots: tuple[int, ...]) -> int:
        return lots[0]

    def claim(self, game: Game, seat: int, pos: int) -> bool:
        """Take the unowned lot free of charge (`claim it for free`)?"""
        return False

    def place_token(self, game: Game, seat: int, token: int, spaces: tuple[int, ...]) -> int:
        """Where to put the token the player moves (`move the token to a free ...`)."""
        return spaces[0]

    def choose_character(self, game: Game, seat: int, free: tuple[int, ...]) -> int:
        """A character (index in game.rulebook.characters), and with it a side."""
        return free[0]

    def choose(self, game: Game, seat: int, choice: Choice) -> int:
        """The index of one of `choice.options` (`the player chooses one: ...`, or a space of
        the player's choice: then `choice.spaces` holds the candidates' positions)."""
        return 0


_NEVER: Final = 1 << 62  # more cash than any game holds


def _may(game: Game, seat: int, action) -> bool:
    """No permission of the rulebook refuses the action (its validity aside)."""
    return act.refusing(game, seat, action) is None


def _asks(game: Game, action: str, kept: set[str]) -> bool:
    """Whether a permission on the action may refuse a candidate that keeps `kept`: one that
    is not exactly some of those guarantees (tables.Permit.exact)."""
    return any(not (p.exact and p.exact <= kept) for p in game.rulebook.permits[action])


_Steps = tuple[tuple[tuple[int, int, bool], ...], ...]  # per lot and level


def _build_steps(game: Game) -> _Steps:
    """Per lot and level, the next building: (cost, rent it adds, hotel?)."""
    rb, s = game.rulebook, game.settings
    table: list[tuple[tuple[int, int, bool], ...]] = []
    for sp in rb.spaces:
        row: list[tuple[int, int, bool]] = []
        if sp.kind == "street":
            for low in range(s.max_houses + 1):
                if low >= s.houses_per_hotel:
                    cost, gain, hotel = sp.hotel_cost, sp.rents[-1] - sp.rents[low], True
                else:
                    cost, gain, hotel = sp.house_cost, sp.rents[low + 1] - sp.rents[low], False
                row.append((cost, gain, hotel))
        table.append(tuple(row))
    return tuple(table)


def _wants(game: Game, seat: int, pos: int) -> float:
    """How much a lot is worth to the player, relative to its price."""
    rb, owner = game.rulebook, game.state.owner
    group = rb.groups[rb.spaces[pos].group]
    mine = owned = 0  # the lots of the group the player owns; that anyone owns
    other, others = -1, 0  # another owner; how many others (0, 1, or 2 for more)
    for q in group:
        o = owner[q]
        if o < 0:
            continue
        owned += 1
        if o == seat:
            mine += 1
        elif other < 0:
            other, others = o, 1
        elif o != other:
            others = 2
    if mine == len(group) - 1 and not others:
        return 1.8  # completes a group
    if not others and mine:
        return 1.3
    if others == 1 and owned == len(group) - 1:
        return 1.4  # blocks another player's group
    return 1.0


@mypyc_attr(allow_interpreted_subclasses=True)
class DefaultAgent(Agent):
    """The `default` agent: `about` says how it plays."""

    about: ClassVar[str] = (
        "Plays like a sensible person: keeps a reserve, buys, bids up to a value, builds "
        "evenly on whole groups, trades to complete groups, and mortgages to pay; between "
        "other players' turns it builds and lifts with the cash it received, and a prisoner "
        "about to play may offer to buy a \"Get Out of Jail Free\" card.")

    name: ClassVar[str] = "default"

    def __init__(self, reserve: int = 150):
        self.reserve = reserve
        self._traded_at = -1
        self._card_asked = -1  # the turn before which it last offered to buy a jail card
        self._between_cash = 0  # its cash when it last passed between turns
        self._idle_need = 0  # passing until the cash reaches this,
        self._idle_version = -1  # while the player's holdings stay as they were
        self._idle_supply = -1  # and the bank's supply of houses and hotels too
        self._cheapest = 0
        self._steps: _Steps = ()
        self._builds: tuple[Build, ...] = ()
        self._sells: tuple[Sell, ...] = ()
        self._mortgages: tuple[Mortgage, ...] = ()
        self._hotel_level = 0
        self._asks_build = True  # a build permission may refuse its candidates
        self._asks_mortgage = True  # a mortgage permission may refuse its candidates
        self._asks_trade = True  # a trade permission may refuse its offers
        self._asks_bid = True  # a bid permission may refuse its bids
        self._bid_key = (-1, -1)
        self._bid_value = 0
        self._promises = False  # its `between` is this class's (seat_at)

    # derived from the rulebook by seat_at, so a saved game need not hold them (rulelang.save)
    unsaved: ClassVar[tuple[str, ...]] = (
        "_steps", "_cheapest", "_builds", "_sells", "_mortgages", "_hotel_level",
        "_asks_build", "_asks_mortgage", "_asks_trade", "_asks_bid", "_promises",
    )

    def seat_at(self, game: Game, seat: int):
        # a subclass that answers `between` its own way makes no promise for it
        self._promises = type(self).between is DefaultAgent.between
        # derived once per rulebook, shared by every default agent of every game
        memo = game.rulebook.memo
        tables = memo.get("default_agent")
        if tables is None:
            steps = _build_steps(game)
            lots = range(game.rulebook.size)
            tables = memo["default_agent"] = (
                steps,
                min((c for row in steps for c, _, hotel in row if not hotel), default=0),
                # actions are immutable values: one of each per lot serves every game
                tuple(Build(q) for q in lots),
                tuple(Sell(q) for q in lots),
                tuple(Mortgage(q) for q in lots),
                game.settings.max_houses + 1,
                # its candidate builds stand on a whole group's lowest lot, its mortgages on
                # groups without buildings: permissions that say only so never refuse them
                _asks(game, "build", {"whole_group", "build_evenly"}),
                _asks(game, "mortgage", {"mortgage_unbuilt"}),
                # its trades are of groups without buildings, its bids within its cash
                _asks(game, "trade", {"trade_unbuilt"}),
                _asks(game, "bid", {"bid_in_hand"}),
            )
        (self._steps, self._cheapest, self._builds, self._sells, self._mortgages,
         self._hotel_level, self._asks_build, self._asks_mortgage, self._asks_trade,
         self._asks_bid) = tables

    def buy(self, game: Game, seat: int, pos: int):
        price = game.rulebook.spaces[pos].price
        cash = game.state.cash[seat]
        if cash >= price:
            return cash - price >= self.reserve // 3 or _wants(game, seat, pos) > 1.5
        # short of cash: only a lot that completes, extends or blocks a group, paid by
        # mortgaging lots outside its whole groups (what raise_funds mortgages first), keeping
        # a third of its reserve; never by selling buildings
        if _wants(game, seat, pos) < 1.3:
            return False
        return cash + self._spare_mortgages(game, seat) - price >= self.reserve // 3

    def _spare_mortgages(self, game: Game, seat: int) -> int:
        """What mortgaging the player's lots outside its whole groups, in groups without
        buildings, would bring (those the permissions allow)."""
        st, rb = game.state, game.rulebook
        full = game.whole_streets()[seat]
        total = 0
        for q in game.holdings()[seat]:
            g = rb.group_of[q]
            if st.mortgaged[q] or g in full or (rb.is_street[q]
                                                 and act.group_has_buildings(game, g)):
                continue
            if self._asks_mortgage and not _may(game, seat, self._mortgages[q]):
                continue
            total += rb.spaces[q].mortgage
        return total

    def bid(self, game: Game, seat: int, lot, high: int):
        st = game.state
        if lot.kind == "deed":
            # the lot's value stays the same through the rounds of one auction
            key = (game.version, lot.pos)
            if key != self._bid_key:
                self._bid_key = key
                self._bid_value = int(game.rulebook.spaces[lot.pos].price
                                      * _wants(game, seat, lot.pos))
            value = self._bid_value
        else:
            value = 0 if not self.wants_building(game, seat, lot.kind) else 200
            # in cash, with the lifting of the lot's mortgage (actions.building_bid_limit)
            value = min(value, act.building_bid_limit(game, seat, lot.kind))
        limit = st.cash[seat] - self.reserve // 3  # no builtin min and max: asked every bid
        if value < limit:
            limit = value
        if high + 1 > limit:
            return None
        bid = (high + limit) // 2
        if bid < high + 1:
            bid = high + 1
        if (self._asks_bid or bid > st.cash[seat]) and not _may(game, seat, Bid(lot, bid)):
            return None
        return bid

    def jail(self, game: Game, seat: int):
        st = game.state
        unowned = len(game.rulebook.properties) - sum(map(len, game.holdings()))
        if unowned > 6:
            if st.jail_cards[seat] and _may(game, seat, USE_CARD):
                return "card"
            if st.cash[seat] >= game.settings.jail_fine + self.reserve \
                    and _may(game, seat, PAY_FINE):
                return "pay"
        return "roll"

    def tax(self, game: Game, seat: int, options):
        # the choice comes before the worth is computed (004 TAXE): the player goes by what it
        # sees at a glance, not by game.worth
        worth = self.estimated_worth(game, seat)
        costs = [v if k == "money" else worth * v // 100 for k, v in options]
        return costs.index(min(costs))

    def estimated_worth(self, game: Game, seat: int) -> int:
        """The worth as a player reckons it at a glance: its cash and the prices printed on
        its deeds, and a round $100 for each house (a hotel as the houses it takes and one
        more), whatever the buildings cost."""
        st, rb = game.state, game.rulebook
        per_hotel = game.settings.houses_per_hotel + 1
        total = st.cash[seat]
        for q in game.holdings()[seat]:
            total += rb.spaces[q].price + 100 * (st.houses[q] + per_hotel * st.hotels[q])
        return total

    def raise_funds(self, game: Game, seat: int, owed: int):
        # the game's views of the holdings read in line (Holdings: holdings() makes them)
        held = game._holdings
        if held is None:
            held = game.holdings()
        owned = held[seat]
        rb = game.rulebook
        permits = rb.permits
        # 1. mortgage lots outside whole groups, cheapest first
        best = self._cheapest_mortgage(game, seat, owned, game._streets[seat])
        if best >= 0:
            return self._mortgages[best]
        # 2. sell buildings, evenly, from the cheapest group: the highest level, then the
        # cheapest house
        top = self._top_sale(game, seat, owned, False)
        if top >= 0:
            sale = self._sale(game, top)
            # the best of all is the best the permissions allow, if they allow it (a sale of
            # one building whose permissions' mask nothing breaks: allowed, as
            # actions.refusing would find, without asking)
            if not (permits["sell"] or permits["sell_group"]):
                return sale
            if type(sale) is Sell:
                mask = rb.permit_masks["sell"]
                if mask and not act._breaks(game, mask, seat, top):
                    return sale
            if _may(game, seat, sale):
                return sale
            top = self._top_sale(game, seat, owned, True)
            if top >= 0:
                return self._sale(game, top)
        # 3. mortgage what is left, where no one's buildings stand in the group (a group
        # held in parts, where no permission asks for the whole group to build)
        best = self._cheapest_mortgage(game, seat, owned, ())
        return self._mortgages[best] if best >= 0 else None

    def _top_sale(self, game: Game, seat: int, owned: list[int], asking: bool) -> int:
        """The lot to sell a building of: the highest level, then the cheapest house, the
        first of equals; with `asking`, among those the permissions allow. -1 if none."""
        st, spaces = game.state, game.rulebook.spaces
        houses, hotels = st.houses, st.hotels
        hotel_level = game.settings.max_houses + 1
        top, top_level, top_cost = -1, 0, 0
        for q in owned:
            level = hotel_level if hotels[q] else houses[q]
            if level:
                cost = spaces[q].house_cost
                if level > top_level or (level == top_level and cost < top_cost):
                    if asking and not _may(game, seat, self._sale(game, q)):
                        continue
                    top, top_level, top_cost = q, level, cost
        return top

    def _cheapest_mortgage(self, game: Game, seat: int, owned: list[int],
                           full: tuple[int, ...]) -> int:
        """The unmortgaged lot of the cheapest mortgage outside the groups `full` and the groups
        with buildings, that the permissions allow (asked only of one that would do better);
        -1 if none."""
        st, rb = game.state, game.rulebook
        mortgaged, spaces, group_of, is_street = st.mortgaged, rb.spaces, rb.group_of, rb.is_street
        houses, hotels, groups = st.houses, st.hotels, rb.groups
        refused = self._asks_mortgage  # mortgages where no building stands
        best, least = -1, 0
        for q in owned:
            if mortgaged[q]:
                continue
            g = group_of[q]
            if g in full:
                continue
            value = spaces[q].mortgage
            if best < 0 or value < least:
                if is_street[q]:  # not in a group with buildings (act.group_has_buildings)
                    built = False
                    for r in groups[g]:
                        if houses[r] or hotels[r]:
                            built = True
                            break
                    if built:
                        continue
                if refused and not _may(game, seat, self._mortgages[q]):
                    continue
                best, least = q, value
        return best

    def _sale(self, game: Game, q: int):
        """The sale of one building of the lot: the group's hotels whole when the bank lacks
        the houses to break one down."""
        if game.state.hotels[q] and game.state.bank_houses < game.settings.houses_per_hotel:
            return SellAll(q)
        return self._sells[q]

    def manage(self, game: Game, seat: int):
        st = game.state
        cash = st.cash[seat]
        if cash < self.reserve:
            return None
        version = game.version
        if version != self._traded_at:
            self._traded_at = version
            shared = game._shared  # the game's view, read in line (None: to rebuild)
            if shared is None:
                shared = game.shared_streets()
            if shared[seat]:  # a group shared whole with one other player
                trade = self._trade(game, seat, shared[seat])
                if trade is not None:
                    return trade
        # the improvement `_improve` finds, unless nothing of the player's changed since it
        # last passed, nor whether the bank has buildings, and it still lacks the cash the
        # cheapest improvement it saw needs: then None at once (in line here and in
        # `between`, the hot paths of a turn)
        version = game.seat_version[seat]
        if cash < self._idle_need and version == self._idle_version \
                and (st.bank_houses > 0) + 2 * (st.bank_hotels > 0) == self._idle_supply:
            return None
        action, need = self._improve(game, seat, cash)
        if action is None:
            self._idle_need, self._idle_version = need, version
            self._idle_supply = (st.bank_houses > 0) + 2 * (st.bank_hotels > 0)
        return action

    def between(self, game: Game, seat: int):
        """Between turns it builds or lifts with the cash it received since it last passed
        (rent, a salary); it trades on its own turn only. A prisoner about to play that wants
        out and holds no card first offers to buy another player's "Get Out of Jail Free"
        card for less than the fine (004 LA PRISON)."""
        st = game.state
        cash = st.cash[seat]
        if st.in_jail[seat]:
            if seat == st.current and not st.jail_cards[seat] \
                    and self._card_asked != st.turn:
                self._card_asked = st.turn
                trade = self._buy_jail_card(game, seat)
                if trade is not None:
                    return trade
        elif cash <= self._between_cash:
            return None  # no richer than when it last passed: nothing new it can afford
        version = game.seat_version[seat]
        if cash < self._idle_need and version == self._idle_version or cash < self.reserve:
            # still short of the cheapest improvement it saw, nothing of its own changed
            action = None
        else:  # as in `manage` (whatever the bank's supply: the test above is wider)
            action, need = self._improve(game, seat, cash)
            if action is None:
                self._idle_need, self._idle_version = need, version
                self._idle_supply = (st.bank_houses > 0) + 2 * (st.bank_hotels > 0)
        # until the player is richer than now (or in jail), it passes: the game need not ask
        # (Game.pass_between, its promise written in line: `between` is asked on most turns),
        # unless a subclass answers `between` its own way
        self._between_cash = passing = -1 if action is not None else cash
        if self._promises:
            game._quiet[seat] = passing
        return action

    def _buy_jail_card(self, game: Game, seat: int):
        st = game.state
        if not any(st.jail_cards):  # no card to buy (the commonest case, the cheapest test)
            return None
        price = game.settings.jail_fine * 4 // 5
        unowned = len(game.rulebook.properties) - sum(map(len, game.holdings()))
        if unowned <= 6 or price <= 0 or st.cash[seat] < price + self.reserve:
            return None  # it stays in jail as long as it may (jail), or cannot spare it
        for other in game.bidders():
            if other != seat and st.jail_cards[other]:
                trade = Trade(other, cash=price, take_cards=1)
                if _may(game, seat, trade):  # a permission on trading jail cards, say
                    return trade
        return None

    def _improve(self, game: Game, seat: int, cash: int):
        """(action, 0): lift a mortgage or build, the best use of spare cash; or (None, need):
        nothing to do now, and no improvement until the player holds `need` in cash."""
        st, rb = game.state, game.rulebook
        reserve = self.reserve
        need = _NEVER
        if game._holdings is None:  # the game's views of the holdings, read in line
            game.holdings()
        full = game._streets[seat]
        # lift mortgages on whole groups first, elsewhere only when rich
        mortgaged = st.mortgaged
        # a permission may refuse now what it allows later (after a lap, out of jail...): an
        # improvement refused leaves no idle need, so that the next call looks again
        permits = rb.permits
        skipped = False
        if cash < reserve * 2:
            need = reserve * 2
        else:
            for q in game._mortgaged[seat]:
                least = act.lift_cost(game, q) + reserve * (1 if game._group_of[q] in full else 3)
                if cash >= least:
                    if permits["lift"] and not _may(game, seat, Lift(q)):
                        skipped = True
                        continue
                    return Lift(q), 0
                if least < need:
                    need = least
        if not full:
            return None, 0 if skipped else need
        least = reserve + self._cheapest
        if cash < least:
            return None, 0 if skipped else need if need < least else least
        steps, hotel_level = self._steps, self._hotel_level
        houses, hotels = st.houses, st.hotels
        refused = self._asks_build  # on whole groups, evenly: what else may refuse
        best, best_gain = None, 0
        for g in full:
            members = game._groups[g]
            # evenly: only the lots with the fewest buildings may take the next one (the
            # first of them; none is below an empty lot)
            low, lot = hotel_level, -1
            for q in members:
                here = hotel_level if hotels[q] else houses[q]
                if here < low:
                    low, lot = here, q
                    if not here:
                        break
            if lot < 0:
                continue
            cost, gain, hotel = steps[lot][low]
            if not (st.bank_hotels if hotel else st.bank_houses):
                continue
            if mortgaged[lot]:
                cost += act.lift_cost(game, lot)
            score = gain * 100 // (cost if cost > 1 else 1)  # rent gained per 100 of cost
            if score <= 0:
                continue
            if cash - cost < reserve:
                if cost + reserve < need:
                    need = cost + reserve
                continue
            if score > best_gain:
                # asked only of a build it would choose: one refused leaves no idle need, and
                # one it cannot afford waits for `need` whether refused or not
                if refused and not _may(game, seat, self._builds[lot]):
                    skipped = True  # a permission forbids building here now
                    continue
                best, best_gain = lot, score
        if best is None:
            return None, 0 if skipped else need
        return self._builds[best], 0

    # -------------------------------------------------------------- trading

    def _trade(self, game: Game, seat: int, pairs: tuple[tuple[int, int], ...]):
        """Offer to complete a group: a swap that completes one for each, else cash. `pairs`:
        the street groups the player shares whole with one other player, and that player."""
        st, rb = game.state, game.rulebook
        owner = st.owner
        # the street groups shared whole with one other player, free of buildings (loops, not
        # generators: asked whenever a deed changed hands)
        houses, hotels, groups, spaces = st.houses, st.hotels, rb.groups, rb.spaces
        shared = []
        for g, other in pairs:
            for q in groups[g]:
                if houses[q] or hotels[q]:
                    break
            else:
                shared.append((g, other))
        for g, other in shared:
            lots = []  # the other player's lots of the group, and their printed price
            price = 0
            for q in groups[g]:
                if owner[q] == other:
                    lots.append(q)
                    price += spaces[q].price
            theirs = tuple(lots)
            # lots of mine that complete one of the other player's groups, for theirs
            for h, partner in shared:
                if h != g and partner == other:
                    lacking = tuple(q for q in rb.groups[h] if owner[q] == seat)
                    diff = sum(rb.spaces[q].price for q in theirs) - sum(
                        rb.spaces[q].price for q in lacking
                    )
                    cash = max(0, min(diff, st.cash[seat] - self.reserve))
                    trade = Trade(other, give=lacking, take=theirs, cash=cash)
                    if not self._asks_trade or _may(game, seat, trade):
                        return trade
            offer = 2 * price
            if st.cash[seat] - offer >= self.reserve + 100:
                trade = Trade(other, take=theirs, cash=offer)
                if not self._asks_trade or _may(game, seat, trade):
                    return trade
        return None

    def accept_trade(self, game: Game, seat: int, proposer: int, trade):
        st, rb = game.state, game.rulebook
        gets = trade.give if trade.partner == seat else trade.take
        gives = trade.take if trade.partner == seat else trade.give
        cash_in = trade.cash if trade.partner == seat else -trade.cash
        if not gets and not gives:
            # jail cards for cash: a card is worth three quarters of the fine it saves
            cards_in = trade.give_cards if trade.partner == seat else trade.take_cards
            cards_out = trade.take_cards if trade.partner == seat else trade.give_cards
            card = game.settings.jail_fine * 3 // 4
            return cash_in + (cards_in - cards_out) * card > 0
        completes_mine = any(
            all(st.owner[q] == seat or q in gets for q in rb.groups[rb.spaces[p].group])
            for p in gets if rb.spaces[p].kind == "street"
        )
        value_out = sum(rb.spaces[q].price for q in gives)
        value_in = sum(rb.spaces[q].price for q in gets) + cash_in
        if completes_mine:
            return value_in * 10 >= value_out * 7
        return value_in >= 2 * value_out and value_in > 0

    def lift_on_transfer(self, game: Game, seat: int, pos: int):
        return game.state.cash[seat] - act.lift_cost(game, pos) >= self.reserve * 2

    def wants_building(self, game: Game, seat: int, kind):
        return bool(game.whole_streets()[seat]) and game.state.cash[seat] > self.reserve * 2

    def claim(self, game: Game, seat: int, pos: int):
        return True

    def choose(self, game: Game, seat: int, choice):
        if not choice.spaces:
            # the best cash at once by the options' declared money; ties: the first
            gains = choice.gains
            return max(range(len(gains)), key=lambda i: (gains[i], -i)) if gains else 0
        # a space: the most wanted unowned property it can buy keeping its reserve, else
        # the first where no rent is owed, else the first
        st, rb = game.state, game.rulebook
        best, best_want = -1, 0.0
        for i, q in enumerate(choice.spaces):
            sp = rb.spaces[q]
            if sp.is_property and st.owner[q] < 0 \
                    and st.cash[seat] - sp.price >= self.reserve:
                want = _wants(game, seat, q)
                if want > best_want:
                    best, best_want = i, want
        if best >= 0:
            return best
        for i, q in enumerate(choice.spaces):
            if st.owner[q] < 0 or st.owner[q] == seat or st.mortgaged[q]:
                return i
        return 0

    def place_token(self, game: Game, seat: int, token, spaces):
        # as far behind the player as it can be: the longest way round before meeting it
        here, size = game.state.position[seat], game.rulebook.size
        return max(spaces, key=lambda q: ((q - here) % size, -q))

    def choose_character(self, game: Game, seat: int, free):
        # sides in turn round the table, so that both are played
        rb = game.rulebook
        wanted = seat % len(rb.sides)
        for c in free:
            if rb.characters[c][1] == wanted:
                return c
        return free[0]


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomAgent(Agent):
    """The `random` agent: `about` says how it plays."""

    name: ClassVar[str] = "random"
    about: ClassVar[str] = (
        "A random legal answer to every question, from a generator seeded by the game seed "
        "and the seat; it acts between turns now and then.")

    def __init__(self):
        self.rng = random.Random(0)

    def seat_at(self, game: Game, seat: int):
        self.rng = random.Random(seed_key(game.seed) * 1_000_003 + seat)

    def buy(self, game: Game, seat: int, pos: int):
        return self.rng.random() < 0.5

    def bid(self, game: Game, seat: int, lot, high: int):
        cash = game.state.cash[seat]
        if lot.kind != "deed":
            cash = act.building_bid_limit(game, seat, lot.kind)
        if self.rng.random() < 0.5 or high + 1 > cash:
            return None
        bid = self.rng.randint(high + 1, min(cash, high + 100))
        if game.rulebook.permits["bid"] and not _may(game, seat, Bid(lot, bid)):
            return None
        return bid

    def jail(self, game: Game, seat: int):
        st, s = game.state, game.settings
        choices = ["roll"]
        if st.jail_cards[seat] and _may(game, seat, USE_CARD):
            choices.append("card")
        if st.cash[seat] >= s.jail_fine and _may(game, seat, PAY_FINE):
            choices.append("pay")
        return self.rng.choice(choices)

    def tax(self, game: Game, seat: int, options):
        return self.rng.randrange(len(options))

    def choose(self, game: Game, seat: int, choice):
        return int(self.rng.random() * len(choice.options))

    def raise_funds(self, game: Game, seat: int, owed: int):
        choices = [a for a in act.legal_actions(game, seat) if isinstance(a, (Sell, Mortgage))]
        if not choices:
            built = [q for q in game.rulebook.properties
                     if game.state.owner[q] == seat and game.state.hotels[q]
                     and _may(game, seat, SellAll(q))]
            return SellAll(built[0]) if built else None
        return self.rng.choice(choices)

    def between(self, game: Game, seat: int):
        """Mostly passes; else one action as on its turn, or, in jail, an offer for another
        player's jail card."""
        r = self.rng.random()
        if r < 0.85:
            return None
        st = game.state
        if st.in_jail[seat] and r < 0.9:
            holders = [p for p in game.bidders() if p != seat and st.jail_cards[p]]
            if holders and st.cash[seat] > 0:
                trade = Trade(self.rng.choice(holders), take_cards=1,
                              cash=self.rng.randint(0, min(st.cash[seat],
                                                           2 * game.settings.jail_fine)))
                try:  # the engine says whether the rulebook allows it
                    act.check_trade(game, seat, trade)
                except act.IllegalAction:
                    return None
                return trade
        return self.manage(game, seat)

    def manage(self, game: Game, seat: int):
        r = self.rng.random()
        if r < 0.5:
            return None
        if r < 0.55:
            return self._random_trade(game, seat)
        legal = act.legal_actions(game, seat)
        return self.rng.choice(legal) if legal else None

    def _random_trade(self, game: Game, seat: int):
        st, rb = game.state, game.rulebook
        others = [p for p in game.bidders() if p != seat]
        if not others:
            return None
        other = self.rng.choice(others)

        def tradable(who):
            return [q for q in rb.properties if st.owner[q] == who and (
                rb.spaces[q].group < 0 or not act.group_has_buildings(game, rb.spaces[q].group))]

        give = [q for q in tradable(seat) if self.rng.random() < 0.3]
        take = [q for q in tradable(other) if self.rng.random() < 0.3]
        cash = self.rng.randint(-st.cash[other], st.cash[seat]) // 2 if self.rng.random() < 0.5 else 0
        if not (give or take or cash):
            return None
        trade = Trade(other, give=tuple(give), take=tuple(take), cash=cash)
        try:  # the engine says whether the rulebook allows it (a permission to trade, say)
            act.check_trade(game, seat, trade)
        except act.IllegalAction:
            return None
        return trade

    def accept_trade(self, game: Game, seat: int, proposer: int, trade):
        return self.rng.random() < 0.5

    def lift_on_transfer(self, game: Game, seat: int, pos: int):
        return self.rng.random() < 0.5

    def wants_building(self, game: Game, seat: int, kind):
        return self.rng.random() < 0.5

    def place_building(self, game: Game, seat: int, kind, lots):
        return self.rng.choice(lots)

    def claim(self, game: Game, seat: int, pos: int):
        return self.rng.random() < 0.5

    def place_token(self, game: Game, seat: int, token, spaces):
        return self.rng.choice(spaces)

    def choose_character(self, game: Game, seat: int, free):
        return self.rng.choice(free)


@mypyc_attr(allow_interpreted_subclasses=True)
class OwnTurnAgent(DefaultAgent):
    """The `own-turn` agent: `about` says how it plays."""

    name: ClassVar[str] = "own-turn"
    about: ClassVar[str] = (
        "The default agent that acts on its own turn only, as many families play: it never "
        "builds, sells, mortgages, lifts or trades between other players' turns, nor buys a "
        "\"Get Out of Jail Free\" card before its own. Beside `default`, what acting out of "
        "turn changes; it still answers what the game asks of it at any time (bids, trades "
        "offered, a debt).")

    def between(self, game: Game, seat: int):
        # it passes, and promises to pass whatever it holds: the game asks it again only in
        # jail (Game.pass_between)
        game.pass_between(seat, QUIET_ACCOUNT)
        return None


AGENTS = {"default": DefaultAgent, "own-turn": OwnTurnAgent, "random": RandomAgent}
