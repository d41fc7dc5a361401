"""The player's choices and the moves by predicate (design §1.6–1.7).

One generic decision, `Agent.choose(game, seat, Choice) -> int`, answers both `the player
chooses one: A; B` (options: each option's text) and a target of the player's choice
(options: the candidate spaces' names, `spaces` their positions). The engine validates the
answer before anything changes (`IllegalAction` naming the rule) and logs a `choice` line
naming the rule of the firing that asks. Every effect here is `effect(game, firing)`; the
compiled forms of the moves' primitives (vocab/compiled.py) resolve a node's names with the
compiler's environment and make them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rulelang.vocab.compiled import compiled

from . import actions as act
from .firing import Firing
from .tables import Choice

if TYPE_CHECKING:
    from .game import Game

# A `where` condition, tested on a candidate space: test(game, firing.at(q, owner of q))
SpaceTest = Callable[..., bool]
__all__ = ["Choice", "choose", "choice_effect", "advance_next", "choose_space"]


def choose(game: Game, seat: int, choice: Choice) -> int:
    """Ask the player's agent; a valid answer is logged (by `choice.rule`) and returned, any
    other refused, naming that rule."""
    i = game.agents[seat].choose(game, seat, choice)
    if type(i) is not int or not 0 <= i < len(choice.options):
        raise act.IllegalAction(choice.rule, f"choose one of {len(choice.options)} options "
                                f"(0 to {len(choice.options) - 1}), not {i!r}")
    if game.logging:
        game.emit("choice", choice.rule, player=seat, options=list(choice.options), chosen=i)
    return i


def choice_effect(options: tuple, texts: tuple[str, ...], gains: tuple[int, ...]):
    """`the player chooses one: ...`: the chosen option's effects, in order, with the
    firing, until one stops the turn."""

    def run(game: Game, f: Firing) -> None:
        i = choose(game, f.player, Choice(f.rule, texts, (), gains))
        for effect in options[i]:
            effect(game, f)
            if game.stop:
                return

    return run


def qualifies(game: Game, f: Firing, q: int, owner: str | None,
              test: SpaceTest | None) -> bool:
    """Whether the space q (of the kind) passes the owner filter and the `where` test, the
    test's firing being `f` at q and q's owner."""
    st = game.state
    seat = f.player
    o = st.owner[q]
    if owner is not None:
        if owner == "nobody":
            if o >= 0 or not game.rulebook.spaces[q].is_property:
                return False
        elif owner == "other":
            if o < 0 or o == seat:
                return False
        elif owner == "self":
            if o != seat:
                return False
        elif q in st.tokens or any(st.position[p] == q and not st.bankrupt[p]
                                   for p in range(st.players)):
            return False  # "free": no pawn, no token
    return test is None or bool(test(game, f.at(q, o)))


def advance_next(is_kind: tuple[bool, ...], owner: str | None, test: SpaceTest | None,
                 otherwise: Callable | None):
    """`advance to the next PICK [where C][, else E]`: forward to the first qualifying space
    1 ... n steps ahead (the player's own space last); none: E, or nothing."""

    def run(game: Game, f: Firing) -> None:
        n = game.rulebook.size
        pos = game.state.position[f.player]
        for k in range(1, n + 1):
            q = (pos + k) % n
            if is_kind[q] and qualifies(game, f, q, owner, test):
                game.move_by(f.player, k % n, f)
                return
        if otherwise is not None:
            otherwise(game, f)

    return run


def choose_space(of_kind: tuple[int, ...], owner: str | None, test: SpaceTest | None,
                 straight: bool):
    """A target of the player's choice: the qualifying spaces in board order; none: nothing;
    one: taken without asking. Forward to it, passing (`advance`), or straight there,
    passing nothing (`move`); then the player lands."""

    def run(game: Game, f: Firing) -> None:
        found = tuple(q for q in of_kind if qualifies(game, f, q, owner, test))
        if not found:
            return
        q = found[0]
        if len(found) > 1:
            names = tuple(game.rulebook.spaces[s].name for s in found)
            q = found[choose(game, f.player, Choice(f.rule, names, found))]
        steps = (q - game.state.position[f.player]) % game.rulebook.size
        game.move_by(f.player, steps, f, None, not straight)

    return run


# ---------------------------------------------------------------- compiled forms


@compiled("advance_next")
def _advance_next(env, e):
    is_kind = env.kind_table(e.kind)[0]
    other = env.effect(e.otherwise) if e.otherwise is not None else None
    return advance_next(is_kind, e.owner, env.where(e.where), other)


@compiled("advance_choice", "move_choice")
def _choose_space(env, e):
    is_kind = env.kind_table(e.kind)[0]
    of_kind = tuple(q for q, yes in enumerate(is_kind) if yes)
    return choose_space(of_kind, e.owner, env.where(e.where), e.straight)
