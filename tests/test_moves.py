"""The moves of a die, to the next space that qualifies, to a space of the player's choice, and
`the player chooses one`, played on positions set by hand (tests/data/moves/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang.engine.actions import IllegalAction
from rulelang.engine.firing import Firing
from scenario import Scripted, pos, scenario, snapshot

MOVES = str(Path(__file__).parent / "data" / "moves" / "moves.rules")


class Chooser(Scripted):
    """Answers `choose` from a list, and records what it was asked."""

    def __init__(self, answers=(), **kw):
        super().__init__(**kw)
        self.answers = list(answers)
        self.choices: list = []

    def choose(self, game, seat, choice):
        self.choices.append(choice)
        return self.answers.pop(0)


def test_move_by_the_second_die():
    """`move by the second die`: forward by what the second die showed."""
    log: list = []
    game = scenario(name=MOVES, dice=[(1, 3)], positions={0: "St. James Place"}, log=log)
    game.play_turn()
    assert game.state.position[0] == pos(game, "Free Parking") + 3
    moves = [line for line in log if '"event":"move"' in line]
    assert '"rule":"by_die"' in moves[-1] and '"steps":3' in moves[-1]


def test_next_street_where_the_owner_is_in_jail_else():
    """`advance to the next street where C`: C tests each candidate and its owner; with no
    candidate the `else` effect runs."""
    game = scenario(name=MOVES, dice=[(3, 4)], owners={"Boardwalk": 1}, in_jail={1: 0},
                    decks={"Chance": ["CH07"]})  # GO + 7 = Chance
    game.play_turn()
    assert game.state.position[0] == pos(game, "Boardwalk")
    game = scenario(name=MOVES, dice=[(3, 4)], decks={"Chance": ["CH07"]})
    cash = game.state.cash[0]
    game.play_turn()
    assert game.state.position[0] == pos(game, "Chance") and game.state.cash[0] == cash + 50 + 7


def test_next_street_where_a_condition_of_and_or_and_parentheses_holds():
    """`where C` takes a whole condition: `and`, `or`, `not` and parentheses, each atom read
    on the candidate space (its buildings, price and owner)."""
    # Illinois Avenue + 4 = Water Works: Marvin Gardens ($280) fails the price, Pacific ($300) has a house
    game = scenario(name=MOVES, dice=[(1, 3)], positions={0: "Illinois Avenue"},
                    owners={"Pacific Avenue": 1}, houses={"Pacific Avenue": 1})
    game.play_turn()
    assert game.state.position[0] == pos(game, "North Carolina Avenue")
    # the owner of Marvin Gardens in jail: the `or` lets the cheaper street qualify
    game = scenario(name=MOVES, dice=[(1, 3)], positions={0: "Illinois Avenue"},
                    owners={"Marvin Gardens": 1}, in_jail={1: 0})
    game.play_turn()
    assert game.state.position[0] == pos(game, "Marvin Gardens")


def test_a_free_street_of_the_players_choice_straight_there():
    """`move to a free street of the player's choice`: the streets with no pawn are offered
    in board order; the player moves straight there, passing nothing (no salary)."""
    agent = Chooser(answers=[0])
    log: list = []
    game = scenario(name=MOVES, agents=[agent, Scripted(), Scripted()], dice=[(1, 2)],
                    positions={0: "Short Line", 1: "Mediterranean Avenue"}, log=log)
    cash = game.state.cash[0]
    game.play_turn()  # Short Line + 3 = Luxury Tax ($75), then straight to Baltic Avenue
    (choice,) = agent.choices
    assert choice.rule == "straight" and choice.options[0] == "Baltic Avenue"
    assert "Mediterranean Avenue" not in choice.options and len(choice.spaces) == 21
    assert game.state.position[0] == pos(game, "Baltic Avenue")
    assert game.state.cash[0] == cash - 75
    # logged by the rule that asks; the move with its real destination, counted forward
    (chosen,) = [json.loads(line) for line in log if '"event":"choice"' in line]
    assert chosen["rule"] == "straight" and chosen["chosen"] == 0
    last = json.loads([line for line in log if '"event":"move"' in line][-1])
    assert last["to"] == "Baltic Avenue" and last["steps"] == 5 and last["rule"] == "straight"


def test_the_player_chooses_an_option_and_its_effects_run():
    """`the player chooses one: A; B, C`: the agent sees each option's text and the cash it
    brings; the chosen option's effects run in order."""
    agent = Chooser(answers=[1])
    game = scenario(name=MOVES, agents=[agent, Scripted(), Scripted()], dice=[(1, 3)])
    cash = game.state.cash[0]
    game.play_turn()  # GO + 4 = Income Tax: pay $5, then 4 more
    (choice,) = agent.choices
    assert choice.options == ("collect $5", "pay $5, move by the dice total")
    assert choice.gains == (5, -5)
    assert game.state.position[0] == pos(game, "Income Tax") + 4
    assert game.state.cash[0] == cash - 200 - 5  # the tax (first option), then the $5


@pytest.mark.parametrize("answer", [2, -1, True, "0", None, 1.0])
def test_an_invalid_choice_is_refused_and_changes_nothing(answer):
    """An answer that is not the index of an option is refused, naming the rule that asks,
    before anything changes."""
    agent = Chooser(answers=[answer])
    game = scenario(name=MOVES, agents=[agent, Scripted(), Scripted()], dice=[(1, 3)],
                    positions={0: "Oriental Avenue"})
    here = pos(game, "Income Tax")
    game.state.position[0] = here
    before = snapshot(game)
    _, rule, hook = game.rulebook.land_hooks[here][-1]
    with pytest.raises(IllegalAction) as err:
        hook(game, Firing(0, here, -1, -1, (1, 3), 4, rule))
    assert err.value.rule == "chooses" and snapshot(game) == before


def test_dice_declarations_change_the_tables_not_the_draws(tmp_path):
    """Declared dice make the totals, doubles and triples; the outcomes drawn are the same."""
    speed = rulelang.load("rulesets/house/speed_die.rules")
    rolls = speed.rolls
    assert len(rolls) == 216
    i = rolls.index((4, 4, 2))
    assert speed.doubles[i] and not speed.triples[i] and speed.totals[i] == 10
    j = rolls.index((3, 3, 3))
    assert speed.doubles[j] and speed.triples[j] and speed.totals[j] == 9
    k = rolls.index((5, 1, "Bus"))
    assert speed.totals[k] == 6 and not speed.doubles[k]
    classic = rulelang.load("rulesets/classic_1961.rules")
    assert not any(classic.triples) and classic.doubles == tuple(
        a == b for a, b in classic.rolls)
