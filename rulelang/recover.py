"""Syntax-error recovery: after a file fails to parse, find its other syntax errors too.

A rules file is a sequence of top-level items, each starting on a line at column 0 (the
header with its `extends` line, a board, a deck, a rule, an option ...), so an item can be
parsed on its own after a stub header that puts the parser in the state it has between two
items. `recover` parses each item separately; inside an item that fails, it blanks the
offending line (and the lines indented under it) and parses again, a few times, as long as
that cannot empty a block and so invent an error of its own. Line numbers are kept: a chunk is
parsed as stub + its lines, and every span found is moved back to the file's own lines.

`recover_items` also returns the line ranges of the items that do not parse, so that the
rest of the file can be read without them and checked (parse.py).

It knows nothing of Lark: `parse_chunk(text)` parses one chunk's text and returns the
diagnostics its tree builder collected, or raises RuleError(s) for a syntax error.
"""

from __future__ import annotations

from typing import Callable

import attrs

from rulelang.ast import Span
from rulelang.diagnostics import Diagnostic, RuleError, RuleErrors

__all__ = ["MAX_SYNTAX_ERRORS", "recover", "recover_items", "shift", "without_comment"]

_STUB = 'rulebook "-"\ncurrency "-"\n'  # after `currency`, `extends` is no longer allowed
_STUB_LINES = 2
_NOT_TOP = ("", " ", "\t", "\f", "#")
_MAX_PER_ITEM = 8  # syntax errors looked for inside one top-level item
MAX_SYNTAX_ERRORS = 100  # past this, the file is probably not a rules file at all

ParseChunk = Callable[[str], list[Diagnostic]]


def recover(text: str, first: Diagnostic, parse_chunk: ParseChunk) -> list[Diagnostic]:
    """Every syntax error (and tree-building error) of `text`, whose first error is `first`.

    `text` is normalised (newline-terminated); the result is sorted by position and always
    holds `first`.
    """
    return recover_items(text, first, parse_chunk)[0]


def recover_items(text: str, first: Diagnostic, parse_chunk: ParseChunk
                  ) -> tuple[list[Diagnostic], list[tuple[int, int]] | None]:
    """`recover`, and the 0-based (first, end) line ranges of the top-level items that do
    not parse; None instead of the ranges when some items were not looked at (past
    MAX_SYNTAX_ERRORS) or `first` is in no item found not to parse."""
    lines = text.split("\n")[:-1]
    found: dict[tuple[int, int], Diagnostic] = {(first.span.line, first.span.column): first}
    failed: list[tuple[int, int]] | None = []
    syntax = 1
    for start, end in _items(lines):
        errors, broken = _item_errors(lines, start, end, parse_chunk)
        if broken:
            failed.append((start, end))
        for d in errors:
            found.setdefault((d.span.line, d.span.column), d)
            syntax += d.code < "E100"
        if syntax >= MAX_SYNTAX_ERRORS:
            failed = None
            last = max(found)
            note = (f"the first {MAX_SYNTAX_ERRORS} syntax errors are reported; fix them and "
                    "check again for more", None)
            found[last] = attrs.evolve(found[last], notes=found[last].notes + (note,))
            break
    # (an item that runs into its end is told at the next item's first line)
    if failed is not None and not any(a < first.span.line <= b + 1 for a, b in failed):
        failed = None
    return RuleErrors(found.values()).diagnostics, failed


def _items(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) 0-based line ranges of the top-level items; the header keeps `extends`."""
    tops = [i for i, line in enumerate(lines) if line[:1] not in _NOT_TOP]
    if not tops:
        return [(0, len(lines))]
    header = 1
    if tops[0:1] and lines[tops[0]].startswith("rulebook"):
        if len(tops) > 1 and lines[tops[1]].startswith("extends"):
            header = 2
    starts = [0] + tops[header:]
    return [(a, b) for a, b in zip(starts, starts[1:] + [len(lines)]) if a < b]


def _item_errors(lines: list[str], start: int, end: int,
                 parse_chunk: ParseChunk) -> tuple[list[Diagnostic], bool]:
    """The errors of one item, and whether it has a syntax error."""
    out: list[Diagnostic] = []
    body = list(lines[start:end])
    broken = False
    for _ in range(_MAX_PER_ITEM):
        d = _parse_item(lines, start, end, body, parse_chunk, out)
        if d is None:
            break
        out.append(d)
        broken = True
        at = d.span.line - 1  # 0-based line of the file
        if not start < at < end or not _blank(body, at - start):
            break
    return out, broken


def _parse_item(lines, start, end, body, parse_chunk, out) -> Diagnostic | None:
    """The first syntax error of the item (None if it parses); tree errors go to `out`."""
    stub, offset = ("", start) if start == 0 else (_STUB, start - _STUB_LINES)
    chunk = stub + "".join(line + "\n" for line in body)
    try:
        out.extend(shift(d, offset) for d in parse_chunk(chunk))
        return None
    except (RuleError, RuleErrors) as e:
        d = shift(e.diagnostics[0], offset)
    if d.code != "E003" or end >= len(lines):
        return d
    # The item ran into its end: the next item's first line says what was found instead.
    try:
        parse_chunk(chunk + lines[end] + "\n")
    except (RuleError, RuleErrors) as e:
        d = shift(e.diagnostics[0], offset)
        if d.span.line <= end + 1:
            return d
    return None


def _blank(body: list[str], at: int) -> bool:
    """Blank body line `at` and the lines indented under it, unless that empties a block."""
    depth = _indent(body[at])
    stop = at + 1
    while stop < len(body) and (_is_blank(body[stop]) or _indent(body[stop]) > depth):
        stop += 1
    above = next((i for i in range(at - 1, -1, -1) if not _is_blank(body[i])), None)
    below = next((i for i in range(stop, len(body)) if not _is_blank(body[i])), None)
    if above is None:
        return False
    opens = without_comment(body[above]).rstrip().endswith(":")
    if opens and (below is None or _indent(body[below]) <= _indent(body[above])):
        return False  # the block would be left with no lines
    for i in range(at, stop):
        body[i] = ""
    return True


def without_comment(line: str) -> str:
    """The line without its comment (a `#` inside double quotes is not one)."""
    quoted = False
    for i, c in enumerate(line):
        if c == '"':
            quoted = not quoted
        elif c == "#" and not quoted:
            return line[:i]
    return line


def _is_blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def shift(d: Diagnostic, offset: int) -> Diagnostic:
    """`d` and its notes moved down `offset` lines."""
    if not offset:
        return d
    return attrs.evolve(d, span=_shift_span(d.span, offset),
                        notes=tuple((m, _shift_span(s, offset)) for m, s in d.notes))


def _shift_span(span: Span | None, offset: int) -> Span | None:
    if span is None or span.line <= 0:
        return span
    return span.replace(line=span.line + offset, end_line=span.end_line + offset)
