"""Golden transcripts: one seeded game of every ruleset, its whole event log kept as a file.

A transcript changes only when a rule or the engine changes what happens in a game. After an
intended change, regenerate them and review the diff before committing it:

    python -m tests.transcripts           # rewrite tests/data/transcripts/*.jsonl
    python -m tests.transcripts --check   # exit 1 and name the transcripts that differ

A change that only renames causes (the engine's labels) must leave the games alone; before
regenerating, prove it:

    python -m tests.transcripts --labels-only   # exit 1 unless every difference is a
                                                # "rule" label or a field added to an event
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
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


def label_changes(old: str, new: str) -> tuple[Counter, list[str]]:
    """(how many times each (event, old label, new label) changed, the other differences)
    between two transcripts of the same game: an event may change its "rule" (and the end its
    "reason", the rule that ended the game) and gain fields, nothing else (the same events, in
    the same order, with the same fields and values)."""
    olds, news = old.splitlines(), new.splitlines()
    labels: Counter = Counter()
    other = []
    if len(olds) != len(news):
        other.append(f"{len(olds)} events before, {len(news)} now")
    for n, (a, b) in enumerate(zip(olds, news), 1):
        was, now = json.loads(a), json.loads(b)
        if was.get("event") == "end" == now.get("event") and "reason" in was:
            # the end's reason names the rule that ended the game: a label too
            if was["reason"] != now.get("reason"):
                labels[("end.reason", was["reason"], now.get("reason"))] += 1
            now = dict(now, reason=was["reason"])
        if was.get("rule") != now.get("rule"):
            labels[(was["event"], was.get("rule"), now.get("rule"))] += 1
        kept = {k: v for k, v in now.items() if k in was and k != "rule"}
        if list(kept.items()) != [(k, v) for k, v in was.items() if k != "rule"]:
            other.append(f"line {n}: {a} -> {b}")
    return labels, other


def labels_only(expected: dict) -> int:
    """Print what changed in the stored transcripts; 1 if anything but labels and added
    fields did."""
    total: Counter = Counter()
    lines = added = 0
    failed = False
    for path, text in expected.items():
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        labels, other = label_changes(old, text)
        total += labels
        lines += sum(labels.values())
        added += sum(1 for a, b in zip(old.splitlines(), text.splitlines())
                     if set(json.loads(b)) - set(json.loads(a)))
        for problem in other[:5]:
            print(f"{path.relative_to(HERE.parent)}: {problem}")
        failed = failed or bool(other)
    for (event, was, now), count in sorted(total.items(), key=lambda x: (-x[1], x[0])):
        print(f"{count:6}  {event}: {was} -> {now}")
    print(f"{len(expected)} transcripts: {lines} events relabelled, {added} with fields added, "
          + ("and other differences: the games changed" if failed else "nothing else"))
    return 1 if failed else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.transcripts", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--labels-only", action="store_true",
                        help="compare, do not write: fail unless only labels and added fields "
                             "differ, and list the labels that changed")
    args = parser.parse_args(argv)
    expected = {transcript_path(r): transcript(r) for r in ruleset_paths()}
    if args.labels_only:
        return labels_only(expected)
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
