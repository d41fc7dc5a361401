"""Whole games of the 1961 rulebook: how they end, the cap, the event log.

Invariants after every event are in test_invariants.py; determinism in test_replay.py.
"""

import json

import rulelang
from rulelang.engine.game import Game
from rulelang.runner import make_agents
from invariants import causes
from scenario import RULESETS, rulebook

RULES = str(RULESETS / "classic_1961.rules")


def test_default_agents_finish_nine_games_in_ten():
    """Four default agents: at least 90% of games end with a winner within the default cap."""
    batch = rulelang.play_games(rulebook(), 200, "default", players=4, seed=1)
    assert batch.finished + batch.capped == 200
    assert batch.finished >= 180, batch


def test_turn_cap_is_reported_apart_never_as_a_win():
    """A capped game has no winner and says so."""
    result = rulelang.play_game(rulebook(), "random", players=4, seed=3, max_turns=20)
    assert result.end_reason == "turn_cap" and result.winner is None and result.turns == 20


def test_event_log_names_a_rule_for_every_event():
    """Every logged event names its cause, and money events balance: the starting cash is
    the `capital` rule's, a dice move the turn's, a card's move the card's."""
    lines = []
    Game(rulebook(), make_agents("default", 4), seed=5, log=lines.append).play()
    events = [json.loads(line) for line in lines]
    assert all(e["rule"] in causes(rulebook()) for e in events)
    rules = {e["rule"] for e in events}
    assert {"salary", "rent", "unowned_property", "capital"} <= rules
    moves = {e["rule"] for e in events if e["event"] == "move"}
    assert "turn" in moves and moves - {"turn"} and all(m.startswith("card ") for m in moves
                                                        if m != "turn")
    balance = {}
    for e in events:
        if e["event"] == "transfer":
            balance[e["source"]] = balance.get(e["source"], 0) - e["amount"]
            balance[e["to"]] = balance.get(e["to"], 0) + e["amount"]
    assert sum(balance.values()) == 0


def test_public_check_function_is_not_shadowed_by_the_stage_module():
    """`rulelang.check` stays the function, even after the check stage is imported."""
    import rulelang.check  # noqa: F401

    assert callable(rulelang.check)
    assert rulelang.check(RULES) == []
