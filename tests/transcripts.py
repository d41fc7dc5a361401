"""Golden transcripts: one seeded game of every ruleset, its whole event log kept as a file.

A transcript changes only when a rule or the engine changes what happens in a game. After an
intended change, regenerate them and review the diff before committing it:

    python -m tests.transcripts           # rewrite tests/data/transcripts/*.jsonl
    python -m tests.transcripts --check   # exit 1 and name the transcripts that differ
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as `python -m tests.transcripts`
    sys.path.insert(0, str(HERE))

from invariants import load, ruleset_paths  # noqa: E402
from rulelang.engine.game import Game  # noqa: E402
from rulelang.runner import make_agents  # noqa: E402

DIR = HERE / "data" / "transcripts"
SEED = 1
MAX_TURNS = 150


def transcript_path(ruleset: str) -> Path:
    """rulesets/a/b.rules -> tests/data/transcripts/a__b.jsonl"""
    name = Path(ruleset).relative_to("rulesets").with_suffix("")
    return DIR / ("__".join(name.parts) + ".jsonl")


def table(ruleset: str) -> list[str]:
    """The agents of a ruleset's transcript game: default and random in turn, 4 seats if allowed."""
    low, high = load(ruleset).settings.players
    n = max(low, min(high, 4))
    return [("default", "random")[i % 2] for i in range(n)]


def transcript(ruleset: str) -> str:
    """The event log of the ruleset's transcript game, one JSON object per line."""
    lines: list[str] = []
    names = table(ruleset)
    Game(load(ruleset), make_agents(names, len(names)), seed=SEED, max_turns=MAX_TURNS,
         log=lines.append).play()
    return "".join(line + "\n" for line in lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.transcripts", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    expected = {transcript_path(r): transcript(r) for r in ruleset_paths()}
    differ = []
    for path, text in expected.items():
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            continue
        differ.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
    stale = [p for p in sorted(DIR.glob("*.jsonl")) if p not in expected]
    if not args.check:
        for p in stale:
            p.unlink()
    verb = "differ" if args.check else "rewritten"
    for path in differ:
        print(f"{path.relative_to(HERE.parent)}: {verb}")
    for path in stale:
        print(f"{path.relative_to(HERE.parent)}: no such ruleset" + ("" if args.check
                                                                      else ", removed"))
    print(f"{len(expected)} transcripts, {len(differ)} {verb}, {len(stale)} stale")
    return 1 if args.check and (differ or stale) else 0


if __name__ == "__main__":
    sys.exit(main())
