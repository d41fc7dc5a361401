"""What a player may do between rolls — build, sell, mortgage, lift, trade — validated.

Each action is a frozen value an agent returns; `apply` checks it against the model (the
player's lot, a street, supply, one hotel per lot, cash in hand ...) and then against the
rulebook's permissions (`a player may not build unless ...`), and raises `IllegalAction`,
naming the rule that forbids it, before changing anything. A model's refusal and a log line
name the rule whose `set` line decides the matter (the provenance of a setting,
Rulebook.origin: the rule's name, "set NAME", or "default NAME"); a permission's refusal, its
rule. Auctions (of deeds and of scarce buildings) live here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from attrs import frozen

from . import course
from .firing import HOTEL, HOUSE, NO_BUILDING, Firing
from .tables import (BUILD_EVENLY, BUILD_UNMORTGAGED, GROUP_UNBUILT, SELL_EVENLY,
                     WHOLE_GROUP)

if TYPE_CHECKING:
    from .game import Game


class IllegalAction(Exception):
    """An agent's answer that the rules forbid; the state is left unchanged."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"refused by rule '{rule}': {message}")
        self.rule = rule
        self.message = message


@frozen
class Lot:
    """What is auctioned: a deed (`pos`) or one house or hotel of the bank's supply."""

    kind: str  # "deed" | "house" | "hotel"
    pos: int = -1


@frozen
class Build:
    """Buy one building for a lot: a house, or a hotel once the group has enough houses."""

    pos: int


@frozen
class Sell:
    """Sell one building of a lot back to the bank (a hotel is broken down into houses)."""

    pos: int


@frozen
class SellAll:
    """Sell every building of the lot's group back to the bank (hotels whole)."""

    pos: int


@frozen
class Mortgage:
    pos: int


@frozen
class Lift:
    pos: int


@frozen
class Trade:
    """An offer to another player: deeds and jail cards each way, and cash.

    cash > 0 is paid by the proposer to the partner; cash < 0 the other way.
    """

    partner: int
    give: tuple[int, ...] = ()
    take: tuple[int, ...] = ()
    cash: int = 0
    give_cards: int = 0
    take_cards: int = 0


Action = Build | Sell | SellAll | Mortgage | Lift | Trade


# The engine's questions that a permission may refuse too (agents ask `why_refused` about them).
@frozen
class Buy:
    """Buying the unowned lot at its price when offered it."""

    pos: int


@frozen
class Bid:
    """A bid of `amount` for the lot auctioned."""

    lot: Lot
    amount: int


@frozen
class JailWay:
    """A way out of jail before rolling: "pay" the fine, or use a "card"."""

    way: str


PAY_FINE: Final = JailWay("pay")
USE_CARD: Final = JailWay("card")

# ------------------------------------------------------------------ permissions

# A permission's test reads a Firing of the action asked (Firing.for_action): who acts, the
# lot (-1: none) and its owner (for a trade, the deed's owner before it), the partner of a
# trade (`other`), the bid (`amount`), the building built or sold (firing.HOUSE, HOTEL).


def _refusing(game: Game, permits, asked: Firing):
    """The first permission, in rule order, that refuses the action asked, or None."""
    for permit in permits:
        if permit.test(game, asked):
            return permit
    return None


def _breaks(game: Game, mask: int, seat: int, pos: int) -> bool:
    """Whether the player's action on the lot breaks one of the guarantees of `mask`
    (tables.GUARANTEE_BITS), read on the state: what a permission that says exactly them
    answers (the whole group, evenly, no mortgaged lot, no building in the group)."""
    lots = game._group_lots[pos]
    if not lots:  # no group: not held whole, nor the fewest or the most
        return bool(mask & (WHOLE_GROUP | BUILD_EVENLY | SELL_EVENLY))
    st = game.state
    if mask & WHOLE_GROUP:
        owner = st.owner
        for q in lots:
            if owner[q] != seat:
                return True
        mask ^= WHOLE_GROUP
        if not mask:
            return False
    houses, hotels = st.houses, st.hotels
    if mask & GROUP_UNBUILT:
        for q in lots:
            if houses[q] or hotels[q]:
                return True
    if mask & BUILD_UNMORTGAGED:
        mortgaged = st.mortgaged
        for q in lots:
            if mortgaged[q]:
                return True
    if mask & BUILD_EVENLY:
        # a lot with fewer buildings than this one: never a hotel (a hotel's level is above
        # any count of houses, and a lot with a hotel holds no house)
        if hotels[pos]:
            for q in lots:
                if not hotels[q]:
                    return True
        else:
            here = houses[pos]
            if here:
                for q in lots:
                    if houses[q] < here and not hotels[q]:
                        return True
    if mask & SELL_EVENLY:
        # a lot with more buildings than this one: a hotel beside a lot without, or more
        # houses beside a lot without a hotel
        if not hotels[pos]:
            here = houses[pos]
            for q in lots:
                if hotels[q] or houses[q] > here:
                    return True
    return False


def _refusing_lot(game: Game, action: str, seat: int, pos: int, owner: int, other: int = -1,
                  building: int = NO_BUILDING):
    """The first permission on `action`, in rule order, that refuses the player's action on
    the lot `pos` (of `owner`; with `other`, for `building`), or None. A permission that says
    exactly some guarantees is read on the state (`_breaks`), any other on the action's
    firing; when all say so, one reading of them all tells that none refuses."""
    rb = game.rulebook
    mask = rb.permit_masks[action]
    if mask and not _breaks(game, mask, seat, pos):
        return None
    asked = None
    for permit in rb.permits[action]:
        if permit.mask:
            if _breaks(game, permit.mask, seat, pos):
                return permit
            continue
        if asked is None:
            asked = Firing.for_action(seat, pos, owner, other=other, building=building)
        if permit.test(game, asked):
            return permit
    return None


def _permit_lot(game: Game, action: str, seat: int, pos: int,
                building: int = NO_BUILDING) -> None:
    """Refuse the player's action on its own lot if a permission says so (`_refusing_lot`).
    The checks of a building, a sale and a mortgage test its first line in line: a mask
    that nothing breaks allows the action."""
    mask = game.rulebook.permit_masks[action]
    if mask and not _breaks(game, mask, seat, pos):
        return
    _refuse_lot(game, action, seat, pos, building)


def _refuse_lot(game: Game, action: str, seat: int, pos: int, building: int) -> None:
    """Raise the refusal of the first permission that refuses the player's action on its own
    lot, if any (`_refusing_lot`)."""
    found = _refusing_lot(game, action, seat, pos, seat, -1, building)
    if found is not None:
        raise IllegalAction(found.rule, found.text)


def _building(game: Game, pos: int) -> int:
    """What a Build on the lot would add: a hotel once it holds houses_per_hotel houses."""
    return HOTEL if game.state.houses[pos] >= game.settings.houses_per_hotel else HOUSE


def _refusing_trade(game: Game, seat: int, t: Trade):
    st, permits = game.state, game.rulebook.permits
    deeds = permits["trade"]
    if deeds:
        p = t.partner
        for q in t.give:
            found = _refusing_lot(game, "trade", seat, q, st.owner[q], p)
            if found is not None:
                return found
        for q in t.take:
            found = _refusing_lot(game, "trade", seat, q, st.owner[q], p)
            if found is not None:
                return found
    cards = permits["trade_card"]
    if cards and (t.give_cards or t.take_cards):
        return _refusing(game, cards, Firing.for_action(seat, other=t.partner))
    return None


def _permit_trade(game: Game, seat: int, t: Trade) -> None:
    found = _refusing_trade(game, seat, t)
    if found is not None:
        raise IllegalAction(found.rule, found.text)


def refusing(game: Game, seat: int, action):
    """The first permission of the rulebook (tables.Permit) that refuses the action, or None;
    its validity is not checked (see `apply` and the engine's questions). Raises nothing. A
    refusal is a firing of the permission's rule (for the game's tally)."""
    permits = game.rulebook.permits
    kind = type(action)
    if kind is Trade:
        found = _refusing_trade(game, seat, action)
    elif kind is JailWay:
        way = permits["pay_fine" if action.way == "pay" else "use_card"]
        found = _refusing(game, way, Firing.for_action(seat)) if way else None
    else:
        name = _ACTION_NAMES[kind]
        rules = permits[name]
        if not rules:
            return None
        if kind is Bid:
            found = _refusing(game, rules,
                              Firing.for_action(seat, action.lot.pos, amount=action.amount))
        else:
            st = game.state
            pos = action.pos
            if kind is Build:
                building = _building(game, pos)
            elif kind is Sell:
                building = HOTEL if st.hotels[pos] else HOUSE
            else:  # SellAll, Mortgage, Lift, Buy
                building = NO_BUILDING
            found = _refusing_lot(game, name, seat, pos, st.owner[pos], -1, building)
    if found is not None and game.tally is not None:
        game.tally.fire(found.rule)
    return found


def permitted(game: Game, seat: int, action) -> None:
    """Raise IllegalAction if a permission of the rulebook refuses the action (its validity
    is not checked: see `apply` and the engine's questions)."""
    found = refusing(game, seat, action)
    if found is not None:
        raise IllegalAction(found.rule, found.text)


_ACTION_NAMES: Final = {Build: "build", Sell: "sell", SellAll: "sell_group", Mortgage: "mortgage",
                 Lift: "lift", Buy: "buy", Bid: "bid"}


def refused_by(game: Game, seat: int, action) -> IllegalAction | None:
    """The refusal of the first permission of the rulebook that refuses the action, or None.
    Only permissions: the engine's validity checks are not made."""
    found = refusing(game, seat, action)
    return None if found is None else IllegalAction(found.rule, found.text)


def why_refused(game: Game, seat: int, action) -> str | None:
    """Why a permission of the rulebook refuses the action (`refused by rule 'R': TEXT`), or
    None if none does. Only permissions: the engine's validity checks are not made. Agents
    ask it before answering, so that they never submit a refused action."""
    found = refusing(game, seat, action)
    return None if found is None else f"refused by rule '{found.rule}': {found.text}"

# ------------------------------------------------------------------ helpers


def refusal(game: Game, setting: str, message: str) -> IllegalAction:
    """The refusal by the rule whose `set` line of `setting` is in force, or by the engine's
    own checks when no rule sets it."""
    return IllegalAction(_origin(game, setting), message)


def _origin(game: Game, setting: str) -> str:
    """The rule whose `set` line of `setting` is in force; "engine" when none sets it."""
    rule = game.rulebook.origins[setting]
    return "engine" if rule.startswith("default ") else rule


def _supply_rule(game: Game, setting: str) -> str:
    """Who refuses a building the bank has none of: the rulebook's rule for buildings running
    short, else the rule that sets the supply."""
    shortage = game._course.shortage
    return shortage[0].rule if shortage else _origin(game, setting)


def _owned(game: Game, seat: int, pos: int, setting: str, rule: str = ""):
    """The lot, if it is a property of the player's; else the refusal by the rule whose `set`
    line of `setting` is in force (or by `rule`)."""
    spaces = game._spaces
    if not 0 <= pos < game._size or not spaces[pos].is_property:
        raise IllegalAction(rule or _origin(game, setting), f"space {pos} is not a property")
    if game.state.owner[pos] != seat:
        raise IllegalAction(rule or _origin(game, setting),
                            f"{spaces[pos].name!r} is not the player's")
    return spaces[pos]


def level(game: Game, pos: int) -> int:
    """Buildings on a lot as one number: houses, or houses_per_hotel + 1 for a hotel."""
    st = game.state
    return game.settings.houses_per_hotel + 1 if st.hotels[pos] else st.houses[pos]


def group_has_buildings(game: Game, group: int) -> bool:
    houses, hotels = game.state.houses, game.state.hotels
    for q in game.rulebook.groups[group]:
        if houses[q] or hotels[q]:
            return True
    return False


def lift_cost(game: Game, pos: int) -> int:
    m = game._spaces[pos].mortgage
    return m + -(-m * game.settings.mortgage_interest // 100)


def interest(game: Game, pos: int) -> int:
    m = game._spaces[pos].mortgage
    return -(-m * game.settings.mortgage_interest // 100)


def sale_value(game: Game, cost) -> int:
    return cost * game.settings.building_sale // 100


# ------------------------------------------------------------------ validation


def check_build(game: Game, seat: int, pos: int) -> tuple[str, int]:
    """('house'|'hotel', cash needed) if the player may build on the lot now: the model's
    checks, then the permissions (whole group, evenly ... are the rulebook's). Building on a
    mortgaged lot lifts it first: its lifting price is part of the cash needed."""
    st, s, rb = game.state, game.settings, game.rulebook
    # the player's own property (_owned, which refuses any other, in line)
    spaces = game._spaces
    if 0 <= pos < game._size and st.owner[pos] == seat and spaces[pos].is_property:
        sp = spaces[pos]
    else:
        sp = _owned(game, seat, pos, "max_houses")
    if sp.kind != "street":
        raise refusal(game, "max_houses", f"{sp.name!r} takes no buildings")
    houses, hotels = st.houses, st.hotels
    per_hotel = s.houses_per_hotel
    extra = lift_cost(game, pos) if st.mortgaged[pos] else 0
    if hotels[pos]:
        raise refusal(game, "houses_per_hotel", f"{sp.name!r} already has a hotel")
    here = houses[pos]
    if here >= per_hotel:
        ready = True
        for q in game._groups[sp.group]:
            if not hotels[q] and houses[q] < per_hotel:
                ready = False
                break
        if not ready:
            raise refusal(game, "houses_per_hotel",
                          f"a hotel needs {per_hotel} houses on every lot of the group")
        if st.bank_hotels <= 0:
            raise IllegalAction(_supply_rule(game, "hotels"), "the bank has no hotel left")
        if rb.permits["build"]:
            mask = rb.permit_masks["build"]
            if not mask or _breaks(game, mask, seat, pos):
                _refuse_lot(game, "build", seat, pos, HOTEL)
        return "hotel", sp.hotel_cost + extra
    if st.bank_houses <= 0:
        raise IllegalAction(_supply_rule(game, "houses"), "the bank has no house left")
    if rb.permits["build"]:
        mask = rb.permit_masks["build"]
        if not mask or _breaks(game, mask, seat, pos):
            _refuse_lot(game, "build", seat, pos, HOUSE)
    return "house", sp.house_cost + extra


def check_sell(game: Game, seat: int, pos: int) -> int:
    """What selling one building of the lot brings, if the player may sell it now."""
    st, s, rb = game.state, game.settings, game.rulebook
    rule = "building_sale"
    spaces = game._spaces
    if 0 <= pos < game._size and st.owner[pos] == seat and spaces[pos].is_property:
        sp = spaces[pos]  # the player's own property (_owned, in line)
    else:
        sp = _owned(game, seat, pos, rule)
    if not (st.houses[pos] or st.hotels[pos]):
        raise refusal(game, rule, f"{sp.name!r} has no building")
    if st.hotels[pos] and st.bank_houses < s.houses_per_hotel:
        raise refusal(game, rule, "the bank lacks the houses to break the hotel down; "
                      "sell the group's hotels whole")
    if rb.permits["sell"]:
        mask = rb.permit_masks["sell"]
        if not mask or _breaks(game, mask, seat, pos):
            _refuse_lot(game, "sell", seat, pos, HOTEL if st.hotels[pos] else HOUSE)
    return sale_value(game, sp.hotel_cost if st.hotels[pos] else sp.house_cost)


def check_mortgage(game: Game, seat: int, pos: int) -> int:
    rule = "mortgage_interest"
    st, rb = game.state, game.rulebook
    spaces = game._spaces
    if 0 <= pos < game._size and st.owner[pos] == seat and spaces[pos].is_property:
        sp = spaces[pos]  # the player's own property (_owned, in line)
    else:
        sp = _owned(game, seat, pos, rule)
    if st.mortgaged[pos]:
        raise refusal(game, rule, f"{sp.name!r} is already mortgaged")
    if st.houses[pos] or st.hotels[pos]:
        # a mortgaged lot holds no building (building on one lifts it first); the other lots
        # of the group are the rulebook's matter (a permission)
        raise refusal(game, rule, f"{sp.name!r} has buildings: sell them before mortgaging")
    if rb.permits["mortgage"]:
        mask = rb.permit_masks["mortgage"]
        if not mask or _breaks(game, mask, seat, pos):
            _refuse_lot(game, "mortgage", seat, pos, NO_BUILDING)
    return sp.mortgage


def check_lift(game: Game, seat: int, pos: int) -> int:
    rule = "mortgage_interest"
    sp = _owned(game, seat, pos, rule)
    if not game.state.mortgaged[pos]:
        raise refusal(game, rule, f"{sp.name!r} is not mortgaged")
    cost = lift_cost(game, pos)
    if game.state.cash[seat] < cost:
        raise refusal(game, rule, "not enough cash to lift the mortgage")
    if game.rulebook.permits["lift"]:
        _permit_lot(game, "lift", seat, pos)
    return cost


def check_trade(game: Game, seat: int, t: Trade) -> None:
    """Refuse a trade that is not well formed (the partner, deeds and cards each side holds,
    cash in hand) or that a permission forbids."""
    st = game.state
    rule = game.rulebook.trade_rule

    def refused(message: str) -> IllegalAction:
        return IllegalAction(rule, message)
    p = t.partner
    if not (0 <= p < st.players) or p == seat or st.bankrupt[p]:
        raise refused("the partner must be another player in the game")
    if len(set(t.give)) != len(t.give) or len(set(t.take)) != len(t.take):
        raise refused("a deed is listed twice")
    for pos, who in [(q, seat) for q in t.give] + [(q, p) for q in t.take]:
        _owned(game, who, pos, "", rule)
    if t.give_cards < 0 or t.take_cards < 0:
        raise refused("a card count cannot be negative")
    if t.give_cards > len(st.jail_cards[seat]) or t.take_cards > len(st.jail_cards[p]):
        raise refused("the player does not hold that many jail cards")
    if t.cash > st.cash[seat] or -t.cash > st.cash[p]:
        raise IllegalAction("engine", "cash must be in hand: players never lend")
    if not (t.give or t.take or t.cash or t.give_cards or t.take_cards):
        raise refused("an empty trade")
    _permit_trade(game, seat, t)


# ------------------------------------------------------------------ applying


def apply(game: Game, seat: int, action) -> None:
    """Validate the action, then carry it out; IllegalAction leaves the state unchanged."""
    if game.state.bankrupt[seat]:
        rules = game._course.bankrupt  # the rulebook's bankruptcy rules, as endings
        raise IllegalAction(rules[0].rule if rules else "engine",
                            "a bankrupt player cannot act")
    run = APPLY.get(type(action))
    if run is None:
        raise IllegalAction("agent", f"not an action: {action!r}")
    run(game, seat, action)


# What a player may do between turns (Game._between_turns): the actions of its own turn.
BETWEEN_TURNS: Final = (Build, Sell, SellAll, Mortgage, Lift, Trade)


def apply_between(game: Game, seat: int, action) -> None:
    """An action between turns: one of BETWEEN_TURNS, validated as on the player's turn."""
    if type(action) not in BETWEEN_TURNS:
        raise IllegalAction("agent", f"not an action between turns: {action!r} (build, "
                            "sell, mortgage, lift or trade)")
    apply(game, seat, action)


def _apply_build(game: Game, seat: int, action) -> None:
    pos, st = action.pos, game.state
    kind, cost = check_build(game, seat, pos)
    if st.cash[seat] < cost:
        raise refusal(game, "max_houses", "not enough cash to build")
    # fewer players than buildings left: no shortage, whoever wants them
    if (st.bank_houses if kind == "house" else st.bank_hotels) < st.players:
        for ins in game._course.shortage:  # `when buildings run short` rules
            if ins.auction and ins.holds(game, seat):
                if _shortage(game, seat, kind, ins.from_cost, ins.rule):
                    return
                break
    _build(game, seat, pos, kind)


def _apply_sell(game: Game, seat: int, action) -> None:
    pos = action.pos
    value = check_sell(game, seat, pos)
    st = game.state
    rule = game.rulebook.origins["building_sale"]
    game.seat_version[seat] += 1
    hotel = st.hotels[pos] > 0
    building = "hotel" if hotel else "house"
    if hotel:
        st.hotels[pos] = 0
        st.bank_hotels += 1
        st.houses[pos] = game.settings.houses_per_hotel
        st.bank_houses -= game.settings.houses_per_hotel
    else:
        st.houses[pos] -= 1
        st.bank_houses += 1
    game.transfer(st.bank, seat, value, "building sale", rule)
    if game._log:
        game.emit("sell", rule, player=seat, space=game.rulebook.spaces[pos].name,
                  building=building)
    sold = game._course.sold
    if sold[0] or sold[1]:
        course.fire(game, sold[hotel], seat, pos, building=HOTEL if hotel else HOUSE)


def _apply_sell_all(game: Game, seat: int, action) -> None:
    rule = "building_sale"
    sp = _owned(game, seat, action.pos, rule)
    if sp.group < 0 or not group_has_buildings(game, sp.group):
        raise refusal(game, rule, "the group has no building")
    if game.rulebook.permits["sell_group"]:
        _permit_lot(game, "sell_group", seat, action.pos)
    _sell_group(game, seat, sp.group, game.rulebook.origins["building_sale"])


def _apply_mortgage(game: Game, seat: int, action) -> None:
    _pledge(game, seat, action.pos, True, check_mortgage(game, seat, action.pos))


def _apply_lift(game: Game, seat: int, action) -> None:
    _pledge(game, seat, action.pos, False, check_lift(game, seat, action.pos))


def _pledge(game: Game, seat: int, pos: int, pledged: bool, amount: int) -> None:
    """Mortgage the lot (the bank lends `amount`) or lift it (the player repays `amount`)."""
    bank = game.state.bank
    rule = game.rulebook.origins["mortgage_interest"]
    game.set_mortgaged(pos, pledged)
    if game._log:
        game.emit("mortgage" if pledged else "lift", rule, player=seat,
                  space=game.rulebook.spaces[pos].name)
    if pledged:
        game.transfer(bank, seat, amount, "mortgage", rule)
    else:
        game.transfer(seat, bank, amount, "lift mortgage", rule)
    c = game._course
    hooks = c.mortgage_taken if pledged else c.mortgage_lifted
    if hooks:
        course.fire(game, hooks, seat, pos)


def _apply_trade(game: Game, seat: int, action) -> None:
    check_trade(game, seat, action)
    _trade(game, seat, action)


# each action's validation and carrying out, by its type: `apply` without its checks of the
# player (the engine's loops call it directly for a player in the game)
APPLY: Final = {
    Build: _apply_build,
    Sell: _apply_sell,
    SellAll: _apply_sell_all,
    Mortgage: _apply_mortgage,
    Lift: _apply_lift,
    Trade: _apply_trade,
}


def _build(game: Game, seat: int, pos: int, kind) -> None:
    st, rb = game.state, game.rulebook
    game.seat_version[seat] += 1
    sp = game._spaces[pos]
    if st.mortgaged[pos]:
        lifted = rb.origins["mortgage_interest"]
        game.set_mortgaged(pos, False)
        if game._log:
            game.emit("lift", lifted, player=seat, space=sp.name)
        game.transfer(seat, st.bank, lift_cost(game, pos), "lift mortgage", lifted)
        if game._course.mortgage_lifted:
            course.fire(game, game._course.mortgage_lifted, seat, pos)
            if st.bankrupt[seat]:
                return
    if kind == "hotel":
        rule = rb.origins["houses_per_hotel"]
        st.bank_houses += st.houses[pos]
        st.houses[pos] = 0
        st.hotels[pos] = 1
        st.bank_hotels -= 1
        game.transfer(seat, st.bank, sp.hotel_cost, "hotel", rule)
    else:
        rule = rb.memo.get("house_rule")
        if rule is None:
            rule = rb.memo["house_rule"] = _house_rule(game)
        st.houses[pos] += 1
        st.bank_houses -= 1
        game.transfer(seat, st.bank, sp.house_cost, "house", rule)
    if game._log:
        game.emit("build", rule, player=seat, space=sp.name, building=kind)
    c = game._course
    if c.any_building:
        course.fire(game, c.built[kind == "hotel"], seat, pos,
                    building=HOTEL if kind == "hotel" else HOUSE)


def _house_rule(game: Game) -> str:
    """The rule a house bought is logged by: the rule that sets the houses a lot takes, else
    the rule that says when houses are built (its first permission to build)."""
    rule = _origin(game, "max_houses")
    if rule == "engine" and game.rulebook.permits["build"]:
        rule = game.rulebook.permits["build"][0].rule
    return rule


def _shortage(game: Game, seat: int, kind, from_cost: bool, rule: str) -> bool:
    """Several players want more buildings than the bank has: auction one, by `rule`. True if
    held."""
    st = game.state
    supply = st.bank_houses if kind == "house" else st.bank_hotels
    wanting = [seat] + [
        other for other in game.bidders()
        if other != seat and game.agents[other].wants_building(game, other, kind)
        and any(_can_build_kind(game, other, q, kind) for q in game.rulebook.properties)
    ]
    if len(wanting) <= supply:
        return False
    opening = 1
    if from_cost:
        # "au prix le plus bas indiqué sur la carte de propriété": the cheapest lot it may go on
        costs = [game.rulebook.spaces[q].hotel_cost if kind == "hotel"
                 else game.rulebook.spaces[q].house_cost
                 for q in game.rulebook.properties
                 if any(_can_build_kind(game, p, q, kind) for p in wanting)]
        opening = max(1, min(costs, default=1))
    winner, price = run_auction(game, Lot(kind), opening, rule, wanting)
    if winner is None:
        return True
    # the lots the winner may take it on and pay for: the bid replaces the printed price, not
    # the lifting of a mortgaged lot's mortgage that building there costs too (the bid was
    # refused above building_bid_limit, so one such lot remains)
    cash = st.cash[winner] - price
    targets = [q for q in game.rulebook.properties if _can_build_kind(game, winner, q, kind)
               and cash >= _extra_cost(game, q)]
    if not targets:
        return True  # the winner cannot pay for it anywhere: the bank keeps it
    choice = game.agents[winner].place_building(game, winner, kind, tuple(targets))
    if choice not in targets:
        raise IllegalAction(rule, "the building must go on a lot that may take it")
    game.transfer(winner, st.bank, price, "building auction", rule)
    # the bid replaces the printed price: the building is placed at no further cost
    sp = game.rulebook.spaces[choice]
    refund = sp.hotel_cost if kind == "hotel" else sp.house_cost
    game.transfer(st.bank, winner, refund, "building auction", rule)
    _build(game, winner, choice, kind)
    return True


def building_bid_limit(game: Game, seat: int, kind: str) -> int:
    """The highest bid the player may make for a scarce building of `kind` ("house" or
    "hotel"): the bid replaces the printed price and is paid in cash, as any building is
    bought, together with the lifting of the mortgage of the lot it goes on (the cheapest to
    lift of the lots that may take it); -1 when no lot of the player's may take it."""
    least = -1
    for q in game.holdings()[seat]:
        try:
            k, _ = check_build(game, seat, q)
        except IllegalAction:
            continue
        if k == kind:
            extra = _extra_cost(game, q)
            if least < 0 or extra < least:
                least = extra
    return -1 if least < 0 else game.state.cash[seat] - least


def _extra_cost(game: Game, pos: int) -> int:
    """What building on the lot costs besides the building: lifting its mortgage."""
    return lift_cost(game, pos) if game.state.mortgaged[pos] else 0


def _can_build_kind(game: Game, seat: int, pos: int, kind) -> bool:
    try:
        k, cost = check_build(game, seat, pos)
    except IllegalAction:
        return False
    return k == kind and game.state.cash[seat] >= cost


def _sell_group(game: Game, seat: int, group: int, rule: str, settling: bool = False) -> None:
    """Sell every building of the player's lots of the group, by `rule`; `a building is sold`
    once per lot (its top building), unless a bankruptcy is being settled."""
    st, rb = game.state, game.rulebook
    game.seat_version[seat] += 1
    if game._log:
        game.emit("sell_group", rule, player=seat, group=rb.group_names[group])
    total = 0
    owner = st.owner
    sold = game._course.sold
    lots = []  # (lot, its top building) for `a building is sold`
    for q in rb.groups[group]:
        if owner[q] != seat:
            continue
        if (sold[0] or sold[1]) and (st.hotels[q] or st.houses[q]):
            lots.append((q, 1 if st.hotels[q] else 0))
        total += sale_value(game, game.buildings_paid(q))
        st.bank_hotels += st.hotels[q]
        st.bank_houses += st.houses[q]
        st.hotels[q] = st.houses[q] = 0
    game.transfer(st.bank, seat, total, "building sale", rule)
    if not settling:
        for q, top in lots:
            course.fire(game, sold[top], seat, q, building=HOTEL if top else HOUSE)


def sell_all_buildings(game: Game, seat: int, rule: str) -> None:
    """Every building of the player sold back to the bank, group by group, by `rule`."""
    st, group_of = game.state, game.rulebook.group_of
    built = sorted({group_of[q] for q in game.holdings()[seat] if st.houses[q] or st.hotels[q]})
    for group in built:
        _sell_group(game, seat, group, rule, settling=True)


def means(game: Game, seat: int) -> int:
    """Cash plus what selling every building and mortgaging every lot would bring."""
    st, rb = game.state, game.rulebook
    total = st.cash[seat]
    for q in rb.properties:
        if st.owner[q] == seat:
            if st.houses[q] or st.hotels[q]:
                total += sale_value(game, game.buildings_paid(q))
            if not st.mortgaged[q]:
                total += rb.spaces[q].mortgage
    return total


def can_raise(game: Game, seat: int) -> bool:
    """Whether the player still has a building to sell or a lot to mortgage: a deed not
    mortgaged (counted: the game's views of its deeds and of its mortgaged deeds), else a
    building on a mortgaged one."""
    held = game._holdings  # the game's view, read in line (holdings() makes it)
    if held is None:
        held = game.holdings()
    if len(game._mortgaged[seat]) != len(held[seat]):
        return True
    houses, hotels = game.state.houses, game.state.hotels
    for pos in held[seat]:
        if houses[pos] or hotels[pos]:
            return True
    return False


def forced_raise(game: Game, seat: int):
    """The sale or mortgage the engine makes for a player in debt whose agent stopped
    raising funds while it still could (FAILLITE: bankrupt only when the debt truly cannot
    be paid): the first lot, in board order, that may be mortgaged; else the first building
    that may be sold (a group's hotels whole when the bank lacks the houses to break one
    down); None when the rules allow neither."""
    lots = game.holdings()[seat]
    for q in lots:
        try:
            check_mortgage(game, seat, q)
        except IllegalAction:
            continue
        return Mortgage(q)
    st = game.state
    for q in lots:
        if not (st.houses[q] or st.hotels[q]):
            continue
        try:
            check_sell(game, seat, q)
        except IllegalAction:
            pass
        else:
            return Sell(q)
        if st.hotels[q]:
            group = game.rulebook.group_of[q]
            if not game.rulebook.permits["sell_group"] or \
                    _refusing_lot(game, "sell_group", seat, q, seat) is None:
                if group >= 0:
                    return SellAll(q)
    return None


def _trade(game: Game, seat: int, t: Trade) -> None:
    st = game.state
    p = t.partner
    rb = game.rulebook
    rule = rb.trade_rule
    if not game.agents[p].accept_trade(game, p, seat, t):
        if game._log:
            game.emit("trade_refused", rule, player=seat, partner=p)
        return
    if game._log:
        game.emit("trade", rule, player=seat, partner=p,
                  give=[rb.spaces[q].name for q in t.give],
                  take=[rb.spaces[q].name for q in t.take], cash=t.cash,
                  give_cards=t.give_cards, take_cards=t.take_cards)
    if t.cash > 0:
        game.transfer(seat, p, t.cash, "trade", rule)
    elif t.cash < 0:
        game.transfer(p, seat, -t.cash, "trade", rule)
    for _ in range(t.give_cards):
        st.jail_cards[p].append(st.jail_cards[seat].pop(0))
    for _ in range(t.take_cards):
        st.jail_cards[seat].append(st.jail_cards[p].pop(0))
    for q in t.give:
        game.give_deed(q, p, rule)
    for q in t.take:
        game.give_deed(q, seat, rule)
    if game._course.deed_changes_hands:
        deeds_received(game, [(p, q) for q in t.give] + [(seat, q) for q in t.take],
                       game._course.deed_changes_hands)


def deeds_received(game: Game, received, hooks: tuple) -> None:
    """`a deed changes hands` (the hooks of a trade's deeds, or of a bankrupt's), once per
    (new owner, deed) in order, skipping an owner made bankrupt meanwhile; the deed is the
    hooks' context."""
    for seat, pos in received:
        if not game.state.bankrupt[seat]:
            course.fire(game, hooks, seat, pos)


def lift_or_interest(game: Game, f: Firing, at_value: bool = False) -> None:
    """`lift the mortgage or pay the interest` on the deed the player has just received (the
    firing's space): the new owner lifts it, if it holds the price (with the interest, or
    `at_value` the mortgage value alone) and wishes so, or pays the bank the interest
    (rounded up), by the firing's rule."""
    lift_or_interest_at(game, f.player, f.space, f.rule, at_value)


def lift_or_interest_at(game: Game, seat: int, pos: int, rule: str,
                        at_value: bool = False) -> None:
    """lift_or_interest for the player `seat` on the deed `pos`, by `rule`."""
    st = game.state
    if seat < 0 or pos < 0 or not st.mortgaged[pos]:
        return
    m = game._spaces[pos].mortgage
    due = interest(game, pos)
    cost = m if at_value else m + due
    if st.cash[seat] >= cost and game.agents[seat].lift_on_transfer(game, seat, pos):
        game.set_mortgaged(pos, False)
        if game._log:
            game.emit("lift", rule, player=seat, space=game.rulebook.spaces[pos].name)
        game.transfer(seat, st.bank, cost, "lift mortgage", rule)
        if game._course.mortgage_lifted:
            course.fire(game, game._course.mortgage_lifted, seat, pos)
    else:
        game.charge(seat, st.bank, due, "mortgage interest", rule)


def lift_at_value_or_interest(game: Game, f: Firing) -> None:
    """`lift the mortgage at its value or pay the interest`: as `lift_or_interest`, the
    lifting at once costing the mortgage value alone."""
    lift_or_interest(game, f, True)


# their direct forms (Rulebook.direct), here to be compiled with the engine
def lift_or_interest_direct(game: Game, player: int, space: int, owner: int, dice: tuple,
                            total: int, rule: str, rent, streak: int) -> None:
    lift_or_interest_at(game, player, space, rule)


def lift_at_value_or_interest_direct(game: Game, player: int, space: int, owner: int,
                                     dice: tuple, total: int, rule: str, rent,
                                     streak: int) -> None:
    lift_or_interest_at(game, player, space, rule, True)


# ------------------------------------------------------------------ auctions


def run_auction(game: Game, lot: Lot, min_bid: int, rule: str, bidders=None, before_bids=()):
    """An open ascending auction held by `rule`: (winner, price), or (None, 0) if nobody
    bids. A bid must be from `min_bid` up to what the bidder could raise (the model's check,
    named after `auction_min_bid`'s rule), then pass the permissions to bid. before_bids: the hooks of `a KIND
    is auctioned`, fired for the current player after the auction is announced."""
    st = game.state
    permits = game.rulebook.permits["bid"]
    if game._log:
        game.emit("auction", rule, lot=lot.kind, space=game.rulebook.spaces[lot.pos].name
                  if lot.pos >= 0 else None)
    if before_bids:
        course.fire(game, before_bids, st.current, lot.pos)
        if game.over:
            return None, 0
    active = [b for b in (game.bidders() if bidders is None else bidders)
              if not st.bankrupt[b]] if before_bids else \
        list(game.bidders() if bidders is None else bidders)
    high, leader = min_bid - 1, None
    while active:
        still = []
        for seat in active:
            if seat == leader:
                still.append(seat)
                continue
            bid = game.agents[seat].bid(game, seat, lot, high)
            if bid is None or (type(bid) is int and bid <= high):
                continue
            if type(bid) is not int or bid < min_bid:
                raise refusal(game, "auction_min_bid",
                              f"a bid must be a whole amount of at least {min_bid}")
            if lot.pos < 0:
                # a scarce building: bought in cash, with the lifting of its lot's mortgage
                if bid > building_bid_limit(game, seat, lot.kind):
                    raise IllegalAction(rule, f"a bid for a {lot.kind} is paid in cash, with "
                                        "the lifting of the mortgage of the lot it goes on")
            elif bid > st.cash[seat] and bid > means(game, seat):
                raise refusal(game, "auction_min_bid",
                              "a bid cannot exceed what the player could raise")
            if permits:
                found = _refusing(game, permits, Firing.for_action(seat, lot.pos, amount=bid))
                if found is not None:
                    raise IllegalAction(found.rule, found.text)
            high, leader = bid, seat
            still.append(seat)
            if game._log:
                game.emit("bid", rule, player=seat, amount=bid)
        active = still
        if len(active) <= 1:
            break
    if leader is None:
        return None, 0
    return leader, high


# ------------------------------------------------------------------ choices for agents


def legal_actions(game: Game, seat: int) -> list:
    """Every single-step action the player may take now (trades excepted)."""
    st = game.state
    out = []
    for pos in game.rulebook.properties:
        if st.owner[pos] != seat:
            continue
        for make, check in ((Build, check_build), (Sell, check_sell),
                            (Mortgage, check_mortgage), (Lift, check_lift)):
            try:
                result = check(game, seat, pos)
            except IllegalAction:
                continue
            if make is Build and st.cash[seat] < result[1]:  # type: ignore[index]
                continue
            out.append(make(pos))
    return out

