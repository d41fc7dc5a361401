"""`rulelang check FILE...`: report every diagnostic of each rulebook; exit 0 clean, 1 errors."""

from __future__ import annotations

import json
import sys

import click

from rulelang.check import check_path
from rulelang.diagnostics import RuleError, json_safe, render, summary, to_json
from rulelang.files import source_text
from rulelang.parse import parse_override
from rulelang.resolve import played_file

from .options import include_path_option
from .render import usage_message


def _read(path: str, cache: dict[str, str | None]) -> str | None:
    if path not in cache:
        cache[path] = source_text(path)  # never blocks on a FIFO nor reads without bound
    return cache[path]


def _existing(ctx, param, paths: tuple[str, ...]) -> tuple[str, ...]:
    """Each path names a file, or an installed rulebook (`classic_1961.rules`); else usage."""
    for path in paths:
        try:
            played_file(path)
        except RuleError as e:
            raise click.BadParameter(usage_message(e.diagnostics), ctx, param) from None
    return paths


@click.command()
@click.argument("files", metavar="FILE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False), callback=_existing)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text for people, json for tools")
@click.option("--strict", is_flag=True, help="count warnings as errors")
@click.option("--option", "options", metavar="NAME", multiple=True,
              help="switch on an option of the rulebook (repeatable)")
@click.option("--set", "parameters", metavar="NAME=VALUE", multiple=True,
              help="check with a parameter agreed, e.g. time_limit=60 (repeatable)")
@include_path_option
def check(files: tuple[str, ...], fmt: str, strict: bool, options: tuple[str, ...],
          parameters: tuple[str, ...], include_path: tuple[str, ...]) -> None:
    """Check rulebooks: syntax, names, types, the board, the decks, the settings, the
    overrides, dead and clashing rules, chains that never end, money and the end of the game.

    Every diagnostic of every file, sorted by position; `rulelang explain CODE` tells more.
    --format json prints one list of objects (file, line, column, end_line, end_column,
    severity, code, message, hint, notes). Exit status: 0 no errors (warnings allowed unless
    --strict), 1 errors found, 2 bad usage.
    """
    sources: dict[str, str | None] = {}
    failed = False
    report = []
    try:
        overrides = [parse_override(p) for p in parameters]
    except RuleError as e:
        raise click.BadParameter(usage_message(e.diagnostics), param_hint="--set") from None
    for path in files:
        _, diags = check_path(path, options, overrides, include_path)
        errors = sum(d.is_error for d in diags)
        warnings = len(diags) - errors
        failed = failed or errors > 0 or (strict and warnings > 0)
        if fmt == "json":
            report.extend(to_json(d) for d in diags)
            continue
        for d in diags:
            click.echo(render(d, _read(d.span.file, sources)))
        click.echo(summary(path, diags))
    if fmt == "json":
        click.echo(json_safe(json.dumps(report, indent=2, ensure_ascii=False)))
    sys.exit(1 if failed else 0)
