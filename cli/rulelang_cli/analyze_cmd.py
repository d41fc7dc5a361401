"""`rulelang analyze FILE`: the exact long-run landing probabilities of a rulebook, and the rent
they bring (rulelang.analysis)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys

import click

from rulelang import RuleError, RuleErrors, load
from rulelang.diagnostics import json_safe, printable
from rulelang.source import COMMAND_LINE

from .main import short_help
from .options import include_path_option
from .outputs import check_outputs
from .render import print_diagnostics, usage_message

IMAGE_TYPES = (".png", ".svg", ".pdf")


@click.command(short_help=short_help("analyze"))
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--jail", type=click.Choice(["leave", "stay"]), default="leave", show_default=True,
              help="leave: a player sent to jail leaves on its next turn (a Get Out of Jail "
              "Free card if it holds one, else the fine) and rolls as usual; stay: it rolls "
              "for doubles as long as the rulebook lets it")
@click.option("--cards", type=click.Choice(["uniform", "kept"]), default="uniform",
              show_default=True,
              help="uniform: every draw is a card of the whole deck at random, put back at "
              "once; kept: a card the player keeps (Get Out of Jail Free) is out of its deck "
              "until used")
@click.option("--json", "as_json", is_flag=True,
              help="print the figures as JSON (probabilities as numbers from 0 to 1)")
@click.option("--plot", "plot", type=click.Path(), default=None, metavar="FILE_OR_DIR",
              help="draw the board shaded by the landings per throw: into FILE (.png, .svg "
              "or .pdf), or into DIR/analysis.png")
@click.option("--force", is_flag=True, help="overwrite the --plot file if it exists")
@click.option("--option", "options", multiple=True, help="switch on an option of the rulebook")
@click.option("--set", "parameters", metavar="NAME=VALUE", multiple=True,
              help="agree a parameter of the rulebook, e.g. time_limit=60")
@include_path_option
def analyze(file, jail, cards, as_json, plot, force, options, parameters, include_path):
    """The long-run probabilities of ending a throw, and a turn, on each space of FILE's
    board, worked out exactly as a Markov chain from its compiled board, dice, cards and jail
    rules; and the rent each property brings per throw, unimproved and at each building
    level. One player moves alone, for ever: the figures are those of the rules, not of a
    strategy (nobody's purchases change where the pawn goes).

    Refused, with the reason, when a rule moves the pawn in a way a chain of squares cannot
    represent: a player's choice, or a move that depends on who owns what.
    """
    image = _image_path(plot)
    if image:
        check_outputs({"--plot": image}, {file: "the rulebook being analysed"}, force)
    needed = ("numpy", "scipy") + (("matplotlib",) if image else ())
    if any(importlib.util.find_spec(name) is None for name in needed):
        _missing()
    # a chain of a few hundred states solves fastest on one thread (numpy's BLAS would
    # start one per core for it); the user's own setting wins
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    from rulelang.analysis.markov import Unmodelled
    from rulelang.analysis.markov import analyze as analyze_chain

    try:
        rulebook = load(file, options, parameters, include_path)
    except (RuleError, RuleErrors) as errors:
        usage = [d for d in errors.diagnostics if d.span.file == COMMAND_LINE]
        if usage:
            raise click.BadParameter(usage_message(usage), param_hint="--set")
        print_diagnostics(errors.diagnostics)
        sys.exit(1)
    try:
        result = analyze_chain(rulebook, jail, cards)
    except Unmodelled as why:
        click.echo(printable(f"error: {file}: cannot analyse this rulebook: {why}"), err=True)
        sys.exit(1)
    if image:
        _plot(image, rulebook, result)
    if as_json:
        click.echo(json_safe(json.dumps(result.to_json(), ensure_ascii=False)))
        return
    _report(result)
    if image:
        click.echo(printable(f"board drawn into {image}"))


def _missing():
    raise click.UsageError("`rulelang analyze` needs numpy, scipy and matplotlib: "
                           "pip install 'rulelang[analysis]'")


def _image_path(plot: str | None) -> str | None:
    """The file --plot names: FILE itself, or DIR/analysis.png for a directory."""
    if plot is None:
        return None
    if os.path.isdir(plot):
        return os.path.join(plot, "analysis.png")
    if not plot.lower().endswith(IMAGE_TYPES):
        raise click.BadParameter(f"{plot!r} is neither a directory nor a .png, .svg or .pdf "
                                 "file", param_hint="--plot")
    return plot


def _plot(path: str, rulebook, result) -> None:
    from rulelang.analysis.board import save_board

    save_board(path, rulebook, result.per_roll, in_jail=result.jail_per_roll,
               title=rulebook.title,
               caption=f"where a throw ends, in the long run\n--jail {result.jail}, "
               f"--cards {result.cards}",
               legend="probability per throw")


def _report(result) -> None:
    from rich import box
    from rich.table import Table

    from .console import make_console

    console = make_console()
    squares = Table(title=printable(f"{result.ruleset}: where a throw ends and where a turn "
                                    f"ends (--jail {result.jail}, --cards {result.cards})"))
    squares.add_column("#", justify="right")
    squares.add_column("space")
    squares.add_column("per throw", justify="right")
    squares.add_column("end of turn", justify="right")
    for i, name in enumerate(result.names):
        squares.add_row(str(i), printable(name), f"{result.per_roll[i]:.4%}",
                        f"{result.end_of_turn[i]:.4%}")
        if i == result.jail_index:
            squares.add_row("", "In Jail", f"{result.jail_per_roll:.4%}",
                            f"{result.jail_end_of_turn:.4%}", style="bold")
    console.print(squares)
    console.print(f"{result.throws_per_turn:.4f} throws per turn; {result.states} states")
    kinds: dict = {}
    for p in result.rents:
        kinds.setdefault(p.kind, []).append(p)
    plural = {"street": "streets", "railroad": "railroads", "utility": "utilities"}
    for kind, props in kinds.items():
        labels = []
        for p in props:
            for lv, _ in p.rents:
                if _short(lv) not in labels:
                    labels.append(_short(lv))
        table = Table(title=f"{plural.get(kind, kind)}: the rent one throw of an opponent "
                      "pays, on average", box=box.SIMPLE_HEAD, padding=(0, 1),
                      pad_edge=False)
        table.add_column("property", no_wrap=True)
        for label in labels:
            table.add_column(label, justify="right", no_wrap=True)
        for p in props:
            by = {_short(lv): value for lv, value in p.rents}
            table.add_row(printable(p.name),
                          *[f"{by[label]:.2f}" if label in by else "" for label in labels])
        console.print(table)
    console.print("alone: a lot without the rest of its group; group: the whole group, unimproved; 1h..4h: houses on every lot of "
                  "the group; held: how many of the group the owner holds")


def _short(level) -> str:
    """A rent level's column heading."""
    if level.kind == "alone":
        return "alone"
    if level.kind == "group":
        return "group"
    if level.kind == "houses":
        return f"{level.count}h"
    return level.label.removeprefix("1 ") if level.kind == "hotel" else level.label
