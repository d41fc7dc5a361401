"""Printing diagnostics for the commands that load a rulebook before doing their work."""

from __future__ import annotations

import click

from rulelang.diagnostics import printable, render


def _source(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return ""


def usage_message(diagnostics) -> str:
    """Mistakes of the command line (a `--set`) as one usage message, with codes and hints."""
    return printable("; ".join(f"{d.message} [{d.code}]" + (f" ({d.hint})" if d.hint else "")
                               for d in diagnostics))


def print_diagnostics(diagnostics) -> None:
    """Render each diagnostic with its source line to standard error."""
    for d in diagnostics:
        click.echo(render(d, _source(d.span.file)), err=True)
