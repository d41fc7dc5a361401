"""Options shared by the commands that load a rulebook."""

from __future__ import annotations

import click

include_path_option = click.option(
    "--include-path", "-I", "include_path", multiple=True, metavar="DIR",
    type=click.Path(exists=True, file_okay=False),
    help="a directory whose rules files an `extends` may name, searched after the "
    "extending file's own and before the installed rulebooks (repeatable)")
