"""The pictures of `rulelang stats --plot` and `rulelang compare --plot` (matplotlib).

stats: the board shaded by where throws end (the board drawn as a board, rulelang.analysis),
a histogram of game length, the win shares by turn order with their intervals, and every
seat's cash over the batch's first game. compare: the same figures of both rulebooks side by
side, and the board shaded by the change in landings.
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["draw_report", "draw_comparison"]

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939")


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=110, layout="constrained")


def draw_report(report, rulebook, paths: dict[str, str]) -> None:
    """Write the pictures of one batch: paths maps landings, length, wins, cash to files."""
    from rulelang.analysis.board import save_board

    if "landings" in paths and report.throws:
        save_board(paths["landings"], rulebook, [s.per_roll.value for s in report.squares],
                   in_jail=report.in_jail.per_roll.value, title=report.ruleset,
                   caption=f"where a throw ends: {report.throws:,} throws of "
                   f"{report.games:,} games\n{report.players} players ({', '.join(report.agents)})",
                   legend="share of throws", fmt="{:.2%}")
    if "length" in paths:
        fig = _figure(9, 5)
        _length(fig.add_subplot(), report, COLOURS[0])
        fig.suptitle(f"{report.ruleset}: game length ({report.games:,} games)")
        fig.savefig(paths["length"])
    if "wins" in paths:
        fig = _figure(8, 5)
        _wins(fig.add_subplot(), [report], [report.ruleset])
        fig.suptitle(f"{report.ruleset}: who wins, by turn order")
        fig.savefig(paths["wins"])
    if "cash" in paths and report.trace:
        fig = _figure(10, 5)
        ax = fig.add_subplot()
        rows = report.trace
        for seat in range(len(rows[0])):
            ax.plot(range(len(rows)), [row[seat] for row in rows], color=COLOURS[seat % 12],
                    linewidth=1.3, label=f"seat {seat}")
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xlabel("player-turn")
        ax.set_ylabel(f"cash ({rulebook.currency})")
        ax.legend(loc="upper left", frameon=False, ncols=min(6, len(rows[0])))
        ax.grid(alpha=0.3)
        fig.suptitle(f"{report.ruleset}: every seat's cash, game of seed {report.seed}")
        fig.savefig(paths["cash"])


def _length(ax, report, colour, label: str | None = None, alpha: float = 0.85) -> None:
    bins = list(report.turns.bins) or [(0, 1, 0)]
    width = bins[0][1] - bins[0][0]
    over = None
    if len(bins) > 1 and bins[-1][1] - bins[-1][0] != width:
        # the games past the 99th percentile: one bar of the usual width, labelled
        over = bins.pop()
        bins.append((over[0], over[0] + width, over[2]))
    edges = [b[0] for b in bins] + [bins[-1][1]]
    ax.stairs([b[2] for b in bins], edges, fill=True, color=colour, alpha=alpha, label=label)
    if over is not None:
        ax.annotate(f"{over[2]} game{'s' if over[2] != 1 else ''}\nof {over[0]} to "
                    f"{over[1] - 1}", (over[0] + width / 2, over[2]), ha="center",
                    va="bottom", fontsize=8, xytext=(0, 3), textcoords="offset points")
    t = report.turns
    for value, style, name in ((t.median, "-", "median"), (t.p10, ":", "10th percentile"),
                               (t.p90, "--", "90th percentile")):
        ax.axvline(value, color="black", linestyle=style, linewidth=1,
                   label=f"{name}: {value:g}")
    ax.legend(loc="upper right", frameon=False, fontsize=9)
    ax.set_xlabel("player-turns")
    ax.set_ylabel("games")


def _wins(ax, reports: Sequence, labels: Sequence[str]) -> None:
    """Grouped bars: per turn order, each report's win share with its interval."""
    players = reports[0].players
    width = 0.8 / len(reports)
    for k, (report, label) in enumerate(zip(reports, labels)):
        xs = [i + (k - (len(reports) - 1) / 2) * width for i in range(players)]
        shares = [s.interval for s in report.wins_by_order]
        ax.bar(xs, [s.value for s in shares], width=width * 0.9, color=COLOURS[k],
               label=label, alpha=0.85)
        ax.errorbar(xs, [s.value for s in shares],
                    yerr=[[s.value - s.low for s in shares], [s.high - s.value for s in shares]],
                    fmt="none", ecolor="black", capsize=4, linewidth=1)
    ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1,
               label=f"an even share ({1 / players:.0%})")
    ax.set_xticks(range(players), [_order(i) for i in range(players)])
    ax.set_ylabel("share of games won (95% interval)")
    from matplotlib.ticker import PercentFormatter

    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    top = max(s.interval.high for r in reports for s in r.wins_by_order)
    ax.set_ylim(0, max(top, 1 / players) * 1.35)  # room above the bars for the legend
    ax.legend(frameon=False, loc="upper right")


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth", "eleventh", "twelfth")


def _order(i: int) -> str:
    """The label of the player i-th in turn order (0: the one who played first)."""
    return _ORDINALS[i] + (" to play" if i == 0 else "")


def draw_comparison(comparison, rulebook_a, rulebook_b, paths: dict[str, str]) -> None:
    """Write the pictures of a comparison: length, wins, landings side by side."""
    a, b = comparison.a, comparison.b
    labels = [f"A: {a.ruleset}", f"B: {b.ruleset}"]
    if "length" in paths:
        fig = _figure(13, 5)
        axes = fig.subplots(1, 2, sharex=True, sharey=True)
        _length(axes[0], a, COLOURS[0])
        _length(axes[1], b, COLOURS[1])
        for ax, label in zip(axes, labels):
            ax.set_title(label, fontsize=10)
        diff = next(d for d in comparison.differences if d.figure == "turns")
        fig.suptitle(f"game length: B − A = {diff.diff.value:+.1f} player-turns "
                     f"(95% interval {diff.diff.low:+.1f} to {diff.diff.high:+.1f}, paired "
                     f"by seed)")
        fig.savefig(paths["length"])
    if "wins" in paths:
        fig = _figure(9, 5)
        _wins(fig.add_subplot(), [a, b], labels)
        fig.suptitle("who wins, by turn order")
        fig.savefig(paths["wins"])
    if "landings" in paths and a.throws and b.throws and a.squares and \
            len(a.squares) == len(b.squares):
        fig = _figure(15, 6)
        ax = fig.add_subplot()
        names = [s.name for s in b.squares] + ["In Jail"]
        rows = (a.squares + (a.in_jail,), b.squares + (b.in_jail,))
        width = 0.4
        for k, (squares, label) in enumerate(zip(rows, labels)):
            xs = [i + (k - 0.5) * width for i in range(len(names))]
            values = [s.per_roll.value for s in squares]
            ax.bar(xs, values, width=width * 0.95, color=COLOURS[k], label=label, alpha=0.85)
            ax.errorbar(xs, values, yerr=[[v - s.per_roll.low for v, s in zip(values, squares)],
                                          [s.per_roll.high - v for v, s in zip(values, squares)]],
                        fmt="none", ecolor="black", capsize=1.5, linewidth=0.6)
        ax.set_xticks(range(len(names)), names, rotation=65, ha="right", fontsize=8)
        from matplotlib.ticker import PercentFormatter

        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_ylabel("share of throws ending there")
        ax.set_xlim(-0.7, len(names) - 0.3)
        ax.legend(frameon=False)
        fig.suptitle("where throws end")
        fig.savefig(paths["landings"])
