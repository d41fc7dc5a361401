"""`rulelang run FILE`: play one game or a batch headlessly and report the results."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack

import click

from rulelang import DEFAULT_MAX_TURNS, SaveError, play_games, save_game
from rulelang.diagnostics import json_safe, printable
from rulelang.engine.game import MAX_SEED, MIN_SEED, Game
from rulelang.runner import BatchInterrupted, make_agents, result_of

from .main import short_help
from .batch_options import check_dask, check_seats, dask_option, jobs_option
from .options import INTERRUPTED, Whole, agents_option, include_path_option
from .outputs import check_outputs, log_writer
from .render import load_or_exit



def game_outputs(command):
    """The options of the commands that play: the log, JSON output, saving at a turn."""
    for option in reversed((
        click.option("--log", "log_path", type=click.Path(dir_okay=False, allow_dash=True),
                     help="write every event as JSON Lines to this file; - for standard "
                     "output (the report then goes to standard error)"),
        click.option("--json", "as_json", is_flag=True, help="print the result as JSON"),
        click.option("--save-at", type=Whole(0), default=None, metavar="TURN",
                     help="stop the game after TURN player-turns in all and save it (with --save)"),
        click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
                     help="the file the game is saved to; go on with `rulelang resume`"),
        click.option("--force", is_flag=True,
                     help="overwrite the --log and --save files if they exist (never an input)"),
    )):
        command = option(command)
    return command


@click.command(short_help=short_help("run"))
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--players", "-p", type=Whole(1, 12), default=4, show_default=True,
              help="players at the table")
@click.option("--seed", "-s", type=Whole(MIN_SEED, MAX_SEED), default=1,
              show_default=True, metavar="SEED",
              help="seed of the first game (game i uses seed + i), a 64-bit integer; each "
              "seed plays its own game")
@click.option("--games", "-g", type=Whole(1), default=None,
              help="play a batch of games and print a summary")
@click.option("--max-turns", type=Whole(1), default=DEFAULT_MAX_TURNS,
              show_default=True, help="player-turns after which a game is capped (no winner)")
@agents_option
@click.option("--option", "options", multiple=True, help="switch on an option of the rulebook")
@click.option("--set", "parameters", metavar="NAME=VALUE", multiple=True,
              help="agree a parameter of the rulebook before the game, e.g. time_limit=60")
@include_path_option
@jobs_option
@dask_option
@game_outputs
def run(file, players, seed, games, max_turns, agents, options, parameters, include_path,
        jobs, dask, log_path, as_json, save_at, save_path, force):
    """Play FILE headlessly: one game, or a batch with --games.

    FILE is a path or an installed rulebook's name (`classic_1961`; `rulelang list` shows
    them). Exit status: 0 played, 1 the rulebook has errors (or an output could not be
    written), 2 a mistake of the command line, 130 stopped by Ctrl-C (a batch first prints
    the summary of the games it finished).
    """
    check_save_options(save_at, save_path)
    spread = dask is not None or jobs != 1
    if spread and games is None:
        raise click.UsageError("--jobs and --dask spread a batch: give --games")
    if spread and log_path is not None:
        raise click.UsageError("--log writes one stream of events: it cannot be used with "
                               "--jobs or --dask")
    check_dask(dask)
    if games is not None and save_at is not None:
        raise click.UsageError("--save-at saves one game: it cannot be used with --games")
    if games is not None and seed + games - 1 > MAX_SEED:
        raise click.BadParameter(f"the last game's seed would be past {MAX_SEED}",
                                 param_hint="--seed")
    outputs = {"--log": None if log_path == "-" else log_path, "--save": save_path}
    # at once what is known; an existing file once every input is known (the rulebook's)
    check_outputs(outputs, {file: "the rulebook being played"}, force=True)
    rulebook = load_or_exit(file, options, parameters, include_path)
    check_seats(rulebook, players, agents)
    check_outputs(outputs, rulebook_files(rulebook), force)
    with ExitStack() as stack:
        log = log_writer(log_path, stack)
        err = log_path == "-"  # the events go to standard output, the report beside them
        if games is None:
            game = Game(rulebook, make_agents(agents, players), seed=seed,
                        max_turns=max_turns, log=log)
            play_on(game, save_at, save_path, as_json, err)
        elif spread:
            _report_spread(file, rulebook, games, agents, players, seed, max_turns, options,
                           parameters, include_path, jobs, dask, as_json)
        else:
            _report_batch(rulebook, games, agents, players, seed, max_turns, log, as_json,
                          err)


def rulebook_files(rulebook) -> dict[str, str]:
    """The files of a rulebook, as inputs no output may overwrite."""
    first, *extended = rulebook.files
    return {first: "the rulebook being played",
            **{f: f"a file the rulebook {first!r} extends" for f in extended}}


def check_save_options(save_at, save_path) -> None:
    """--save-at and --save go together."""
    if (save_at is None) != (save_path is None):
        raise click.UsageError("--save-at TURN and --save PATH go together")
    if save_path == "-":
        raise click.BadParameter("a save is written to a file, not to standard output",
                                 param_hint="--save")


def play_on(game, save_at, save_path, as_json, err=False) -> None:
    """Play to the end, or to turn `save_at` and save; then report (to standard error if
    `err`: standard output carries the log)."""
    if save_at is None:
        _report_game(result_of(game.play()), as_json, err)
        return
    if save_at < game.state.turn:
        raise click.BadParameter(f"the game is already at turn {game.state.turn}",
                                 param_hint="--save-at")
    while not game.over and game.state.turn < save_at:
        game.play_turn()
    if game.over:
        _report_game(result_of(game), as_json, err)
        click.echo(f"the game ended at turn {game.state.turn}, before turn {save_at}: "
                   "nothing saved", err=True)
        return
    try:
        save_game(game, save_path)
    except SaveError as error:
        click.echo(printable(f"error: {error}"), err=True)
        sys.exit(1)
    st = game.state
    if as_json:
        click.echo(json_safe(json.dumps({"saved": save_path, "turn": st.turn, "round": st.round,
                                         "next_player": st.current}, ensure_ascii=False)),
                   err=err)
    else:
        _echo(f"saved at turn {st.turn} (round {st.round}, seat {st.current} to play) to "
              f"{save_path}; go on with: rulelang resume {save_path}", err)


def _echo(text: str, err: bool = False) -> None:
    """A line of a report: the rulebook's title, agents' names and rules' names come from
    files and agents' authors, so they are shown escaped."""
    click.echo(printable(text), err=err)


def _report_game(result, as_json, err=False):
    if as_json:
        click.echo(json_safe(json.dumps(result.to_json(), ensure_ascii=False)), err=err)
        return
    _echo(f"{result.ruleset} — seed {result.seed}, {result.players} players", err)
    if result.winner is None:
        _echo(f"no winner: {result.end_reason} after {result.turns} turns "
              f"({result.rounds} rounds)", err)
    else:
        _echo(f"seat {result.winner} ({result.agents[result.winner]}) wins: "
              f"{result.end_reason} after {result.turns} turns ({result.rounds} rounds, "
              f"{result.minutes:g} minutes of simulated clock)", err)
    for seat in range(result.players):
        state = "bankrupt" if result.bankrupt[seat] else f"cash {result.cash[seat]}"
        _echo(f"  seat {seat} {result.agents[seat]:<8} {state:<14} "
              f"net worth {result.net_worth[seat]}", err)


def _report_spread(file, rulebook, games, agents, players, seed, max_turns, options,
                   parameters, include_path, jobs, dask, as_json) -> None:
    """A batch spread over processes or a Dask cluster: the same summary as on one core."""
    import time

    from rulelang.batch import BatchSpec, agent_names
    from rulelang.runner import batch_result

    from .batch_options import play

    spec = BatchSpec(file, games, players, agent_names(agents), seed, max_turns,
                     tuple(options), tuple(parameters), tuple(include_path))
    start = time.perf_counter()
    records, interrupted = play(spec, rulebook, jobs, dask, as_json)
    batch = batch_result(rulebook.title, players, seed,
                         [(r.turns, r.end_reason, r.winner) for r in records],
                         time.perf_counter() - start)
    _print_batch(batch, games, seed, max_turns, as_json, interrupted)


def _report_batch(rulebook, games, agents, players, seed, max_turns, log, as_json, err=False):
    progress = None
    bar = None
    if not as_json and sys.stderr.isatty() and games >= 20:
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task("playing", total=games)
        progress = lambda i: bar.update(task, completed=i)  # noqa: E731
    interrupted = False
    try:
        batch = play_games(rulebook, games, agents, players, seed, max_turns, log, progress)
    except BatchInterrupted as stop:
        batch, interrupted = stop.batch, True
    finally:
        if bar is not None:
            bar.stop()
    _print_batch(batch, games, seed, max_turns, as_json, interrupted, err)


def _print_batch(batch, games, seed, max_turns, as_json, interrupted, err=False) -> None:
    if as_json:
        report = batch.to_json()
        if interrupted:
            report.update(interrupted=True, games_asked=games)
        click.echo(json_safe(json.dumps(report, ensure_ascii=False)), err=err)
    else:
        if interrupted:
            _echo(f"interrupted: {batch.games} of {games} games finished", err=True)
        last = f"{seed}..{seed + batch.games - 1}" if batch.games else "none"
        _echo(f"{batch.ruleset} — {batch.games} games, {batch.players} players, "
              f"seeds {last}", err)
        _echo(f"  finished with a winner: {batch.finished}   capped at {max_turns} turns: "
              f"{batch.capped}", err)
        _echo("  end reasons: " + ", ".join(f"{k} {v}" for k, v in batch.end_reasons.items()),
              err)
        _echo("  wins by seat: " + ", ".join(
            f"{i}: {w}" for i, w in enumerate(batch.wins_by_seat)), err)
        _echo(f"  mean turns {batch.mean_turns}; {batch.turns_total} turns in "
              f"{batch.elapsed_s} s = {batch.turns_per_s:,.0f} turns/s", err)
    if interrupted:
        sys.exit(INTERRUPTED)
