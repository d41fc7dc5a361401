"""Printing diagnostics for the commands that load a rulebook before doing their work."""

from __future__ import annotations

import click

from rulelang.diagnostics import printable, render
from rulelang.files import source_text
from rulelang.source import COMMAND_LINE


def _source(path: str) -> str:
    return source_text(path) or ""  # never blocks on a FIFO nor reads without bound


def usage_message(diagnostics) -> str:
    """Mistakes of the command line (a `--set`) as one usage message, with codes and hints."""
    return printable("; ".join(f"{d.message} [{d.code}]" + (f" ({d.hint})" if d.hint else "")
                               for d in diagnostics))


def command_line_part(diagnostics) -> dict[str, list]:
    """The diagnostics that are mistakes of the command line, by the option at fault: an
    unknown `--option` (E406), a `--set` that names no parameter or gives it a bad value."""
    found: dict[str, list] = {}
    for d in diagnostics:
        option = "--option" if d.code == "E406" else "--set" if d.span.file == COMMAND_LINE \
            else None
        if option:
            found.setdefault(option, []).append(d)
    return found


def raise_command_line_errors(diagnostics, prefix: str = "") -> None:
    """A usage error (exit 2) for the first option at fault in `diagnostics`, if any."""
    for option, found in command_line_part(diagnostics).items():
        raise click.BadParameter(prefix + usage_message(found), param_hint=option)


def load_or_exit(file, options=(), parameters=(), include_path=(), observe=False):
    """The compiled rulebook of `file`; a usage error (exit 2) for a FILE that does not exist
    or a mistake of --option or --set, the diagnostics and exit 1 for a rulebook with errors."""
    from rulelang import RuleError, RuleErrors, load
    from rulelang.resolve import played_file

    try:
        played_file(file)
    except RuleError as e:
        raise click.BadParameter(usage_message(e.diagnostics), param_hint="FILE") from None
    try:
        return load(file, options, parameters, include_path, observe=observe)
    except (RuleError, RuleErrors) as errors:
        raise_command_line_errors(errors.diagnostics)
        print_diagnostics(errors.diagnostics)
        raise SystemExit(1) from None


def print_diagnostics(diagnostics) -> None:
    """Render each diagnostic with its source line to standard error."""
    for d in diagnostics:
        click.echo(render(d, _source(d.span.file)), err=True)
