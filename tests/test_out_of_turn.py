"""Acting out of turn: between two turns every player, in seat order from the player about to
play (a prisoner too), may build, sell, mortgage, lift and trade; a prisoner may buy a "Get Out
of Jail Free" card and use it at the start of the same turn. Scenarios set up as data on the
rulesets whose texts say so: 004 (classic_1961), 000 (french_standard), 003 (dinos)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang.engine.actions import (Build, Buy, IllegalAction, Mortgage, Trade, apply_between,
                                     refused_by)
from scenario import Scripted, pos, scenario, total_money

ROOT = Path(__file__).resolve().parent.parent
DARK_BLUE = {"Park Place": 2, "Boardwalk": 2}


def _events(log, turn=None):
    """The logged events (of one turn, if given: not those of the setup)."""
    events = [json.loads(line) for line in log]
    return [e for e in events if turn is None or e["turn"] == turn]


def _after_a_turn(game):
    """The game as it stands once a first turn was played (the window opens between turns)."""
    game.state.turn = 1
    return game


@pytest.mark.parametrize("ruleset", ["classic_1961.rules", "french_standard.rules",
                                     "dinos.rules"])
def test_a_player_builds_between_other_players_turns(ruleset):
    """004 MAISONS « en tout temps »; 000 « quand c'est votre tour de jouer ou entre les tours
    des autres joueurs »; 003 N'ATTENDEZ PAS VOTRE TOUR: seat 2 builds on its whole group
    before seat 1's turn, and seat 1 then rolls."""
    log: list[str] = []
    agents = [Scripted(), Scripted(), Scripted(between=[Build(-1)])]
    game = _after_a_turn(scenario(agents=agents, owners=DARK_BLUE, current=1, dice=[(2, 3)],
                                  name=ruleset, log=log))
    agents[2].between_actions = [Build(pos(game, "Boardwalk"))]
    game.play_turn()
    st = game.state
    assert st.houses[pos(game, "Boardwalk")] == 1
    events = _events(log, turn=1)
    built = next(i for i, e in enumerate(events) if e["event"] == "build")
    rolled = next(i for i, e in enumerate(events) if e["event"] == "roll")
    assert built < rolled and events[built]["player"] == 2 and events[rolled]["player"] == 1
    assert total_money(game) == 0


def test_seat_order_is_from_the_player_about_to_play():
    """Every player is asked, once each when all pass, the player about to play first."""
    order: list[int] = []

    class Noting(Scripted):
        def between(self, game, seat):
            order.append(seat)
            return None

    game = _after_a_turn(scenario(players=4, agents=[Noting() for _ in range(4)], current=3,
                                  dice=[(2, 3)]))
    game.play_turn()
    assert order == [3, 0, 1, 2]


def test_a_prisoner_mortgages_between_turns():
    """004 LA PRISON « Même en prison, un joueur peut acheter et ériger une maison, vendre ou
    acheter des propriétés »; 003 « Et même en prison ! »."""
    for ruleset in ("classic_1961.rules", "dinos.rules"):
        agents = [Scripted(), Scripted(), Scripted()]
        game = _after_a_turn(scenario(agents=agents, owners={"Boardwalk": 2}, in_jail={2: 0},
                                      current=0, dice=[(2, 3)], name=ruleset))
        agents[2].between_actions = [Mortgage(pos(game, "Boardwalk"))]
        game.play_turn()
        assert game.state.mortgaged[pos(game, "Boardwalk")] and game.state.in_jail[2]


def test_a_prisoner_buys_a_jail_card_and_uses_it_at_the_start_of_the_same_turn():
    """004 LA PRISON: « en achetant d'un autre joueur une carte "SORTEZ DE PRISON, SANS
    FRAIS", à tel prix qu'ils fixeront entre eux »: bought between turns for $30, used at
    once, the prisoner rolls and moves."""
    log: list[str] = []
    agents = [Scripted(), Scripted(jail="card"), Scripted(accept=True)]
    game = _after_a_turn(scenario(agents=agents, in_jail={1: 0}, current=1,
                                  jail_cards={2: [("Chance", "CH08")]}, dice=[(2, 3)],
                                  log=log))
    agents[1].between_actions = [Trade(2, cash=30, take_cards=1)]
    before = list(game.state.cash[:3])
    game.play_turn()
    st = game.state
    assert not st.in_jail[1] and st.position[1] == pos(game, "Jail") + 5
    assert st.cash[2] == before[2] + 30
    assert not st.jail_cards[1] and not st.jail_cards[2]
    kinds = [e["event"] for e in _events(log, turn=1)]
    assert kinds.index("trade") < kinds.index("free") < kinds.index("roll")
    assert total_money(game) == 0


def test_only_the_actions_of_a_turn_are_taken_between_turns():
    game = _after_a_turn(scenario(owners={"Boardwalk": 0}))
    with pytest.raises(IllegalAction, match="not an action between turns"):
        apply_between(game, 1, Buy(pos(game, "Park Place")))
    agents = [Scripted(), Scripted(between=[Buy(0)]), Scripted()]
    game = _after_a_turn(scenario(agents=agents, current=0, dice=[(2, 3)]))
    with pytest.raises(IllegalAction):
        game.play_turn()


def test_the_default_agent_builds_with_the_rent_it_collected_before_its_turn():
    """Seat 2, default, holds a whole group and the cash to build: it builds between turns,
    not only on its own turn."""
    game = _after_a_turn(scenario(agents=[Scripted(), Scripted(), rulelang.DefaultAgent()],
                                  owners=DARK_BLUE, cash={2: 2000}, current=0,
                                  dice=[(2, 3)]))
    game.agents[2].seat_at(game, 2)
    game.play_turn()
    assert game.state.current == 1  # seat 0 played, seat 2 has not
    assert game.state.houses[pos(game, "Boardwalk")] + game.state.houses[
        pos(game, "Park Place")] >= 1


def test_the_default_prisoner_buys_a_card_for_less_than_the_fine():
    agents = [rulelang.DefaultAgent(), rulelang.DefaultAgent(), Scripted()]
    game = _after_a_turn(scenario(agents=agents, in_jail={0: 0}, current=0,
                                  jail_cards={1: [("Chance", "CH08")]}, dice=[(2, 3)]))
    for seat in (0, 1):
        agents[seat].seat_at(game, seat)
    before = game.state.cash[1]
    game.play_turn()
    assert game.state.cash[1] == before + 40 and not game.state.in_jail[0]


def test_random_agents_act_between_turns():
    rb = rulelang.load("rulesets/classic_1961.rules")
    seen = 0
    for seed in range(1, 6):
        log: list[str] = []
        game = rulelang.Game(rb, [rulelang.RandomAgent() for _ in range(4)], seed=seed,
                             max_turns=300, log=log.append)
        acted_between = []
        game.play()
        events = _events(log)
        # an action logged between a turn's last event and the next turn's first roll,
        # by a player other than the one about to play
        for e, nxt in zip(events, events[1:]):
            if e["event"] in ("build", "mortgage", "lift", "sell", "trade") and \
                    nxt["turn"] == e["turn"] and nxt["event"] == "roll" and \
                    nxt["player"] != e["player"]:
                acted_between.append(e)
        seen += len(acted_between)
    assert seen > 0


ONLY_ON_YOUR_TURN = '''rulebook "Only on your turn"
extends "classic_1961.rules"

rule on_your_turn:
  cite "our house rules", "build and trade only on your turn"
  a player may not build unless it is the player's turn
  a player may not trade if it is not the player's turn
  a player may not trade a jail card if it is not the player's turn
'''


class _Marked(rulelang.Game):
    """Logs where the window between turns opens and closes."""

    def _between_turns(self, first):
        self._log('{"event": "window"}')
        try:
            super()._between_turns(first)
        finally:
            self._log('{"event": "window_end"}')


def _in_window(rulebook, seeds):
    """The builds and trades made in the window between turns, over games of `seeds`."""
    found = []
    for seed in seeds:
        log: list[str] = []
        _Marked(rulebook, [rulelang.DefaultAgent() for _ in range(4)], seed=seed,
                log=log.append).play()
        inside = False
        for e in _events(log):
            inside = {"window": True, "window_end": False}.get(e["event"], inside)
            if inside and e["event"] in ("build", "trade"):
                found.append(e)
    return found


def test_a_house_rule_keeps_building_and_trading_to_the_players_own_turn(tmp_path):
    """`it is the player's turn` is false between turns: the permission refuses building and
    trading there, and the default agent, which asks, never tries."""
    path = tmp_path / "turn.rules"
    path.write_text(ONLY_ON_YOUR_TURN, encoding="utf-8")
    (tmp_path / "classic_1961.rules").write_text(
        (ROOT / "rulesets" / "classic_1961.rules").read_text(encoding="utf-8"))
    (tmp_path / "classic_board.rules").write_text(
        (ROOT / "rulesets" / "classic_board.rules").read_text(encoding="utf-8"))
    house = rulelang.load(str(path))
    assert _in_window(rulelang.load(str(ROOT / "rulesets" / "classic_1961.rules")), range(1, 6))
    assert _in_window(house, range(1, 6)) == []
    game = rulelang.Game(house, [Scripted() for _ in range(3)], seed=1)
    for lot in ("Park Place", "Boardwalk"):
        game.give_deed(pos(game, lot), 2, "test")
    build = Build(pos(game, "Boardwalk"))
    game.state.current = 2
    assert refused_by(game, 2, build) is None  # its own turn
    game.between = True
    assert refused_by(game, 2, build).rule == "on_your_turn"
    game.between = False
    game.state.current = 0
    assert refused_by(game, 2, build).rule == "on_your_turn"  # another player's turn
