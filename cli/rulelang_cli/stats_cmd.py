"""`rulelang stats FILE`: what a rulebook does to the game, from a batch of games."""

from __future__ import annotations

import json
import sys

import click

from rulelang.diagnostics import json_safe, printable

from .batch_options import batch_options, check_dask, play_files, plot_paths
from .main import short_help
from .options import INTERRUPTED

PICTURES = ("landings", "length", "wins", "cash")


@click.command(short_help=short_help("stats"))
@click.argument("file", type=click.Path(dir_okay=False))
@batch_options(default_games=1000)
def stats(file, games, players, seed, max_turns, agents, options, parameters, include_path,
          jobs, dask, as_json, plot, force):
    """Play a batch of FILE's games and report what the rules do: wins by turn order and by
    seat, how games end, their length, how often each rule fired and how much money it
    moved, and where the throws end. Shares come with 95% confidence intervals.

    The engine counts while it plays (no event log is written): a stats batch runs at about
    the speed of `rulelang run --games`. `--plot DIR` draws the board shaded by the landings,
    a histogram of game length, the win shares by turn order, and every seat's cash over the
    first game. Exit status: 0 played, 1 the rulebook has errors, 2 a mistake of the command
    line, 130 stopped by Ctrl-C (after the figures of the games finished).
    """
    check_dask(dask)
    pictures = plot_paths(plot, PICTURES, {file: "the rulebook being played"}, force)
    ((rulebook, spec, records),), interrupted = play_files(
        [(file, "playing")], games, players, seed, max_turns, agents, options, parameters,
        include_path, jobs, dask, as_json)
    if not records:
        click.echo("interrupted before any game finished", err=True)
        sys.exit(INTERRUPTED)
    report = summarise_file(records, rulebook, spec)
    if pictures:
        from rulelang.stats_plots import draw_report

        draw_report(report, rulebook, pictures)
    if as_json:
        out = report.to_json()
        if interrupted:
            out.update(interrupted=True, games_asked=games)
        click.echo(json_safe(json.dumps(out, ensure_ascii=False)))
    else:
        if interrupted:
            click.echo(f"interrupted: {len(records)} of {games} games finished", err=True)
        print_report(report)
        for name, path in pictures.items():
            click.echo(printable(f"{name}: {path}"))
    if interrupted:
        sys.exit(INTERRUPTED)


def summarise_file(records, rulebook, spec):
    """The report of a batch, its rules placed at the lines that write them."""
    from rulelang.show import describe
    from rulelang.stats import summarise

    desc = describe(spec.file, spec.options, spec.parameters, spec.include_path, rulebook)
    origins = {r.name: (r.origin.file, r.origin.line) for r in desc.rules}
    return summarise(records, rulebook, spec.players, file=spec.file, agents=spec.agents,
                     rule_origins=origins)


def _console():
    from .console import make_console

    return make_console(piped_width=160)  # piped: whole lines, never cut to a screen's width


def pct(interval, digits: int = 1) -> str:
    return (f"{interval.value:.{digits}%} ({interval.low:.{digits}%} to "
            f"{interval.high:.{digits}%})")


def num(interval, digits: int = 1) -> str:
    return f"{interval.value:,.{digits}f} ({interval.low:,.{digits}f} to {interval.high:,.{digits}f})"


def print_report(r) -> None:
    from rich.table import Table

    console = _console()
    last = r.seed + r.games - 1
    games = f"{r.games} game" + ("" if r.games == 1 else "s")
    console.print(printable(f"{r.ruleset} — {games}, {r.players} players "
                            f"({', '.join(r.agents)}), seeds {r.seed}..{last}"), style="bold")
    console.print("shares with their 95% confidence intervals\n")

    wins = Table(title="wins")
    wins.add_column("")
    wins.add_column("by turn order (1: rolled first)", justify="right")
    wins.add_column("by seat", justify="right")
    for k in range(r.players):
        wins.add_row(f"{k + 1} / seat {k}", pct(r.wins_by_order[k].interval),
                     pct(r.wins_by_seat[k].interval))
    wins.add_row("no winner", pct(r.no_winner.interval), "")
    console.print(wins)
    if r.wins_by_agent:
        by_agent = Table(title="wins by agent")
        by_agent.add_column("agent")
        by_agent.add_column("seats", justify="right")
        by_agent.add_column("games won", justify="right")
        by_agent.add_column("an equal share", justify="right")
        for w in r.wins_by_agent:
            by_agent.add_row(printable(w.agent), str(w.seats), pct(w.wins.interval),
                             f"{w.seats / r.players:.1%}")
        console.print(by_agent)

    ends = Table(title="how the games ended")
    ends.add_column("end")
    ends.add_column("games", justify="right")
    ends.add_column("share", justify="right")
    for reason, share in r.end_reasons.items():
        label = "turn_cap (capped: no winner)" if reason == "turn_cap" else reason
        ends.add_row(printable(label), str(share.count), pct(share.interval))
    console.print(ends)

    t = r.turns
    console.print(f"\n[bold]game length[/bold] in player-turns: mean {num(t.mean)}, median "
                  f"{t.median:g}, 10th percentile {t.p10:g}, 90th {t.p90:g}, "
                  f"{t.low}..{t.high}; in rounds: mean {r.rounds.mean.value:.1f}, median "
                  f"{r.rounds.median:g}")
    peak = max((c for _, _, c in t.bins), default=1) or 1
    for k, (low, high, count) in enumerate(t.bins):
        wide = k == len(t.bins) - 1 and k and high - low != t.bins[0][1] - t.bins[0][0]
        label = f"{low}+" if wide else f"{low}–{high - 1}"
        console.print(f"  {label:>11} {'█' * round(40 * count / peak):<40} {count}")

    rules = Table(title="rule coverage: how often each rule in force fired")
    rules.add_column("rule")
    rules.add_column("written at")
    rules.add_column("fired", justify="right")
    rules.add_column("per game", justify="right")
    rules.add_column("transfers", justify="right")
    rules.add_column("games it acted in", justify="right")
    for row in r.rules:
        where = f"{row.file}:{row.line}" if row.line else ""
        fired = f"{row.fired:,}" if row.acts else "—"
        per_game = f"{row.per_game.value:,.2f}" if row.acts else ""
        if not row.used:
            rules.add_row(printable(row.name), printable(where), fired, per_game, "0",
                          "never" if row.acts else "sets values only",
                          style="bold red" if row.acts else "dim")
            continue
        rules.add_row(printable(row.name), printable(where), fired, per_game,
                      f"{row.transfers:,}", pct(row.games.interval))
    console.print(rules)
    never = r.never_fired
    console.print("never fired nor moved money: "
                  + (printable(", ".join(never)) if never else "none"))

    flows = Table(title="money moved, by rule")
    flows.add_column("rule")
    flows.add_column("from → to")
    flows.add_column("in all", justify="right")
    flows.add_column("per game", justify="right")
    flows.add_column("transfers", justify="right")
    for f in r.flows:
        flows.add_row(printable(f.rule), printable(f"{f.source} → {f.to}"), f"{f.amount:,}",
                      num(f.per_game, 0), f"{f.transfers:,}")
    console.print(flows)

    if r.throws:
        squares = Table(title=f"where the {r.throws:,} throws ended")
        squares.add_column("#", justify="right")
        squares.add_column("space")
        squares.add_column("per throw", justify="right")
        squares.add_column("95% interval", justify="right")
        for sq in r.squares + (r.in_jail,):
            iv = sq.per_roll
            squares.add_row("" if sq.index < 0 else str(sq.index), printable(sq.name),
                            f"{iv.value:.3%}", f"{iv.low:.3%} to {iv.high:.3%}")
        console.print(squares)
