"""The language's vocabulary, declared once: every event, condition, effect, amount, target,
token reference, action of a permission and setting, with its surface forms, typed parameters,
documentation line and the checker's facts.

The parser's grammar alternatives and builder (`rulelang.parse`), the checker
(`rulelang.check`, `check_flow`, `check_tokens`), `rulelang explain` and the tables of
docs/language.md (`python -m rulelang.vocab.docs --write`) read these declarations; tests hold
every other list of the vocabulary (ast.py's unions, the compiler) equal to them. Adding a
primitive: docs/adding-a-primitive.md.
"""

from __future__ import annotations

from rulelang.ast import Name, Text
from rulelang.vocab.conditions import CONDITIONS
from rulelang.vocab.effects import AMOUNTS, EFFECTS
from rulelang.vocab.events import EVENTS, TARGETS, TOKEN_REFS
from rulelang.vocab.game_events import GAME_EFFECTS, GAME_EVENTS
from rulelang.vocab.expressions import ATOMS, FACTORS, ROLL_EVENTS
from rulelang.vocab.movement import MOVEMENT_EFFECTS, MOVEMENT_EVENTS
from rulelang.vocab.permissions import ACTIONS
from rulelang.vocab.settings import SETTINGS, SettingSpec
from rulelang.vocab.spec import (
    INLINE_ARTICLE, POSSESSIVE, ROLES, Expansion, Facts, Form, Param, ParamType, Primitive,
    Slot, expansions, parse_template, shown,
)
from rulelang.vocab.types import TYPES

__all__ = ["PRIMITIVES", "BY_NAME", "EXPANSIONS", "TYPES", "SETTINGS", "ROLES", "Facts",
           "Form", "Param", "ParamType", "Primitive", "Expansion", "Slot", "SettingSpec",
           "primitive_of", "facts_of", "money_of", "unit_of", "of_role", "shown_forms", "written"]

# In the order of the documentation's tables (and of the grammar's alternatives).
PRIMITIVES: tuple[Primitive, ...] = (EVENTS + ROLL_EVENTS + MOVEMENT_EVENTS + GAME_EVENTS
                                     + TARGETS + TOKEN_REFS + CONDITIONS + ATOMS + EFFECTS
                                     + MOVEMENT_EFFECTS + GAME_EFFECTS + AMOUNTS + FACTORS
                                     + ACTIONS)
BY_NAME: dict[str, Primitive] = {p.name: p for p in PRIMITIVES}
# Every grammar alias, with the alternative it stands for.
EXPANSIONS: dict[str, Expansion] = {e.alias: e for p in PRIMITIVES for e in expansions(p)}

_BY_NODE: dict[type, tuple[Primitive, ...]] = {}
for _p in PRIMITIVES:
    if _p.node is not None:
        _BY_NODE[_p.node] = _BY_NODE.get(_p.node, ()) + (_p,)
_KEYS = {p.name: tuple(p.key.items()) for p in PRIMITIVES}
_NO_FACTS = Facts()


def of_role(role: str) -> tuple[Primitive, ...]:
    """The primitives of one role ("event", "effect" ...), in declaration order."""
    return tuple(p for p in PRIMITIVES if p.role == role)


def primitive_of(node) -> Primitive | None:
    """The declaration a node was built from, or None if it is not a primitive's node."""
    found = _BY_NODE.get(type(node))
    if found is None:
        return None
    if len(found) == 1:
        return found[0]
    for p in found:
        if all(getattr(node, k) == v for k, v in _KEYS[p.name]):
            return p
    return None


def facts_of(node) -> Facts:
    """The checker's facts about a node (no facts for a node that is not a primitive's)."""
    p = primitive_of(node)
    return p.facts if p is not None else _NO_FACTS


def unit_of(node) -> str | None:
    """The unit of a factor's node: "money", "count" or "percent" (None for another node)."""
    p = primitive_of(node)
    return p.unit_of(node) if p is not None else None


def money_of(node) -> tuple[str, str] | None:
    """(payer, payee) of the money an effect moves, or None."""
    p = primitive_of(node)
    return p.money_of(node) if p is not None else None


def shown_forms(p: Primitive) -> list[str]:
    """Each form of a primitive as the documentation writes it."""
    return [shown(f, p, TYPES) for f in p.forms]


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _word(slot: Slot, value) -> str | None:
    """A slot's value as it is written: a name quoted or bare, an ordinal, a percentage."""
    if value is None:
        return None
    if isinstance(value, Text):
        return f'"{value.value}"'
    if isinstance(value, Name):
        return value.name
    if slot.type == "ordinal":
        return _ORDINALS[value - 1] if 1 <= value <= len(_ORDINALS) else str(value)
    if slot.type == "percent":
        return f"{value}%"
    return str(value)


def _written(tree: list, node) -> list[str] | None:
    out: list[str] = []
    for item in tree:
        if isinstance(item, list):  # an optional part: written when all its slots are filled
            out += _written(item, node) or []
        elif isinstance(item, Slot):
            word = _word(item, getattr(node, item.field, None))
            if word is None:
                return None
            out.append(word)
        elif item is not None and item != INLINE_ARTICLE:
            out.append(item)
        else:
            out.append("a")
    return out


def written(node) -> str | None:
    """A primitive's node written back in words by the first of its declared forms that fits
    it (its fixed fields, every slot filled): `the player's net worth`; None for a node that
    is not a primitive's."""
    p = primitive_of(node)
    if p is None:
        return None
    for form in p.forms:
        if any(getattr(node, k) != v for k, v in form.fixed.items()):
            continue
        words = _written(parse_template(form.template, p), node)
        if words is not None:
            return " ".join(words).replace(f" {POSSESSIVE}", POSSESSIVE).replace(" ,", ",")
    return None
