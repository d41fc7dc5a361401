"""`rulelang resume SAVE`: play on a saved game exactly as if it had never stopped."""

from __future__ import annotations

import sys
from contextlib import ExitStack

import click

from rulelang import SaveError, load_game
from rulelang.diagnostics import json_safe, printable

from .options import include_path_option
from .outputs import AtomicText, check_outputs
from .run_cmd import check_save_options, game_outputs, play_on, rulebook_files


@click.command()
@click.argument("save", type=click.Path(dir_okay=False))
@click.option("--rules", "rules_path", type=click.Path(dir_okay=False), default=None,
              help="the rulebook's file, if it is no longer where the save says")
@include_path_option
@game_outputs
def resume(save, rules_path, include_path, log_path, as_json, save_at, save_path, force):
    """Resume the game saved in SAVE and play it to the end (or to --save-at)."""
    check_save_options(save_at, save_path)
    outputs = {"--log": log_path, "--save": save_path}
    inputs = {save: "the save being resumed"}
    if rules_path:
        inputs[rules_path] = "the rulebook being played"
    # at once what is known; an existing file once every input is known (the rulebook's)
    check_outputs(outputs, inputs, force=True)
    sink = []  # the log file, opened once the save has loaded: a bad save overwrites nothing
    try:
        game = load_game(save, rulebook=rules_path, include_path=include_path,
                         log=(lambda line: sink[0].write(json_safe(line) + "\n"))
                         if log_path else None)
    except SaveError as err:
        click.echo(printable(f"error: {err}"), err=True)
        sys.exit(1)
    check_outputs(outputs, {**rulebook_files(game.rulebook), **inputs}, force)
    with ExitStack() as stack:
        if log_path:
            sink.append(stack.enter_context(AtomicText(log_path)))
        play_on(game, save_at, save_path, as_json)
