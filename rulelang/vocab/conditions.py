"""The conditions after `if` or `unless` (`unless` and `not` negate them)."""

from __future__ import annotations

from rulelang import ast
from rulelang.vocab.spec import Form, Param, Primitive

__all__ = ["CONDITIONS"]

_NOT = Param("negated", "negation")
_WHO = Param("subject", "who")

CONDITIONS = (
    Primitive(
        "in_jail", "condition", ast.Condition,
        (Form("the {subject} is [{negated}] in jail", {"test": "in_jail"}),),
        "the player whose turn it is (or the owner of the space of the event) is in jail",
        (_NOT, _WHO),
        example="when a player lands on a property owned by another player unless the owner "
        "is in jail: pay rent"),
    Primitive(
        "lap", "condition", ast.Condition,
        (Form("the {subject} has [{negated}] completed a lap", {"test": "lap"}),),
        "the player (or the owner of the space of the event) has passed GO at least once "
        "(`has not`: never yet)",
        (_NOT, _WHO),
        example="when a player lands on an unowned property if the player has completed a "
        "lap: buy or auction"),
    Primitive(
        "option_on", "condition", ast.Condition,
        (Form("option {name}", {"subject": "option", "test": "option"}),),
        "the [option](#options) NAME is switched on",
        (Param("name", "option"),),
        example='when a player lands on "Free Parking" if option jackpot: collect $500'),
    Primitive(
        "players_turn", "condition", ast.Condition,
        (Form("it is [{negated}] the {subject} 's turn", {"test": "turn"}),),
        "the player (or the owner of the space of the event, or the partner of a trade) is "
        "playing its turn; between two turns, it is no one's",
        (_NOT, _WHO),
        example="a player may not build unless it is the player's turn"),
    Primitive(
        "holds", "condition", ast.Condition,
        (Form("the space holds token {token}", {"subject": "space", "test": "holds"}),),
        "the token stands on the space of the player",
        (Param("token", "token"),),
        example='when a player lands on an unowned street if the space holds token '
        '"The One Ring": claim it for free'),
)
