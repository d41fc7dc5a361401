"""`rulelang explain CODE`: the long explanation of a diagnostic code, from docs/errors.md."""

from __future__ import annotations

import click

from rulelang.diagnostics import CODES, printable
from rulelang.explain import explanation
from rulelang.resolve import did_you_mean


@click.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print what CODE (such as E104) means, an example that fails, and how to fix it."""
    code = code.strip().upper()
    if code not in CODES:
        hint = did_you_mean(code, CODES) or "codes look like E104 or W101"
        raise click.BadParameter(printable(f"there is no code '{code}'; {hint}"),
                                 param_hint="CODE")
    click.echo(explanation(code))
