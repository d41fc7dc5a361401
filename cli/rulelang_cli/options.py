"""Options shared by the commands that load a rulebook."""

from __future__ import annotations

import click

INTERRUPTED = 130  # the exit status of a command stopped by Ctrl-C (128 + SIGINT)
BROKEN_PIPE = 141  # the exit status of a command whose standard output closed (128 + SIGPIPE)


class Whole(click.IntRange):
    """A whole number within bounds: `--seed abc` is "'abc' is not a whole number", not
    click's "not a valid integer range"."""

    name = "whole number"

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            try:
                value = int(value, 10)
            except ValueError:
                self.fail(f"{value!r} is not a whole number", param, ctx)
        return super().convert(value, param, ctx)

include_path_option = click.option(
    "--include-path", "-I", "include_path", multiple=True, metavar="DIR",
    type=click.Path(exists=True, file_okay=False),
    help="a directory whose rules files an `extends` may name, searched after the "
    "extending file's own and before the installed rulebooks (repeatable)")

agents_option = click.option(
    "--agents", "-a", default="default", show_default=True, metavar="AGENTS",
    help="one agent for every seat, or one per seat, separated by commas: default, own-turn, "
    "random, or a subclass of rulelang.Agent as module:Class or path/to/file.py:Class")
