"""Every ruleset under rulesets/ checks clean and plays seeded games without an error."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang import ast
from rulelang.check import check_path
from rulelang.diagnostics import render
from rulelang.engine.game import Game
from rulelang.resolve import load_chain
from rulelang.runner import make_agents
from scenario import RULESETS
from strategies import ci_count

ALL = sorted(RULESETS.glob("**/*.rules"))
ENDS = {"last_player", "end_of_game", "time_limit", "turn_cap"}
# Seeded games of each ruleset: 60 under the ci profile, 200 under the long one.
GAMES = ci_count(60, 200)


def _id(path: Path) -> str:
    return str(path.relative_to(RULESETS))


def _options(items):
    for item in items:
        if isinstance(item, ast.Option):
            yield item.name.name
            yield from _options(item.items)


def _variants():
    """Each ruleset as written, and with each option of its files switched on."""
    for path in ALL:
        yield pytest.param(path, (), id=_id(path))
        for name in dict.fromkeys(n for f in load_chain(str(path)) for n in _options(f.items)):
            yield pytest.param(path, (name,), id=f"{_id(path)}+{name}")


VARIANTS = list(_variants())
# classic_board.rules is equipment only (no rules: nothing ever ends a game): checked, not played
PLAYABLE = [v for v in VARIANTS if v.values[0].name != "classic_board.rules"]


def test_the_glob_finds_the_rulesets():
    """The glob reaches the house rules in their folder, not just the top level."""
    names = {_id(p) for p in ALL}
    assert {"classic_1961.rules", "dinos.rules", "house/free_parking_jackpot.rules"} <= names


@pytest.mark.parametrize("path, options", VARIANTS)
def test_checks_clean(path, options):
    """No error and no warning."""
    _, diags = check_path(str(path), options)
    assert [render(d, None) for d in diags] == []


@pytest.mark.parametrize("path, options", PLAYABLE)
def test_plays_seeded_games(path, options):
    """Seeded games of default agents (GAMES) end by a rule of the rulebook, with money
    conserved; at most one in ten at the turn cap."""
    rb = rulelang.load(str(path), options)
    players = min(max(4, rb.settings.players[0]), rb.settings.players[1])
    reasons = {}
    for seed in range(GAMES):
        game = Game(rb, make_agents("default", players), seed=seed).play()
        assert sum(game.state.cash) == 0
        assert (game.winner is None) == (game.end_reason == "turn_cap")
        reasons[game.end_reason] = reasons.get(game.end_reason, 0) + 1
    rules = set(rb.rule_names)
    assert set(reasons) <= ENDS | rules, reasons
    assert reasons.get("turn_cap", 0) <= GAMES // 10, reasons
