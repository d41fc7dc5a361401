"""`rulelang show FILE`: the resolved rulebook (rulelang.show) as tables, or as JSON."""

from __future__ import annotations

import json

import click

from rulelang.diagnostics import json_safe, printable
from rulelang.show import SECTIONS

from .main import short_help
from .options import include_path_option
from .render import load_or_exit


@click.command(short_help=short_help("show"))
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--section", "sections", multiple=True, type=click.Choice(SECTIONS),
              help="show only this part (repeat for several); default: all of them")
@click.option("--json", "as_json", is_flag=True,
              help="print it as JSON (docs/cli.md gives the shape)")
@click.option("--option", "options", multiple=True, help="switch on an option of the rulebook")
@click.option("--set", "parameters", metavar="NAME=VALUE", multiple=True,
              help="agree a parameter of the rulebook, e.g. time_limit=60")
@include_path_option
def show(file, sections, as_json, options, parameters, include_path):
    """The rulebook FILE as it is played, once every file it extends, every option and every
    `--set` is applied: the rules in force in their order, each with the file and line it
    comes from and the rule it replaced; the rules removed; the options; every setting with
    the line its value comes from (or the engine's default); the board, the decks and the
    dice. Exit status 1 if the rulebook has errors (they are printed as `check` prints them).
    """
    from rulelang.show import describe

    rulebook = load_or_exit(file, options, parameters, include_path)
    described = describe(file, options, parameters, include_path, rulebook=rulebook)
    sections = tuple(dict.fromkeys(sections)) or SECTIONS
    if as_json:
        click.echo(json_safe(json.dumps(described.to_json(sections), ensure_ascii=False,
                                        indent=1)))
        return
    _print(described, sections)


def _print(d, sections) -> None:
    from rich import box
    from rich.table import Table

    from .console import make_console

    console = make_console(piped_width=1000)  # piped: whole lines, never cut

    def table(title: str) -> Table:
        return Table(title=printable(title), title_justify="left", box=box.SIMPLE_HEAD,
                     padding=(0, 1), pad_edge=False)

    console.print(printable(d.title), style="bold")
    console.print(printable("from " + " <- ".join(d.files)))
    if "rules" in sections:
        rules = table(f"rules in force, in order ({len(d.rules)})")
        for heading in ("#", "rule", "written at", "how"):
            rules.add_column(heading, justify="right" if heading == "#" else "left",
                             no_wrap=heading != "how")
        for i, r in enumerate(d.rules, 1):
            if r.how == "replace":
                how = f"replaces {r.target} of {r.replaced}" if r.replaced else "replaces"
            elif r.how in ("before", "after"):
                how = f"placed {r.how} {r.target}"
            else:
                how = ""
            rules.add_row(str(i), printable(r.name), printable(str(r.origin)), printable(how))
        console.print(rules)
        if d.removed:
            removed = table("rules removed")
            for heading in ("rule", "written at", "removed at"):
                removed.add_column(heading)
            for r in d.removed:
                removed.add_row(printable(r.name), printable(str(r.origin)),
                                printable(str(r.removed_by)))
            console.print(removed)
    if "options" in sections:
        if d.options:
            opts = table("options")
            for heading in ("option", "title", "on", "written at"):
                opts.add_column(heading)
            for o in d.options:
                opts.add_row(printable(o.name), printable(o.title or ""),
                             "on" if o.on else "off", printable(str(o.origin)))
            console.print(opts)
        else:
            console.print("\noptions: none")
    if "settings" in sections:
        settings = table("settings in force")
        for heading in ("setting", "value", "set at", "by rule"):
            settings.add_column(heading)
        for s in d.settings:
            where = str(s.origin) if s.origin else "default"
            if s.parameter:
                where += " (parameter)"
            settings.add_row(printable(s.name), printable(s.value), printable(where),
                             printable(s.rule or ""))
        console.print(settings)
    if "board" in sections:
        board = table(f"board ({len(d.spaces)} spaces)")
        for heading in ("#", "space", "kind", "group", "price", "rents"):
            board.add_column(heading, justify="right" if heading in ("#", "price") else "left")
        for sp in d.spaces:
            board.add_row(str(sp.index), printable(sp.name), sp.kind, printable(sp.group or ""),
                          f"{d.currency}{sp.price}" if sp.price else "",
                          ", ".join(map(str, sp.rents)))
        console.print(board)
    if "decks" in sections:
        console.print("\ndecks: " + (", ".join(printable(f"{k.name} ({k.cards} cards)")
                                              for k in d.decks) or "none"))
    if "dice" in sections:
        console.print("dice: " + "; ".join(
            printable(f"{die.name}: {', '.join(map(str, die.faces))}") for die in d.dice))
