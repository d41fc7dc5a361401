"""`rulelang list`: the rulebooks installed with rulelang, played by their name from any
directory, with the options they can switch on and the parameters agreed before a game."""

from __future__ import annotations

import json

import click

from rulelang import ast
from rulelang.diagnostics import RuleError, RuleErrors, json_safe, printable
from rulelang.files import installed, installed_names, source_text
from rulelang.resolve import load_chain, merge

from .main import short_help


def _options(items) -> list[ast.Option]:
    found = []
    for item in items:
        if isinstance(item, ast.Option):
            found.append(item)
            found += _options(item.items)
    return found


def _written(span: ast.Span) -> str:
    """The text of a one-line span as its file has it."""
    text = source_text(span.file) or ""
    lines = text.splitlines()
    if span.line != span.end_line or not 0 < span.line <= len(lines):
        return "?"
    return lines[span.line - 1][span.column - 1:span.end_column - 1]


def describe(name: str) -> dict:
    """An installed rulebook's name (as `rulelang run` takes it), title, options and
    parameters with their default values."""
    shown = name.removesuffix(".rules")
    try:
        chain = load_chain(installed(name))
        program, _ = merge(chain)
    except (RuleError, RuleErrors):
        return {"name": shown, "title": None, "options": [], "parameters": []}
    options = {}
    for file in reversed(chain):
        for option in _options(file.items):
            options[option.name.name] = option.title.value if option.title else None
    sets = [s for r in program.rules for s in r.body if isinstance(s, ast.Set)]
    parameters = {s.name.name: _written(s.value.span)  # the last one wins, as in a game
                  for s in sets + list(program.settings) if s.parameter}
    return {"name": shown, "title": program.title.value,
            "options": [{"name": n, "title": t} for n, t in options.items()],
            "parameters": [{"name": n, "default": v} for n, v in parameters.items()]}


@click.command(short_help=short_help("list"))
@click.option("--json", "as_json", is_flag=True, help="print the list as JSON")
def list_rulebooks(as_json: bool) -> None:
    """The rulebooks installed with rulelang, with the options `--option NAME` switches on
    and the parameters `--set NAME=VALUE` agrees (and their defaults).

    Each is played or checked by its name from any directory, `.rules` optional:
    `rulelang run classic_1961`, `rulelang check house/no_auctions`. A file of that name
    in the current directory wins over the installed rulebook.
    """
    books = [describe(name) for name in installed_names()]
    if as_json:
        click.echo(json_safe(json.dumps(books, ensure_ascii=False, indent=2)))
        return
    width = max(len(b["name"]) for b in books)
    for book in books:
        title = book["title"] if book["title"] is not None else "(has errors: rulelang check it)"
        click.echo(printable(f"{book['name']:<{width}}  {title}"))
        for option in book["options"]:
            about = f": {option['title']}" if option["title"] else ""
            click.echo(printable(f"{'':<{width}}    option {option['name']}{about}"))
        for parameter in book["parameters"]:
            click.echo(printable(f"{'':<{width}}    parameter {parameter['name']} = "
                                 f"{parameter['default']}"))
