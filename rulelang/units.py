"""The unit of an expression's node: "money", "count" or "percent", known from its form.

Money, counts and percentages never mix: `move $150`, `pay 3`, `$5 times $3` and `the player's
cash is 3` are errors of units (E205, E210, E211), found by the parser's builder and the
checker from these units alone.
"""

from __future__ import annotations

from rulelang import ast, vocab

__all__ = ["unit", "UNIT_NAMES", "shown"]

UNIT_NAMES = {"money": "money", "count": "a count", "percent": "a percentage"}
_LITERALS = {ast.Money: "money", ast.Count: "count", ast.Percent: "percent",
             ast.PercentOfWorth: "money"}


def unit(node) -> str | None:
    """The unit of an expression (None for a node that is no expression)."""
    if isinstance(node, int):
        return "count"
    cls = type(node)
    found = _LITERALS.get(cls)
    if found is not None:
        return found
    if cls is ast.Plus:
        return unit(node.terms[0])
    if cls is ast.Times:
        return "money" if node.unit == "money" else unit(node.operand)
    if cls is ast.PercentOf:
        return unit(node.operand)
    if cls is ast.PerOwned:
        return node.unit
    return vocab.unit_of(node)


def shown(node) -> str:
    """An expression written back in words (for messages): `$4 times the dice total`. The
    literals and operators are written here, every value by its declared form."""
    match node:
        case ast.Money(amount):
            return f"${amount}"
        case ast.Count(value):
            return str(value)
        case ast.Percent(value):
            return f"{value}%"
        case ast.Plus(terms):
            return " plus ".join(shown(t) for t in terms)
        case ast.Times(factor, u, operand):
            return f"{'$' if u == 'money' else ''}{factor} times {shown(operand)}"
        case ast.PercentOf(percent, operand):
            return f"{percent}% of {shown(operand)}"
        case ast.PerOwned(amount, u, thing, subject):
            return f"{'$' if u == 'money' else ''}{amount} per {thing.name} the {subject} owns"
    return vocab.written(node) or "this value"


# What `the number of THINGs`, `owns N THINGs` and `per THING` may count: the buildings, and
# the lots of a kind of property, singular or plural.
BUILDINGS = ("house", "hotel", "building")
THING_KINDS = ("property", "street", "railroad", "utility")


def thing(word: str) -> str | None:
    """The thing a word names, singular (`railroads` -> `railroad`), or None if unknown."""
    for w in (word, word[:-3] + "y" if word.endswith("ies") else None,
              word[:-1] if word.endswith("s") else None):
        if w in BUILDINGS or w in THING_KINDS:
            return w
    return None
