"""Replay: the same rulebook, seed and agents give the same event log byte for byte, whatever the
hash seed, and each ruleset's golden transcript still comes out of its seeded game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from invariants import ROOT, ruleset_paths
from transcripts import DIR, table, transcript, transcript_path

RULESETS = ruleset_paths()


# One child per hash seed plays every ruleset through `rulelang run` (click's runner, in the
# child), so that two interpreters are started instead of two per ruleset.
_PLAY_ALL = """
import json, sys
from click.testing import CliRunner
from rulelang_cli.main import main
out = {}
for ruleset, names, log in json.loads(sys.argv[1]):
    done = CliRunner().invoke(main, ["run", ruleset, "--players", str(len(names)), "--seed", "3",
                                     "--max-turns", "400", "--agents", ",".join(names),
                                     "--json", "--log", log])
    out[ruleset] = [done.exit_code, done.output]
print(json.dumps(out))
"""


def test_same_game_whatever_the_hash_seed(tmp_path):
    """Two processes with different PYTHONHASHSEED write the same log and the same result, for
    every ruleset."""
    results, logs = [], []
    for hashseed in ("1", "2"):
        games = [(r, table(r), str(tmp_path / f"{i}-{hashseed}.jsonl"))
                 for i, r in enumerate(RULESETS)]
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        done = subprocess.run([sys.executable, "-c", _PLAY_ALL, json.dumps(games)],
                              capture_output=True, text=True, env=env, check=True, cwd=ROOT)
        results.append(json.loads(done.stdout))
        logs.append({r: Path(log).read_bytes() for r, _, log in games})
    for ruleset in RULESETS:
        assert results[0][ruleset][0] == 0, (ruleset, results[0][ruleset][1])
        assert results[0][ruleset] == results[1][ruleset], ruleset
        assert logs[0][ruleset] == logs[1][ruleset], ruleset
        assert logs[0][ruleset].count(b"\n") > 50, ruleset


@pytest.mark.parametrize("ruleset", RULESETS)
def test_golden_transcript(ruleset):
    """The ruleset's seeded game gives its golden transcript, event for event."""
    path = transcript_path(ruleset)
    assert path.exists(), (f"no golden transcript for {ruleset}: run `python -m "
                           "tests.transcripts`, review it, and commit it")
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = transcript(ruleset).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual), 1):
        assert got == want, (f"{path.name}:{number} differs; if the change is intended, run "
                             f"`python -m tests.transcripts` and review the diff")
    assert len(actual) == len(expected), f"{path.name}: {len(actual)} events, not {len(expected)}"


def test_every_transcript_has_its_ruleset():
    """No transcript is left behind by a ruleset that was removed or renamed."""
    names = {transcript_path(r).name for r in RULESETS}
    assert sorted(p.name for p in DIR.glob("*.jsonl") if p.name not in names) == []
