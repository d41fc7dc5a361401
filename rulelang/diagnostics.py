"""Diagnostics: the error codes, the `RuleError` every stage raises, and their rendering.

A `Diagnostic` is a coded message about a span of a rules file. Messages start lowercase,
end without a period, quote names, and never embed source text: `render` adds the source
line and a caret underline. Codes are stable: a code never changes meaning once published.
"""

from __future__ import annotations

import functools
import re
from typing import Iterable

import attrs
from attrs import frozen

from rulelang.ast import Span

__all__ = [
    "CODES",
    "MAX_PER_CODE",
    "Diagnostic",
    "Diagnostics",
    "RuleError",
    "RuleErrors",
    "by_position",
    "json_safe",
    "limited",
    "printable",
    "render",
    "source_lines",
    "summary",
    "to_json",
]

# Code -> one-line title. E0xx syntax, E1xx names, E2xx types and values, E3xx rule
# semantics, E4xx rulebook level, W warnings. docs/errors.md explains each with an example.
CODES: dict[str, str] = {
    "E001": "unexpected character",
    "E002": "unexpected token",
    "E003": "unexpected end of file",
    "E004": "inconsistent indentation",
    "E005": "missing ':' at the end of a block header",
    "E006": "unknown keyword",
    "E007": "unterminated string",
    "E008": "missing `rulebook` header",
    "E009": "space attribute given twice",
    "E010": "rent modifier without `advance to the nearest`",
    "E011": "file is not UTF-8 text",
    "E012": "name not in double quotes",
    "E013": "`cite` not on the first line of a rule",
    "E014": "rule name is not one word",
    "E015": "block without indented lines",
    "E016": "value where a name was expected",
    "E017": "bad `--set NAME=VALUE`",
    "E018": "blocks nested too deeply",
    "E019": "nested too deeply within a line",
    "E101": "unknown setting",
    "E102": "unknown space kind",
    "E103": "unknown kind of space",
    "E104": "unknown space",
    "E105": "unknown deck",
    "E106": "unknown die face",
    "E107": "unknown option",
    "E108": "unknown group",
    "E109": "ambiguous space name",
    "E110": "duplicate rule",
    "E111": "duplicate property",
    "E112": "duplicate card id",
    "E113": "duplicate deck",
    "E114": "duplicate die",
    "E115": "duplicate option",
    "E116": "unknown pot",
    "E117": "duplicate pot",
    "E118": "rule named like an engine cause",
    "E150": "unknown token",
    "E151": "unknown side",
    "E152": "unknown die",
    "E153": "duplicate token",
    "E154": "duplicate side or character",
    "E201": "setting value of the wrong type",
    "E202": "value out of range",
    "E203": "unknown choice",
    "E204": "negative amount",
    "E205": "quantity of the wrong unit",
    "E206": "empty range",
    "E207": "named face not on the die",
    "E208": "bad die faces",
    "E209": "list too long",
    "E210": "arithmetic on the wrong units",
    "E211": "comparison of different units",
    "E212": "bad dice declaration",
    "E250": "die without values where a number is needed",
    "E301": "inconsistent settings",
    "E302": "`keep to leave jail free` outside a card",
    "E303": "effect needs a property",
    "E304": "owner condition without an owner",
    "E305": "ownership of a space that cannot be owned",
    "E306": "money paid to no one",
    "E307": "subject the event or action does not have",
    "E308": "choice with one option",
    "E309": "kind the event or action cannot take",
    "E310": "group or building test on a space that has none",
    "E312": "more deeds dealt than the board holds",
    "E350": "`the token` outside a rule about a token",
    "E351": "effect not allowed on this event",
    "E352": "battle that no side can win",
    "E401": "cannot read rules file",
    "E402": "cyclic `extends`",
    "E403": "override of a rule that does not exist",
    "E404": "no board",
    "E405": "no dice",
    "E406": "unknown option switched on",
    "E407": "board needs exactly one `go` space",
    "E408": "jail missing or repeated",
    "E409": "rent table of the wrong length",
    "E410": "property missing a price, mortgage, group or house cost",
    "E411": "mortgage above the price",
    "E412": "group lots disagree",
    "E413": "no space of the kind a move looks for",
    "E414": "attribute that does not apply to the kind",
    "E415": "more than one board in a file",
    "E416": "game that can never end",
    "E417": "chain of triggered effects that never ends",
    "E418": "`--set` of a setting that is not a parameter",
    "E419": "`extends` outside the directories a rulebook may read",
    "E420": "rules file that is not a regular file",
    "E421": "rules file too large",
    "E450": "more players than characters",
    "W101": "rule without a cite",
    "W102": "setting set twice in one file",
    "W103": "rules that act on the same event in no stated order",
    "W104": "rule that can never fire",
    "W105": "deck never drawn from",
    "W106": "`nothing` next to other effects",
    "W107": "rent that falls as buildings rise",
    "W108": "deck of an unusual size",
    "W109": "override that changes nothing",
    "W110": "effect that never happens",
    "W111": "dice that always give the same throw",
    "W112": "`else` that never runs",
    "W113": "game that can end only at the turn cap",
    "W114": "pot that nothing pays out",
}


# Characters a terminal may act on instead of showing: C0 and C1 controls (ESC starts escape
# and OSC sequences, U+009B is a one-character CSI), DEL, the bidirectional controls that
# reorder what is shown, the line and paragraph separators, and lone surrogates (undecodable
# bytes of a file name), which cannot even be encoded for output.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                     "\ud800-\udfff]")
_UNSAFE_KEEP_TAB = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f"
                              "\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match) -> str:
    n = ord(m.group())
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def printable(text: str, keep_tabs: bool = False) -> str:
    """`text` safe to write to a terminal: every character that is not shown as itself
    (controls, bidi overrides, separators) becomes a visible escape such as `\\x1b` or
    `\\u202e`. Tabs are kept when asked (the source excerpt, whose caret follows them)."""
    return (_UNSAFE_KEEP_TAB if keep_tabs else _UNSAFE).sub(_escape, text)


def _json_escape(m: re.Match) -> str:
    return f"\\u{ord(m.group()):04x}"


# json.dumps escapes C0 controls inside strings itself; its layout (indent=2) uses newlines.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                             "\ud800-\udfff]")


def json_safe(text: str) -> str:
    """JSON text (from json.dumps with ensure_ascii=False) with the characters `printable`
    escapes written as \\uXXXX: the same JSON value, and nothing a terminal acts on."""
    return _UNSAFE_IN_JSON.sub(_json_escape, text)


def _check_code(_instance, _attribute, value: str) -> None:
    if value not in CODES:
        raise ValueError(f"unregistered diagnostic code {value!r}")


@frozen
class Diagnostic:
    """One coded message about a span; notes point at related places (a first definition)."""

    code: str = attrs.field(validator=_check_code)
    severity: str = attrs.field(validator=attrs.validators.in_(("error", "warning")))
    message: str
    span: Span
    hint: str | None = None
    notes: tuple[tuple[str, Span | None], ...] = ()

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


def diagnostic(code: str, message: str, span: Span, hint: str | None = None,
               notes: Iterable[tuple[str, Span | None]] = ()) -> Diagnostic:
    """A Diagnostic whose severity follows from its code (W… warning, else error)."""
    severity = "warning" if code.startswith("W") else "error"
    return Diagnostic(code, severity, message, span, hint, tuple(notes))


class RuleError(Exception):
    """A user mistake in a rules file, carrying one Diagnostic."""

    def __init__(self, code: str, message: str, span: Span, hint: str | None = None,
                 notes: Iterable[tuple[str, Span | None]] = ()):
        self.diagnostic = diagnostic(code, message, span, hint, notes)
        super().__init__(f"{_location(span)}: {self.diagnostic.code}: {message}")

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [self.diagnostic]


class RuleErrors(Exception):
    """Several user mistakes found by one stage, in source order."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=_position)
        first = self.diagnostics[0] if self.diagnostics else None
        head = f"{_location(first.span)}: {first.code}: {first.message}" if first else "no errors"
        if first is not None and first.hint:
            head += f" (hint: {first.hint})"
        more = len(self.diagnostics) - 1
        super().__init__(head + (f" (and {more} more; each is in .diagnostics)" if more > 0
                                 else ""))


# Of each code, at most this many diagnostics are shown for one file: 500,000 copies of one
# warning in a generated file help no one, and would take more memory than the file.
MAX_PER_CODE = 100


class Diagnostics(list):
    """A list of diagnostics that keeps at most MAX_PER_CODE + 1 of each code and file (one
    more than are shown, so that `limited` knows some were left out)."""

    def __init__(self, items: Iterable[Diagnostic] = ()):
        super().__init__()
        self._counts: dict[tuple[str, str], int] = {}
        self.extend(items)

    def append(self, d: Diagnostic) -> None:
        key = (d.code, d.span.file)
        n = self._counts.get(key, 0)
        if n <= MAX_PER_CODE:
            self._counts[key] = n + 1
            super().append(d)

    def extend(self, items: Iterable[Diagnostic]) -> None:
        for d in items:
            self.append(d)


def by_position(diags: Iterable[Diagnostic], files: Iterable[str] = ()) -> list[Diagnostic]:
    """`diags` by file, then line, column and code; the files in the order of `files`, then
    of their first diagnostic (the played file comes before the files it extends)."""
    diags = list(diags)
    order: dict[str, int] = {}
    for f in [*files, *(d.span.file for d in diags)]:
        order.setdefault(f, len(order))
    return sorted(diags, key=lambda d: (order[d.span.file], d.span.line, d.span.column,
                                        d.code))


def limited(diags: list[Diagnostic]) -> list[Diagnostic]:
    """The first MAX_PER_CODE diagnostics of each code and file, in the order given; the last
    one shown of a code that had more says so in a note."""
    counts: dict[tuple[str, str], int] = {}
    out: list[Diagnostic] = []
    last: dict[tuple[str, str], int] = {}
    over: set[tuple[str, str]] = set()
    for d in diags:
        key = (d.code, d.span.file)
        n = counts[key] = counts.get(key, 0) + 1
        if n > MAX_PER_CODE:
            over.add(key)
            continue
        last[key] = len(out)
        out.append(d)
    for key in over:
        i = last[key]
        note = (f"more {key[0]} {out[i].severity}s in this file are not shown: at most "
                f"{MAX_PER_CODE} of each code are", None)
        out[i] = attrs.evolve(out[i], notes=out[i].notes + (note,))
    return out


def _position(d: Diagnostic) -> tuple:
    s = d.span
    return (s.file, s.line, s.column, s.end_line, s.end_column, d.code)


def _location(span: Span) -> str:
    if span.line <= 0:
        return span.file
    return f"{span.file}:{span.line}:{span.column}"


def render(diag: Diagnostic, source_text: str | None) -> str:
    """The diagnostic as text: location and message, the source line with a caret, hint, notes.

    source_text is the text of diag.span.file (None: no excerpt); notes show their location.
    Everything taken from a rules file or a path is shown through `printable`.
    """
    span = diag.span
    out = [printable(f"{_location(span)}: {diag.severity}[{diag.code}]: {diag.message}")]
    if source_text is not None and span.line > 0:
        out.extend(_excerpt(span, source_text))  # escaped line by line, tabs kept
    if diag.hint:
        out.append(printable(f"hint: {diag.hint}"))
    for message, note_span in diag.notes:
        where = f"{_location(note_span)}: " if note_span is not None else ""
        out.append(printable(f"note: {where}{message}"))
    return "\n".join(out)


def source_lines(text: str) -> list[str]:
    """The lines of a rules file as its lexer counts them: split at \\n and \\r\\n only
    (never at a lone \\r, U+2028, a form feed or NEL, as str.splitlines() would)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


_EXCERPT_WIDTH = 200  # characters of a source line shown under a diagnostic


@functools.lru_cache(maxsize=4)
def _lines(text: str) -> list[str]:
    # A file with thousands of diagnostics is split once, not once per diagnostic.
    return source_lines(text)


def _excerpt(span: Span, text: str) -> list[str]:
    lines = _lines(text)
    if span.line <= len(lines):
        line = lines[span.line - 1]
    elif span.line == len(lines) + 1:
        line = ""  # a point just past the last line (end of file without a final newline)
    else:
        return []
    number = str(span.line)
    gutter = " " * (len(number) + 2)
    start = max(span.column, 1)
    if span.end_line == span.line and span.end_column > start:
        end = span.end_column
    else:
        end = max(len(line) + 1, start + 1)
    # A very long line is shown as a window around the span.
    cut = 0
    prefix = suffix = ""
    if len(line) > _EXCERPT_WIDTH:
        cut = max(0, min(start - 1 - _EXCERPT_WIDTH // 4, len(line) - _EXCERPT_WIDTH))
        prefix = "..." if cut else ""
        suffix = "..." if cut + _EXCERPT_WIDTH < len(line) else ""
        line = line[cut: cut + _EXCERPT_WIDTH]
        start, end = start - cut, min(end - cut, len(line) + 1)
        end = max(end, start + 1)
    # The line as printed: escapes are wider than the characters they show, so the caret
    # is placed by the printed width of what comes before it. Tabs are kept so that the
    # caret lines up with the source as the terminal shows it.
    before = prefix + printable(line[: start - 1], keep_tabs=True)
    pad = "".join(c if c == "\t" else " " for c in before)
    pad += " " * max(0, start - 1 - len(line))
    width = len(printable(line[start - 1: end - 1], keep_tabs=True)) if start <= len(line) \
        else end - start
    mark = "^" + "~" * max(0, width - 1)
    shown = prefix + printable(line, keep_tabs=True) + suffix
    return [f"  {number} | {shown}", f"{gutter} | {pad}{mark}"]


def to_json(diag: Diagnostic) -> dict:
    """The diagnostic as a JSON-ready dict (for `--format json`)."""
    s = diag.span
    return {
        "file": s.file,
        "line": s.line,
        "column": s.column,
        "end_line": s.end_line,
        "end_column": s.end_column,
        "severity": diag.severity,
        "code": diag.code,
        "message": diag.message,
        "hint": diag.hint,
        "notes": [
            {"message": m, **({"file": n.file, "line": n.line, "column": n.column,
                               "end_line": n.end_line, "end_column": n.end_column}
                              if n is not None else {})}
            for m, n in diag.notes
        ],
    }


def summary(path: str, diagnostics: Iterable[Diagnostic]) -> str:
    """`rulesets/x.rules: 2 errors, 1 warning` or `rulesets/x.rules: ok`."""
    diags = list(diagnostics)
    errors = sum(d.is_error for d in diags)
    warnings = len(diags) - errors
    parts = []
    if errors:
        parts.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return printable(f"{path}: {', '.join(parts) if parts else 'ok'}")
