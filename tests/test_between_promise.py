"""Promises to pass between turns (Game.pass_between): the game does not ask an agent that
promised to pass while its promise holds, and the default agent's promise changes no game."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.engine.agents import DefaultAgent
from rulelang.engine.tally import Tally

ROOT = Path(__file__).resolve().parent.parent


class Unpromising(DefaultAgent):
    """The default agent's decisions, without its promise: asked in every window."""

    def seat_at(self, game, seat):
        super().seat_at(game, seat)
        self._promises = False


class Counting(DefaultAgent):
    """A subclass with a `between` of its own, counting how often it is asked."""

    def __init__(self):
        super().__init__()
        self.asked = 0

    def between(self, game, seat):
        self.asked += 1
        return super().between(game, seat)


def _log(rulebook, agents, seed, tally=False):
    log: list[str] = []
    rulelang.Game(rulebook, agents, seed=seed, log=log.append,
                  tally=Tally(rulebook.size) if tally else None).play()
    return log


@pytest.mark.parametrize("tally", [False, True], ids=["plain", "tally"])
@pytest.mark.parametrize("ruleset", ["classic_1961.rules", "french_standard.rules",
                                     "dinos.rules"])
def test_the_default_agents_promise_changes_no_game(ruleset, tally):
    """Default agents that promise to pass play the same games, event for event, as the same
    agents asked in every window; with a tally too, whose turn takes the path of a turn with
    extras (Game._extras_and_rolls)."""
    rulebook = rulelang.load(ROOT / "rulesets" / ruleset)
    for seed in range(1, 9):
        promising = _log(rulebook, [DefaultAgent() for _ in range(4)], seed, tally)
        asked = _log(rulebook, [Unpromising() for _ in range(4)], seed, tally)
        assert promising == asked, f"seed {seed}"


def test_a_subclass_with_its_own_between_is_asked_in_every_window():
    """A subclass that overrides `between` makes no promise: the game asks it before every
    turn but the first while its player is in the game; the default agents beside it are
    asked less often than that."""
    rulebook = rulelang.load(ROOT / "rulesets" / "classic_1961.rules")
    seat = Counting()
    game = rulelang.Game(rulebook, [seat, DefaultAgent(), DefaultAgent(), DefaultAgent()], seed=3)
    windows = 0
    while not game.over:
        if game.state.turn and not game.state.bankrupt[0]:
            windows += 1
        game.play_turn()
    assert not seat._promises
    assert game.agents[1]._promises
    assert seat.asked >= windows > 0


def test_a_promise_holds_until_the_player_is_richer_or_in_jail():
    """The game skips a seat whose cash is at most its promise, out of jail; it asks it again
    once it holds more, or once it is in jail."""
    rulebook = rulelang.load(ROOT / "rulesets" / "classic_1961.rules")
    agents = [Counting() for _ in range(3)]
    game = rulelang.Game(rulebook, agents, seed=5)
    game.state.turn = 1  # the window opens between turns
    for seat in range(3):
        game.pass_between(seat, game.state.cash[seat])
    game._between_turns(game.state.current)
    assert [a.asked for a in agents] == [0, 0, 0]
    game.state.cash[1] += 1
    game.state.in_jail[2] = True
    game._between_turns(game.state.current)
    assert [a.asked for a in agents] == [0, 1, 1]
