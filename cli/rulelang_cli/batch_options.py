"""What the commands that play batches share (`run --games`, `stats`, `compare`): the options
of a batch, the spread of its games over processes or a Dask cluster, its progress bar, and
Ctrl-C, which keeps the games finished before it."""

from __future__ import annotations

import os
import sys

import click

from rulelang.diagnostics import printable
from rulelang.engine.game import MAX_SEED, MIN_SEED

from .options import Whole, agents_option, include_path_option
from .outputs import check_outputs

IMAGE_DIR_HELP = "write the pictures (PNG) into this directory, made if missing"


def batch_options(default_games: int):
    """--games, --players, --seed, --max-turns, --agents, --option, --set, -I, --jobs,
    --dask, --json, --plot, --force."""
    from rulelang import DEFAULT_MAX_TURNS

    def decorate(command):
        for option in reversed((
            click.option("--games", "-g", type=Whole(1), default=default_games,
                         show_default=True, help="how many games (game i uses seed + i)"),
            click.option("--players", "-p", type=Whole(1, 12), default=4,
                         show_default=True, help="players at the table"),
            click.option("--seed", "-s", type=Whole(MIN_SEED, MAX_SEED), default=1,
                         show_default=True, metavar="SEED", help="seed of the first game"),
            click.option("--max-turns", type=Whole(1), default=DEFAULT_MAX_TURNS,
                         show_default=True,
                         help="player-turns after which a game is capped (no winner)"),
            agents_option,
            click.option("--option", "options", multiple=True,
                         help="switch on an option of the rulebook"),
            click.option("--set", "parameters", metavar="NAME=VALUE", multiple=True,
                         help="agree a parameter of the rulebook, e.g. time_limit=60"),
            include_path_option,
            jobs_option,
            dask_option,
            click.option("--json", "as_json", is_flag=True,
                         help="print the figures as JSON"),
            click.option("--plot", "plot", type=click.Path(file_okay=False), default=None,
                         metavar="DIR", help=IMAGE_DIR_HELP),
            click.option("--force", is_flag=True,
                         help="overwrite the pictures of --plot if they exist"),
        )):
            command = option(command)
        return command

    return decorate


jobs_option = click.option(
    "--jobs", "-j", type=Whole(0), default=1, show_default=True, metavar="N",
    help="spread the games over N processes (0: one per core); the results are the same "
    "for any N")
dask_option = click.option(
    "--dask", "dask", default=None, metavar="ADDRESS",
    help="play the games on the Dask scheduler at ADDRESS (tcp://host:8786; needs "
    "rulelang[cluster]); the results are the same as on one core")


def job_count(jobs: int) -> int:
    from rulelang.batch import cpu_count

    return cpu_count() if jobs == 0 else jobs


def check_batch(file, games, seed, players, agents, rulebook) -> None:
    """The usage errors of a batch once its rulebook is loaded: seeds past the range, a
    player count the rulebook does not allow, an agent that cannot be made."""
    if seed + games - 1 > MAX_SEED:
        raise click.BadParameter(f"the last game's seed would be past {MAX_SEED}",
                                 param_hint="--seed")
    check_seats(rulebook, players, agents, f"{file}: ")


def check_seats(rulebook, players, agents, where: str = "") -> None:
    """A player count the rulebook does not allow, an agent that cannot be made: usage
    errors (`where` starts the first message: the file, when there are several)."""
    low, high = rulebook.settings.players
    if not low <= players <= high:
        raise click.BadParameter(f"{where}this rulebook is for {low} to {high} players",
                                 param_hint="--players")
    check_agents(agents, players)


def check_agents(agents, players: int, option: str = "--agents") -> None:
    """Agents that cannot be made for `players` seats: a usage error of `option`."""
    from rulelang.runner import make_agents

    try:
        make_agents(agents, players)
    except ValueError as err:
        raise click.BadParameter(printable(str(err)), param_hint=option) from None


def check_dask(dask) -> None:
    if dask is not None:
        import importlib.util

        if importlib.util.find_spec("distributed") is None:
            raise click.UsageError("--dask needs dask.distributed: pip install "
                                   "'rulelang[cluster]'")


def plot_paths(plot: str | None, names: tuple[str, ...], inputs: dict[str, str],
               force: bool) -> dict[str, str]:
    """The pictures --plot DIR will write, by name (checked as outputs; DIR made)."""
    if plot is None:
        return {}
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise click.UsageError("--plot needs matplotlib: pip install 'rulelang[analysis]'")
    if os.path.exists(plot) and not os.path.isdir(plot):
        raise click.BadParameter(f"{plot!r} is not a directory", param_hint="--plot")
    try:
        os.makedirs(plot, exist_ok=True)
    except OSError as err:
        raise click.BadParameter(f"cannot make the directory {plot!r}: {err.strerror}",
                                 param_hint="--plot") from None
    paths = {name: os.path.join(plot, f"{name}.png") for name in names}
    check_outputs({"--plot": p for p in paths.values()} if len(paths) == 1 else
                  {f"--plot ({name})": p for name, p in paths.items()}, inputs, force)
    return paths


def play(spec, rulebook, jobs: int, dask, quiet: bool, label: str = "playing"):
    """The records of the batch, with a progress bar on a terminal; (records, interrupted):
    Ctrl-C keeps the games finished before it."""
    from rulelang.batch import Interrupted, play_batch

    bar = progress = None
    if not quiet and sys.stderr.isatty() and spec.games >= 20:
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task(label, total=spec.games)
        progress = lambda i: bar.update(task, completed=i)  # noqa: E731
    try:
        return play_batch(spec, rulebook, jobs=job_count(jobs), dask=dask,
                          progress=progress), False
    except Interrupted as stop:
        return stop.records, True
    except (OSError, ValueError) as err:  # a cluster that cannot be reached
        raise click.ClickException(printable(str(err))) from None
    finally:
        if bar is not None:
            bar.stop()


def play_files(files: list[tuple], games, players, seed, max_turns, agents, options,
               parameters, include_path, jobs: int, dask, quiet: bool):
    """The batch of each (FILE, the progress bar's label[, its own agents]), on the same
    seeds, counted as it plays (`stats`, `compare`): every file loaded (a rulebook with errors
    exits 1), then every batch checked (a usage error exits 2), then each played in turn.
    Returns ([(rulebook, spec, records)], interrupted): after a Ctrl-C, the games finished
    before it, and no records for the files after."""
    from rulelang.batch import BatchSpec, agent_names

    from .render import load_or_exit

    rulebooks = [load_or_exit(file, options, parameters, include_path, observe=True)
                 for file, *_ in files]
    seated = [own[0] if own else agents for _, _, *own in files]
    for (file, *_), rulebook, each in zip(files, rulebooks, seated):
        check_batch(file, games, seed, players, each, rulebook)
    played, interrupted = [], False
    for (file, label, *_), rulebook, each in zip(files, rulebooks, seated):
        spec = BatchSpec(file, games, players, agent_names(each), seed, max_turns,
                         tuple(options), tuple(parameters), tuple(include_path),
                         observe=True, trace=seed)
        records: list = []
        if not interrupted:
            records, interrupted = play(spec, rulebook, jobs, dask, quiet, label)
        played.append((rulebook, spec, records))
    return played, interrupted
