"""The side-by-side measure of two trees' player-turns per second (tests/side_by_side.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import side_by_side

ROOT = Path(__file__).resolve().parent.parent


def test_one_pair_of_a_tree_against_itself(capsys):
    """Each batch runs in a process of its own and reports a rate; the ratio is the new
    tree's rate over the old one's."""
    assert side_by_side.main([str(ROOT), str(ROOT), "--games", "2", "--pairs", "1",
                              "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["engine"] == "pure" and figures["games"] == 2
    old, new = figures["old_median"], figures["new_median"]
    assert old > 0 and new > 0
    assert figures["ratio_median"] == pytest.approx(new / old, abs=2e-3)
    assert figures["ratio_min"] == figures["ratio_median"] == figures["ratio_max"]


def test_a_folder_that_is_not_a_tree_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        side_by_side.main([str(tmp_path), str(ROOT)])
    assert exit_.value.code == 2
    assert "is not a tree of rulelang" in capsys.readouterr().err


def test_each_tree_plays_its_own_agent(capsys):
    """--old-agent and --new-agent seat each tree's games with the agent named; an agent the
    tree does not know stops the measure with its message."""
    assert side_by_side.main([str(ROOT), str(ROOT), "--games", "2", "--pairs", "1",
                              "--new-agent", "own-turn", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["old_agent"], figures["new_agent"]) == ("default", "own-turn")
    with pytest.raises(SystemExit) as exit_:
        side_by_side.main([str(ROOT), str(ROOT), "--games", "1", "--pairs", "1",
                           "--old-agent", "nobody"])
    assert "unknown agent 'nobody'" in str(exit_.value.code)
