"""Every ruleset of rulesets/, random and default agents: the invariants hold after every event."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from invariants import Checker, CheckedGame, Violation, load, play_checked, ruleset_paths
from rulelang.engine.game import Game
from rulelang.runner import make_agents
from strategies import SEEDS, tables

RULESETS = ruleset_paths()


def test_rulesets_are_found():
    """The glob finds the shipped rulebooks, so a new one is covered with no new code."""
    assert "rulesets/classic_1961.rules" in RULESETS


@pytest.mark.parametrize("agents", ["default", "random", "mixed"])
@pytest.mark.parametrize("ruleset", RULESETS)
@given(data=st.data())
def test_invariants_hold_after_every_event(ruleset, agents, data):
    """Money, buildings, deeds, cards and cash keep their invariants at every event, and the
    game ends by a rule or by the cap, saying which."""
    seed, names = data.draw(tables(ruleset, agents), label="seed, agents")
    max_turns = data.draw(st.integers(1, 2000), label="max_turns")
    game = play_checked(ruleset, make_agents(names, len(names)), seed, max_turns)
    assert game.end_reason and game.over


@pytest.mark.parametrize("ruleset", RULESETS)
@given(seed=SEEDS)
def test_checking_changes_nothing(ruleset, seed):
    """A game played with the checking log ends exactly as the same game with the log off."""
    rb = load(ruleset)
    n = rb.settings.players[0]
    names = ["default", "random"] * 6
    quiet = Game(rb, make_agents(names[:n], n), seed=seed, max_turns=300).play()
    checked = play_checked(ruleset, make_agents(names[:n], n), seed, 300)
    assert attrs.asdict(quiet.state) == attrs.asdict(checked.state)
    assert (quiet.end_reason, quiet.winner) == (checked.end_reason, checked.winner)


def test_checker_sees_a_violation_between_two_turns():
    """The checker is not blind: a house appearing in the bank is reported at the next event."""
    rb = load("rulesets/classic_1961.rules")
    game = CheckedGame(rb, make_agents("default", 3), seed=4, max_turns=50)
    game.play_turn()
    game.state.bank_houses += 1
    with pytest.raises(Violation, match="houses: 0 on lots"):
        game.play_turn()


def test_checker_allows_a_drawn_card_in_transit_only_at_its_draw():
    """A card missing from its deck is reported unless it is the one being drawn."""
    rb = load("rulesets/classic_1961.rules")
    game = CheckedGame(rb, make_agents("default", 3), seed=4, max_turns=50)
    card = game.state.decks[0].pop(0)
    checker = game.checker
    checker.check_state(in_transit=(0, card))
    with pytest.raises(Violation, match="cards lost"):
        checker.check_state()
    game.state.decks[0].append(card)
    checker.check_state()

