"""Benchmark of `rulelang check` (not a test): every ruleset in one process, and a generated
rulebook of 10,000 lines. Figures go to docs/performance.md.

    .venv/bin/python tests/bench_check.py [--lines 10000] [--repeat 5]

The generated rulebook is a whole game, clean under `--strict`, in the proportions of the
shipped rulesets (a fifth of its lines are the board, most of the rest rules): groups of three
streets with a tax and a card space; utilities; dice; decks of 16 cards; for every tax, card
space and group a rule with its cite, two lines of comment and its event, as
rulesets/classic_1961.rules writes them; an option; settings.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulelang.check import check_path  # noqa: E402


def generate(lines: int) -> str:
    """A clean rulebook of about `lines` lines, in the proportions of the shipped rulesets."""
    groups = max(3, (lines - 40) // 23)
    board = ["board:", '  "Start": go', '  "Jail": jail', '  "Go To Jail": go_to_jail']
    rules, decks = [], []
    for g in range(groups):
        price = 60 + 20 * (g % 20)
        rents = " ".join(f"${price // 10 * k + 2}" for k in (1, 5, 15, 45, 60, 75))
        for s in range(3):
            board.append(f'  "Street {g}-{s}": street in "Group {g}", price ${price}, '
                         f"mortgage ${price // 2}, house $50, rent {rents}")
        board += [f'  "Tax {g}": tax', f'  "Chance {g}": cards']
        deck = f"Deck {g // 20}"
        if g % 20 == 0:
            decks += [f'deck "{deck}":'] + [
                f'  card "D{g}-{i:02d}" "Card {i}": ' + ("pay $15" if i % 3 else "collect $50")
                for i in range(1, 17)] + [""]
        for name, event, effect in (
                (f"tax_{g}", f'lands on "Tax {g}"', "pay $75"),
                (f"cards_{g}", f'lands on "Chance {g}"', f'draw from "{deck}"'),
                (f"bonus_{g}", f'passes "Street {g}-0"', "collect $5")):
            rules += [f"rule {name}:", f'  cite "generated", "SECTION {g}"',
                      "  # the printed text of the rule, paraphrased, as the shipped",
                      "  # rulesets comment every rule they encode",
                      f"  when a player {event}: {effect}", ""]
    out = ['rulebook "Generated"', "", 'currency "Credits"', ""]
    out += board + ['  "Power": utility in "Utilities", price $150, mortgage $75, '
                    "rent dice x4 x10",
                    '  "Water": utility in "Utilities", price $150, mortgage $75, '
                    "rent dice x4 x10", ""]
    out += ['die "first" faces 1..6', 'die "second" faces 1..6', ""] + decks
    out += ["rule core:", '  cite "generated", "core"',
            '  when a player passes "Start": collect $200',
            "  when a player lands on an unowned property: buy or auction",
            "  when a player lands on a property owned by another player: pay rent",
            '  when a player lands on "Go To Jail": go to jail',
            "  when a player rolls doubles: roll again",
            "  when a player rolls doubles 3 times in a row: go to jail", ""]
    out += rules
    out += ['option rich "Rich start":', "  rule rich_start:", '    cite "generated", "rich"',
            "    set starting_cash = $2000", "",
            "rule settings:", '  cite "generated", "settings"', "  set players = 2 to 8",
            "  set jail_fine = $60", "  set houses = 40", "  set hotels = 16", ""]
    return "\n".join(out)


def _tokens(text: str) -> int:
    from rulelang.parse import _get_parser, _normalize

    return sum(1 for _ in _get_parser().lex(_normalize(text)))


def _timed(paths: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    count = 0
    for p in paths:
        count += len(check_path(p)[1])
    return time.perf_counter() - start, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rulesets = [str(p) for p in sorted((ROOT / "rulesets").rglob("*.rules"))]
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "generated.rules"
        text = generate(args.lines)
        big.write_text(text, encoding="utf-8")
        _, diags = check_path(str(big))
        assert diags == [], [d.message for d in diags[:5]]
        _timed(rulesets)  # warm: the parser's tables are loaded once per process
        all_times = [_timed(rulesets)[0] for _ in range(args.repeat)]
        big_times = [_timed([str(big)])[0] for _ in range(args.repeat)]
    print(f"rulesets checked in one process: {len(rulesets)} files, median "
          f"{statistics.median(all_times) * 1000:.0f} ms (min {min(all_times) * 1000:.0f})")
    print(f"generated rulebook: {text.count(chr(10)) + 1} lines, {_tokens(text)} tokens, median "
          f"{statistics.median(big_times):.2f} s (min {min(big_times):.2f}, "
          f"max {max(big_times):.2f}) over {args.repeat} runs")


if __name__ == "__main__":
    main()
