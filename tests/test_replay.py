"""Replay: the same rulebook, seed and agents give the same event log byte for byte, whatever the
hash seed, and each ruleset's golden transcript still comes out of its seeded game."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from invariants import ROOT, ruleset_paths
from transcripts import DIR, table, transcript, transcript_path

RULESETS = ruleset_paths()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_game_whatever_the_hash_seed(ruleset, tmp_path):
    """Two processes with different PYTHONHASHSEED write the same log and the same result."""
    names = table(ruleset)
    outs, logs = [], []
    for hashseed in ("1", "2"):
        log = tmp_path / f"log{hashseed}.jsonl"
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        outs.append(subprocess.run(
            [sys.executable, "-m", "rulelang_cli.main", "run", ruleset, "--players",
             str(len(names)), "--seed", "3", "--max-turns", "400", "--agents", ",".join(names),
             "--json", "--log", str(log)],
            capture_output=True, env=env, check=True, cwd=ROOT).stdout)
        logs.append(log.read_bytes())
    assert outs[0] == outs[1]
    assert logs[0] == logs[1] and logs[0].count(b"\n") > 50


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
