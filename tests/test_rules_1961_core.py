"""Scenario tests of the 1961 regular game: movement, salary, income tax (set up as data)."""

import pytest

from rulelang.engine.game import Game
from rulelang.runner import play_game, play_games
from scenario import Scripted, pos, rulebook, scenario, total_money


@pytest.mark.parametrize("players", [0, 1, 2, 9])
def test_the_python_api_refuses_a_table_outside_three_to_eight_players(players):
    """RÈGLES: « 3 joueurs au moins — 8 au plus »: Game, play_game and play_games refuse
    another number of players with a ValueError that says the range."""
    rb = rulebook()
    message = "is for 3 to 8 players, not %d" % players
    with pytest.raises(ValueError, match=message):
        Game(rb, [Scripted() for _ in range(players)])
    with pytest.raises(ValueError, match=message):
        play_game(rb, "default", players=players)
    with pytest.raises(ValueError, match=message):
        play_games(rb, 1, "default", players=players)


@pytest.mark.parametrize("players", [3, 8])
def test_three_and_eight_players_sit_at_the_table(players):
    """RÈGLES: three and eight players are a game."""
    rb = rulebook()
    assert Game(rb, [Scripted() for _ in range(players)]).state.players == players
    assert play_game(rb, "default", players=players, max_turns=5).players == players


def test_salary_paid_when_passing_go():
    """SALAIRE: passing GO by the dice pays $200 once."""
    game = scenario(dice=[(1, 3)], positions={0: "Park Place"}, cash={0: 100})
    game.play_turn()
    assert game.state.position[0] == pos(game, "Mediterranean Avenue")
    assert game.state.cash[0] == 300
    assert total_money(game) == 0


def test_two_salaries_with_advance_to_go_card_after_passing_go():
    """SALAIRE: passing GO then drawing "Advance to Go" two spaces on pays $200 twice."""
    game = scenario(dice=[(2, 3)], positions={0: "Park Place"}, cash={0: 500},
                    decks={"Community Chest": ["CC01"]})
    game.play_turn()
    assert game.state.position[0] == pos(game, "GO")
    assert game.state.cash[0] == 900
    assert total_money(game) == 0


def test_never_400_in_one_turn_passing_go_then_riding_the_reading():
    """SALAIRE: « Il ne peut jamais recevoir $400 »: past GO onto the Chance seven spaces on,
    "A ride on the Reading" takes the pawn round again: $200 once, not twice (decision D7)."""
    game = scenario(dice=[(4, 6)], positions={0: "Park Place"}, cash={0: 500},
                    decks={"Chance": ["CH13"]})
    game.play_turn()
    st = game.state
    assert st.position[0] == pos(game, "Reading Railroad")
    assert st.laps[0] == 2 and st.cash[0] == 700
    assert total_money(game) == 0


def test_advance_to_go_seven_spaces_after_go_still_pays_twice():
    """SALAIRE: the one exception: past GO onto Chance, "Advance to Go" pays $200 again."""
    game = scenario(dice=[(4, 6)], positions={0: "Park Place"}, cash={0: 500},
                    decks={"Chance": ["CH01"]})
    game.play_turn()
    assert game.state.position[0] == pos(game, "GO") and game.state.cash[0] == 900
    assert total_money(game) == 0


def test_a_salary_in_each_turn_that_passes_go():
    """SALAIRE: the limit is per turn: the player's next turn that passes GO pays again."""
    game = scenario(dice=[(4, 6), (1, 3)], positions={0: "Park Place"}, cash={0: 500},
                    decks={"Chance": ["CH13"]})
    game.play_turn()  # $200 once, on to the Reading
    st = game.state
    st.position[0], st.current = pos(game, "Park Place"), 0
    game.play_turn()  # past GO again, to Mediterranean Avenue
    assert st.position[0] == pos(game, "Mediterranean Avenue") and st.cash[0] == 900
    assert total_money(game) == 0


def test_income_tax_flat_choice():
    """TAXE: choosing the flat amount pays $200 whatever the worth."""
    agent = Scripted(tax=0)
    game = scenario(agents=[agent, Scripted(), Scripted()], dice=[(1, 3)], cash={0: 5000})
    game.play_turn()
    assert game.state.position[0] == pos(game, "Income Tax")
    assert game.state.cash[0] == 4800
    assert agent.asked[0] == ("tax", (("money", 200), ("worth", 10)))


def test_income_tax_ten_percent_of_worth_counts_prices_and_buildings():
    """TAXE: 10% of cash, printed prices (mortgaged or not) and buildings."""
    game = scenario(agents=[Scripted(tax=1), Scripted(), Scripted()], dice=[(1, 3)],
                    cash={0: 1000},
                    owners={"Boardwalk": 0, "Park Place": 0, "Reading Railroad": 0},
                    houses={"Boardwalk": 2, "Park Place": 2}, mortgaged=["Reading Railroad"])
    game.play_turn()
    worth = 1000 + 400 + 350 + 200 + 4 * 200
    assert game.state.cash[0] == 1000 - worth // 10
    assert total_money(game) == 0
