"""What an editor shows of a name when the pointer rests on it (hover), as Markdown: a word
of the language as `rulelang explain` describes it, a setting and the value in force, a
space's data, a deck's cards, a rule's citation and text (the inherited one's too), the file
a rulebook extends.
"""

from __future__ import annotations

import os
import re

from rulelang import ast
from rulelang.files import INSTALLED, source_text
from rulelang.navigate import KEYWORDS, Analysis, Reference, definition, items_of
from rulelang.reference import see

__all__ = ["hover"]



def hover(analysis: Analysis, ref: Reference) -> str | None:
    """The documentation of what `ref` names, as Markdown."""
    from rulelang import explain, vocab

    if ref.kind == "primitive":
        return _fenced(explain.describe(ref.primitive))
    if ref.kind == "keyword":
        form, doc, section = KEYWORDS[ref.name]
        return _fenced(form) + f"\n{doc[0].upper()}{doc[1:]}.\n\nMore: {_code(see(section))}."
    if ref.kind == "setting":
        spec = vocab.SETTINGS.get(ref.name)
        if spec is None:
            return None
        text = _fenced(explain.describe(spec))
        statement = _in_force(analysis, ref.name)
        if statement is not None:
            value = _source(analysis, statement.value.span) or "?"
            text += f"\nIn force: {_code(value)}, set at {_where(analysis, statement.span)}."
        else:
            text += "\nIn force: the default."
        return text
    if ref.kind == "space":
        return _space(analysis, ref.name)
    if ref.kind == "deck":
        return _deck(analysis, ref.name)
    if ref.kind == "rule":
        return _rule(analysis, ref)
    if ref.kind == "file":
        parent = analysis.parents[0] if analysis.parents else None
        if parent is None:
            return None
        return f"**{_md(parent.title.value)}**\n\n{_where(analysis, parent.span)}"
    if ref.kind == "option":
        return _option(analysis, ref.name)
    spans = definition(analysis, ref)
    where = f", declared at {_where(analysis, spans[0])}" if spans else ""
    return f"{ref.kind} **{_md(ref.name)}**{where}"


def _option(analysis: Analysis, name: str) -> str | None:
    found = [o for f in analysis.chain for o in items_of(f.items, ast.Option)
             if o.name.name == name]
    if not found:
        return None
    option = found[0]
    title = f' "{_md(option.title.value)}"' if option.title is not None else ""
    rules = [i.name.name for i in option.items if isinstance(i, ast.Rule)]
    lines = [f"**option {_md(name)}**{title}: off unless switched on (`--option {_md(name)}`)"]
    if rules:
        lines.append("\nIts rules: " + ", ".join(_md(r) for r in rules) + ".")
    lines.append(f"\nDeclared at {_where(analysis, option.span)}.")
    return "\n".join(lines)


def _space(analysis: Analysis, name: str) -> str | None:
    program = analysis.program
    if program is None or program.board is None:
        return None
    spaces = program.board.spaces
    found = [(i, s) for i, s in enumerate(spaces) if s.name.value == name]
    if not found:
        return None
    i, s = found[0]
    where = ", ".join(str(j) for j, _ in found)
    head = f'**"{_md(name)}"**: {s.kind.name}'
    if s.group is not None:
        head += f' in "{_md(s.group.value)}"'
    head += f", space {where} of {len(spaces)} (GO is 0)"
    lines = [head, ""]
    money = [(label, getattr(s, attr)) for label, attr in (
        ("price", "price"), ("mortgage", "mortgage"), ("house", "house_cost"),
        ("hotel", "hotel_cost"))]
    facts = [f"{label} ${m.amount}" for label, m in money if m is not None]
    if facts:
        lines.append("- " + ", ".join(facts))
    if s.rents:
        rents = [f"${m.amount}" for m in s.rents]
        if s.kind.name == "street" and len(rents) > 2:
            lines.append(f"- rent {rents[0]} unimproved; with 1 to {len(rents) - 2} houses "
                         f"{', '.join(rents[1:-1])}; with a hotel {rents[-1]}")
        else:
            lines.append(f"- rent {' '.join(rents)} (by the number of the group owned)")
    if s.multipliers:
        lines.append("- rent: the dice total times "
                     + ", ".join(f"x{m.value}" for m in s.multipliers)
                     + " (by the number of the group owned)")
    lines += ["", f"Declared at {_where(analysis, s.span)}."]
    return "\n".join(lines)


def _deck(analysis: Analysis, name: str) -> str | None:
    program = analysis.program
    deck = next((d for d in program.decks if d.name.value == name), None) if program else None
    if deck is None:
        return None
    lines = [f'**deck "{_md(name)}"**: {len(deck.cards)} cards', ""]
    lines += [f"- {_md(c.id.value)}: {_md(c.title.value)}" for c in deck.cards[:24]]
    if len(deck.cards) > 24:
        lines.append(f"- ... and {len(deck.cards) - 24} more")
    lines += ["", f"Declared at {_where(analysis, deck.span)}."]
    return "\n".join(lines)


_SHOWN_LINES = 12  # of a rule's text in its hover


def _rule(analysis: Analysis, ref: Reference) -> str | None:
    spans = definition(analysis, ref)
    node = ref.node
    rules = []
    if isinstance(node, ast.Name):
        here = [r for r in items_of(analysis.file.items, ast.Rule) if r.name is node] \
            if analysis.file is not None else []
        rules += here
    if not rules or ref.inherited:
        rules += [r for f in analysis.chain for r in items_of(f.items, ast.Rule)
                  if spans and r.span == spans[0]]
    if not rules:
        return None
    out = []
    for rule in rules:
        title = f"**rule {_md(rule.name.name)}**"
        if rule.override == "replace":
            title += " (replaces the inherited rule)"
        elif rule.override in ("before", "after"):
            title += f" ({rule.override} the rule {_md(rule.target.name)})"
        part = [title + f", at {_where(analysis, rule.span)}"]
        if rule.cite is not None:
            part.append(f"\nCites *{_md(rule.cite.section)}*: {_md(rule.cite.source)}")
        text = _source(analysis, rule.span, _SHOWN_LINES)
        if text:
            part.append(_fenced(text, "rules"))
        out.append("\n".join(part))
    return "\n\n---\n\n".join(out)


def _fenced(text: str, lang: str = "text") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{lang}\n{text}\n{fence}\n"


_MD = re.compile(r"([\\`*_{}\[\]<>#|])")


def _md(text: str) -> str:
    """Text from a rules file, shown as itself in Markdown."""
    return _MD.sub(r"\\\1", text)


def _code(text: str) -> str:
    """Text as a Markdown code span."""
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _where(analysis: Analysis, span: ast.Span) -> str:
    """`file:line` of a span, the file named from the analysed file's directory, or as an
    installed rulebook."""
    file = os.path.abspath(span.file)
    here = os.path.dirname(os.path.abspath(analysis.path))
    installed = os.path.realpath(INSTALLED)
    if file.startswith(here + os.sep):
        name = os.path.relpath(file, here)
    elif os.path.realpath(file).startswith(installed + os.sep):
        name = os.path.relpath(os.path.realpath(file), installed) + " (installed)"
    else:
        name = file
    return _code(f"{name}:{span.line}")


def _source(analysis: Analysis, span: ast.Span, most: int = 1) -> str | None:
    """The text a span covers (at most `most` lines; a one-line span exactly)."""
    text = analysis.text if span.file == analysis.path else source_text(span.file)
    if text is None or span.line <= 0:
        return None
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    if span.line > len(lines):
        return None
    if span.line == span.end_line:
        return lines[span.line - 1][span.column - 1:span.end_column - 1] or None
    shown = lines[span.line - 1:min(span.end_line, span.line - 1 + most)]
    if span.end_line - span.line + 1 > most:
        shown.append("  ...")
    return "\n".join(shown)


def _in_force(analysis: Analysis, name: str) -> ast.Set | None:
    """The `set NAME` whose value is in force (the played file's included)."""
    program = analysis.program
    found = None
    if program is not None:
        for rule in program.rules:
            for statement in rule.body:
                if isinstance(statement, ast.Set) and statement.name.name == name:
                    found = statement
        for statement in program.settings:
            if statement.name.name == name:
                found = statement
    return found
