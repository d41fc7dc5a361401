"""Printing diagnostics for the commands that load a rulebook before doing their work."""

from __future__ import annotations

import click

from rulelang.diagnostics import printable, render
from rulelang.files import source_text


def _source(path: str) -> str:
    return source_text(path) or ""  # never blocks on a FIFO nor reads without bound


def usage_message(diagnostics) -> str:
    """Mistakes of the command line (a `--set`) as one usage message, with codes and hints."""
    return printable("; ".join(f"{d.message} [{d.code}]" + (f" ({d.hint})" if d.hint else "")
                               for d in diagnostics))


def print_diagnostics(diagnostics) -> None:
    """Render each diagnostic with its source line to standard error."""
    for d in diagnostics:
        click.echo(render(d, _source(d.span.file)), err=True)
