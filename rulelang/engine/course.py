"""The events of the game's course and the effects only they (or the setup) carry.

`Course` holds, for one rulebook, the compiled hooks of every event of vocab/game_events.py:
each an empty tuple when no rule waits for it, so that the engine's test at each firing place
(`if rb.course.turn_end:`) is all an unused event costs. The events log nothing themselves;
`fire` runs a tuple of hooks for one player, each with a `Firing` by its rule (the space, the
creditor, the debt, the building or the card of the event), never for a bankrupt player nor
once the game is over, and puts back the turn's `stop` after them.

The bankruptcy, time-limit and shortage rules are not effects run in turn but instructions
the engine reads (`Instruction`): their conditions are tested, their effects say how the
engine settles the bankruptcy, ends the game or auctions the building.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import attrs
from attrs import frozen

from .firing import Firing, fire  # fire: the engine runs the hooks of the course with it

if TYPE_CHECKING:
    from .game import Game

Hook = Callable  # (owners, rule, fn(game, firing))


@frozen
class Instruction:
    """One rule read by the engine as an instruction: its name, its conditions (each
    `test(game, firing)`), whom it applies to, and what it says."""

    rule: str
    tests: tuple = ()
    to: str | None = None  # goes bankrupt: None (any creditor), "bank" or "player"
    auction: bool = False  # the bank auctions the lots / auction the building
    everything: bool = False  # everything goes to the creditor
    end: bool = False  # end the game
    from_cost: bool = False  # auction the building from its cost

    def holds(self, game: Game, seat: int, other: int = -1) -> bool:
        """Whether the conditions hold for the player `seat` (-1: none) where it stands."""
        if not self.tests:
            return True
        st = game.state
        space = st.position[seat] if seat >= 0 else -1
        f = Firing(seat, space, st.owner[space] if space >= 0 else -1, -1, (), 0, self.rule,
                   None, 0, other)
        return all(test(game, f) for test in self.tests)


@frozen
class Course:
    """The hooks of the events of the game's course; () where no rule waits."""

    turn_end: tuple = ()
    sent_to_jail: tuple = ()
    jail_turn: tuple = ()
    leaves_jail: tuple = ()
    # per space (or () when no rule waits): a KIND is offered / auctioned / bought
    offered: tuple = ()
    auctioned: tuple = ()
    bought: tuple = ()
    # per building kind (house, hotel): a building is bought / sold
    built: tuple = ((), ())
    sold: tuple = ((), ())
    mortgage_taken: tuple = ()
    mortgage_lifted: tuple = ()
    deed_changes_hands: tuple = ()  # a deed received by a trade
    deed_from_bankrupt: tuple = ()  # a deed received from a bankrupt player
    # per deck (or () when no rule waits): a card is drawn
    card_drawn: tuple = ()
    cannot_pay: tuple = ()
    game_ends: tuple = ()
    # instructions
    bankrupt: tuple = ()
    time_limit: tuple = ()
    shortage: tuple = ()
    # `when the game starts`, stage 1 (before the starting cash) and 3 (the first player)
    setup_first: tuple = ()
    setup_last: tuple = ()
    # what no firing of an event above needs, read once: does a rule read a building event
    any_building: bool = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "any_building", bool(any(self.built) or any(self.sold)))


NO_COURSE = Course()


# ------------------------------------------------------------------ effects


def shuffle_decks(game: Game, rule: str) -> None:
    """`shuffle the decks`, by `rule`: every deck, in declaration order, each logged."""
    st, rb = game.state, game.rulebook
    for i, deck in enumerate(st.decks):
        game.rng.shuffle(deck)
        if game.logging:
            game.emit("shuffle", rule, deck=rb.decks[i].name,
                      order=[rb.decks[i].cards[c].id for c in deck])


def highest_roll(game: Game, max_ties: int, rule: str) -> bool:
    """`the player with the highest roll starts`, by `rule`: each contender throws, the ties
    again; the first in seat order after `max_ties` tied throws. True if that tie-break
    decided."""
    st = game.state
    if st.players < 2:
        return False
    contenders = list(range(st.players))
    throws = 0
    while len(contenders) > 1:
        if throws == max_ties:  # dice that always tie: the first in seat order
            st.current = contenders[0]
            return True
        throws += 1
        totals = {}
        for seat in contenders:
            game.roll(seat, rule)
            totals[seat] = game.dice_total
        best = max(totals.values())
        contenders = [seat for seat in contenders if totals[seat] == best]
    st.current = contenders[0]
    return False


def pay_fine(game: Game, f: Firing) -> None:
    """`pay the fine`: the jail fine, by the firing's rule, raising funds if short (may
    bankrupt)."""
    game.charge(f.player, game.fine_account, game.settings.jail_fine, "jail fine", f.rule)


def leave_jail(game: Game, f: Firing) -> None:
    """`leave jail`: the player is freed (logged `free`, by the rule). On a throw (`a player
    rolls`) the `free` line says how, as the engine's exits do: `doubles` on a double,
    `forced` otherwise; elsewhere `rule`."""
    if f.player >= 0 and game.state.in_jail[f.player]:
        how = "rule" if not f.dice else "doubles" if f.streak else "forced"
        game._free(f.player, how, f.rule)
