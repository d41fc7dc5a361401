"""What the checker leaves unsaid of a file with syntax errors: the items that do not parse are
left out of its AST (ast.File.left_out), and nothing that could follow from their absence is
reported."""

from __future__ import annotations

from rulelang import ast
from rulelang.diagnostics import Diagnostic

__all__ = ["Holes"]

# What the checker concludes from the whole of the rules (no rule does X, no rule orders these
# two, nothing lets a player ..., the rules trigger each other for ever): unsure when some
# rule was left out for a syntax error.
_FROM_EVERY_RULE = frozenset({"E416", "E417", "W103", "W104", "W105", "W111", "W113",
                              "W114"})


class Holes:
    """The items left out of a chain's files for their syntax errors (ast.File.left_out),
    and what the checker must not say because of them."""

    def __init__(self, chain: list[ast.File]):
        left_out = [h for f in chain for h in f.left_out]
        self.any = bool(left_out)
        # a rule, deck, pot or option is named in quotes: 'name' or "Name"
        self.named = tuple(f"{q}{n}{q}" for what, n in left_out
                           if what in ("rule", "deck", "pot", "option") and n for q in "'\"")
        self.settings = tuple(f"'{n}'" for what, n in left_out if what == "setting" and n)

    def keep(self, diags: list[Diagnostic]) -> list[Diagnostic]:
        """`diags` without what may follow from a left-out item: a conclusion drawn from
        every rule, a mention of a left-out rule, deck, pot or option (`there is no rule 'x'
        to replace`, `unknown option 'x'`), or of a left-out setting (its value in force is
        not known) but for a mistake in the value of another `set` of it (E2xx)."""
        if not self.any:
            return diags
        return [d for d in diags if d.code not in _FROM_EVERY_RULE
                and not any(n in d.message for n in self.named)
                and not (not d.code.startswith("E2")
                         and any(n in d.message for n in self.settings))]
