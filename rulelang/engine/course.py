"""The events of the game's course and the effects only they (or the setup) carry.

`Course` holds, for one rulebook, the compiled hooks of every event of vocab/game_events.py:
each an empty tuple when no rule waits for it, so that the engine's test at each firing place
(`if rb.course.turn_end:`) is all an unused event costs. The events log nothing themselves;
`fire` runs a tuple of hooks for one player, never for a bankrupt player nor once the game is
over, and puts back the engine's label and turn state around them.

The bankruptcy, time-limit and shortage rules are not effects run in turn but instructions
the engine reads (`Instruction`): their conditions are tested, their effects say how the
engine settles the bankruptcy, ends the game or auctions the building.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import attrs
from attrs import frozen

if TYPE_CHECKING:
    from .game import Game

Hook = Callable  # hook(game, seat, ctx)


@frozen
class Instruction:
    """One rule read by the engine as an instruction: its name, its conditions (each
    `test(game, seat)`), whom it applies to, and what it says."""

    rule: str
    tests: tuple = ()
    to: str | None = None  # goes bankrupt: None (any creditor), "bank" or "player"
    auction: bool = False  # the bank auctions the lots / auction the building
    everything: bool = False  # everything goes to the creditor
    end: bool = False  # end the game
    from_cost: bool = False  # auction the building from its cost

    def holds(self, game: Game, seat: int) -> bool:
        return all(test(game, seat) for test in self.tests)


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
    deed_changes_hands: tuple = ()
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


def fire(game: Game, hooks: tuple, seat: int, ctx=None) -> None:
    """Run the hooks of one firing for the player `seat`: they log nothing of their own; the
    engine's label and the turn's `stop` are put back after them (a bankruptcy keeps it)."""
    st = game.state
    rule, stop = game.rule, game.stop
    game.stop = False
    try:
        for hook in hooks:
            if game.over or (seat >= 0 and st.bankrupt[seat]):
                break
            hook(game, seat, ctx)
            if game.stop:
                break
    finally:
        game.rule = rule
        game.stop = stop or game.stop


# ------------------------------------------------------------------ effects


def shuffle_decks(game: Game) -> None:
    """`shuffle the decks`: every deck, in declaration order, each logged."""
    st, rb = game.state, game.rulebook
    for i, deck in enumerate(st.decks):
        game.rng.shuffle(deck)
        if game.logging:
            game.emit("shuffle", deck=rb.decks[i].name,
                      order=[rb.decks[i].cards[c].id for c in deck])


def highest_roll(game: Game, max_ties: int) -> bool:
    """`the player with the highest roll starts`: each contender throws, the ties again; the
    first in seat order after `max_ties` tied throws. True if that tie-break decided."""
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
            game.roll(seat)
            totals[seat] = game.dice_total
        best = max(totals.values())
        contenders = [seat for seat in contenders if totals[seat] == best]
    st.current = contenders[0]
    return False


def pay_fine(game: Game, seat: int) -> None:
    """`pay the fine`: the jail fine, raising funds if short (may bankrupt)."""
    game.charge(seat, game.fine_account, game.settings.jail_fine, "jail fine")


def leave_jail(game: Game, seat: int) -> None:
    """`leave jail`: the player is freed (logged `free`, by the rule's name's cause)."""
    if game.state.in_jail[seat]:
        game._free(seat, "rule")


def lift_or_interest(game: Game, seat: int, pos) -> None:
    """`lift the mortgage or pay the interest` on the deed `pos` the player has just received:
    lifted if it holds the lifting price and wishes so, else the interest to the bank."""
    from . import actions as act

    if type(pos) is not int or pos < 0 or not game.state.mortgaged[pos]:
        return
    act.lift_or_interest(game, seat, pos)
