"""What may be written at a position of a rules file being edited (`completions`), and the
outline of a file (`symbols`), for the language server.

Positions are 1-based lines and columns counted in characters, as in `ast.Span`. What is
offered follows the words before the position: a name in quotes (a space, a deck ...), a
setting after `set`, an inherited rule after `replace rule`, an event after `when`, a
condition after `if`, an effect after `:`, a keyword at the start of a line.
"""

from __future__ import annotations

import os
import re

from attrs import frozen

from rulelang import ast
from rulelang.navigate import KEYWORDS, Analysis, code_of, names_in_scope

__all__ = ["Completion", "Symbol", "completions", "symbols"]


@frozen
class Completion:
    """One thing that may be written: `text` replaces the line's characters from column
    `start` to the position. kind: "keyword", "space", "deck", "rule", "setting", "option",
    "token", "pot", "die", "face", "file", "kind", or a role of the vocabulary ("event",
    "condition", "effect", "action")."""

    label: str
    kind: str
    text: str
    start: int
    detail: str = ""
    doc: str = ""


@frozen
class Symbol:
    """One entry of a file's outline: kind is "rule", "board", "space", "deck", "card",
    "option", "setting", "parameter", "die", "token", "pot", "side" or "removed"."""

    name: str
    kind: str
    span: ast.Span
    name_span: ast.Span
    detail: str = ""
    children: tuple["Symbol", ...] = ()


# What begins a line: at the top level, and inside a rule.
_TOP = ("rule", "replace rule", "remove rule", "before", "after", "option", "board:", "deck",
        "die", "dice", "token", "side", "pot", "rename", "currency", "set", "parameter",
        "extends", "rulebook", "cite")
_INSIDE = ("cite", "set", "parameter", "when", "a player may not")
_QUOTED_AFTER = {  # the word before an opening quote -> the kind of name in it
    "from": "deck", "deck": "deck", "token": "token", "pot": "pot", "into": "pot",
    "die": "die", "dice": "die", "shows": "face", "extends": "file", "space": "space",
    "on": "space", "passes": "space", "to": "space", "at": "space",
}
_TESTS = re.compile(r"(?:^|\s)(?:if|unless|and|or|not|where)\s+")
_PLACEHOLDER = re.compile(r'[A-Z$"\[]')


def completions(analysis: Analysis, line: int, column: int) -> list[Completion]:
    """What may be written at (line, column) of the analysed text."""
    lines = analysis.text.split("\n")
    if not 0 < line <= len(lines):
        return []
    before = lines[line - 1][:column - 1]
    code = code_of(before)
    if code != before:
        return []  # in a comment
    if code.count('"') % 2:
        closed = lines[line - 1][column - 1:column] == '"'
        return _quoted(analysis, code, "" if closed else '"')
    word = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", code)
    start = column - (len(word.group()) if word else 0)
    words = code[:start - 1].split()
    stripped = code.lstrip()
    indent = len(code) - len(stripped)
    if words in (["replace", "rule"], ["remove", "rule"]) or words in (["before"], ["after"]):
        return _names(analysis, "rule", start, inherited=True)
    if words and words[-1] in ("set", "parameter") and len(words) <= 2:
        return _names(analysis, "setting", start)
    if words and words[-1] == "option" and len(words) > 1:
        return _names(analysis, "option", start)
    if words and words[-1] in ("a", "an", "next", "nearest", "unowned"):
        from rulelang.check import TARGET_KINDS

        kinds = [Completion(k, "kind", k, start) for k in TARGET_KINDS]
        if words[-1] in ("a", "an") and words[0] == "when" and len(words) <= 2:
            return _phrases("event", code, indent + 6, column) + kinds
        return kinds
    if stripped.startswith("when "):
        return _statement(code, indent, column)
    if stripped.startswith("a player may not "):
        after = code[indent + len("a player may not "):]
        if _TESTS.search(after):
            return _phrases("condition", code, _phrase_start(code, _TESTS), column)
        return _phrases("action", code, indent + len("a player may not ") + 1, column)
    card = re.match(r'\s*card\s+"[^"]*"\s+"[^"]*"\s*:', code)
    if card:
        return _phrases("effect", code, _effect_start(code), column)
    if not words:
        keywords = _TOP if indent == 0 else _INSIDE
        return [Completion(k, "keyword", k, start, *_keyword_doc(k)) for k in keywords]
    return []


def _keyword_doc(keyword: str) -> tuple[str, str]:
    found = KEYWORDS.get(keyword.split()[0].rstrip(":"))
    if keyword == "a player may not":
        return "a player may not ACTION [if CONDITION]", "a permission: the engine refuses " \
            "the action when the conditions hold"
    return (found[0], found[1]) if found else ("", "")


def _statement(code: str, indent: int, column: int) -> list[Completion]:
    """Inside a `when` line: an event, then conditions, then effects after the colon."""
    after = code[indent + len("when "):]
    if _outside_quotes(after, ":"):
        return _phrases("effect", code, _effect_start(code), column)
    if _TESTS.search(after):
        return _phrases("condition", code, _phrase_start(code, _TESTS), column)
    return _phrases("event", code, indent + len("when ") + 1, column)


def _outside_quotes(text: str, char: str) -> bool:
    return char in "".join(text.split('"')[0::2])


def _effect_start(code: str) -> int:
    """The column where the effect being written starts: after the last `:` or `,` outside
    quotes."""
    last = 0
    quoted = False
    for i, c in enumerate(code):
        if c == '"':
            quoted = not quoted
        elif c in ":,;" and not quoted:
            last = i + 1
    while last < len(code) and code[last] == " ":
        last += 1
    return last + 1


def _phrase_start(code: str, pattern: re.Pattern) -> int:
    found = None
    for found in pattern.finditer(code):
        pass
    return found.end() + 1 if found else len(code) + 1


def _phrases(role: str, code: str, start: int, column: int) -> list[Completion]:
    """The forms of the vocabulary's words of `role`, written from column `start`."""
    from rulelang import vocab

    start = min(max(start, 1), column)
    out = []
    for p in vocab.of_role(role):
        for form in vocab.shown_forms(p):
            m = _PLACEHOLDER.search(form)
            text = form[:m.start()] if m else form
            out.append(Completion(form, role, text, start, p.name, p.doc))
    return out


def _names(analysis: Analysis, kind: str, start: int, inherited: bool = False,
           end_quote: str = "") -> list[Completion]:
    from rulelang.vocab import SETTINGS

    names = names_in_scope(analysis, kind)
    if inherited:  # the rules of the files extended
        names = {n: s for n, s in names.items() if s.file != analysis.path}
    out = []
    for name, span in names.items():
        detail = doc = ""
        if kind == "setting":
            spec = SETTINGS[name]
            detail, doc = f"{spec.type}, default {spec.default!r}", spec.doc
        elif span.line > 0:
            detail = f"{os.path.basename(span.file)}:{span.line}"
        out.append(Completion(name, kind, name + end_quote, start, detail, doc))
    return out


def _quoted(analysis: Analysis, code: str, end_quote: str) -> list[Completion]:
    """Names in quotes: the kind the word before the quote asks for, else every name
    (`end_quote`: what closes the name, nothing when the quote is already there)."""
    quote = code.rfind('"')
    start = quote + 2
    words = code[:quote].split()
    kind = _QUOTED_AFTER.get(words[-1]) if words else None
    if kind == "file":
        return _files(analysis, start, end_quote)
    kinds = (kind,) if kind else ("space", "deck", "token", "pot", "die", "face")
    out = []
    for k in kinds:
        out += _names(analysis, k, start, end_quote=end_quote)
    return out


def _files(analysis: Analysis, start: int, end_quote: str) -> list[Completion]:
    """The rules files an `extends` may name: beside this one, and the installed ones."""
    from rulelang.files import installed_names

    here = os.path.dirname(os.path.abspath(analysis.path))
    mine = os.path.basename(analysis.path)
    try:
        local = sorted(n for n in os.listdir(here) if n.endswith(".rules") and n != mine)
    except OSError:
        local = []
    out = [Completion(n, "file", n + end_quote, start, "beside this file") for n in local]
    out += [Completion(n, "file", n + end_quote, start, "installed") for n in installed_names()
            if n not in local]
    return out


# ---------------------------------------------------------------- the outline


def symbols(file: ast.File) -> list[Symbol]:
    """The outline of a file: its rules, board, decks, options, parameters and settings."""
    return _symbols(file.items)


def _symbols(items) -> list[Symbol]:
    out = []
    for item in items:
        found = _symbol(item)
        if found is not None:
            out.append(found)
    return out


def _symbol(item) -> Symbol | None:
    if isinstance(item, ast.Rule):
        if item.override == "replace":
            detail = "replaces the inherited rule"
        elif item.override in ("before", "after"):
            detail = f"{item.override} {item.target.name}"
        else:
            detail = item.cite.section if item.cite is not None else ""
        sets = tuple(_set(s) for s in item.body if isinstance(s, ast.Set))
        return Symbol(item.name.name, "rule", item.span, item.name.span, detail, sets)
    if isinstance(item, ast.Remove):
        return Symbol(item.name.name, "removed", item.span, item.name.span, "removed")
    if isinstance(item, ast.Set):
        return _set(item)
    if isinstance(item, ast.Board):
        spaces = tuple(Symbol(s.name.value, "space", s.span, s.name.span,
                              f"{i}: {s.kind.name}") for i, s in enumerate(item.spaces))
        return Symbol("board", "board", item.span, item.span.replace(
            end_line=item.span.line, end_column=item.span.column + 5),
            f"{len(item.spaces)} spaces", spaces)
    if isinstance(item, ast.Deck):
        cards = tuple(Symbol(c.id.value, "card", c.span, c.id.span, c.title.value)
                      for c in item.cards)
        return Symbol(item.name.value, "deck", item.span, item.name.span,
                      f"{len(item.cards)} cards", cards)
    if isinstance(item, ast.Option):
        title = item.title.value if item.title is not None else ""
        return Symbol(item.name.name, "option", item.span, item.name.span, title,
                      tuple(_symbols(item.items)))
    named = {ast.Die: "die", ast.TokenDecl: "token", ast.Pot: "pot", ast.SideDecl: "side"}
    kind = named.get(type(item))
    if kind is not None:
        return Symbol(item.name.value, kind, item.span, item.name.span)
    return None


def _set(item: ast.Set) -> Symbol:
    return Symbol(item.name.name, "parameter" if item.parameter else "setting", item.span,
                  item.name.span)
