"""Player-turns per second of two trees of rulelang, side by side: the measure of a change's
speed (docs/performance.md).

    python -m tests.side_by_side OLD NEW                  # pure Python, 300 games, 10 pairs
    python -m tests.side_by_side OLD NEW --games 1000 --pairs 12 --engine compiled
    python -m tests.side_by_side OLD NEW --new-agent own-turn   # the same agent's work

OLD and NEW are checkouts of the project (for example `git worktree add OLD 8ce90b7`). Each
measure is a process of its own, run from a folder outside both trees with OLD's or NEW's own
interpreter (`TREE/.venv/bin/python` if there is one, else this one): the tree and its `cli/`
first on `sys.path`, `TREE/rulesets/classic_1961.rules` (or `--rules`) loaded, five games to
warm up, then `play_games(rulebook, GAMES, AGENT, PLAYERS, 1)` timed alone by
`time.process_time()`, AGENT being `default` unless `--old-agent`/`--new-agent` say otherwise
(the agent of every seat: a tree whose default agent does more per turn than the other's is
measured against it with an agent that does the same work, as `own-turn` does against a tree
without acting between turns). The trees alternate, OLD then NEW, PAIRS times; each pair gives NEW's
rate over OLD's, and the median of those ratios is the figure (the machine's speed drifts;
a pair is measured within a second or two). `--engine compiled` needs each tree's own
`rulelang native build` and refuses a tree that would run pure Python.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# what each measuring process runs: argv = tree, rules, games, players, engine, agent
_MEASURE = """
import sys, time
tree, rules, games, players, engine, agent = sys.argv[1:7]
sys.path[:0] = [tree, tree + "/cli"]
import rulelang
from rulelang import native
if engine == "compiled" and not native.status()[0]:
    sys.exit("not compiled: " + native.status()[1])
rb = rulelang.load(rules)
rulelang.play_games(rb, 5, agent, int(players), 1000)
start = time.process_time()
batch = rulelang.play_games(rb, int(games), agent, int(players), 1)
print(batch.turns_total, time.process_time() - start)
"""


def interpreter(tree: Path) -> str:
    own = tree / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


def measure(tree: Path, rules: str, games: int, players: int, engine: str,
            agent: str = "default") -> float:
    """Player-turns per second of one batch of the tree, in a process of its own."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    if engine == "pure":
        env["RULELANG_PURE"] = "1"
    else:
        env.pop("RULELANG_PURE", None)
    with tempfile.TemporaryDirectory() as outside:
        done = subprocess.run(
            [interpreter(tree), "-c", _MEASURE, str(tree), str(tree / rules), str(games),
             str(players), engine, agent],
            cwd=outside, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"side_by_side: {tree}: {last}")
    turns, seconds = done.stdout.split()
    return int(turns) / float(seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.side_by_side",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path, help="the tree measured against")
    parser.add_argument("new", type=Path, help="the tree measured")
    parser.add_argument("--games", type=int, default=300, help="games per batch (300)")
    parser.add_argument("--pairs", type=int, default=10, help="batches of each tree (10)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--engine", choices=("pure", "compiled"), default="pure")
    parser.add_argument("--rules", default="rulesets/classic_1961.rules",
                        help="the rulebook, relative to each tree")
    parser.add_argument("--old-agent", default="default", metavar="AGENT",
                        help="the agent of every seat in OLD's games (default)")
    parser.add_argument("--new-agent", default="default", metavar="AGENT",
                        help="the agent of every seat in NEW's games (default)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    for tree in (args.old, args.new):
        if not (tree / args.rules).is_file() or not (tree / "rulelang").is_dir():
            parser.error(f"{tree} is not a tree of rulelang with {args.rules}")
    if args.games < 1 or args.pairs < 1 or args.players < 1:
        parser.error("--games, --pairs and --players must be at least 1")
    old_rates, new_rates, ratios = [], [], []
    for k in range(args.pairs):
        old = measure(args.old.resolve(), args.rules, args.games, args.players, args.engine,
                      args.old_agent)
        new = measure(args.new.resolve(), args.rules, args.games, args.players, args.engine,
                      args.new_agent)
        old_rates.append(old)
        new_rates.append(new)
        ratios.append(new / old)
        if not args.json:
            print(f"pair {k + 1}: {old:,.0f} {new:,.0f} player-turns/s, ratio {new / old:.3f}",
                  flush=True)
    figures = {
        "engine": args.engine, "games": args.games, "pairs": args.pairs,
        "players": args.players, "rules": args.rules,
        "old_agent": args.old_agent, "new_agent": args.new_agent,
        "old_median": round(statistics.median(old_rates)),
        "new_median": round(statistics.median(new_rates)),
        "ratio_median": round(statistics.median(ratios), 3),
        "ratio_min": round(min(ratios), 3), "ratio_max": round(max(ratios), 3),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"new / old, median of {args.pairs} pairs: {figures['ratio_median']:.3f} "
              f"({figures['ratio_min']:.3f}-{figures['ratio_max']:.3f}); medians "
              f"{figures['old_median']:,} and {figures['new_median']:,} player-turns/s "
              f"({args.engine}, {args.games} games"
              + ("" if args.old_agent == args.new_agent == "default" else
                 f", agents {args.old_agent} and {args.new_agent}") + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
