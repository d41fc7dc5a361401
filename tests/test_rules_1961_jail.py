"""Scenario tests of the 1961 regular game: in jail and out of it."""


import pytest

from rulelang.engine.actions import Build, IllegalAction, Trade, apply
from scenario import Scripted, rulebook, scenario, snapshot, total_money

RB = rulebook()


def P(name: str) -> int:
    return RB.space(name).index



def test_doubles_free_the_prisoner_who_moves_by_that_roll_without_rolling_again():
    """LA PRISON, sortie (1): a double frees him; he moves by it and does not roll again."""
    game = scenario(dice=[(3, 3)], in_jail={0: 0}, owners={"St. James Place": 0})
    game.play_turn()  # one scripted roll: a second roll would fail the test
    st = game.state
    assert not st.in_jail[0] and st.jail_turns[0] == 0
    assert st.position[0] == P("St. James Place")
    assert st.cash[0] == 1500
    assert total_money(game) == 0


def test_doubles_on_the_third_turn_free_without_fine():
    """LA PRISON, sortie (4): on the third turn a double still frees him without the fine."""
    game = scenario(dice=[(1, 1)], in_jail={0: 2}, owners={"Electric Company": 0})
    game.play_turn()
    st = game.state
    assert not st.in_jail[0] and st.position[0] == P("Electric Company")
    assert st.cash[0] == 1500
    assert total_money(game) == 0


def test_failed_roll_stays_in_jail_without_moving():
    """LA PRISON: without a double on the first or second turn, the prisoner stays in jail."""
    game = scenario(dice=[(1, 2), (2, 5)], in_jail={0: 0})
    game.play_turn()
    st = game.state
    assert st.in_jail[0] and st.position[0] == RB.jail and st.jail_turns[0] == 1
    st.current = 0
    game.play_turn()
    assert st.in_jail[0] and st.position[0] == RB.jail and st.jail_turns[0] == 2
    assert st.cash[0] == 1500
    assert total_money(game) == 0


def test_third_failed_roll_forces_the_fine_then_moves():
    """LA PRISON, sortie (4): after the third failed roll he pays $50 and moves by that roll."""
    game = scenario(dice=[(1, 2)], in_jail={0: 2}, owners={"States Avenue": 0})
    bank = game.state.cash[game.state.bank]
    game.play_turn()
    st = game.state
    assert not st.in_jail[0] and st.position[0] == P("States Avenue")
    assert st.cash[0] == 1450 and st.cash[st.bank] == bank + 50
    assert total_money(game) == 0


def test_three_failed_turns_in_a_row_from_the_cell():
    """LA PRISON, sortie (4): he may not stay in jail after his third turn there."""
    game = scenario(dice=[(1, 2), (1, 2), (1, 2)], in_jail={0: 0}, players=3,
                    owners={"States Avenue": 0})
    for turn in range(3):
        game.state.current = 0
        game.play_turn()
        assert game.state.in_jail[0] == (turn < 2)
    assert game.state.position[0] == P("States Avenue") and game.state.cash[0] == 1450
    assert total_money(game) == 0


def test_paying_the_fine_before_rolling_then_playing_normally():
    """LA PRISON, sortie (3): $50 paid BEFORE rolling frees him; he then rolls and moves."""
    game = scenario(agents=[Scripted(jail="pay"), Scripted(), Scripted()], dice=[(1, 2)],
                    in_jail={0: 0}, owners={"States Avenue": 0})
    game.play_turn()
    st = game.state
    assert not st.in_jail[0] and st.position[0] == P("States Avenue")
    assert st.cash[0] == 1450
    assert total_money(game) == 0


def test_after_paying_the_fine_a_double_rolls_again():
    """LA PRISON (3) / DÉBUT DE LA PARTIE: once out by the fine, the turn is a normal one."""
    game = scenario(agents=[Scripted(jail="pay"), Scripted(), Scripted()],
                    dice=[(2, 2), (2, 3)], in_jail={0: 0},
                    owners={"Virginia Avenue": 0, "New York Avenue": 0})
    game.play_turn()
    st = game.state
    assert not st.in_jail[0] and st.position[0] == P("New York Avenue")
    assert st.cash[0] == 1450
    assert total_money(game) == 0


def test_paying_the_fine_without_the_cash_is_refused_and_changes_nothing():
    """LA PRISON (3): the fine is paid in cash; an illegal answer is refused and changes nothing."""
    game = scenario(agents=[Scripted(jail="pay"), Scripted(), Scripted()], dice=[(1, 2)],
                    in_jail={0: 1}, cash={0: 30})
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.play_turn()
    assert err.value.rule == "leaving_jail"
    assert snapshot(game) == before
    assert total_money(game) == 0


def test_using_a_card_the_player_does_not_hold_is_refused_and_changes_nothing():
    """LA PRISON (2): only a held "Get out of jail free" card frees the prisoner."""
    game = scenario(agents=[Scripted(jail="card"), Scripted(), Scripted()], dice=[(1, 2)],
                    in_jail={0: 0})
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.play_turn()
    assert err.value.rule == "leaving_jail"
    assert snapshot(game) == before
    assert total_money(game) == 0


def test_forced_fine_when_the_prisoner_cannot_pay_bankrupts_him():
    """LA PRISON (4) / FAILLITE: the forced $50 fine owed to the bank may bankrupt the prisoner."""
    game = scenario(dice=[(1, 2)], in_jail={0: 2}, cash={0: 20})
    game.play_turn()
    st = game.state
    assert st.bankrupt[0] and st.cash[0] == 0 and not st.in_jail[0]
    assert st.current == 1
    assert total_money(game) == 0


def test_jailed_owner_still_collects_rent():
    """LA PRISON: even in jail, a player collects his rents."""
    game = scenario(dice=[(2, 3)], in_jail={0: 1}, owners={"Boardwalk": 0},
                    positions={1: "Pennsylvania Avenue"}, current=1)
    game.play_turn()
    assert game.state.cash[:2] == [1550, 1450]
    assert game.state.in_jail[0]
    assert total_money(game) == 0


def test_jailed_player_builds_between_rolls():
    """LA PRISON: even in jail, a player may buy and put up houses."""
    agent = Scripted(actions=[Build(P("Park Place")), Build(P("Boardwalk"))])
    game = scenario(agents=[agent, Scripted(), Scripted()], dice=[(1, 2)], in_jail={0: 0},
                    owners={"Park Place": 0, "Boardwalk": 0})
    game.play_turn()
    st = game.state
    assert st.in_jail[0]
    assert st.houses[P("Park Place")] == 1 and st.houses[P("Boardwalk")] == 1
    assert st.cash[0] == 1500 - 400 and st.bank_houses == 30
    assert total_money(game) == 0


def test_jailed_player_trades():
    """LA PRISON: even in jail, a player may sell or buy properties."""
    game = scenario(agents=[Scripted(), Scripted(accept=True), Scripted()], in_jail={0: 0},
                    owners={"Boardwalk": 0, "Park Place": 1})
    apply(game, 0, Trade(1, take=(P("Park Place"),), cash=500))
    st = game.state
    assert st.owner[P("Park Place")] == 0 and st.cash[:2] == [1000, 2000]
    assert total_money(game) == 0
