"""`rulelang compare A B`: what rulebook B changes against rulebook A, on the same seeds; or,
with `--b-agents`, what other agents change in the same rulebook."""

from __future__ import annotations

import json
import sys

import click

from rulelang.diagnostics import json_safe, printable

from .batch_options import batch_options, check_agents, check_dask, play_files, plot_paths
from .main import short_help
from .options import INTERRUPTED
from .stats_cmd import _console, pct, summarise_file

PICTURES = ("length", "wins", "landings")


@click.command(short_help=short_help("compare"))
@click.argument("file_a", metavar="A", type=click.Path(dir_okay=False))
@click.argument("file_b", metavar="[B]", type=click.Path(dir_okay=False), required=False)
@click.option("--all", "show_all", is_flag=True,
              help="list every figure, not only the differences that are significant")
@click.option("--b-agents", "b_agents", default=None, metavar="AGENTS",
              help="B's agents, written as --agents (A keeps --agents): what other agents "
              "change; B defaults to A")
@batch_options(default_games=1000)
def compare(file_a, file_b, show_all, b_agents, games, players, seed, max_turns, agents,
            options, parameters, include_path, jobs, dask, as_json, plot, force):
    """Play A and B on the same seeds and report what B changes: the settings, rules and
    options that differ (with the file and line of each), and B minus A for every figure of
    `rulelang stats` (game length, wins by turn order and by seat, how games end, each rule's
    firings and money, where throws end) with its 95% confidence interval, paired by seed
    where the games allow. A difference is significant when its interval leaves out 0.

    With --b-agents, B's seats are played by those agents: `compare classic_1961 --agents
    default --b-agents own-turn` tells what acting between turns changes in one rulebook.

    --option and --set apply to both rulebooks. Exit status: 0 compared, 1 a rulebook has
    errors, 2 a mistake of the command line, 130 stopped by Ctrl-C.
    """
    from rulelang.batch import agent_names
    from rulelang.show import describe
    from rulelang.stats import Change, compare as compare_records, structural

    if file_b is None:
        if b_agents is None:
            raise click.UsageError("name the rulebook B, or give --b-agents to play A "
                                   "against itself with other agents")
        file_b = file_a
    if b_agents is not None:
        check_agents(b_agents, players, "--b-agents")
    check_dask(dask)
    inputs = {file_a: "the rulebook A", file_b: "the rulebook B"}
    pictures = plot_paths(plot, PICTURES, inputs, force)
    seats_b = (file_b, "playing B") if b_agents is None else (file_b, "playing B", b_agents)
    played, interrupted = play_files(
        [(file_a, "playing A"), seats_b], games, players, seed, max_turns,
        agents, options, parameters, include_path, jobs, dask, as_json)
    (rulebook_a, spec_a, records_a), (rulebook_b, spec_b, records_b) = played
    n = min(len(records_a), len(records_b))
    if n == 0:
        click.echo("interrupted before any game of both rulebooks finished", err=True)
        sys.exit(INTERRUPTED)
    records_a, records_b = records_a[:n], records_b[:n]
    report_a = summarise_file(records_a, rulebook_a, spec_a)
    report_b = summarise_file(records_b, rulebook_b, spec_b)
    desc_a = describe(file_a, options, parameters, include_path, rulebook_a)
    desc_b = describe(file_b, options, parameters, include_path, rulebook_b)
    changes = structural(desc_a, desc_b)
    if agent_names(agents) != spec_b.agents:
        changes = (Change("agents", "agents", ", ".join(spec_a.agents),
                          ", ".join(spec_b.agents), "--b-agents"),) + changes
    result = compare_records(records_a, records_b, report_a, report_b, changes)
    if pictures:
        from rulelang.stats_plots import draw_comparison

        draw_comparison(result, rulebook_a, rulebook_b, pictures)
    if as_json:
        out = result.to_json()
        if interrupted:
            out.update(interrupted=True, games_asked=games)
        click.echo(json_safe(json.dumps(out, ensure_ascii=False)))
    else:
        if interrupted:
            click.echo(f"interrupted: {n} of {games} games of both rulebooks finished",
                       err=True)
        print_comparison(result, show_all)
        for name, path in pictures.items():
            click.echo(printable(f"{name}: {path}"))
    if interrupted:
        sys.exit(INTERRUPTED)


def _here(text: str) -> str:
    """A place, its path relative to the current directory when it lies under it."""
    import os

    return text.replace(os.getcwd() + os.sep, "")


def _value(figure: str, x: float) -> str:
    if figure.startswith(("turns", "rounds", "money", "rule")) and \
            not figure.endswith("share of games"):
        return f"{x:,.2f}"
    return f"{x:.2%}"


def print_comparison(c, show_all: bool) -> None:
    from rich.table import Table

    console = _console()
    a, b = c.a, c.b
    console.print(printable(f"A: {a.ruleset} ({a.file})"), style="bold")
    console.print(printable(f"B: {b.ruleset} ({b.file})"), style="bold")
    seats = ", ".join(a.agents) if a.agents == b.agents else \
        f"A: {', '.join(a.agents)}; B: {', '.join(b.agents)}"
    console.print(printable(f"{a.games} games each on seeds {a.seed}..{a.seed + a.games - 1}, "
                            f"{a.players} players ({seats})") + "\n")

    changes = Table(title="what B changes in the rulebook")
    changes.add_column("change")
    changes.add_column("name")
    changes.add_column("in A")
    changes.add_column("in B")
    for ch in c.changes:
        if ch.kind == "rule removed":
            after = f"removed at {ch.where}"
        elif ch.kind in ("setting", "option"):
            after = f"{ch.after} ({ch.where})"
        else:
            after = ch.after or "—"
        changes.add_row(ch.kind, printable(ch.name), printable(_here(ch.before or "—")),
                        printable(_here(after)))
    if c.changes:
        console.print(changes)
    if all(ch.kind == "agents" for ch in c.changes):
        console.print("the two rulebooks have the same rules, settings and options"
                      + (": only the agents differ" if c.changes else ""))

    shown = [d for d in c.differences if show_all or d.significant]
    figures = Table(title="B − A, with 95% confidence intervals"
                    + ("" if show_all else ": the significant differences (--all: every figure)"))
    figures.add_column("figure")
    figures.add_column("A", justify="right")
    figures.add_column("B", justify="right")
    figures.add_column("B − A (95% interval)", justify="right")
    figures.add_column("", justify="center")
    for d in shown:
        iv = d.diff
        if d.figure.startswith(("turns", "rounds", "money", "rule")) and \
                not d.figure.endswith("share of games"):
            diff = f"{iv.value:+,.2f} ({iv.low:+,.2f} to {iv.high:+,.2f})"
        else:
            diff = (f"{iv.value:+.2%} ({iv.low:+.2%} to {iv.high:+.2%})")
        mark = ("significant" if d.significant else "") + ("" if d.paired else " (unpaired)")
        figures.add_row(printable(d.figure), _value(d.figure, d.a), _value(d.figure, d.b),
                        diff, mark.strip(), style=None if d.significant else "dim")
    console.print(figures)
    turns = next(d for d in c.differences if d.figure == "turns")
    verdict = "longer" if turns.diff.value > 0 else "shorter"
    console.print(f"game length: B is {abs(turns.diff.value):,.1f} player-turns {verdict} on "
                  f"average ({turns.diff.low:+,.1f} to {turns.diff.high:+,.1f}, paired by "
                  f"seed): {'significant' if turns.significant else 'not significant'}")
    rows_b = {r.name: r for r in b.rules}
    rows_a = {r.name: r for r in a.rules}
    for ch in c.changes:
        if ch.kind in ("rule added", "rule replaced") and ch.name in rows_b:
            rb = rows_b[ch.name]
            ra = rows_a.get(ch.name)
            before = f" (A: {pct(ra.games.interval)})" if ra is not None else ""
            console.print(printable(
                f"rule {ch.name}: fired {rb.fired:,} times, {rb.per_game.value:.2f} per game, "
                f"acted in {pct(rb.games.interval)} of B's games{before}"))
