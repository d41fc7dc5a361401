"""The `own-turn` agent: the default agent acting on its own turn only (agents.OwnTurnAgent)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang import save
from rulelang.engine.agents import DefaultAgent, OwnTurnAgent
from rulelang.runner import make_agents

ROOT = Path(__file__).resolve().parent.parent


def _between_events(rulebook, names, seed):
    """The events of the game logged while the players act between turns, by seat: an action
    taken then, or what it set off."""
    game = rulelang.Game(rulebook, make_agents(names, len(names)), seed=seed)
    seen: list[str] = []
    game.log_to(lambda line: seen.append(line) if game.between else None)
    game.play()
    return seen


@pytest.mark.parametrize("ruleset", ["classic_1961.rules", "french_standard.rules"])
def test_it_never_acts_between_turns(ruleset):
    """Four own-turn agents leave the windows between turns empty, game after game; four
    default agents in the same games act in them (so the windows are watched)."""
    rulebook = rulelang.load(ROOT / "rulesets" / ruleset)
    own = [_between_events(rulebook, ["own-turn"] * 4, seed) for seed in range(1, 7)]
    default = [_between_events(rulebook, ["default"] * 4, seed) for seed in range(1, 7)]
    assert own == [[]] * 6
    assert sum(map(len, default)) > 0


def test_it_plays_its_own_turns_as_the_default_agent():
    """Beside default agents it decides as they do on its turn: a game where nobody acts
    between turns is the same with either (seat 0 never acts out of turn in it)."""
    rulebook = rulelang.load(ROOT / "rulesets" / "classic_1961.rules")
    for seed in range(1, 30):
        if not _between_events(rulebook, ["default"] * 3, seed):
            break
    else:
        pytest.skip("no game of these seeds without acting between turns")
    logs = []
    for first in ("default", "own-turn"):
        log: list[str] = []
        rulelang.Game(rulebook, make_agents([first, "default", "default"], 3), seed=seed,
                      log=log.append).play()
        logs.append(log)
    assert '"agents":["own-turn","default","default"]' in logs[1][0]
    assert logs[0][1:] == logs[1][1:]  # all but the start, which names the agents


def test_it_is_a_built_in_agent_and_resumes():
    """`own-turn` names it wherever agents are named, and a saved game of it resumes."""
    agents = make_agents("own-turn", 3)
    assert [type(a) for a in agents] == [OwnTurnAgent] * 3
    assert isinstance(agents[0], DefaultAgent) and OwnTurnAgent.name == "own-turn"
    assert rulelang.OwnTurnAgent is OwnTurnAgent and rulelang.AGENTS["own-turn"] is OwnTurnAgent
    rulebook = rulelang.load(ROOT / "rulesets" / "classic_1961.rules")
    game = rulelang.Game(rulebook, agents, seed=2)
    for _ in range(40):
        game.play_turn()
    text = save.dumps(game)
    resumed = save.loads(text)
    assert [type(a) for a in resumed.agents] == [OwnTurnAgent] * 3
    assert save.dumps(resumed) == text
