"""`rulelang resume SAVE`: play on a saved game exactly as if it had never stopped."""

from __future__ import annotations

import sys
from contextlib import ExitStack

import click

from rulelang import RuleErrors, SaveError, load, load_game

from .render import print_diagnostics
from .run_cmd import check_save_options, play_on


@click.command()
@click.argument("save", type=click.Path(dir_okay=False))
@click.option("--rules", "rules_path", type=click.Path(dir_okay=False), default=None,
              help="the rulebook's file, if it is no longer where the save says")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, writable=True),
              help="write the events from the save on, as JSON Lines, to this file")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@click.option("--save-at", type=click.IntRange(0), default=None, metavar="TURN",
              help="stop again after TURN player-turns in all and save (with --save)")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="the file the game is saved to")
def resume(save, rules_path, log_path, as_json, save_at, save_path):
    """Resume the game saved in SAVE and play it to the end (or to --save-at)."""
    check_save_options(save_at, save_path)
    rulebook = None
    if rules_path is not None:
        try:
            rulebook = load(rules_path)
        except RuleErrors as errors:
            print_diagnostics(errors.diagnostics)
            sys.exit(1)
    sink = []  # the log file, opened once the save has loaded: a bad save overwrites nothing
    try:
        game = load_game(save, rulebook=rulebook,
                         log=(lambda line: sink[0].write(line + "\n")) if log_path else None)
    except SaveError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(1)
    with ExitStack() as stack:
        if log_path:
            sink.append(stack.enter_context(open(log_path, "w", encoding="utf-8", newline="\n")))
        play_on(game, save_at, save_path, as_json)
