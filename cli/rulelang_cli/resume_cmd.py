"""`rulelang resume SAVE`: play on a saved game exactly as if it had never stopped."""

from __future__ import annotations

import sys
from contextlib import ExitStack

import click

from rulelang import SaveError, load_game
from rulelang.diagnostics import printable
from rulelang.runner import make_agents
from rulelang.save import seat_count

from .main import short_help
from .options import include_path_option
from .outputs import check_outputs, log_writer
from .run_cmd import check_save_options, game_outputs, play_on, rulebook_files


@click.command(short_help=short_help("resume"))
@click.argument("save", type=click.Path(exists=True, dir_okay=False))
@click.option("--rules", "rules_path", type=click.Path(exists=True, dir_okay=False),
              default=None, help="the rulebook's file, if it is no longer where the save says")
@click.option("--agents", "-a", default=None, metavar="AGENTS",
              help="the agents of the seats when they are not built in: one for every seat, "
              "or one per seat, as module:Class or path/to/file.py:Class (as for run)")
@include_path_option
@game_outputs
def resume(save, rules_path, agents, include_path, log_path, as_json, save_at, save_path,
           force):
    """Resume the game saved in SAVE and play it to the end (or to --save-at).

    Exit status: 0 played, 1 the save cannot be played on (or an output could not be
    written), 2 a mistake of the command line, 130 stopped by Ctrl-C.
    """
    check_save_options(save_at, save_path)
    outputs = {"--log": None if log_path == "-" else log_path, "--save": save_path}
    inputs = {save: "the save being resumed"}
    if rules_path:
        inputs[rules_path] = "the rulebook being played"
    # at once what is known; an existing file once every input is known (the rulebook's)
    check_outputs(outputs, inputs, force=True)
    seats = None
    if agents is not None:
        try:
            seats = make_agents(agents, _seats(save, agents))
        except ValueError as err:
            raise click.BadParameter(printable(str(err)), param_hint="--agents") from None
    sink = []  # the events' writer, made once the save has loaded: a bad save overwrites nothing
    try:
        game = load_game(save, agents=seats, rulebook=rules_path, include_path=include_path,
                         log=(lambda line: sink[0](line)) if log_path else None)
    except SaveError as err:
        click.echo(printable(f"error: {err}"), err=True)
        sys.exit(1)
    check_outputs(outputs, {**rulebook_files(game.rulebook), **inputs}, force)
    with ExitStack() as stack:
        if log_path:
            sink.append(log_writer(log_path, stack))
        play_on(game, save_at, save_path, as_json, log_path == "-")


def _seats(save: str, agents: str) -> int:
    """How many seats the agents of --agents are for: as many as it names, or, for one name,
    the seats of the save (which load_game checks)."""
    names = [a for a in agents.split(",") if a.strip()]
    if len(names) != 1:
        return len(names)
    try:
        return seat_count(save)
    except SaveError:
        return 1  # load_game says what is wrong with the save
