"""Direct hooks (Rulebook.direct, Rulebook.guards): on a landing, a passing or doubles, the
engine calls a hook's direct form with the firing's fields instead of building the Firing,
and passes over a hook of the game's course or of a throw whose conditions fail on those
fields. Neither changes a game: every ruleset, played with its direct forms and guards and
with none, has the same event log, line for line."""

from __future__ import annotations

import attrs
import pytest

import rulelang
from rulelang.runner import make_agents
from scenario import RULESETS

SEEDS = range(3)
TABLES = (("default",) * 4, ("random", "default", "random", "default"))
MAX_TURNS = 400
FILES = sorted(p.relative_to(RULESETS).as_posix() for p in RULESETS.rglob("*.rules"))


def _log(rb, table, seed) -> str:
    lines: list[str] = []
    low, high = rb.settings.players
    players = max(low, min(len(table), high))
    table = (table * players)[:players]
    rulelang.Game(rb, make_agents(list(table), players), seed=seed,
                  max_turns=MAX_TURNS, log=lines.append).play()
    return "".join(line + "\n" for line in lines)


def test_the_official_rules_have_direct_hooks():
    """The 1961 rulebook's hooks of the board, doubles and GO all have direct forms: its
    landings, passings and doubles build no Firing (a card's effects still get one)."""
    rb = rulelang.load(str(RULESETS / "classic_1961.rules"))
    hooks = [h for here in rb.land_hooks + rb.pass_hooks for _, _, h in here]
    hooks += [dh.hook[2] for dh in rb.doubles_hooks]
    assert hooks and all(h in rb.direct for h in hooks)


@pytest.mark.parametrize("name", FILES)
def test_direct_forms_play_the_same_games(name):
    rb = rulelang.load(str(RULESETS / name))
    without = attrs.evolve(rb, direct={}, guards={})
    for table in TABLES:
        for seed in SEEDS:
            assert _log(rb, table, seed) == _log(without, table, seed), (name, table, seed)
