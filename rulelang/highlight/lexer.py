"""The Pygments lexer of rules files (`rules`, `*.rules`), built from the regions of
`rulelang.highlight`: documentation renders ```rules blocks with it, and `pygmentize -l rules`.

Registered by the entry point `pygments.lexers` of pyproject.toml; needs Pygments (the
`highlight` extra).
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups
from pygments.token import (
    Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Whitespace,
)

from rulelang.highlight import CATEGORIES, Match, regions

__all__ = ["RulesLexer", "TOKENS"]

# The token type of each category of rulelang.highlight: in Pygments' default style, events
# blue, conditions olive, effects green, forbidden actions red, values navy, the kinds of
# spaces (types) crimson, next to bold green keywords and purple operators.
TOKENS = {
    "text": Whitespace,
    "comment": Comment.Single,
    "string": String.Double,
    "money": Number,
    "percent": Number,
    "number": Number.Integer,
    "multiplier": Number,
    "keyword": Keyword,
    "declaration": Keyword.Declaration,
    "constant": Keyword.Constant,
    "permission": Keyword.Reserved,
    "operator": Operator.Word,
    "cite": Name.Decorator,
    "rule": Name.Class,
    "option": Name.Namespace,
    "setting": Name.Variable,
    "event": Name.Function,
    "condition": Name.Attribute,
    "effect": Name.Builtin,
    "action": Name.Exception,
    "value": Name.Variable.Magic,
    "kind": Keyword.Type,
    "attribute": Keyword.Pseudo,
    "punctuation": Punctuation,
    "name": Name,
    "illegal": Error,
}
assert set(TOKENS) == set(CATEGORIES)


def _nothing(lexer, match):
    """The end of a region: no text, only a change of state."""
    return iter(())


def _rule(m: Match) -> tuple:
    action = (TOKENS[m.categories[0]] if len(m.categories) == 1
              else bygroups(*(TOKENS[c] for c in m.categories)))
    return (m.regex, action, m.enter) if m.enter else (m.regex, action)


def _tokens() -> dict[str, list]:
    out = {}
    for name, region in regions().items():
        rules = [_rule(m) for m in region.matches]
        if name == "root":
            out[name] = [(r"\n", Whitespace), *rules]
        else:
            out[name] = [(rf"(?=[{region.until}\n])", _nothing, "#pop"), *rules]
    return out


class RulesLexer(RegexLexer):
    """The rules files of rulelang: rulebooks and house rules."""

    name = "Rules"
    aliases = ["rules", "rulelang"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulelang"]
    url = "https://github.com/rulelang/rulelang"
    version_added = ""
    tokens = _tokens()
