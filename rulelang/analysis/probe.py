"""Run a compiled rulebook's hooks on a stand-in game and record what they do to the pawn.

The rules of a compiled rulebook are closures: the analysis does not read them, it runs them.
`Probe` is a `Game` whose pawn primitives (a move, going to jail, drawing a card) are recorded
as `Step`s instead of being carried out, so that a landing, a throw or a card is reduced to
what it does to the player's position; everything else (money, deeds, tokens) happens as in
a game, on a board reset before each probe. A rule that asks the player to choose is recorded
too: the analysis tries each answer. A rule whose effect on the pawn depends on the state of
the game (who owns what, laps, tokens) shows as probes that disagree between `SCENARIOS`.
"""

from __future__ import annotations

from attrs import frozen

from ..engine.agents import Agent
from ..engine.endings import GameOver
from ..engine.firing import Firing
from ..engine.game import Game
from ..engine.tables import NOBODY, OTHER, OWN, RentContext, Rulebook

RICH = 1 << 40  # cash no probe runs out of: no debt ends in a bankruptcy
# the states a probe is run in: nothing owned, no lap, tokens where they start; everything
# owned by the other player, a lap done, every token on the space; everything the player's own
SCENARIOS = ("bank", "other", "own")


@frozen
class Step:
    """One thing a rule did to the pawn: "move" (to dest, forward by steps, passing or not,
    with a card's rent context), "jail" (sent to jail) or "draw" (a card of deck `deck`)."""

    kind: str
    rule: str
    dest: int = -1
    steps: int = 0
    passing: bool = True
    rent: RentContext | None = None
    deck: int = -1


@frozen
class Probed:
    """What one probe saw: the steps in order, whether the player rolls again, whether the
    player left jail, the rules that asked a choice, and whether a rule ended the game."""

    steps: tuple[Step, ...]
    again: bool = False
    freed: bool = False
    asked: tuple[str, ...] = ()
    ended: bool = False


class _Stand(Agent):
    """A player who buys nothing, bids nothing and answers a choice as the probe scripts."""

    name = "probe"

    def __init__(self) -> None:
        self.answer = 0
        self.asked: list[str] = []
        self.options = 0  # the most options a choice offered

    def choose(self, game, seat, choice):
        self.asked.append(choice.rule)
        self.options = max(self.options, len(choice.options))
        return min(self.answer, len(choice.options) - 1)


class Probe(Game):
    """A two-seat game of the rulebook in which seat 0's pawn primitives are recorded."""

    def __init__(self, rulebook: Rulebook):
        self.steps: list[Step] = []
        self.throw: int | None = None  # a scripted throw for `roll` (index into rolls)
        self.rolled = 0  # throws asked since the last reset
        self.stand = _Stand()
        super().__init__(rulebook, [self.stand, _Stand()], seed=0, max_turns=1 << 30)
        rb = rulebook
        self._start_tokens = list(self.state.tokens)
        self._owners = {name: [owner if sp.is_property else -1 for sp in rb.spaces]
                        for name, owner in (("bank", -1), ("other", 1), ("own", 0))}
        self._zeros = [0] * rb.size
        self._unpledged = [False] * rb.size
        self._full_decks = [list(range(len(d.cards))) for d in rb.decks]

    def seat_players(self, rulebook: Rulebook, players: int) -> None:
        """Two seats whatever the rulebook's `set players`: the probe is no table of players
        (the pawn of seat 0, and seat 1 as the other owner)."""

    # ------------------------------------------------------------ the recorded primitives

    def _move(self, seat, steps, rule, dice, total, rent, streak=0, passing=True):
        st = self.state
        dest = (st.position[seat] + steps) % self.rulebook.size
        self.steps.append(Step("move", rule, dest, steps, passing and steps > 0, rent))
        st.position[seat] = dest

    def move_by(self, seat, steps, cause, rent=None, passing=True):
        self._move(seat, steps, cause.rule, cause.dice, cause.total, rent, cause.streak,
                   passing)

    def advance_to(self, seat, dest, cause, rent=None):
        start = self.state.position[seat]
        self._move(seat, (dest - start) % self.rulebook.size, cause.rule, cause.dice,
                   cause.total, rent, cause.streak)

    def go_to_jail(self, seat, rule):
        self.steps.append(Step("jail", rule))
        self.state.in_jail[seat] = True
        self.again = False
        self.stop = True

    def draw(self, f, deck_index):
        self.steps.append(Step("draw", f.rule, deck=deck_index))

    def roll(self, seat, rule):
        self.rolled += 1
        if self.throw is None:
            return super().roll(seat, rule)
        i = self.throw
        dice = self.last_roll = self.rulebook.rolls[i]
        self.dice_total = self.rulebook.totals[i]
        self.last_double = self.rulebook.doubles[i]
        return dice

    # ------------------------------------------------------------ the board between probes

    def reset(self, pos: int, scenario: str = "bank", in_jail: bool = False,
              jail_turns: int = 0) -> None:
        """Seat 0 on `pos`, everything else as the scenario says."""
        st, rb = self.state, self.rulebook
        st.current = 0
        st.position[0], st.position[1] = pos, rb.go
        st.in_jail[0], st.in_jail[1] = in_jail, False
        st.jail_turns[0], st.jail_turns[1] = jail_turns, 0
        st.jail_cards[0].clear()
        st.jail_cards[1].clear()
        st.bankrupt[0] = st.bankrupt[1] = False
        st.cash[0] = st.cash[1] = RICH
        st.owner[:] = self._owners[scenario]
        st.houses[:] = st.hotels[:] = self._zeros
        st.mortgaged[:] = self._unpledged
        st.laps[0] = 0 if scenario == "bank" else 1
        if st.tokens:
            st.tokens[:] = self._start_tokens if scenario == "bank" else [pos] * len(st.tokens)
        for deck, full in zip(st.decks, self._full_decks):
            deck[:] = full
        self.refresh_views()
        self.over = False
        self.stop = self.again = False
        self._depth = 0
        self.steps = []
        self.throw = None
        self.stand.asked = []
        self.stand.options = 0
        self.rolled = 0

    def _result(self, freed: bool = False, ended: bool = False) -> Probed:
        return Probed(tuple(self.steps), self.again, freed, tuple(self.stand.asked), ended)

    def _whose(self) -> int:
        owner = self.state.owner[self.state.position[0]]
        return NOBODY if owner < 0 else OWN if owner == 0 else OTHER

    # ------------------------------------------------------------ the probes

    def land(self, pos: int, roll: int, streak: int, rent: RentContext | None,
             scenario: str = "bank", answer: int = 0) -> Probed:
        """The rules of landing on `pos` after throw `roll`, as Game._move fires them."""
        self.reset(pos, scenario)
        self.stand.answer = answer
        rb, st = self.rulebook, self.state
        dice, total = rb.rolls[roll], rb.totals[roll]
        owner = st.owner[pos]
        whose = self._whose()
        ended = False
        try:
            for owners, by, hook in rb.land_hooks[pos]:
                if owners & whose:
                    hook(self, Firing(0, pos, owner, -1, dice, total, by, rent, streak))
                    if self.stop:
                        break
        except GameOver:
            ended = True
        return self._result(ended=ended)

    def card(self, deck: int, card: int, pos: int, roll: int, streak: int,
             scenario: str = "bank", answer: int = 0) -> Probed:
        """The effects of a card drawn on `pos` after throw `roll`, as Game.draw runs them."""
        self.reset(pos, scenario)
        self.stand.answer = answer
        rb, st = self.rulebook, self.state
        c = rb.decks[deck].cards[card]
        f = Firing(0, pos, st.owner[pos], -1, rb.rolls[roll], rb.totals[roll], c.rule, None,
                   streak, card=card)
        ended = False
        try:
            drawn = rb.course.card_drawn
            if drawn and drawn[deck]:
                from ..engine import course

                course.fire(self, drawn[deck], 0, card=card)
            if not self.over:
                for effect in c.effects:
                    effect(self, f)
                    if self.stop:
                        break
        except GameOver:
            ended = True
        return self._result(ended=ended)

    def hooks(self, hooks, pos: int, roll: int, streak: int, scenario: str = "bank",
              in_jail: bool = False, jail_turns: int = 0, answer: int = 0) -> Probed:
        """Hooks of a throw (`(owners, rule, fn)`), in order, as Game._rolled fires them; the
        result says whether the player left jail (for the throws in jail)."""
        self.reset(pos, scenario, in_jail, jail_turns)
        self.stand.answer = answer
        rb, st = self.rulebook, self.state
        dice, total = rb.rolls[roll], rb.totals[roll]
        ended = False
        try:
            for _, by, hook in hooks:
                hook(self, Firing(0, pos, st.owner[pos], -1, dice, total, by, None, streak))
                if self.stop:
                    break
        except GameOver:
            ended = True
        return self._result(freed=in_jail and not st.in_jail[0], ended=ended)

    def passing(self, pos: int) -> Probed:
        """The rules on passing `pos`."""
        return self.hooks(self.rulebook.pass_hooks[pos], pos, 0, 0)

    def rent_board(self, pos: int, level: tuple[str, int]) -> None:
        """The board of a rent probe: `pos` owned by the other player at `level`
        (analysis.markov.levels), seat 0 on it."""
        self.reset(pos, "bank")
        rb, st = self.rulebook, self.state
        kind, count = level
        sp = rb.spaces[pos]
        members = rb.groups[sp.group] if sp.group >= 0 else (pos,)
        if kind == "alone":
            held = (pos,)
        elif kind == "held":  # pos and the next count - 1 lots of its group
            held = (pos, *[q for q in members if q != pos][:count - 1])
        else:
            held = members
        for q in held:
            st.owner[q] = 1
        for q in members:
            if kind == "houses":
                st.houses[q] = count
            elif kind == "hotel":
                st.hotels[q] = 1
        self.refresh_views()
        self._rent_board = (pos, level, list(st.owner), list(st.houses), list(st.hotels))
        self._new_throw: dict = {}  # rent context -> the rent averaged over a new throw

    def rent(self, roll: int, rent: RentContext | None) -> float:
        """What the other player receives when seat 0 lands on the rent board's space after
        throw `roll` with a card's rent context, by the rulebook's landing rules; averaged
        over the new throw when they throw the dice (a card's `rent dice xN`: the rent is
        the new throw's, worked out once per context, whatever throw brought the player)."""
        known = self._new_throw.get(rent)
        if known is not None:
            return known
        self.rolled = 0
        received = self._rent(roll, rent, 0)
        if not self.rolled:
            return received
        throws = range(len(self.rulebook.rolls))
        mean = self._new_throw[rent] = sum(self._rent(roll, rent, t) for t in throws) / len(throws)
        return mean

    def _rent(self, roll: int, rent: RentContext | None, throw: int) -> int:
        rb, st = self.rulebook, self.state
        pos, level, owner, houses, hotels = self._rent_board
        if st.owner != owner or st.houses != houses or st.hotels != hotels:
            self.rent_board(pos, level)  # a rule changed the board: set it again
        st.position[0] = pos
        st.cash[0] = st.cash[1] = RICH
        st.bankrupt[0] = st.bankrupt[1] = False
        self.over = self.stop = self.again = False
        self._depth = 0
        self.throw = throw
        dice, total = rb.rolls[roll], rb.totals[roll]
        streak = 1 if rb.doubles[roll] else 0
        try:
            for owners, by, hook in rb.land_hooks[pos]:
                if owners & OTHER:
                    hook(self, Firing(0, pos, 1, -1, dice, total, by, rent, streak))
                    if self.stop:
                        break
        except GameOver:
            pass
        return st.cash[1] - RICH
