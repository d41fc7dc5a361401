"""`rulelang check FILE...`: report every diagnostic of each rulebook; exit 0 clean, 1 errors,
2 a mistake of the command line (a FILE that does not exist, an unknown --option or --set)."""

from __future__ import annotations

import json
import sys

import click

from rulelang.check import check_path
from rulelang.diagnostics import RuleError, json_safe, render, summary, to_json
from rulelang.files import read_stream, source_text
from rulelang.resolve import played_file

from .main import short_help
from .options import include_path_option
from .render import command_line_part, usage_message

STDIN = "<stdin>"  # the file name of the rulebook `check -` reads from standard input


def _read(path: str, cache: dict[str, str | None]) -> str | None:
    if path not in cache:
        cache[path] = source_text(path)  # never blocks on a FIFO nor reads without bound
    return cache[path]


def _stdin(sources: dict[str, str | None]) -> tuple[bytes | None, RuleError | None]:
    """The bytes of standard input (at most the size of a rules file), or why not."""
    try:
        data = read_stream(sys.stdin.buffer, STDIN)
    except RuleError as e:
        return None, e
    sources[STDIN] = data.decode("utf-8", "replace")
    return data, None


@click.command(short_help=short_help("check"))
@click.argument("files", metavar="FILE...", nargs=-1, required=True,
                type=click.Path(dir_okay=False, allow_dash=True))
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
    A FILE is a path, an installed rulebook's name (`classic_1961`), or `-` for standard
    input (its `extends` are looked up from the current directory). --format json prints one
    list of objects (file, line, column, end_line, end_column, severity, code, message, hint,
    notes).

    Exit status: 0 no errors (warnings allowed unless --strict), 1 errors found, 2 a mistake
    of the command line: a FILE that does not exist (the others are checked all the same), an
    unknown --option or --set name, a bad --set value.
    """
    if files.count("-") > 1:
        raise click.BadParameter("standard input (-) can be read only once", param_hint="FILE...")
    sources: dict[str, str | None] = {}
    failed = False
    report = []
    usage: dict[tuple[str, str], None] = {}  # (option, message): mistakes of the command line
    try:
        overrides = []
        if parameters:  # the parser is imported only to read them
            from rulelang.parse import parse_override

            overrides = [parse_override(p) for p in parameters]
    except RuleError as e:
        raise click.BadParameter(usage_message(e.diagnostics), param_hint="--set") from None
    for path in files:
        data = None
        if path == "-":
            path = STDIN
            data, unread = _stdin(sources)
        else:
            try:
                played_file(path)
            except RuleError as e:
                usage[("FILE...", usage_message(e.diagnostics))] = None
                continue
        if data is None and path == STDIN:
            diags = [unread.diagnostic]
        else:
            _, diags = check_path(path, options, overrides, include_path, data)
        wrong = command_line_part(diags)
        for option, found in wrong.items():
            named = f"{path}: " if len(files) > 1 and option == "--option" else ""
            usage[(option, named + usage_message(found))] = None
        diags = [d for d in diags if not any(d in found for found in wrong.values())]
        errors = sum(d.is_error for d in diags)
        warnings = len(diags) - errors
        failed = failed or errors > 0 or (strict and warnings > 0)
        if fmt == "json":
            report.extend(to_json(d) for d in diags)
            continue
        for d in diags:
            click.echo(render(d, _read(d.span.file, sources)))
        if diags or not wrong:  # not "ok" for a check that could not be done as asked
            click.echo(summary(path, diags))
    if fmt == "json":
        click.echo(json_safe(json.dumps(report, indent=2, ensure_ascii=False)))
    if usage:
        option = next(iter(usage))[0]
        raise click.BadParameter("; ".join(m for o, m in usage if o == option),
                                 param_hint=option)
    sys.exit(1 if failed else 0)
