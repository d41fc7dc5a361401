"""Expressions and conditions in played games: `when a player rolls` on each throw (in jail
too) with the doubles streak, values read when the effect runs, `and` / `or` / `not` in their
precedence, the group and building tests, a share of a pot, a move by a die, turns taken.

The rulebook is tests/data/played/expressions.rules: one rule per event or space.
"""

from __future__ import annotations

import json

from scenario import Scripted, pos, scenario, total_money

from rulelang import compile as compile_module
from rulelang.engine.firing import Firing

PLAYED = "../tests/data/played/expressions.rules"


def _events(log: list[str], kind: str | None = None) -> list[dict]:
    events = [json.loads(line) for line in log]
    return [e for e in events if kind is None or e["event"] == kind]


def test_a_player_rolls_fires_on_each_throw_before_the_move_with_the_streak():
    """The second double of a turn pays $7 before the pawn moves; the first and the third
    throw do not (the streak counts the doubles in a row ending with this throw)."""
    log: list[str] = []
    game = scenario(name=PLAYED, dice=[(2, 2), (3, 3), (1, 2)], log=log,
                    positions={0: "GO"})
    game.play_turn()
    events = _events(log)
    paid = [i for i, e in enumerate(events) if e.get("rule") == "second_double"]
    assert len(paid) == 1
    i = paid[0]
    assert events[i - 1]["event"] == "roll" and events[i - 1]["dice"] == [3, 3]
    assert events[i]["amount"] == 7 and events[i + 1]["event"] == "move"
    assert total_money(game) == 0


def test_a_player_rolls_fires_on_the_throw_of_a_turn_in_jail():
    """Snake eyes thrown in jail pay $3 (the rule holds only in jail), then the doubles free
    the player, who moves by the total."""
    log: list[str] = []
    game = scenario(name=PLAYED, dice=[(1, 1)], in_jail={0: 0}, log=log)
    game.play_turn()
    events = _events(log)
    kinds = [(e["event"], e.get("rule")) for e in events]
    assert ("transfer", "snake_eyes_in_jail") in kinds
    assert kinds.index(("transfer", "snake_eyes_in_jail")) < \
        next(i for i, k in enumerate(kinds) if k[0] == "free")
    assert game.state.cash[0] == 1503 and not game.state.in_jail[0]


def test_the_jail_rule_is_only_among_the_jail_throws_hooks():
    """A `when a player rolls` rule whose guard says `the player is in jail` is compiled into
    the jail throw's hooks only; `not ... in jail` into the turn's only."""
    rb = scenario(name=PLAYED).rulebook
    assert [rule for _, rule, _ in rb.jail_roll_hooks] == ["snake_eyes_in_jail",
                                                           "leaving_jail", "leaving_jail"]
    assert [rule for _, rule, _ in rb.roll_hooks] == ["second_double"]


def test_a_count_times_money_is_read_when_the_effect_runs():
    """Passing GO pays $10 for each railroad the player owns, besides the salary."""
    game = scenario(name=PLAYED, dice=[(2, 3)], positions={0: "Short Line"},
                    owners={"Reading Railroad": 0, "B. & O. Railroad": 0, "Short Line": 1})
    game.play_turn()  # Short Line + 5 = Reading Railroad, passing GO
    assert game.state.cash[0] == 1500 + 200 + 20


def test_and_binds_tighter_than_or():
    """`A or B and not C`: a player with no house, more than $2000 and a lap done pays nothing
    more than the luxury tax (B and not C fails, A fails); with a house, A holds and the
    player pays $25 a house plus 10% of the cash on top of it."""
    game = scenario(name=PLAYED, dice=[(1, 2)], positions={0: "Short Line"},
                    cash={0: 2500})
    game.state.laps[0] = 1
    game.play_turn()  # Short Line + 3 = Luxury Tax
    assert game.state.cash[0] == 2500 - 75
    game = scenario(name=PLAYED, dice=[(1, 2)], positions={0: "Short Line"},
                    cash={0: 1000}, owners={"Baltic Avenue": 0, "Mediterranean Avenue": 0},
                    houses={"Baltic Avenue": 2})
    game.play_turn()
    # the rules run in rule order: luxury tax ($75) first, then 2 × $25 + 10% of $925
    assert game.state.cash[0] == 1000 - 75 - (50 + 92)
    assert total_money(game) == 0


def test_a_share_of_a_pot_comes_out_of_the_pot():
    """`collect 50% of the pot "Jackpot"` takes half of it, rounded down, from the pot."""
    game = scenario(name=PLAYED, dice=[(1, 3)], positions={0: "St. James Place"})
    st = game.state
    st.cash[st.bank + 1] += 301
    st.cash[st.bank] -= 301
    game.play_turn()  # St. James Place + 4 = Free Parking
    assert st.cash[0] == 1650 and st.cash[st.bank + 1] == 151
    assert total_money(game) == 0


def test_group_tests_read_the_space_of_the_event():
    """Rent on a whole, evenly built, unmortgaged group costs 10% of the price more; with a
    lot of the group mortgaged, or the space above the fewest buildings, it does not."""
    group = {"Baltic Avenue": 1, "Mediterranean Avenue": 1}
    game = scenario(name=PLAYED, dice=[(1, 2)], positions={0: "GO"}, owners=group)
    game.play_turn()  # GO + 3 = Baltic Avenue: rent $8 (whole group) + $6
    assert game.state.cash[0] == 1500 - 8 - 6
    game = scenario(name=PLAYED, dice=[(1, 2)], positions={0: "GO"}, owners=group,
                    mortgaged=("Mediterranean Avenue",))
    game.play_turn()
    assert game.state.cash[0] == 1500 - 8
    game = scenario(name=PLAYED, dice=[(1, 2)], positions={0: "GO"}, owners=group,
                    houses={"Baltic Avenue": 1})
    game.play_turn()
    assert game.state.cash[0] == 1500 - 20


def test_a_move_by_a_die_of_the_throw():
    """Landing on Jail with a total of 10 or more moves back by the first die."""
    game = scenario(name=PLAYED, dice=[(6, 4)], positions={0: "GO"})
    game.play_turn()  # GO + 10 = Jail, then back 6
    assert game.state.position[0] == pos(game, "Jail") - 6


def test_turns_are_counted_when_a_rule_reads_them():
    """The player's second turn pays $1; a rulebook that reads no turns counts none."""
    game = scenario(name=PLAYED, players=3, dice=[(1, 2)] * 4,
                    positions={0: "GO", 1: "GO", 2: "GO"})
    for _ in range(4):
        game.play_turn()
    assert game.state.turns_taken == [2, 1, 1]
    assert game.state.cash[0] == 1500 + 1 and game.rulebook.count_turns
    plain = scenario(dice=[(1, 2)], positions={0: "GO"})
    plain.play_turn()
    assert plain.state.turns_taken == [] and not plain.rulebook.count_turns


def test_a_tax_option_of_an_expression_is_computed_before_the_choice():
    """`pay $200 or 10% of the player's worth or $2 times the dice total`: the agent sees
    money for the expression, worth for the share of worth, computed after its choice."""
    from rulelang import ast

    seen = []

    class Tax(Scripted):
        def tax(self, game, seat, options):
            seen.append(options)
            return 2

    game = scenario(agents=[Tax(), Scripted(), Scripted()], dice=[(1, 2)],
                    positions={0: "GO"})
    env = compile_module._Env(_program(), game.rulebook.spaces, game.settings)
    choice = ast.PayChoice((ast.Money(200), ast.PercentOf(10, ast.Possessive("player", "worth")),
                            ast.Times(2, "money", ast.DiceTotal())))
    pay = env.effect(choice)
    pay(game, Firing(0, 0, -1, -1, (5, 6), 11, "test", None))
    assert seen == [(("money", 200), ("worth", 10), ("money", 22))]
    assert game.state.cash[0] == 1500 - 22


def _program():
    from rulelang.check import check_path

    program, _ = check_path(str(scenario.__globals__["RULESETS"] / "classic_1961.rules"))
    return program


def test_the_number_of_a_thing_in_the_bank_is_read_when_the_effect_runs():
    """`the number of houses in the bank` is the bank's supply of houses; `the number of
    railroads in the bank` the railroads nobody owns."""
    import tempfile
    from pathlib import Path

    from rulelang import load
    from rulelang.engine.game import Game
    from rulelang.runner import make_agents

    text = ('rulebook "bank counts"\nextends "classic_1961.rules"\n\n'
            'rule bank_counts:\n  cite "tests", "bank counts"\n'
            '  when a player passes "GO": collect $1 times the number of houses in the bank, '
            'collect $1000 times the number of railroads in the bank\n')
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "bank_counts.rules"
        path.write_text(text)
        rb = load(str(path))
    game = Game(rb, make_agents("default", 3), seed=0)
    st = game.state
    st.bank_houses = 7
    for q, sp in enumerate(rb.spaces):
        if sp.kind == "railroad" and sp.name != "Short Line":
            st.owner[q] = 1
    game.state.position[0] = rb.space("Park Place").index
    before = st.cash[0]
    game.move_by(0, 3, Firing(player=0, rule="turn"))  # Park Place + 3 = GO
    assert st.cash[0] - before == 200 + 7 + 1000


def test_no_player_has_passed_go_this_turn():
    """`the owner's laps this turn` on an unowned space is 0 (owner -1), even when the last
    seat has just passed GO: -1 is no player, not the last seat."""
    game = scenario(name=PLAYED, dice=[(2, 3)], positions={2: "Short Line"}, current=2)
    game.play_turn()  # Short Line + 5 = Reading Railroad, passing GO
    assert game.laps_this_turn(2) == 1
    assert game.laps_this_turn(-1) == 0 and game.laps_this_turn(0) == 0
