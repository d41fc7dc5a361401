"""The grammar alternatives of the declared primitives, as Lark text.

grammar.lark holds a line `//@vocab ROLE` where the alternatives of each role go;
`rulelang.parse` replaces it with `rule_text(ROLE)` before building the parser.
"""

from __future__ import annotations

import re

from rulelang.vocab import EXPANSIONS, ROLES, TYPES, Slot
from rulelang.vocab.spec import INLINE_ARTICLE, POSSESSIVE

__all__ = ["rule_text", "fill", "MARKER"]

MARKER = re.compile(r"^//@vocab (\w+)[ \t]*$", re.M)


def _item(item) -> str:
    if item is None:
        return "_a"
    if isinstance(item, Slot):
        return TYPES[item.type].grammar
    if item == INLINE_ARTICLE:
        return '("a" | "an")'
    if item == POSSESSIVE:
        return "_POSS"
    return f'"{item}"'


def rule_text(role: str) -> str:
    """`?nonterminal: alternative -> alias | ...` for every expansion of the role's primitives."""
    alternatives = [f"{' '.join(_item(i) for i in e.items)} -> {e.alias}"
                    for e in EXPANSIONS.values() if e.primitive.role == role]
    head = f"?{ROLES[role]}: "
    return head + f"\n{' ' * (len(head) - 2)}| ".join(alternatives)


def fill(grammar: str) -> str:
    """The grammar with each `//@vocab ROLE` line replaced by the role's alternatives."""
    return MARKER.sub(lambda m: rule_text(m.group(1)), grammar)
