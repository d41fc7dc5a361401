"""The tests must be able to fail: plant each deliberate bug in a copy of the project, run the
suite there, and report which test caught it.

    python -m tests.mutate                 # every bug; exit 1 if any goes uncaught
    python -m tests.mutate --list          # the bugs, one line each
    python -m tests.mutate card_lost ...   # only these
    python -m tests.mutate --tests tests/test_machine.py   # which bugs this file catches

Each bug is a snippet of the source and its replacement; a snippet that no longer appears
exactly once is reported as such (the code moved: update the bug), never silently skipped.
The suite runs with `-x` under the "mutate" hypothesis profile (the ci profile, no shrinking)
and a fixed hypothesis seed, so a report can be reproduced.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from attrs import frozen

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("rulelang", "cli", "tests", "rulesets", "docs", "editors", "README.md",
          "pyproject.toml", "mkdocs.yml")


@frozen
class Bug:
    name: str
    what: str
    file: str
    old: str
    new: str
    # a fidelity bug: the row of docs/fidelity.md whose statement it breaks ("NNN | statement")
    # and the tests that row cites, the only ones it runs against
    row: str = ""
    tests: tuple[str, ...] = ()


BUGS = (
    Bug("salary_from_nowhere", "a salary (any `collect` from the bank) paid from nowhere",
        "rulelang/compile.py",
        "return lambda g, f: g.transfer(g.state.bank, f.player, amount, f.rule, f.rule)",
        "return lambda g, f: g.state.cash.__setitem__(f.player, "
        "g.state.cash[f.player] + amount)"),
    Bug("rent_not_doubled", "rent not doubled on the unimproved lots of a whole group: the "
        "factors of `when rent is due` rules ignored", "rulelang/compile.py",
        "                times *= mult\n",
        "                pass\n"),
    Bug("uneven_building", "uneven building allowed within a group: `the space has the fewest "
        "buildings of the group` holds one level above the fewest",
        "rulelang/evaluate.py",
        "if (there < here) if fewest else (there > here):",
        "if (there < here - 1) if fewest else (there > here):"),
    Bug("bankruptcy_keeps_mortgages", "a bankruptcy to the bank that forgets to cancel the "
        "mortgages: the bank holds mortgaged deeds", "rulelang/engine/endings.py",
        "                game.set_mortgaged(pos, False)\n",
        "                pass\n"),
    Bug("bankruptcy_forgets_mortgage_interest", "a bankruptcy to a player that forgets the "
        "mortgages: the creditor pays no interest on the mortgaged deeds",
        "rulelang/engine/endings.py",
        "            act.deeds_received(game, [(creditor, pos) for pos in lots],\n"
        "                               rb.course.deed_from_bankrupt)\n",
        "            pass\n"),
    Bug("basculement_by_a_later_throw", "the Force symbols moved by the last throw of the turn "
        "(a card's utility throw) instead of the throw that showed the Basculement",
        "rulelang/engine/tokens.py",
        "hook(game, Firing(seat, pos, st.owner[pos], -1, dice, total, rule, None))",
        "hook(game, Firing(seat, pos, st.owner[pos], -1, game.last_roll, total, rule, None))"),
    Bug("battle_winner_must_move_the_symbol", "Star Wars: the winner of a battle is made to "
        "move the symbol (« vous pouvez déplacer ce symbole »)", "rulesets/starwars_ep2.rules",
        "the player chooses one: move the token to a free property; nothing",
        "move the token to a free property"),
    Bug("decouverte_rent_by_the_moving_throw", "Dinosaures: the Découvertes' rent by the throw "
        "that moved the pawn, not a new throw", "rulesets/dinos.rules",
        "unless the space is mortgaged: roll the dice, pay rent",
        "unless the space is mortgaged: pay rent"),
    Bug("card_rent_thrown_twice", "a card's `rent dice xN` throws again after a rule's `roll the "
        "dice` made the throw", "rulelang/engine/game.py",
        "if not ctx.thrown:  # else the firing's throw is that new throw",
        "if True:"),
    Bug("traded_mortgage_lifted_with_interest", "Dinosaures: a mortgaged lot bought by trade and "
        "lifted at once costs the mortgage plus 10%", "rulesets/dinos.rules",
        "lift the mortgage at its value or pay the interest",
        "lift the mortgage or pay the interest"),
    Bug("bankrupts_mortgage_lifted_at_value", "Dinosaures: the creditor of a bankrupt lifts "
        "a mortgage for its value alone, without the 10% he owes first", "rulesets/dinos.rules",
        "from a bankrupt player if the space is mortgaged: lift the mortgage or pay",
        "from a bankrupt player if the space is mortgaged: lift the mortgage at its value or pay"),
    Bug("fourth_stronghold", "LOTR short game: a fourth stronghold before the fortress",
        "rulesets/lotr_short.rules",
        "  set houses_per_hotel = 3\n",
        "  set houses_per_hotel = 4\n"),
    Bug("card_lost", "a card lost from its deck: drawn and never put back under",
        "rulelang/engine/game.py",
        "        deck.append(card_index)\n        by_card = f.by_card(card.rule)\n",
        "        by_card = f.by_card(card.rule)\n"),
    Bug("jail_card_not_returned", "a Get Out of Jail Free card used and not returned to its deck",
        "rulelang/engine/game.py",
        "st.decks[deck_index].append(card_index)\n            self._free(seat, \"card\",",
        "self._free(seat, \"card\","),
    Bug("house_not_returned", "a house sold back that never returns to the bank's supply",
        "rulelang/engine/actions.py",
        "st.houses[pos] -= 1\n        st.bank_houses += 1",
        "st.houses[pos] -= 1"),
    Bug("building_on_mortgaged_group", "building allowed on a group with a mortgaged lot: the "
        "permission `a lot of the group is mortgaged`, read on the state, looks at the group's "
        "first lot only",
        "rulelang/engine/actions.py",
        "        for q in lots:\n            if mortgaged[q]:",
        "        for q in lots[:1]:\n            if mortgaged[q]:"),
    Bug("refused_lift_changes_state", "a refused lift that lifts the mortgage anyway",
        "rulelang/engine/actions.py",
        "    _pledge(game, seat, action.pos, False, check_lift(game, seat, action.pos))",
        "    game.state.mortgaged[action.pos] = False\n"
        "    _pledge(game, seat, action.pos, False, check_lift(game, seat, action.pos))"),
    Bug("unseeded_shuffle", "decks shuffled by Python's global generator, not the game's",
        "rulelang/engine/course.py",
        "game.rng.shuffle(deck)",
        "__import__(\"random\").shuffle(deck)"),
    Bug("save_forgets_generator", "a save that does not restore the dice generator's state",
        "rulelang/save.py",
        "        _restore_generator(game.rng, saved.rng)\n",
        "        pass\n"),
)


AUDIT_SEED = 13  # the seed of the audit's draw (docs/testing.md)
AUDIT_SIZE = 60
AUDIT_LEAST = 5  # rows drawn from each `## ` section of docs/fidelity.md at least


def fidelity_rows() -> list[tuple[str, tuple[str, str, str, str]]]:
    """The rows of docs/fidelity.md, (section, (place, statement, rules, tests)), as
    tests/test_fidelity.py reads them."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_fidelity import ROWS
    return list(ROWS)


def draw(seed: int, size: int = AUDIT_SIZE, least: int = AUDIT_LEAST) -> list[tuple[str, tuple]]:
    """`size` rows drawn with random.Random(seed): `least` from each section, the rest from
    all the rows left, in the order of the document."""
    rows = fidelity_rows()
    rng = random.Random(seed)
    sections = list(dict.fromkeys(s for s, _ in rows))
    chosen: set[int] = set()
    for section in sections:
        chosen |= set(rng.sample([i for i, (s, _) in enumerate(rows) if s == section], least))
    rest = [i for i in range(len(rows)) if i not in chosen]
    chosen |= set(rng.sample(rest, size - len(chosen)))
    return [rows[i] for i in sorted(chosen)]


def row_key(section: str, row: tuple) -> str:
    """How a bug names its row: the seed number of the section, then the statement."""
    return f"{section[:3]} | {row[1]}"


def occurrences(bug: Bug, root: Path = ROOT) -> int:
    """How many times the bug's snippet appears in the source (it must be exactly once)."""
    return (root / bug.file).read_text(encoding="utf-8").count(bug.old)


def _copy(dest: Path) -> None:
    # not the compiled engine (rulelang native build): the bugs are planted in the sources
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", ".pytest_cache", "*.egg-info",
                                    "*.so", "_native.json")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            # links stay links: rulelang/rulesets must still be the copy's own rulesets/
            shutil.copytree(src, dest / name, ignore=ignore, symlinks=True)
        elif src.exists():
            shutil.copy2(src, dest / name)


def run_suite(root: Path, seed: int, tests: list[str], every: bool) -> subprocess.CompletedProcess:
    """The suite in `root`, importing the rulelang of `root`; stops at the first failure
    unless `every`."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), str(root / "cli")]),
               HYPOTHESIS_PROFILE="mutate")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider",
         f"--hypothesis-seed={seed}", "--ignore=tests/test_mutate.py",  # it sees the bug too
         *([] if every else ["-x"]), *tests],
        cwd=root, env=env, capture_output=True, text=True)


def caught_by(output: str) -> list[str]:
    """The failing tests named in pytest's short summary."""
    return re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.M)


def try_bug(bug: Bug, seed: int, tests: list[str] = (), every: bool = False
            ) -> tuple[str, str, float]:
    """(verdict, detail, seconds): 'caught' and the test, 'MISSED', 'STALE', or 'BROKEN'
    (a test module fails to import in the copy: nothing was shown about the bug)."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"mutate-{bug.name}-") as tmp:
        root = Path(tmp)
        _copy(root)
        path = root / bug.file
        text = path.read_text(encoding="utf-8")
        if text.count(bug.old) != 1:
            return "STALE", f"the snippet appears {text.count(bug.old)} times in {bug.file}", 0.0
        path.write_text(text.replace(bug.old, bug.new), encoding="utf-8")
        done = run_suite(root, seed, list(tests), every)
    seconds = time.monotonic() - start
    if done.returncode == 0:
        return "MISSED", "the tests passed", seconds
    failing = caught_by(done.stdout)
    if failing and all("::" not in f for f in failing):  # a module that does not even import
        return "BROKEN", f"{failing[0]} fails to collect: the copy is broken, not the bug " \
            "caught", seconds
    if not failing:
        tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
        return "caught", "the tests failed: " + " / ".join(tail), seconds
    more = f" (and {len(failing) - 1} more)" if len(failing) > 1 else ""
    return "caught", failing[0] + more, seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="only these bugs (default: every one)")
    parser.add_argument("--list", action="store_true", help="list the bugs and stop")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    parser.add_argument("--tests", nargs="+", default=[], metavar="PATH",
                        help="run only these test files or ids (default: the whole suite)")
    parser.add_argument("--every", action="store_true",
                        help="do not stop at the first failure: count every failing test")
    args = parser.parse_args(argv)
    known = {b.name: b for b in BUGS}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown bug {', '.join(unknown)}; --list shows them")
    if args.list:
        for b in BUGS:
            print(f"{b.name:<38} {b.file:<28} {b.what}")
        return 0
    bugs = [known[n] for n in args.names] if args.names else list(BUGS)
    failed = 0
    for bug in bugs:
        verdict, detail, seconds = try_bug(bug, args.seed, args.tests, args.every)
        failed += verdict != "caught"
        print(f"{verdict:<7} {bug.name:<38} {seconds:6.1f} s  {detail}", flush=True)
    print(f"{len(bugs) - failed} of {len(bugs)} deliberate bugs caught")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
