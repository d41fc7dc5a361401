"""One game: the turn skeleton, its hook points, and the primitives rules are compiled into.

Money moves only through `transfer` (and `charge`, which raises funds and settles debts by
bankruptcy); randomness comes only from the game's own generator; every state change can be
written to an event log naming the rule in force. Agents are asked for decisions and every
answer is validated (see actions.py).
"""

from __future__ import annotations

import json
import random
from typing import Callable, Sequence

from mypy_extensions import mypyc_attr

from . import actions as act
from . import course, endings, tokens
from .endings import GameOver
from .holdings import Holdings
from .setup import deal_deeds
from .state import State
from .tables import MAX_CHAIN, RentContext, Rulebook

BANK_NAME = "bank"
DEFAULT_MAX_TURNS = 2000
MAX_ACTIONS = 200  # decisions one player may take between two rolls
# Bounds on the loops the dice drive, so that every rulebook that checks clean ends (the
# checker warns of dice that reach them, W111). Past MAX_ROLLS rolls in one turn the game ends
# (`roll_limit`); after MAX_TIES tied throws for the first player, seat order decides.
MAX_ROLLS = 100
MAX_TIES = 100


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(Holdings):
    """A game of a compiled rulebook between seated agents, from a seed."""

    # slots keep attribute access fast however many attributes the game has
    __slots__ = (
        "settings", "agents", "seed", "rng", "rule", "over", "end_reason",
        "winner", "stop", "again", "last_roll", "dice_total", "last_double", "token",
        "_depth", "_landed_owner", "_max_turns", "_turn_limit",
        "_limit_reason", "fine_account", "_claims", "_unpaid", "__weakref__",
    )

    def __init__(
        self,
        rulebook: Rulebook,
        agents: Sequence,
        seed: int = 0,
        max_turns: int = DEFAULT_MAX_TURNS,
        log: Callable[[str], None] | None = None,
    ):
        n = len(agents)
        s = rulebook.settings
        self.rulebook = rulebook
        self.settings = s
        self.agents = list(agents)
        self.seed = seed
        self.rng = random.Random(seed)
        self._log = log
        self.rule = "setup"
        self.over = False
        self.end_reason: str | None = None
        self.winner: int | None = None
        self.stop = False  # the current player's turn is interrupted (jail, bankruptcy)
        self.again = False  # the current player rolls once more
        self.last_roll: tuple[int | str, ...] = ()
        self.dice_total = 0
        self.last_double = False
        self.token = -1  # the token a token rule is about (engine/tokens.py)
        self.version = 0  # bumped whenever a deed changes hands
        # per seat: bumped whenever its deeds, their mortgages or their buildings change
        self.seat_version = [0] * n
        # who holds what, for agents: built from the state on first use, then kept by give_deed
        self._holdings = None
        self._whole = []
        self._pairs = []
        self._streets = []
        self._shared = None  # None: to rebuild
        self._mortgaged = []
        self._depth = 0
        self._landed_owner = -1  # who owned the space when the player landed on it
        self._unpaid = -1  # the seat whose `a player cannot pay` rules are running
        self.max_turns = max_turns  # also sets the turn at which the clock or the cap stops
        size = rulebook.size
        decks = [list(range(len(d.cards))) for d in rulebook.decks]
        self.state = State(
            cash=[0] * n + [0] + [0] * len(rulebook.pots),  # players, the bank, the pots
            position=[rulebook.go] * n,
            in_jail=[False] * n,
            jail_turns=[0] * n,
            bankrupt=[False] * n,
            jail_cards=[[] for _ in range(n)],
            owner=[-1] * size,
            houses=[0] * size,
            hotels=[0] * size,
            mortgaged=[False] * size,
            bank_houses=s.houses,
            bank_hotels=s.hotels,
            decks=decks,
            laps=[0] * n,
            players=n,
            bank=n,
        )
        # taxes, fines and card penalties go to the bank, or to a pot (fines_to)
        self.fine_account = n + 1 + rulebook.pots.index(s.fines_to) if s.fines_to else n
        for seat, agent in enumerate(self.agents):
            if hasattr(agent, "seat_at"):
                agent.seat_at(self, seat)
        # who claims rent in time: attentive, and noticing before the claim window closes
        self._claims = [getattr(a, "attentive", True)
                        and getattr(a, "claim_delay", 0) < s.rent_claim_window
                        for a in self.agents]
        try:
            self._setup()
        except GameOver:  # a rule of `the game starts` ended it, or a bound was reached
            pass

    @property
    def max_turns(self) -> int:
        return self._max_turns

    @max_turns.setter
    def max_turns(self, value: int) -> None:
        self._max_turns = value
        self._turn_limit, self._limit_reason = endings.turn_limit(self.settings, value)

    # ------------------------------------------------------------ log

    @property
    def logging(self) -> bool:
        return self._log is not None

    def emit(self, event: str, **fields) -> None:
        """Write one event to the log (callers test `self._log` first on hot paths)."""
        if self._log is None:
            return
        record = {"turn": self.state.turn, "event": event}
        record.update(fields)
        record["rule"] = self.rule
        self._log(json.dumps(record, ensure_ascii=False, separators=(",", ":")))

    def account_name(self, account: int):
        bank = self.state.bank
        if account > bank:
            return self.rulebook.pots[account - bank - 1]
        return BANK_NAME if account == bank else account

    # ------------------------------------------------------------ setup

    def _setup(self) -> None:
        st, s, rb = self.state, self.settings, self.rulebook
        n = st.players
        self.emit(
            "start",
            rulebook=rb.title,
            seed=self.seed,
            players=n,
            agents=[getattr(a, "name", type(a).__name__) for a in self.agents],
        )
        # `when the game starts` runs by stages: the decks, then the starting cash and the
        # characters, then the rules' other effects, then the first player
        c = rb.course
        self.rule = "shuffle_decks"
        if s.shuffle_decks:
            course.shuffle_decks(self)
        if c.setup_first:
            course.fire(self, c.setup_first, -1)
        self.rule = "starting_cash"
        for seat in range(n):
            self.transfer(st.bank, seat, s.starting_cash, "starting cash")
        tokens.setup(self)
        if s.deal_deeds:
            self.rule = "deal_deeds"
            deal_deeds(self, s.deal_deeds, s.deal_deeds_paid)
        self.rule = "first_player"
        tie_break = False
        if s.first_player == "highest_roll" and n > 1:
            tie_break = course.highest_roll(self, MAX_TIES)
        if c.setup_last:
            box = [tie_break]  # the effect says whether the tie-break decided
            course.fire(self, c.setup_last, -1, box)
            tie_break = box[0]
        if tie_break:
            self.emit("first_player", player=st.current, tie_break=True)
        else:
            self.emit("first_player", player=st.current)

    # ------------------------------------------------------------ money

    def transfer(self, src: int, dst: int, amount: int, reason: str) -> None:
        """Move money between two accounts: the only way money moves."""
        cash = self.state.cash
        cash[src] -= amount
        cash[dst] += amount
        if self._log:
            self.emit("transfer", source=self.account_name(src), to=self.account_name(dst),
                      amount=amount, reason=reason)

    def charge(self, payer: int, creditor: int, amount: int, reason: str) -> bool:
        """Make `payer` pay `amount`, raising funds if short; bankrupt if it cannot."""
        st = self.state
        if amount <= 0:
            return True
        if st.cash[payer] < amount:
            self.raise_funds(payer, amount)
            if st.cash[payer] < amount:
                hooks = self.rulebook.course.cannot_pay
                if hooks and self._unpaid != payer:
                    # `a player cannot pay` (not again for a debt its own rules run into)
                    outer, self._unpaid = self._unpaid, payer
                    try:
                        course.fire(self, hooks, payer, (creditor, amount))
                    finally:
                        self._unpaid = outer
                    if st.bankrupt[payer]:
                        return False
                if st.cash[payer] < amount:
                    self.bankrupt(payer, creditor)
                    return False
        self.transfer(payer, creditor, amount, reason)
        return True

    def raise_funds(self, seat: int, amount: int) -> None:
        """Ask the player to sell buildings or mortgage until it holds `amount` in cash."""
        st = self.state
        agent = self.agents[seat]
        # every action sells or mortgages something, so this ends
        for _ in range(1 + 6 * len(self.rulebook.properties)):
            if st.cash[seat] >= amount or not act.can_raise(self, seat):
                return
            action = agent.raise_funds(self, seat, amount)
            if action is None:
                return
            act.apply(self, seat, action)

    def buildings_paid(self, pos: int) -> int:
        """What the lot's buildings cost: a hotel counts the houses turned in for it."""
        st, sp = self.state, self.rulebook.spaces[pos]
        per_hotel = self.settings.houses_per_hotel
        return (st.houses[pos] * sp.house_cost
                + st.hotels[pos] * (sp.hotel_cost + per_hotel * sp.house_cost))

    def worth(self, seat: int) -> int:
        """Total worth for the income tax: cash, printed prices (mortgaged or not), buildings."""
        st, rb = self.state, self.rulebook
        total = st.cash[seat]
        for pos in rb.properties:
            if st.owner[pos] == seat:
                total += rb.spaces[pos].price + self.buildings_paid(pos)
        return total

    def net_worth(self, seat: int) -> int:
        """The printed valuation of the short games (endings.valuation)."""
        return endings.valuation(self, seat)

    # ------------------------------------------------------------ dice and movement

    def roll(self, seat: int) -> tuple[int | str, ...]:
        """Throw every die: one draw from the game's generator picks a whole outcome."""
        rolls = self.rulebook.rolls
        i = int(self.rng.random() * len(rolls))
        dice = self.last_roll = rolls[i]
        self.dice_total = self.rulebook.totals[i]
        self.last_double = self.rulebook.doubles[i]
        if self._log:
            self.emit("roll", player=seat, dice=list(dice))
        return dice

    def move_by(self, seat: int, steps: int, ctx: RentContext | None = None) -> None:
        """Move forward (passing spaces) or backward (passing nothing), then land: fire the
        rules of the space the player ends on."""
        st, rb = self.state, self.rulebook
        start = st.position[seat]
        if steps > 0:
            crossed = rb.crossings[start][steps % (rb.size + 1)]
            if crossed:
                # a `passes` rule that moves the player on is a link of the chain too
                self._depth += 1
                if self._depth > MAX_CHAIN:
                    self.chain_cut(seat)
                for q in crossed:
                    for hook in rb.pass_hooks[q]:
                        hook(self, seat, None)
                        if self.stop:
                            self._depth -= 1
                            return
                self._depth -= 1
        pos = st.position[seat] = (start + steps) % rb.size
        if self._log:
            self.emit("move", player=seat, to=rb.spaces[pos].name, steps=steps)
        hooks = rb.land_hooks[pos]
        if not hooks:
            return
        # rent is owed only to whoever owned the lot on landing, not to the winner of the
        # auction this very landing held (QUAND LE JETON TOMBE SUR UN BIEN SANS PROPRIÉTAIRE)
        outer = self._landed_owner
        self._landed_owner = st.owner[pos]
        self._depth += 1
        if self._depth > MAX_CHAIN:
            self.chain_cut(seat)
        for hook in hooks:
            hook(self, seat, ctx)
            if self.stop:
                break
        self._depth -= 1
        self._landed_owner = outer

    def chain_cut(self, seat: int) -> None:
        """A chain of triggered effects reached MAX_CHAIN links: the game ends there."""
        self.emit("chain_cut", player=seat, depth=self._depth)
        endings.at_bound(self, "chain_limit")

    def advance_to(self, seat: int, dest: int, ctx: RentContext | None = None) -> None:
        """Move forward to `dest`; a player already there does not go round again."""
        start = self.state.position[seat]
        self.move_by(seat, (dest - start) % self.rulebook.size, ctx)

    def go_to_jail(self, seat: int) -> None:
        """Straight to jail: no passing, no landing; the turn ends."""
        st = self.state
        st.position[seat] = self.rulebook.jail
        st.in_jail[seat] = True
        st.jail_turns[seat] = 0
        self.again = False
        if seat == st.current:
            self.stop = True
        if self._log:
            self.emit("jail", player=seat)
        if self.rulebook.course.sent_to_jail:
            course.fire(self, self.rulebook.course.sent_to_jail, seat)

    # ------------------------------------------------------------ landing primitives

    def offer(self, seat: int, pos: int, auction: bool = True) -> None:
        """The player may buy an unowned property at its price; else the bank auctions it."""
        st = self.state
        if st.owner[pos] >= 0:
            return
        sp = self.rulebook.spaces[pos]
        c = self.rulebook.course
        if c.offered and c.offered[pos]:
            course.fire(self, c.offered[pos], seat, pos)
            if st.bankrupt[seat] or self.over or st.owner[pos] >= 0:
                return
        if st.cash[seat] >= sp.price and self.agents[seat].buy(self, seat, pos):
            self.transfer(seat, st.bank, sp.price, "purchase")
            self.give_deed(pos, seat)
            if c.bought and c.bought[pos]:
                course.fire(self, c.bought[pos], seat, pos)
        elif auction:
            self.auction(pos)

    def offer_here(self, seat: int, ctx=None) -> None:
        """`buy or auction` on the space the player stands on."""
        self.offer(seat, self.state.position[seat], True)

    def offer_here_no_auction(self, seat: int, ctx=None) -> None:
        """`buy` on the space the player stands on; a declined lot stays with the bank."""
        self.offer(seat, self.state.position[seat], False)

    def bidders(self) -> list[int]:
        """Players still in the game, starting with the current one, in turn order."""
        st = self.state
        n = st.players
        return [
            (st.current + i) % n for i in range(n) if not st.bankrupt[(st.current + i) % n]
        ]

    def auction(self, pos: int) -> None:
        """Sell a bank-owned deed to the highest bidder; everyone may bid, from any price."""
        c = self.rulebook.course
        winner, price = act.run_auction(self, act.Lot("deed", pos), self.settings.auction_min_bid,
                                        None, c.auctioned[pos] if c.auctioned else ())
        if winner is not None and self.charge(winner, self.state.bank, price, "auction"):
            self.give_deed(pos, winner)
            if c.bought and c.bought[pos]:
                course.fire(self, c.bought[pos], winner, pos)

    def rent_due(self, pos: int, ctx: RentContext | None = None) -> int:
        """The rent the space's scheme gives now (0 on a mortgaged or unowned lot)."""
        st, rb = self.state, self.rulebook
        owner = st.owner[pos]
        if owner < 0 or st.mortgaged[pos]:
            return 0
        sp = rb.spaces[pos]
        kind = sp.kind
        if kind == "street":
            if st.hotels[pos]:
                rent = sp.rents[-1]
            else:
                houses = st.houses[pos]
                rent = sp.rents[houses]
                if houses == 0 and self._full_group_rent(owner, sp.group):
                    rent = rent * self.settings.full_group_rent // 100
        else:
            held = 0
            for q in rb.groups[sp.group]:
                if st.owner[q] == owner:
                    held += 1
            if kind == "railroad":
                rent = sp.rents[held - 1]
            else:
                mult = sp.multipliers[held - 1]
                total = self.dice_total
                if ctx is not None and ctx.dice_multiplier is not None:
                    mult = ctx.dice_multiplier
                    self.roll(st.current)
                    total = self.dice_total
                rent = mult * total
        if ctx is not None:
            rent *= ctx.factor
        return rent

    def _full_group_rent(self, owner: int, group: int) -> bool:
        st = self.state
        counts_mortgaged = self.settings.full_group_counts_mortgaged
        for q in self.rulebook.groups[group]:
            if st.owner[q] != owner or (st.mortgaged[q] and not counts_mortgaged):
                return False
        return True

    def pay_rent(self, seat: int, ctx: RentContext | None = None, factor: int = 1) -> None:
        """`pay rent` on the space the player stands on: its owner on landing claims the rent
        (the hot path of every game)."""
        st = self.state
        pos = st.position[seat]
        owner = st.owner[pos]
        if owner < 0 or owner == seat or owner != self._landed_owner:
            return
        if not self._claims[owner]:
            if self._log:
                self.emit("rent_unclaimed", player=seat, owner=owner)
            return
        rent = self.rent_due(pos, ctx) * factor
        if rent:
            cash = st.cash
            if cash[seat] >= rent and not self._log:
                cash[seat] -= rent
                cash[owner] += rent
            else:
                self.charge(seat, owner, rent, "rent")

    def pay_choice(self, seat: int, options: tuple) -> None:
        """Pay one of several amounts, chosen before computing (the 1961 income tax)."""
        choice = self.agents[seat].tax(self, seat, options)
        if not isinstance(choice, int) or not 0 <= choice < len(options):
            raise act.IllegalAction(self.rule, f"choose one of {len(options)} options")
        kind, value = options[choice]
        amount = value if kind == "money" else self.worth(seat) * value // 100
        if self._log:
            self.emit("tax_choice", player=seat, choice=f"{kind}:{value}", amount=amount)
        self.charge(seat, self.fine_account, amount, "tax")

    def pay_per_building(self, seat: int, per_house: int, per_hotel: int) -> None:
        st = self.state
        houses = hotels = 0
        for pos in self.rulebook.properties:
            if st.owner[pos] == seat:
                houses += st.houses[pos]
                hotels += st.hotels[pos]
        self.charge(seat, self.fine_account, houses * per_house + hotels * per_hotel, "repairs")

    def pay_each(self, seat: int, amount: int, collect: bool) -> None:
        """Pay every other player `amount`, or collect it from each of them; a player who
        goes bankrupt on the way (a payer's deeds can bring interest due) takes no further
        part."""
        st = self.state
        for other in self.bidders():
            if st.bankrupt[seat]:
                return
            if other == seat or st.bankrupt[other]:
                continue
            if collect:
                self.charge(other, seat, amount, "card")
            else:
                self.charge(seat, other, amount, "card")

    def draw(self, seat: int, deck_index: int) -> None:
        """Take the top card; put it under the deck (or keep it) and obey it."""
        st = self.state
        deck = st.decks[deck_index]
        if not deck:
            return
        card_index = deck.pop(0)
        card = self.rulebook.decks[deck_index].cards[card_index]
        if self._log:
            self.emit("draw", player=seat, deck=self.rulebook.decks[deck_index].name,
                      card=card.id)
        drawn = self.rulebook.course.card_drawn
        if drawn and drawn[deck_index]:
            course.fire(self, drawn[deck_index], seat, card_index)
            if st.bankrupt[seat] or self.over:
                deck.append(card_index)  # the card goes back under the deck, unobeyed
                return
        if card.keep:
            st.jail_cards[seat].append((deck_index, card_index))
            return
        deck.append(card_index)
        for effect in card.effects:
            effect(self, seat, None)
            if self.stop:
                return

    # ------------------------------------------------------------ jail

    def _jail_turn(self, seat: int) -> None:
        st, s = self.state, self.settings
        agent = self.agents[seat]
        self.rule = "leaving_jail"
        choice = agent.jail(self, seat)
        if choice == "card":
            if not st.jail_cards[seat]:
                raise act.IllegalAction("leaving_jail", "the player holds no Get Out of Jail Free card")
            deck_index, card_index = st.jail_cards[seat].pop(0)
            st.decks[deck_index].append(card_index)
            self._free(seat, "card")
            if not self.stop:
                self._rolls(seat)
            return
        if choice == "pay":
            if not s.jail_pay_before_roll:
                raise act.IllegalAction("leaving_jail", "the fine may not be paid before rolling")
            if st.cash[seat] < s.jail_fine:
                raise act.IllegalAction("leaving_jail", "not enough cash to pay the fine")
            self.transfer(seat, self.fine_account, s.jail_fine, "jail fine")
            self._free(seat, "fine")
            if not self.stop:
                self._rolls(seat)
            return
        if choice != "roll":
            raise act.IllegalAction("leaving_jail", f"unknown jail choice {choice!r}")
        # counted once the choice is valid: a refusal changes nothing; never past the last
        # turn (a player alone in the game, who is never made bankrupt, may fail to pay)
        st.jail_turns[seat] = min(st.jail_turns[seat] + 1, s.jail_turns)
        dice = self.roll(seat)
        self._faces(seat, dice)
        if self.stop:
            return
        if s.jail_exit_doubles and self.last_double:
            self._free(seat, "doubles")
            if self.stop:
                return
        elif st.jail_turns[seat] >= s.jail_turns:
            if not self.charge(seat, self.fine_account, s.jail_fine, "jail fine"):
                return
            self._free(seat, "forced")
            if self.stop:
                return
        else:
            if self.rulebook.after_face_hooks:
                tokens.faces_after(self, seat, dice)
            return
        self.move_by(seat, self.dice_total)
        if self.rulebook.after_face_hooks:
            tokens.faces_after(self, seat, dice)

    def _free(self, seat: int, how: str) -> None:
        self.state.in_jail[seat] = False
        self.state.jail_turns[seat] = 0
        if self._log:
            self.emit("free", player=seat, by=how)
        if self.rulebook.course.leaves_jail:
            course.fire(self, self.rulebook.course.leaves_jail, seat)

    # ------------------------------------------------------------ the turn

    def _faces(self, seat: int, dice: tuple[int | str, ...]) -> None:
        for die, face, hook in self.rulebook.face_hooks:
            if dice[die] == face:
                hook(self, seat, None)
                if self.stop:
                    return

    def _rolls(self, seat: int) -> None:
        """Roll, move and obey, again while a rule says so."""
        rb = self.rulebook
        rolls, is_double, totals = rb.rolls, rb.doubles, rb.totals
        count = len(rolls)
        rand = self.rng.random
        doubles = 0
        rolled = 0  # the rolls of this turn that said roll again (MAX_ROLLS)
        while True:
            self.again = False
            self.rule = "turn"
            i = int(rand() * count)
            dice = self.last_roll = rolls[i]
            self.dice_total = totals[i]
            if self._log:
                self.emit("roll", player=seat, dice=list(dice))
            if rb.face_hooks:
                self._faces(seat, dice)
                if self.stop:
                    return
            if is_double[i]:
                doubles += 1
                for dh in rb.doubles_hooks:
                    if dh.times is None or dh.times == doubles:
                        dh.hook(self, seat, None)
                        if self.stop:
                            break
            if not self.stop:
                self.move_by(seat, self.dice_total)
            if rb.after_face_hooks:
                tokens.faces_after(self, seat, dice)
            if self.stop or not self.again:
                return
            rolled += 1
            if rolled >= MAX_ROLLS:
                endings.at_bound(self, "roll_limit")

    def play_turn(self) -> None:
        """One player's turn: all its rolls, then its decisions between turns."""
        if self.over:
            return
        st = self.state
        seat = st.current
        self.stop = False
        self._depth = 0
        try:
            for hook in self.rulebook.turn_start_hooks:
                hook(self, seat, None)
            c = self.rulebook.course
            if not self.stop:
                if st.in_jail[seat]:
                    if c.jail_turn:
                        course.fire(self, c.jail_turn, seat)
                    if self.stop:
                        pass
                    elif st.in_jail[seat]:
                        self._jail_turn(seat)
                    else:  # freed by a rule: a free turn
                        self._rolls(seat)
                else:
                    self._rolls(seat)
            if not st.bankrupt[seat]:
                self._manage(seat)
                if c.turn_end and not st.bankrupt[seat] and not self.over:
                    course.fire(self, c.turn_end, seat)
        except GameOver:
            pass
        self._next()

    def _manage(self, seat: int) -> None:
        """The player's decisions between rolls: one action at a time, until it passes."""
        agent = self.agents[seat]
        st = self.state
        for _ in range(MAX_ACTIONS):
            self.rule = "agent"
            action = agent.manage(self, seat)
            if action is None:
                return
            act.apply(self, seat, action)
            if st.bankrupt[seat] or self.over:
                return

    def _next(self) -> None:
        st = self.state
        n = st.players
        st.turn += 1
        if self.over:
            return
        seat = st.current + 1
        if seat == n:
            seat = 0
            st.round += 1
        bankrupt = st.bankrupt
        if bankrupt[seat]:
            for _ in range(n - 1):
                seat += 1
                if seat == n:
                    seat = 0
                    st.round += 1
                if not bankrupt[seat]:
                    break
        st.current = seat
        if st.turn >= self._turn_limit:
            if self._limit_reason == "time_limit" and self.rulebook.course.time_limit:
                endings.time_limit_reached(self)
            else:
                endings.at_turn_limit(self, self._limit_reason)

    def play(self) -> "Game":
        """Play until a rule ends the game or the turn cap is reached."""
        while not self.over:
            self.play_turn()
        return self

    # ------------------------------------------------------------ bankruptcy and the end

    def bankrupt(self, seat: int, creditor: int) -> None:
        """The player cannot pay: see endings.bankrupt."""
        endings.bankrupt(self, seat, creditor)

    def collect_pot(self, seat: int, pot: int) -> None:
        """The player takes everything in the pot (its index among the rulebook's pots)."""
        account = self.state.bank + 1 + pot
        amount = self.state.cash[account]
        if amount > 0:
            self.transfer(account, seat, amount, "pot")

    def finish(self, reason: str, winner: int | None) -> None:
        if self.over:
            return
        hooks = self.rulebook.course.game_ends
        if hooks and reason not in endings.NOT_ENDED_BY_RULE:
            course.fire(self, hooks, -1 if winner is None else winner)
        self.over = True
        self.end_reason = reason
        self.winner = winner
        self.rule = "end"
        self.emit("end", reason=reason, winner=winner)
