"""The movements of the player's choice and by predicate, and the throw of triples (design
§1.6–1.7); a move by a die is `move by die "X"` / `move by the first die`, the effect `move`
of an expression. `the player chooses one: …` itself is structure (grammar.lark's
`choice`), not a primitive: its options are effect lists of these and the other effects."""

from __future__ import annotations

from rulelang import ast
from rulelang.vocab.spec import Facts, Form, Param, Primitive

__all__ = ["MOVEMENT_EVENTS", "MOVEMENT_EFFECTS"]

_MOVES = "moves the player"
_NEXT_KIND = Param("kind", "kind",
                   missing=("E413", "there is no next {value}: the board has none"))
_CHOSEN_KIND = Param("kind", "kind",
                     missing=("E413", "there is no {value} to choose: the board has none"))
_WHERE = Param("where", "condition")
_ELSE = Param("otherwise", "otherwise")

MOVEMENT_EVENTS = (
    Primitive(
        "rolls_triples", "event", ast.RollsTriples,
        (Form("a/an player rolls triples"),),
        "the dice that make triples (`dice ... make triples`) all show one face; after the "
        "doubles rules of the same throw, never in jail",
        example="when a player rolls triples: move to a space of the player's choice"),
)


def _picks(head: str, tail: str, **fixed) -> tuple[Form, ...]:
    """The forms of a kind selector between `head` and `tail`: any, unowned, free, owned."""
    return (Form(f"{head} {{kind}} {tail}", {"owner": None, **fixed}),
            Form(f"{head} unowned {{kind}} {tail}", {"owner": "nobody", **fixed}),
            Form(f"{head} free {{kind}} {tail}", {"owner": "free", **fixed}),
            Form(f"{head} {{kind}} owned by another player {tail}", {"owner": "other", **fixed}),
            Form(f"{head} {{kind}} owned by the player {tail}", {"owner": "self", **fixed}))


MOVEMENT_EFFECTS = (
    Primitive(
        "advance_next", "effect", ast.AdvanceNext,
        _picks("advance to the next", "[where {where}] [{otherwise}]"),
        "forward to the first space ahead of the kind (`unowned`; `free`: no pawn and no "
        "token; `owned by ...`) for which the condition holds, the space tested being the "
        "candidate; none: the `else` effect runs, or nothing",
        (_NEXT_KIND, _WHERE, _ELSE),
        Facts(moves=True, clash=_MOVES),
        label="advance to the next",
        example='when a die shows "Mr. Monopoly" after moving: advance to the next unowned '
        'property, else advance to the next property owned by another player'),
    Primitive(
        "advance_choice", "effect", ast.ChooseSpace,
        _picks("advance to a/an", "of the player 's choice [where {where}]", straight=False),
        "the player picks a space of the kind (for which the condition holds) and goes "
        "forward to it, passing what lies between; one space: taken without asking",
        (_CHOSEN_KIND, _WHERE),
        Facts(moves=True, clash=_MOVES),
        label="advance to a space of the player's choice",
        example="when a player lands on \"GO\": the player chooses one: nothing; pay $200, "
        "advance to a property of the player's choice"),
    Primitive(
        "move_choice", "effect", ast.ChooseSpace,
        _picks("move to a/an", "of the player 's choice [where {where}]", straight=True),
        "the player picks a space of the kind and moves straight there, passing nothing, "
        "and lands",
        (_CHOSEN_KIND, _WHERE),
        Facts(moves=True, clash=_MOVES),
        label="move to a space of the player's choice",
        example="when a player rolls triples: move to a space of the player's choice"),
)
