"""One game: the turn skeleton, its hook points, and the primitives rules are compiled into.

Money moves only through `transfer` (and `charge`, which raises funds and settles debts by
bankruptcy); randomness comes only from the game's own generator; every state change can be
written to an event log naming its cause. Every event the engine fires builds the `Firing`
(firing.py) of each rule's hook it fires, by that rule: `fn(game, firing)`; effects receive it
in turn. Agents are asked for decisions and every answer is validated (see actions.py).
"""

from __future__ import annotations

import json
import operator
import random
from typing import Callable, Final, Sequence

from mypy_extensions import mypyc_attr

from . import actions as act
from . import course, endings, tokens
from .endings import GameOver
from .firing import Firing
from .course import Course
from .holdings import Holdings
from .state import State
from .tables import (MAX_CHAIN, NOBODY, OTHER, OWN, Card, Effect, RentContext, Rulebook,
                     Space)
from .tally import Tally

# Final: constants the compiler writes in place, not names looked up as the code runs
BANK_NAME: Final = "bank"
DEFAULT_MAX_TURNS: Final = 2000
MAX_ACTIONS: Final = 200  # decisions one player may take between two rolls
QUIET_NEVER: Final = -(1 << 62)  # below any cash: an agent that made no promise is always asked
QUIET_ACCOUNT: Final = 1 << 62  # above any cash: the bank's and the pots' accounts have no agent
# Bounds on the loops the dice drive, so that every rulebook that checks clean ends (the
# checker warns of dice that reach them, W111). Past MAX_ROLLS rolls in one turn the game ends
# (`roll_limit`); after MAX_TIES tied throws for the first player, seat order decides.
MAX_ROLLS: Final = 100
MAX_TIES: Final = 100
# A game's seed is a 64-bit signed integer. random.Random keys an integer by its absolute
# value, so a negative seed is keyed by its 64-bit two's complement (seed_key): each seed of
# the range plays its own game, and a seed that is not negative keeps the key it always had.
MIN_SEED: Final = -(1 << 63)
MAX_SEED: Final = (1 << 63) - 1


def seed_key(seed: int) -> int:
    """The key of the generators of the game played from `seed` (MIN_SEED..MAX_SEED): the
    seed itself when it is not negative, else 2**64 + seed; ValueError outside the range."""
    if not MIN_SEED <= seed <= MAX_SEED:
        raise ValueError(f"the seed {seed} is not a 64-bit integer "
                         f"({MIN_SEED}..{MAX_SEED})")
    return seed & 0xFFFF_FFFF_FFFF_FFFF


def check_players(rulebook: Rulebook, players: int) -> None:
    """ValueError unless the rulebook is played by that many players (`set players`)."""
    low, high = rulebook.settings.players
    if not low <= players <= high:
        raise ValueError(f"the rulebook {rulebook.title!r} is for {low} to {high} players, "
                         f"not {players}")


# every outcome of a throw, whether it is a double and its total (Rulebook), and their number
Throws = tuple[tuple[tuple[int | str, ...], ...], tuple[bool, ...], tuple[int, ...], int]

# a hook with its direct form (Rulebook.direct), or None: (owners, rule, hook, direct); a
# doubles hook's is (times, rule, hook, direct), times None for every double
DirectHook = tuple[int, str, Effect, Effect | None]
DoublesDirect = tuple[int | None, str, Effect, Effect | None]
# a landing's hooks, by whose the space is (LANDED_BY): (rule, hook, direct) of the hooks whose
# owner filter takes it; () for a space without landing hooks
LandHook = tuple[str, Effect, Effect | None]
LandHooks = tuple[tuple[LandHook, ...], ...]
DirectTables = tuple[tuple[tuple[DirectHook, ...], ...], tuple[LandHooks, ...],
                     tuple[DoublesDirect, ...]]
# the index in a space's LandHooks: the space unowned, another player's, the player's own
LANDED_BY = (NOBODY, OTHER, OWN)


def _direct_tables(rb: Rulebook) -> DirectTables:
    """The passing, landing and doubles hooks of the rulebook, each with its direct form
    or None, the landing's split by owner filter. Made once per rulebook, again if its
    tables were replaced."""
    tables = (rb.pass_hooks, rb.land_hooks, rb.doubles_hooks)
    made = rb.memo.get("direct_tables")
    if made is not None and all(map(operator.is_, made[0], tables)):
        return made[1]
    direct = rb.direct
    out: DirectTables = (tuple(tuple((o, by, h, direct.get(h)) for o, by, h in hooks)
                 for hooks in rb.pass_hooks),
           tuple(tuple(tuple((by, h, direct.get(h)) for o, by, h in hooks if o & whose)
                       for whose in LANDED_BY) if hooks else ()
                 for hooks in rb.land_hooks),
           tuple((dh.times, dh.hook[1], dh.hook[2], direct.get(dh.hook[2]))
                 for dh in rb.doubles_hooks))
    rb.memo["direct_tables"] = (tables, out)
    return out


def _street_rents(rb: Rulebook) -> tuple[tuple[int, ...], ...]:
    """Per space, its rent table if it is a street, else (); made once per rulebook."""
    made = rb.memo.get("street_rents")
    if made is None:
        made = rb.memo["street_rents"] = tuple(sp.rents if sp.kind == "street" else ()
                                               for sp in rb.spaces)
    return made


_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _seat_orders(n: int) -> tuple[tuple[int, ...], ...]:
    """Per seat about to play, every seat of `n` in the order they act between turns (made
    once per number of players)."""
    orders = _ORDERS.get(n)
    if orders is None:
        orders = _ORDERS[n] = tuple(tuple((first + k) % n for k in range(n))
                                    for first in range(n))
    return orders


# per deck, per card: the direct forms of its effects, or None if one has none
CardDirects = tuple[tuple[tuple | None, ...], ...]


def _card_directs(rb: Rulebook) -> CardDirects:
    """Per deck and card, the direct forms of the card's effects (None unless every effect
    has one): a card drawn on a direct hook obeys them with the firing's fields."""
    made = rb.memo.get("card_directs")
    if made is not None and made[0] is rb.decks:
        return made[1]
    direct = rb.direct
    out: CardDirects = tuple(
        tuple(None if None in ds else ds
              for ds in (tuple(direct.get(e) for e in card.effects) for card in deck.cards))
        for deck in rb.decks)
    rb.memo["card_directs"] = (rb.decks, out)
    return out


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(Holdings):
    """A game of a compiled rulebook between seated agents, from a seed."""

    # slots keep attribute access fast however many attributes the game has
    __slots__ = (
        "settings", "agents", "seed", "rng", "over", "end_reason",
        "winner", "stop", "again", "last_roll", "dice_total", "last_double",
        "_depth", "_max_turns", "_turn_limit",
        "_limit_reason", "fine_account", "_claims", "_unpaid", "_first", "__weakref__",
        "_size", "_crossings", "_throws", "_pass_hooks", "_land_hooks", "_doubles_hooks",
        "_throw_extras", "_turn_extras", "tally", "between", "_laps_start", "_orders",
        "_laps_turn", "_laps_at",
        "_quiet", "_loud", "guards", "direct", "_card_directs", "_watched",
        "_street_rents", "_spaces", "_group_lots", "_course",
    )

    def __init__(
        self,
        rulebook: Rulebook,
        agents: Sequence,
        seed: int = 0,
        max_turns: int = DEFAULT_MAX_TURNS,
        log: Callable[[str], None] | None = None,
        tally: Tally | None = None,
    ):
        n = len(agents)
        self.seat_players(rulebook, n)
        s = rulebook.settings
        self.read_tables(rulebook)  # self.rulebook, and the tables the holdings read
        self.settings = s
        self.agents = list(agents)
        self.seed = seed
        self.rng = random.Random(seed_key(seed))
        # what `rulelang stats` counts (tally.py), from the setup on; None: nothing counted
        self.tally: Tally | None = tally
        self.log_to(log)
        self.over = False
        self.end_reason: str | None = None
        self.winner: int | None = None
        self.stop = False  # the current player's turn is interrupted (jail, bankruptcy)
        self.again = False  # the current player rolls once more
        self.between = False  # the players are acting between two turns (_between_turns)
        # per seat about to play, every seat in the order they act between turns
        self._orders = _seat_orders(n)
        # per seat: the cash up to which its agent passes between turns unasked while the
        # player is out of jail (pass_between); QUIET_NEVER: it is always asked (one entry per
        # account, QUIET_ACCOUNT for the bank and the pots)
        self._quiet = [QUIET_NEVER] * n + [QUIET_ACCOUNT] * (1 + len(rulebook.pots))
        # a seat may need asking between turns, in jail or holding more than its promise: set
        # by whatever may make it so (jail, a transfer, a promise), cleared by the window
        # between turns, which asks each such seat
        self._loud = True
        # the last throw of the dice, whatever threw them (firings carry their own throw)
        self.last_roll: tuple[int | str, ...] = ()
        self.dice_total = 0
        self.last_double = False
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
        self._unpaid = -1  # the seat whose `a player cannot pay` rules are running
        self._first = ("", False)  # the setup's first player: (by which rule, tie-break)
        # each player's laps when the current turn began, kept on its first lap counted:
        # up to date while `_laps_at` is `_laps_turn`, the turn begun last (play_turn)
        self._laps_start = [0] * n
        self._laps_turn = self._laps_at = -1
        # the rulebook's tables read on every throw and move, held here as typed fields
        self._size = rulebook.size
        self._crossings = rulebook.crossings
        self._throws: Throws = (rulebook.rolls, rulebook.doubles, rulebook.totals,
                                len(rulebook.rolls))
        self._spaces: tuple[Space, ...] = rulebook.spaces
        self._course: Course = rulebook.course  # the hooks of the game's course
        self._group_lots: tuple[tuple[int, ...], ...] = rulebook.group_lots
        # per space, a street's rent table, else (): the rent of every landing on a street
        self._street_rents: tuple[tuple[int, ...], ...] = _street_rents(rulebook)
        # each hook with its direct form (Rulebook.direct; None: none), which the engine
        # calls with the firing's fields instead of building the firing
        tables = _direct_tables(rulebook)
        self._pass_hooks: tuple[tuple[DirectHook, ...], ...] = tables[0]
        self._land_hooks: tuple[LandHooks, ...] = tables[1]
        self._doubles_hooks: tuple[DoublesDirect, ...] = tables[2]
        # the guards of the hooks of the game's course and of a throw
        self.guards: dict = rulebook.guards
        # the direct forms of the hooks of the game's course and of the cards' effects
        self.direct: dict = rulebook.direct
        self._card_directs: CardDirects = _card_directs(rulebook)
        # a throw fires more than the doubles rules: dice faces, `when a player rolls`,
        # triples, or what a face does after the move; or a tally counts the throws
        self._throw_extras = bool(rulebook.face_hooks or rulebook.roll_hooks
                                  or rulebook.triples_hooks or rulebook.after_face_hooks
                                  or tally is not None)
        c = rulebook.course
        # a turn does more than roll and manage: counted turns, rules at its start or end,
        # rules of a turn in jail; or a tally counts where its throws end
        self._turn_extras = bool(rulebook.count_turns or rulebook.turn_start_hooks
                                 or c.jail_turn or c.turn_end or tally is not None)
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
            turns_taken=[0] * n if rulebook.count_turns else [],
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

    def seat_players(self, rulebook: Rulebook, players: int) -> None:
        """ValueError unless the rulebook is played by that many players (check_players);
        an instrument that is no table of players (analysis.probe) overrides it."""
        check_players(rulebook, players)

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

    def emit(self, event: str, rule: str, **fields) -> None:
        """Write one event to the log, naming its cause `rule` (callers test `self._log`
        first on hot paths)."""
        if self._log is None:
            return
        record = {"turn": self.state.turn, "event": event}
        record.update(fields)
        record["rule"] = rule
        self._log(json.dumps(record, ensure_ascii=False, separators=(",", ":")))

    def _account_kind(self, account: int) -> str:
        """"player", "bank", or the pot's name: the parties of a money flow (tally.py)."""
        bank = self.state.bank
        if account < bank:
            return "player"
        return "bank" if account == bank else self.rulebook.pots[account - bank - 1]

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
            "setup",
            rulebook=rb.title,
            seed=self.seed,
            players=n,
            agents=[getattr(a, "name", type(a).__name__) for a in self.agents],
        )
        # `when the game starts` runs by stages: the decks, then the starting cash and the
        # characters, then the rules' other effects, then the first player (seat 0 unless a
        # rule draws it)
        c = rb.course
        if c.setup_first:
            course.fire(self, c.setup_first, -1)
        capital = rb.origins["starting_cash"]
        for seat in range(n):
            self.transfer(st.bank, seat, s.starting_cash, "starting cash", capital)
        tokens.setup(self)
        first, tie_break = "setup", False
        if c.setup_last:
            self._first = (first, tie_break)  # a rule's `the player with the highest roll starts`
            course.fire(self, c.setup_last, -1)
            first, tie_break = self._first
        if tie_break:
            self.emit("first_player", first, player=st.current, tie_break=True)
        else:
            self.emit("first_player", first, player=st.current)

    # ------------------------------------------------------------ money

    def log_to(self, log: Callable[[str], None] | None) -> None:
        """Write the game's events to `log` from now on (None: no log)."""
        self._log = log
        self._watched = log is not None or self.tally is not None

    def transfer(self, src: int, dst: int, amount: int, reason: str, rule: str) -> None:
        """Move money between two accounts, by `rule`: the only way money moves."""
        cash = self.state.cash
        cash[src] -= amount
        received = cash[dst] = cash[dst] + amount
        if received > self._quiet[dst]:  # richer than its promise: asked between turns
            self._loud = True
        if self._watched:  # a tally counts, or the log writes
            tally = self.tally
            if tally is not None:
                tally.flow(rule, self._account_kind(src), self._account_kind(dst), amount)
            if self._log:
                self.emit("transfer", rule, source=self.account_name(src),
                          to=self.account_name(dst), amount=amount, reason=reason)

    def charge(self, payer: int, creditor: int, amount: int, reason: str, rule: str) -> bool:
        """Make `payer` pay `amount` by `rule`, raising funds if short; bankrupt if it
        cannot."""
        st = self.state
        if amount <= 0:
            return True
        if st.cash[payer] < amount:
            self.raise_funds(payer, amount)
            if st.cash[payer] < amount:
                hooks = self._course.cannot_pay
                if hooks and self._unpaid != payer:
                    # `a player cannot pay` (not again for a debt its own rules run into)
                    outer, self._unpaid = self._unpaid, payer
                    try:
                        course.fire(self, hooks, payer, other=creditor, amount=amount)
                    finally:
                        self._unpaid = outer
                    if st.bankrupt[payer]:
                        return False
                if st.cash[payer] < amount:
                    self.bankrupt(payer, creditor, rule)
                    return False
        self.transfer(payer, creditor, amount, reason, rule)
        return True

    def raise_funds(self, seat: int, amount: int, debt: bool = True) -> None:
        """Ask the player to sell buildings or mortgage until it holds `amount` in cash. For
        a `debt` the engine, not the agent, decides that it cannot be paid: an agent that
        stops (None) while its sales and mortgages could still pay the whole amount
        (actions.means) has them made for it (actions.forced_raise); a debt larger than
        that may be given up at once. Otherwise (cash for a purchase) stopping gives up."""
        st = self.state
        agent = self.agents[seat]
        # every action sells or mortgages something, so this ends
        for _ in range(1 + 6 * len(self.rulebook.properties)):
            if st.cash[seat] >= amount or not act.can_raise(self, seat):
                return
            action = agent.raise_funds(self, seat, amount)
            if action is None:
                if not debt or act.means(self, seat) < amount:
                    return
                action = act.forced_raise(self, seat)
                if action is None:
                    return
            run = act.APPLY.get(type(action))  # act.apply, in line for a player in the game
            if run is None or st.bankrupt[seat]:
                act.apply(self, seat, action)  # its refusal
            else:
                run(self, seat, action)

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

    def laps_this_turn(self, seat: int) -> int:
        """The times the player passed GO since the current turn began (laps are counted
        only when a rule reads them); 0 for no player (-1: an unowned space's owner)."""
        laps = self.state.laps
        if self._laps_at != self._laps_turn or not 0 <= seat < len(laps):
            return 0
        return laps[seat] - self._laps_start[seat]

    def count_lap(self, seat: int) -> None:
        """One more lap for the player; the first of a turn keeps everyone's laps before it,
        those at the turn's start (laps_this_turn)."""
        st = self.state
        if self._laps_at != self._laps_turn:
            self._laps_start = st.laps[:]
            self._laps_at = self._laps_turn
        st.laps[seat] += 1

    def net_worth(self, seat: int) -> int:
        """The printed valuation of the short games (endings.valuation)."""
        return endings.valuation(self, seat)

    # ------------------------------------------------------------ dice and movement

    def roll(self, seat: int, rule: str) -> tuple[int | str, ...]:
        """Throw every die, by `rule`: one draw from the game's generator picks a whole
        outcome."""
        rolls, doubles, totals, count = self._throws
        i = int(self.rng.random() * count)
        dice = self.last_roll = rolls[i]
        self.dice_total = totals[i]
        self.last_double = doubles[i]
        if self._log:
            self.emit("roll", rule, player=seat, dice=list(dice))
        return dice

    def move_by(self, seat: int, steps: int, cause: Firing,
                rent: RentContext | None = None, passing: bool = True) -> None:
        """Move forward (passing spaces) or backward (passing nothing), then land: fire the
        rules of the space the player ends on. The move is `cause`'s (its rule and throw);
        `rent` is how a card changes the rent due where the player lands; `passing=False`:
        straight there, passing nothing (a move to a space of the player's choice)."""
        self._move(seat, steps, cause.rule, cause.dice, cause.total, rent, cause.streak,
                   passing)

    def _move(self, seat: int, steps: int, rule: str, dice: tuple, total: int,
              rent: RentContext | None, streak: int = 0, passing: bool = True) -> None:
        st = self.state
        start = st.position[seat]
        size = self._size
        if steps > 0 and passing:
            crossed = self._crossings[start][steps % (size + 1)]
            if crossed:
                # a `passes` rule that moves the player on is a link of the chain too
                self._depth += 1
                if self._depth > MAX_CHAIN:
                    self.chain_cut(seat, rule)
                deeds = st.owner
                pass_hooks = self._pass_hooks
                for q in crossed:
                    for _, by, hook, direct in pass_hooks[q]:
                        if direct is not None:
                            direct(self, seat, q, deeds[q], dice, total, by, None, streak)
                        else:
                            hook(self, Firing(seat, q, deeds[q], -1, dice, total, by, None,
                                              streak))
                        if self.stop:
                            self._depth -= 1
                            return
                self._depth -= 1
        pos = st.position[seat] = (start + steps) % size
        if self._log:
            self.emit("move", rule, player=seat, to=self.rulebook.spaces[pos].name,
                      steps=steps)
        hooks = self._land_hooks[pos]
        if not hooks:
            return
        # the landing's owner is the owner on landing: rent is owed only to whoever owned the
        # lot then, not to the winner of the auction this very landing held (QUAND LE JETON
        # TOMBE SUR UN BIEN SANS PROPRIÉTAIRE); a rule's owner filter is judged on it, before
        # its firing is built
        owner = st.owner[pos]
        outer = self._depth
        self._depth = outer + 1
        if outer >= MAX_CHAIN:
            self.chain_cut(seat, rule)
        for by, hook, direct in hooks[0 if owner < 0 else 2 if owner == seat else 1]:
            if direct is not None:
                direct(self, seat, pos, owner, dice, total, by, rent, streak)
            else:
                hook(self, Firing(seat, pos, owner, -1, dice, total, by, rent, streak))
            if self.stop:
                break
        self._depth = outer

    def chain_cut(self, seat: int, rule: str) -> None:
        """A chain of triggered effects reached MAX_CHAIN links: the game ends there."""
        self.emit("chain_cut", rule, player=seat, depth=self._depth)
        endings.at_bound(self, "chain_limit")

    def advance_to(self, seat: int, dest: int, cause: Firing,
                   rent: RentContext | None = None) -> None:
        """Move forward to `dest`; a player already there does not go round again."""
        start = self.state.position[seat]
        self._move(seat, (dest - start) % self.rulebook.size, cause.rule, cause.dice,
                   cause.total, rent, cause.streak)

    def advance_at(self, seat: int, dest: int, rule: str, dice: tuple, total: int,
                   rent: RentContext | None, streak: int) -> None:
        """advance_to for a cause of these fields, without its firing (a direct form's)."""
        self._move(seat, (dest - self.state.position[seat]) % self._size, rule, dice, total,
                   rent, streak)

    def move_at(self, seat: int, steps: int, rule: str, dice: tuple, total: int,
                streak: int) -> None:
        """move_by for a cause of these fields, without its firing (a direct form's)."""
        self._move(seat, steps, rule, dice, total, None, streak)

    def go_to_jail(self, seat: int, rule: str) -> None:
        """Straight to jail, by `rule`: no passing, no landing; the turn ends."""
        st = self.state
        st.position[seat] = self.rulebook.jail
        st.in_jail[seat] = True
        self._loud = True  # a prisoner is asked between turns
        st.jail_turns[seat] = 0
        self.again = False
        if seat == st.current:
            self.stop = True
        if self._log:
            self.emit("jail", rule, player=seat)
        if self._course.sent_to_jail:
            course.fire(self, self._course.sent_to_jail, seat)

    # ------------------------------------------------------------ landing primitives

    def offer(self, seat: int, pos: int, auction: bool, rule: str) -> None:
        """The player may buy an unowned property at its price; else the bank auctions it
        (both by `rule`). A player short of cash is offered the lot if its sales and
        mortgages could raise the price (mortgages and sales are allowed at any time): it
        raises the cash (raise_funds, not as a debt), and a player that falls short has
        declined."""
        st = self.state
        if st.owner[pos] >= 0:
            return
        sp = self._spaces[pos]
        c = self._course
        if c.offered and c.offered[pos]:
            course.fire(self, c.offered[pos], seat, pos)
            if st.bankrupt[seat] or self.over or st.owner[pos] >= 0:
                return
        price = sp.price
        if (st.cash[seat] >= price or act.means(self, seat) >= price) \
                and not (self.rulebook.permits["buy"] and self._buy_refused(seat, pos)) \
                and self.agents[seat].buy(self, seat, pos):
            if st.cash[seat] < price:
                self.raise_funds(seat, price, debt=False)
                if st.bankrupt[seat] or self.over:  # a rule of a mortgage or a sale
                    return
            if st.cash[seat] >= price:
                self.transfer(seat, st.bank, price, "purchase", rule)
                self.give_deed(pos, seat, rule)
                if c.bought and c.bought[pos]:
                    course.fire(self, c.bought[pos], seat, pos)
                return
        if auction:
            self.auction(pos, rule)

    def _buy_refused(self, seat: int, pos: int) -> bool:
        """A permission refuses the purchase: the player is not asked (the lot is declined,
        and auctioned if the rule says so); the log's `refused` names the permission's rule."""
        err = act.refused_by(self, seat, act.Buy(pos))
        if err is None:
            return False
        if self._log:
            self.emit("refused", err.rule, player=seat, action="buy",
                      space=self.rulebook.spaces[pos].name)
        return True

    def offer_here(self, f: Firing) -> None:
        """`buy or auction` on the space the player stands on."""
        self.offer(f.player, self.state.position[f.player], True, f.rule)

    def offer_here_no_auction(self, f: Firing) -> None:
        """`buy` on the space the player stands on; a declined lot stays with the bank."""
        self.offer(f.player, self.state.position[f.player], False, f.rule)

    def bidders(self) -> list[int]:
        """Players still in the game, starting with the current one, in turn order."""
        st = self.state
        n = st.players
        return [
            (st.current + i) % n for i in range(n) if not st.bankrupt[(st.current + i) % n]
        ]

    def auction(self, pos: int, rule: str) -> None:
        """Sell a bank-owned deed to the highest bidder; everyone may bid, from any price.
        The auction is `rule`'s (the rule that put the lot up)."""
        c = self._course
        winner, price = act.run_auction(self, act.Lot("deed", pos),
                                        self.settings.auction_min_bid, rule, None,
                                        c.auctioned[pos] if c.auctioned else ())
        if winner is not None and self.charge(winner, self.state.bank, price, "auction", rule):
            self.give_deed(pos, winner, rule)
            if c.bought and c.bought[pos]:
                course.fire(self, c.bought[pos], winner, pos)

    def rent_due(self, pos: int, f: Firing) -> int:
        """The rent the space's scheme gives now (0 on a mortgaged or unowned lot): a
        utility's is by the total of the firing's throw, or of a new throw for a card's
        `rent dice xN`; a card's `rent xN` multiplies it (and the rulebook's `rent is due`
        rules, in `pay rent`: a whole group's double rent)."""
        return self.rent_at(pos, f.total, f.rent, f.rule)

    def rent_at(self, pos: int, total: int, ctx: RentContext | None, rule: str) -> int:
        """rent_due of a firing whose throw's total is `total`, its rent `ctx`, its rule
        `rule`."""
        st, rb = self.state, self.rulebook
        owner = st.owner[pos]
        if owner < 0 or st.mortgaged[pos]:
            return 0
        sp = self._spaces[pos]
        kind = sp.kind
        if kind == "street":
            if st.hotels[pos]:
                rent = sp.rents[-1]
            else:
                rent = sp.rents[st.houses[pos]]
        else:
            held = 0
            for q in self._groups[sp.group]:
                if st.owner[q] == owner:
                    held += 1
            if kind == "railroad":
                rent = sp.rents[held - 1]
            else:
                mult = sp.multipliers[held - 1]
                if ctx is not None and ctx.dice_multiplier is not None:
                    mult = ctx.dice_multiplier
                    if not ctx.thrown:  # else the firing's throw is that new throw
                        self.roll(st.current, rule)
                        total = self.dice_total
                rent = mult * total
        if ctx is not None:
            rent *= ctx.factor
        return rent

    def pay_rent(self, f: Firing, factor: int = 1, by: list | None = None) -> None:
        """`pay rent` on the space the player stands on: the owner on landing (the
        firing's) claims the rent, by the firing's rule (the hot path of every game). `by`:
        the (rule, factor) of the `when rent is due` rules that multiplied it, each logged
        as a `rent_factor` line before the rent is paid."""
        self.pay_rent_at(f.player, f.owner, f.total, f.rule, f.rent, factor, by)

    def pay_rent_at(self, seat: int, landed: int, total: int, rule: str,
                    ctx: RentContext | None, factor: int = 1, by: list | None = None) -> None:
        """pay_rent of a firing of player `seat`, owner on landing `landed`, throw total
        `total`, rule `rule` and rent `ctx`, without the firing (a direct hook's)."""
        st = self.state
        pos = st.position[seat]
        owner = st.owner[pos]
        if owner < 0 or owner == seat or owner != landed:
            return
        if not self._claims[owner]:
            if self._log:
                self.emit("rent_unclaimed", rule, player=seat, owner=owner)
            return
        rents = self._street_rents[pos]
        if rents and not st.mortgaged[pos]:
            # rent_at's street, in line: the hot path of every game
            rent = rents[-1] if st.hotels[pos] else rents[st.houses[pos]]
            if ctx is not None:
                rent *= ctx.factor
            rent *= factor
        else:
            rent = self.rent_at(pos, total, ctx, rule) * factor
        if rent:
            if by and self._log:
                for by_rule, mult in by:
                    self.emit("rent_factor", by_rule, player=seat, owner=owner, factor=mult)
            # through `transfer` (`charge` when short) however the game is watched (log,
            # tally or neither): the invariants checked on the log hold the path run without
            if st.cash[seat] >= rent:
                self.transfer(seat, owner, rent, "rent", rule)
            else:
                self.charge(seat, owner, rent, "rent", rule)

    def pay_choice(self, f: Firing, options: tuple) -> None:
        """Pay one of several amounts, chosen before computing (the 1961 income tax)."""
        self.pay_choice_at(f.player, f.rule, options)

    def pay_choice_at(self, seat: int, rule: str, options: tuple) -> None:
        """pay_choice for the player `seat`, by `rule`."""
        choice = self.agents[seat].tax(self, seat, options)
        if not isinstance(choice, int) or not 0 <= choice < len(options):
            raise act.IllegalAction(rule, f"choose one of {len(options)} options")
        kind, value = options[choice]
        amount = value if kind == "money" else self.worth(seat) * value // 100
        if self._log:
            self.emit("tax_choice", rule, player=seat, choice=f"{kind}:{value}",
                      amount=amount)
        self.charge(seat, self.fine_account, amount, "tax", rule)

    def pay_per_building(self, f: Firing, per_house: int, per_hotel: int) -> None:
        self.pay_per_building_at(f.player, per_house, per_hotel, f.rule)

    def pay_per_building_at(self, seat: int, per_house: int, per_hotel: int,
                            rule: str) -> None:
        """pay_per_building for the player `seat`, by `rule`."""
        st = self.state
        houses = hotels = 0
        for pos in self.rulebook.properties:
            if st.owner[pos] == seat:
                houses += st.houses[pos]
                hotels += st.hotels[pos]
        self.charge(seat, self.fine_account, houses * per_house + hotels * per_hotel,
                    "repairs", rule)

    def pay_each(self, f: Firing, amount: int, collect: bool) -> None:
        """Pay every other player `amount`, or collect it from each of them; a player who
        goes bankrupt on the way (a payer's deeds can bring interest due) takes no further
        part."""
        self.pay_each_at(f.player, amount, collect, f.rule)

    def pay_each_at(self, seat: int, amount: int, collect: bool, rule: str) -> None:
        """pay_each for the player `seat`, by `rule`."""
        st = self.state
        for other in self.bidders():
            if st.bankrupt[seat]:
                return
            if other == seat or st.bankrupt[other]:
                continue
            if collect:
                self.charge(other, seat, amount, "card", rule)
            else:
                self.charge(seat, other, amount, "card", rule)

    def draw(self, f: Firing, deck_index: int) -> None:
        """Take the top card; put it under the deck (or keep it) and obey it: its effects
        get the firing of the draw, by the card."""
        card = self._take_card(f.player, f.rule, deck_index)
        if card is None:
            return
        by_card = f.by_card(card.rule)
        for effect in card.effects:
            effect(self, by_card)
            if self.stop:
                return

    def draw_at(self, seat: int, space: int, owner: int, dice: tuple, total: int, rule: str,
                streak: int, deck_index: int) -> None:
        """draw, for the firing of a landing, a passing or doubles with these fields (a
        direct hook's): the card's firing is built only for a card with effects to obey."""
        deck = self.state.decks[deck_index]
        top = deck[0] if deck else -1  # the card taken
        card = self._take_card(seat, rule, deck_index)
        if card is None or not card.effects:
            return
        directs = self._card_directs[deck_index][top]
        if directs is not None:  # the card's firing is a card's: its rent is its own
            by = card.rule
            for direct in directs:
                direct(self, seat, space, owner, dice, total, by, None, streak)
                if self.stop:
                    return
            return
        by_card = Firing(seat, space, owner, -1, dice, total, card.rule, None, streak)
        for effect in card.effects:
            effect(self, by_card)
            if self.stop:
                return

    def _take_card(self, seat: int, rule: str, deck_index: int) -> Card | None:
        """The player takes the top card, by `rule`, and puts it under the deck or keeps
        it; the card to obey, or None (an empty deck, a card kept, or a `card is drawn` rule
        that ended the game or the player)."""
        st = self.state
        deck = st.decks[deck_index]
        if not deck:
            return None
        card_index = deck.pop(0)
        card = self.rulebook.decks[deck_index].cards[card_index]
        if self._log:
            self.emit("draw", rule, player=seat, deck=self.rulebook.decks[deck_index].name,
                      card=card.id)
        drawn = self._course.card_drawn
        if drawn and drawn[deck_index]:
            course.fire(self, drawn[deck_index], seat, card_index)
            if st.bankrupt[seat] or self.over:
                deck.append(card_index)  # the card goes back under the deck, unobeyed
                return None
        if card.keep:
            st.jail_cards[seat].append((deck_index, card_index))
            return None
        deck.append(card_index)
        return card

    # ------------------------------------------------------------ jail

    def _jail_turn(self, seat: int) -> None:
        st, s, rb = self.state, self.settings, self.rulebook
        agent = self.agents[seat]
        choice = agent.jail(self, seat)
        if choice == "card":
            if not st.jail_cards[seat]:
                raise act.IllegalAction(rb.origins["jail_fine"],
                                        "the player holds no Get Out of Jail Free card")
            act.permitted(self, seat, act.USE_CARD)
            deck_index, card_index = st.jail_cards[seat].pop(0)
            st.decks[deck_index].append(card_index)
            self._free(seat, "card", rb.decks[deck_index].cards[card_index].rule)
            if not self.stop:
                self._rolls(seat)
            return
        if choice == "pay":
            paid = rb.origins["jail_fine"]
            if st.cash[seat] < s.jail_fine:
                raise act.IllegalAction(paid, "not enough cash to pay the fine")
            act.permitted(self, seat, act.PAY_FINE)
            self.transfer(seat, self.fine_account, s.jail_fine, "jail fine", paid)
            self._free(seat, "fine", paid)
            if not self.stop:
                self._rolls(seat)
            return
        if choice != "roll":
            raise act.IllegalAction(rb.origins["jail_fine"], f"unknown jail choice {choice!r}")
        # counted once the choice is valid: a refusal changes nothing; never past the last
        # turn (a player alone in the game, who is never made bankrupt, may fail to pay)
        turns = st.jail_turns[seat] + 1
        st.jail_turns[seat] = turns if turns < s.jail_turns else s.jail_turns
        dice = self.roll(seat, "turn")
        if self.tally is not None:
            self.tally.thrown()
        total = self.dice_total
        streak = 1 if self.last_double else 0
        self._faces(seat, dice, total, streak)
        if self.stop:
            return
        freed = False
        if rb.jail_roll_hooks:
            self._rolled(seat, rb.jail_roll_hooks, dice, total, streak)
            if self.stop:
                return
            freed = not st.in_jail[seat]  # a rule let the player out: it moves by the throw
        if freed:
            pass
        elif st.jail_turns[seat] >= s.jail_turns:
            # no rule let the player out after its last turn (the rulebooks' `pay the fine,
            # leave jail` does, before this): the engine's own exit
            forced = rb.origins["jail_turns"]
            if not self.charge(seat, self.fine_account, s.jail_fine, "jail fine", forced):
                return
            self._free(seat, "forced", forced)
            if self.stop:
                return
        else:
            if rb.after_face_hooks:
                tokens.faces_after(self, seat, dice, total)
            return
        self._move(seat, total, "turn", dice, total, None, streak)
        if rb.after_face_hooks:
            tokens.faces_after(self, seat, dice, total)

    def _free(self, seat: int, how: str, rule: str) -> None:
        self.state.in_jail[seat] = False
        self.state.jail_turns[seat] = 0
        if self._log:
            self.emit("free", rule, player=seat, by=how)
        if self._course.leaves_jail:
            course.fire(self, self._course.leaves_jail, seat)

    # ------------------------------------------------------------ the turn

    def _thrown(self, seat: int, dice: tuple, total: int, rule: str,
                streak: int = 0) -> Firing:
        """The firing of a throw, by `rule`: where the player stands when it is thrown, and
        the doubles thrown this turn, this throw included."""
        pos = self.state.position[seat]
        return Firing(seat, pos, self.state.owner[pos], -1, dice, total, rule, None, streak)

    def _faces(self, seat: int, dice: tuple, total: int, streak: int = 0) -> None:
        for die, face, (_, rule, hook) in self.rulebook.face_hooks:
            if dice[die] == face:
                hook(self, self._thrown(seat, dice, total, rule, streak))
                if self.stop:
                    return

    def _rolled(self, seat: int, hooks: tuple, dice: tuple, total: int, streak: int) -> None:
        """`when a player rolls`: each rule on the throw, before the pawn moves; a rule
        whose conditions fail on the throw's fields (Rulebook.guards) builds no firing."""
        guards = self.guards
        st = self.state
        for _, rule, hook in hooks:
            guard = guards.get(hook)
            if guard is not None:
                pos = st.position[seat]
                if not guard(self, seat, pos, st.owner[pos], dice, total, rule, None, streak):
                    continue
            hook(self, self._thrown(seat, dice, total, rule, streak))
            if self.stop:
                return

    def _rolls(self, seat: int) -> None:
        """Roll, move and obey, again while a rule says so; the throws and their moves are
        the turn's."""
        rolls, is_double, totals, count = self._throws
        rand = self.rng.random
        doubles = 0
        rolled = 0  # the rolls of this turn that said roll again (MAX_ROLLS)
        extras = self._throw_extras
        while True:
            self.again = False
            i = int(rand() * count)
            dice = self.last_roll = rolls[i]
            total = self.dice_total = totals[i]
            if self._log:
                self.emit("roll", "turn", player=seat, dice=list(dice))
            if is_double[i]:
                doubles += 1
                streak = doubles  # the doubles in a row, this one last
            else:
                streak = 0
            if extras:
                rb = self.rulebook
                if self.tally is not None:
                    self.tally.thrown()
                if rb.face_hooks:
                    self._faces(seat, dice, total, streak)
                    if self.stop:
                        return
                if rb.roll_hooks:
                    self._rolled(seat, rb.roll_hooks, dice, total, streak)
                    if self.stop:
                        return
            if streak:
                for times, by, hook, direct in self._doubles_hooks:
                    if times is None or times == doubles:
                        pos = self.state.position[seat]  # the firing of the throw (_thrown)
                        if direct is not None:
                            direct(self, seat, pos, self.state.owner[pos], dice, total, by,
                                   None, doubles)
                        else:
                            hook(self, Firing(seat, pos, self.state.owner[pos], -1, dice,
                                              total, by, None, doubles))
                        if self.stop:
                            break
            if extras and self.rulebook.triples_hooks and self.rulebook.triples[i] \
                    and not self.stop:
                for _, by, hook in self.rulebook.triples_hooks:
                    hook(self, self._thrown(seat, dice, total, by, streak))
                    if self.stop:
                        break
            if not self.stop:
                self._move(seat, total, "turn", dice, total, None, streak)
            if extras and self.rulebook.after_face_hooks:
                tokens.faces_after(self, seat, dice, total)
            if self.stop or not self.again:
                return
            if self.tally is not None:
                self.tally.ended(self.state.position[seat], self.state.in_jail[seat])
            rolled += 1
            if rolled >= MAX_ROLLS:
                endings.at_bound(self, "roll_limit")

    def play_turn(self) -> None:
        """Between turns, every player's actions; then one player's turn: all its rolls,
        then its decisions."""
        if self.over:
            return
        st = self.state
        seat = st.current
        self.stop = False
        self._depth = 0
        plays = not st.bankrupt[seat]  # a player made bankrupt out of its turn plays none
        # between two turns every player's actions, unless every seat is out of jail and
        # quiet (pass_between): none to ask
        if self._loud and st.turn:
            try:
                self._between_turns(seat)
            except GameOver:
                pass
            plays = plays and not (self.over or st.bankrupt[seat])  # a debt of the window
            self.stop = False
        if plays:  # the player's turn: all its rolls, then its decisions
            self._laps_turn = st.turn  # no lap counted yet this turn (count_lap)
            extras = self._turn_extras
            try:
                if extras:  # turns counted, rules of the turn's start, of a turn in jail, a tally
                    self._extras_and_rolls(seat)
                    self._throw_ended(seat)
                    if st.in_jail[seat]:  # still a prisoner: asked between turns
                        self._loud = True
                elif st.in_jail[seat]:
                    self._jail_turn(seat)
                    if st.in_jail[seat]:  # still a prisoner: asked between turns
                        self._loud = True
                else:
                    self._rolls(seat)
                if not st.bankrupt[seat]:
                    # the player's decisions between rolls: one action at a time, until it passes
                    agent = self.agents[seat]
                    action = agent.manage(self, seat)
                    taken = 0
                    while action is not None:
                        run = act.APPLY.get(type(action))  # act.apply, in line
                        if run is None:
                            act.apply(self, seat, action)  # its refusal
                        else:
                            run(self, seat, action)
                        taken += 1
                        if st.bankrupt[seat] or self.over or taken >= MAX_ACTIONS:
                            break
                        action = agent.manage(self, seat)
                    if extras:
                        turn_end = self.rulebook.course.turn_end
                        if turn_end and not st.bankrupt[seat] and not self.over:
                            course.fire(self, turn_end, seat)
            except GameOver:
                pass
        # the turn is over: the next player still in the game, and the bounds
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

    def _extras_and_rolls(self, seat: int) -> None:
        """A turn's start and throws when the rulebook counts turns or has rules of the
        turn's start or of a turn in jail: those, then the throws (or a turn in jail)."""
        st = self.state
        if self.rulebook.count_turns:
            taken = st.turns_taken
            if len(taken) < st.players:  # a game saved before turns were counted
                taken.extend([0] * (st.players - len(taken)))
            taken[seat] += 1
        for _, rule, hook in self.rulebook.turn_start_hooks:
            pos = st.position[seat]
            hook(self, Firing(seat, pos, st.owner[pos], -1, (), 0, rule, None))
        c = self._course
        if self.stop:
            return
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

    def _throw_ended(self, seat: int) -> None:
        """The turn's last throw is over: the tally counts where it left the player."""
        tally = self.tally
        if tally is not None:
            if self.state.bankrupt[seat]:
                tally.dropped()
            else:
                tally.ended(self.state.position[seat], self.state.in_jail[seat])

    def _between_turns(self, first: int) -> None:
        """Between two turns every player still in the game, in seat order from the player
        about to play (a prisoner too), may build, sell, mortgage, lift and trade (004
        MAISONS, HYPOTHÈQUES « en tout temps »; 000 « entre les tours des autres joueurs »;
        003 N'ATTENDEZ PAS VOTRE TOUR): each agent's `between` answers one action at a
        time until it passes. An agent that promised to pass (pass_between) is not asked
        while its promise holds."""
        st = self.state
        agents, bankrupt, cash, in_jail = self.agents, st.bankrupt, st.cash, st.in_jail
        quiet = self._quiet
        self.between = True
        self._loud = False  # until a seat is left in jail or richer than its promise
        try:
            for seat in self._orders[first]:
                # the common case first: a quiet seat out of jail
                if cash[seat] <= quiet[seat] and not in_jail[seat] or bankrupt[seat]:
                    continue
                action = agents[seat].between(self, seat)
                if action is not None:
                    self._acts_between(seat, action)
                    if self.over:
                        return
                # asked again next time: richer than its promise, or a prisoner (the player
                # about to play, once its turn in jail is over: play_turn)
                if cash[seat] > quiet[seat] or in_jail[seat] and seat != first:
                    self._loud = True
        finally:
            self.between = False

    def pass_between(self, seat: int, cash: int) -> None:
        """The seat's agent promises that `between` answers None, and changes nothing of its
        own, while the player is out of jail and holds at most `cash`: until then the game
        does not ask it (QUIET_NEVER, the default: always asked). The promise is the agent's
        own to keep; a new one replaces it."""
        self._quiet[seat] = cash
        if self.state.cash[seat] > cash:
            self._loud = True

    def _acts_between(self, seat: int, action) -> None:
        """The player's actions between turns, from its first, until it passes."""
        agent = self.agents[seat]
        bankrupt = self.state.bankrupt
        taken = 0
        while action is not None:
            act.apply_between(self, seat, action)
            taken += 1
            if bankrupt[seat] or self.over or taken >= MAX_ACTIONS:
                return
            action = agent.between(self, seat)

    def play(self) -> "Game":
        """Play until a rule ends the game or the turn cap is reached."""
        while not self.over:
            self.play_turn()
        return self

    # ------------------------------------------------------------ bankruptcy and the end

    def bankrupt(self, seat: int, creditor: int, rule: str) -> None:
        """The player cannot pay a debt of `rule`: see endings.bankrupt."""
        endings.bankrupt(self, seat, creditor, rule)

    def collect_pot(self, f: Firing, pot: int, percent: int = 100) -> None:
        """The player takes everything in the pot (its index among the rulebook's pots), or
        that share of it, rounded down."""
        account = self.state.bank + 1 + pot
        amount = self.state.cash[account] * percent // 100
        if amount > 0:
            self.transfer(account, f.player, amount, "pot", f.rule)

    def finish(self, reason: str, winner: int | None, rule: str) -> None:
        """The game is over, for `reason`, by `rule` (a rule's name, the provenance of the
        setting that ended it, or the engine's bound)."""
        if self.over:
            return
        hooks = self._course.game_ends
        if hooks and reason not in endings.NOT_ENDED_BY_RULE:
            course.fire(self, hooks, -1 if winner is None else winner)
        self.over = True
        self.end_reason = reason
        self.winner = winner
        self.emit("end", rule, reason=reason, winner=winner)
