"""Diagnostics: the error codes, the `RuleError` every stage raises, and their rendering.

A `Diagnostic` is a coded message about a span of a rules file. Messages start lowercase,
end without a period, quote names, and never embed source text: `render` adds the source
line and a caret underline. Codes are stable: a code never changes meaning once published.
"""

from __future__ import annotations

import functools
from typing import Iterable

import attrs
from attrs import frozen

from rulelang.ast import Span

__all__ = [
    "CODES",
    "Diagnostic",
    "RuleError",
    "RuleErrors",
    "render",
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
    "E250": "die without values where a number is needed",
    "E301": "inconsistent settings",
    "E302": "`keep to leave jail free` outside a card",
    "E303": "effect needs a property",
    "E304": "owner condition without an owner",
    "E305": "ownership of a space that cannot be owned",
    "E306": "money paid to no one",
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
    "E413": "no space of the kind `nearest` looks for",
    "E414": "attribute that does not apply to the kind",
    "E415": "more than one board in a file",
    "E416": "game that can never end",
    "E417": "chain of triggered effects that never ends",
    "E418": "`--set` of a setting that is not a parameter",
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
}


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
        more = len(self.diagnostics) - 1
        super().__init__(head + (f" (and {more} more)" if more > 0 else ""))


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
    """
    span = diag.span
    out = [f"{_location(span)}: {diag.severity}[{diag.code}]: {diag.message}"]
    if source_text is not None and span.line > 0:
        out.extend(_excerpt(span, source_text))
    if diag.hint:
        out.append(f"hint: {diag.hint}")
    for message, note_span in diag.notes:
        where = f"{_location(note_span)}: " if note_span is not None else ""
        out.append(f"note: {where}{message}")
    return "\n".join(out)


@functools.lru_cache(maxsize=4)
def _lines(text: str) -> list[str]:
    # A file with thousands of diagnostics is split once, not once per diagnostic.
    return text.splitlines()


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
    # Keep tabs so the caret lines up with the source as the terminal shows it.
    pad = "".join(c if c == "\t" else " " for c in line[: start - 1])
    pad += " " * max(0, start - 1 - len(line))
    mark = "^" + "~" * max(0, end - start - 1)
    return [f"  {number} | {line}", f"{gutter} | {pad}{mark}"]


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
    return f"{path}: {', '.join(parts) if parts else 'ok'}"
