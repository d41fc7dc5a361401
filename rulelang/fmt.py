"""The canonical layout of a rules file: `format_text` rewrites a text that parses in the one
layout `rulelang fmt` writes, from the parser's own token stream, keeping every token and
every comment; what the file means (its syntax tree) never changes.

The layout (docs/formatting.md):
- a block's lines are indented by two spaces per level; tabs become spaces;
- the words of a line are separated by one space, with none before `,` `:` `;` `)` `..`
  and `'s`, none after `(` and `..` (`1..6`, `(A or B)`, `the player's cash`, `, else`);
- the kinds of a board's spaces line up one space after the longest `"name":`;
- one blank line after the header (`rulebook`, `extends`), before and after every block
  (rule, option, board, deck) that is not the first line of its own block; no blank line
  right after a line that opens a block, nor at the start or the end of the file; two blank
  lines or more become one; any other blank line is kept where its author put it;
- a comment stays on its line: a comment line is indented as the lines of the block it sits
  in, a comment after a statement follows it after two spaces; trailing spaces go;
- lines are never wrapped nor joined: a statement is one line in this language.
"""

from __future__ import annotations

from typing import Iterable

import attrs

from rulelang import ast
from rulelang.parse import Lexeme, _Indenter, normalize, parse_text, tokens

__all__ = ["format_text", "meaning", "FormatError", "INDENT"]

INDENT = "  "  # one level of a block
_COMMENT_GAP = "  "  # between a statement and its comment
_LAYOUT = frozenset({"_NL", "_INDENT", "_DEDENT"})
_TAB = _Indenter.tab_len  # columns of a tab in an indentation, as the parser counts them
# Punctuation is matched by its text, never inside a quoted name (kind STRING).
_TIGHT_BEFORE = frozenset({",", ":", ";", ")", ".."})
_TIGHT_AFTER = frozenset({"(", ".."})


class FormatError(Exception):
    """The formatted text would not mean what the original means: a defect of the formatter,
    never of the file, which is then left as it is."""


@attrs.define
class _Blank:
    """A blank line between two statements."""


@attrs.define
class _Comment:
    """A comment on a line of its own: its text, the column it was written at (0-based, tabs
    counted as the parser counts them), the block depth the layout gives it."""

    text: str
    column: int
    depth: int = 0


@attrs.define
class _Line:
    """One statement: its block depth, the indentation it was written with, its tokens, the
    comment after it, the blank lines and comments above it."""

    depth: int
    indent: int
    words: list[Lexeme]
    before: list = attrs.field(factory=list)
    comment: str | None = None

    @property
    def head(self) -> str:
        return self.words[0].text if self.words[0].kind != "STRING" else ""

    def opens(self, following: "_Line | None") -> bool:
        """Whether this line opens a block (the next statement is deeper)."""
        return following is not None and following.depth > self.depth


def format_text(text: str, path: str) -> str:
    """The text in the canonical layout. A text that does not parse raises RuleError(s) (the
    parser's diagnostics); a result that would parse to another syntax tree, FormatError."""
    before = parse_text(text, path)
    text = normalize(text)
    lines, tail = _lines(text, tokens(text, path))
    _place(lines, tail)
    out = _render(lines, tail)
    try:
        after = parse_text(out, path)
    except Exception as e:  # noqa: BLE001 - whatever it is, the formatter is at fault
        raise FormatError(f"{path}: the formatted text does not parse: {e}") from None
    if meaning(after) != meaning(before):
        raise FormatError(f"{path}: the formatted text would mean something else")
    return out


def meaning(node: object) -> object:
    """What a syntax tree (a File, a Program or any node) says, as nested tuples: its node
    classes and values without their spans, and the texts it quotes (a choice's options, a
    permission) without their spacing, which is the formatter's to choose."""
    if isinstance(node, tuple):
        return tuple(meaning(n) for n in node)
    if isinstance(node, ast.Span):
        return None
    if isinstance(node, str) or not attrs.has(type(node)):
        return node
    fields = []
    for field in attrs.fields(type(node)):
        if field.name == "span":
            continue
        value = getattr(node, field.name)
        if field.name in ("text", "texts"):
            value = tuple("".join(t.split()) for t in value) if isinstance(value, tuple) \
                else "".join(value.split())
        fields.append((field.name, meaning(value)))
    return (type(node).__name__, tuple(fields))


# ---------------------------------------------------------------- reading the lines


def _lines(text: str, stream: Iterable[Lexeme]) -> tuple[list[_Line], list]:
    """The statements of a normalised text from its tokens, each with the blank lines and
    comments above it, and what follows the last one (blank lines and comments)."""
    lines: list[_Line] = []
    depth = 0
    end = 0  # where the previous token ended
    for token in stream:
        if token.kind == "_INDENT":
            depth += 1
        elif token.kind == "_DEDENT":
            depth -= 1
        elif token.kind not in _LAYOUT:
            gap = text[end:token.start]
            if not lines or "\n" in gap:
                before = _between(gap, lines[-1] if lines else None)
                indent = _width(gap.rsplit("\n", 1)[-1])
                lines.append(_Line(depth, indent, [token], before))
            else:
                lines[-1].words.append(token)
            end = token.end
    tail = _between(text[end:], lines[-1] if lines else None)
    while tail and isinstance(tail[-1], _Blank):  # the final newline's empty "line"
        tail.pop()
    return lines, tail


def _between(gap: str, previous: _Line | None) -> list:
    """The blank lines and comment lines of the text between two statements; a comment on the
    previous statement's own line becomes that line's comment."""
    parts = gap.split("\n")
    if previous is not None:
        first, parts = parts[0], parts[1:]
        if "#" in first:
            previous.comment = first[first.index("#"):].rstrip(" \t")
    out: list = []
    for part in parts[:-1]:  # the last part is the indentation of the next statement
        if "#" in part:
            out.append(_Comment(part[part.index("#"):].rstrip(" \t"),
                                _width(part[:part.index("#")])))
        else:
            out.append(_Blank())
    return out


def _width(indentation: str) -> int:
    """Columns of leading blanks, a tab counting as the parser counts it."""
    return indentation.count(" ") + indentation.count("\t") * _TAB


# ---------------------------------------------------------------- placing comments and blanks


def _place(lines: list[_Line], tail: list) -> None:
    """Give each comment line its depth and each gap between statements its blank lines."""
    indents: list[int] = []  # the indentation each open block was written with
    previous: _Line | None = None
    for i, line in enumerate([*lines, None]):
        trivia = line.before if line is not None else tail
        depth = line.depth if line is not None else 0
        for item in trivia:
            if isinstance(item, _Comment):
                item.depth = _comment_depth(item.column, depth, previous, indents)
        trivia[:] = _blanks(trivia, previous, line, lines[i + 1] if line is not None
                            and i + 1 < len(lines) else None)
        if line is not None:
            indents[line.depth:] = [line.indent]
            previous = line


def _comment_depth(column: int, depth: int, previous: _Line | None,
                   indents: list[int]) -> int:
    """The depth of a comment line above a statement at `depth`: that statement's, unless
    blocks close between the two; then the deepest of the closing blocks (or the statement's
    own) whose lines were written at the comment's column or left of it."""
    if previous is None or depth >= previous.depth:
        return depth
    for d in range(previous.depth, depth, -1):
        if indents[d] <= column:
            return d
    return depth


def _blanks(trivia: list, previous: _Line | None, line: _Line | None,
            following: _Line | None) -> list:
    """The comments of a gap between two statements (None: the start or the end of the
    file) with the blank lines the layout keeps or requires."""
    out: list = []
    for item in trivia:  # runs of blank lines become one
        if not (isinstance(item, _Blank) and out and isinstance(out[-1], _Blank)):
            out.append(item)
    if previous is None or (line is not None and line.depth > previous.depth):
        while out and isinstance(out[0], _Blank):  # the file's start, a block's first line
            out.pop(0)
    if line is None:
        while out and isinstance(out[-1], _Blank):
            out.pop()
        return out
    if previous is None or line.depth > previous.depth:
        return out
    header = previous.depth == 0 and previous.head in ("rulebook", "extends") \
        and line.head != "extends"
    block = line.opens(following)
    if header or block or line.depth < previous.depth:
        # The comments right above the statement, at its depth or shallower, go with it: the
        # blank line is above them (and below any comment left deeper, in a closing block).
        start = len(out)
        while start and not (isinstance(out[start - 1], _Comment)
                             and out[start - 1].depth > line.depth):
            start -= 1
        if not any(isinstance(item, _Blank) for item in out[start:]):
            out.insert(start, _Blank())
    return out


# ---------------------------------------------------------------- writing


def _render(lines: list[_Line], tail: list) -> str:
    widths = _board_widths(lines)
    out: list[str] = []
    for i, line in enumerate(lines):
        out.extend(_trivia(line.before))
        text = INDENT * line.depth + _words(line.words, widths.get(i))
        if line.comment is not None:
            text += _COMMENT_GAP + line.comment
        out.append(text)
    out.extend(_trivia(tail))
    return "\n".join(out) + "\n"


def _trivia(items: list) -> list[str]:
    return ["" if isinstance(item, _Blank) else INDENT * item.depth + item.text
            for item in items]


def _words(words: list[Lexeme], align: int | None = None) -> str:
    """A statement's tokens, spaced; `align`: the width a board space's `"name":` is padded to."""
    out: list[str] = []
    previous: Lexeme | None = None
    for token in words:
        word = token.text
        if token.kind == "_ELSE":
            word = ", else"
        if previous is not None and not _tight(previous, token):
            out.append(" ")
        out.append(word)
        if align is not None and previous is not None and previous.kind == "STRING" \
                and word == ":" and token.kind != "STRING":
            out.append(" " * (align - len("".join(out))))
            align = None
        previous = token
    return "".join(out)


def _tight(left: Lexeme, right: Lexeme) -> bool:
    """Whether two tokens of a line are written with no space between them."""
    if right.kind in ("_POSS", "_ELSE"):
        return True
    if right.kind != "STRING" and right.text in _TIGHT_BEFORE:
        return True
    return left.kind != "STRING" and left.text in _TIGHT_AFTER


def _board_widths(lines: list[_Line]) -> dict[int, int]:
    """The width each space line of a board pads its `"name":` to: the longest of its board."""
    widths: dict[int, int] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.head == "board" and line.opens(lines[i + 1] if i + 1 < len(lines) else None):
            j = i + 1
            while j < len(lines) and lines[j].depth > line.depth:
                j += 1
            spaces = [k for k in range(i + 1, j) if lines[k].depth == line.depth + 1
                      and len(lines[k].words) > 1 and lines[k].words[1].text == ":"]
            width = max((len(lines[k].words[0].text) + 1 for k in spaces), default=0)
            widths.update((k, width) for k in spaces)
            i = j
        else:
            i += 1
    return widths
