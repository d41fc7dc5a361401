"""`rulelang bench`: measure the engine's speed as medians over repeated batches."""

from __future__ import annotations

import json
import platform
import statistics
import subprocess
import sys
import time

import click

from rulelang import native, play_games
from rulelang.diagnostics import printable
from rulelang.engine.game import MAX_SEED, MIN_SEED
from rulelang.runner import make_agents

from .main import short_help
from .options import Whole, agents_option, include_path_option
from .render import load_or_exit


@click.command(short_help=short_help("bench"))
@click.argument("file", type=click.Path(dir_okay=False), default="rulesets/classic_1961.rules")
@click.option("--games", "-g", type=Whole(1), default=200, show_default=True,
              help="games per run")
@click.option("--repeat", "-r", type=Whole(1), default=5, show_default=True,
              help="runs; the median is reported")
@click.option("--players", "-p", type=Whole(1, 12), default=4, show_default=True)
@agents_option
@click.option("--seed", "-s", type=Whole(MIN_SEED, MAX_SEED), default=1,
              show_default=True, help="seed of the first game of each run")
@click.option("--check-runs", type=Whole(0), default=5, show_default=True,
              help="also time `rulelang check FILE` in a fresh interpreter this many times")
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON")
@include_path_option
def bench(file, games, repeat, players, agents, seed, check_runs, as_json, include_path):
    """Median player-turns per second over REPEAT batches of GAMES games (log off)."""
    rulebook = load_or_exit(file, include_path=include_path)
    try:
        make_agents(agents, players)
    except ValueError as err:
        raise click.BadParameter(printable(str(err)), param_hint="--agents") from None
    rates, batches = [], []
    for _ in range(repeat):
        batch = play_games(rulebook, games, agents, players, seed)
        rates.append(batch.turns_per_s)
        batches.append(batch)
    figures = {
        "ruleset": file,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "engine": native.describe(),  # compiled (rulelang native build) or pure Python
        "games_per_run": games,
        "runs": repeat,
        "players": players,
        "agents": agents,
        "turns_per_run": batches[0].turns_total,
        "finished": batches[0].finished,
        "capped": batches[0].capped,
        "turns_per_s_median": round(statistics.median(rates)),
        "turns_per_s_min": round(min(rates)),
        "turns_per_s_max": round(max(rates)),
    }
    if check_runs:
        times = []
        for _ in range(check_runs):
            start = time.perf_counter()
            includes = [arg for d in include_path for arg in ("--include-path", d)]
            subprocess.run([sys.executable, "-m", "rulelang_cli.main", "check", file,
                            *includes], capture_output=True, check=False)
            times.append(time.perf_counter() - start)
        figures["check_ms_median"] = round(statistics.median(times) * 1000)
    if as_json:
        click.echo(json.dumps(figures))
        return
    for key, value in figures.items():
        click.echo(f"{key:>20}: {value}")
