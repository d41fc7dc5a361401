"""Scenario tests of the 1961 regular game: movement, salary, income tax (set up as data)."""

from scenario import Scripted, pos, scenario, total_money


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
