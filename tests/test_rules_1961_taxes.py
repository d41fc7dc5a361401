"""Scenario tests of the 1961 regular game: the TAX spaces (Income Tax, Luxury Tax)."""

import json

import pytest

from rulelang.engine.actions import Mortgage
from rulelang.engine.agents import DefaultAgent
from scenario import Scripted, rulebook, scenario, total_money

RB = rulebook()


def P(name: str) -> int:
    return RB.space(name).index


def test_luxury_tax_pays_75_to_the_bank():
    """TAXE: the Luxury Tax space charges the printed $75, paid to the bank."""
    game = scenario(dice=[(1, 2)], positions={0: "Short Line"})
    bank = game.state.cash[game.state.bank]
    game.play_turn()
    st = game.state
    assert st.position[0] == P("Luxury Tax")
    assert st.cash[0] == 1500 - 75 and st.cash[st.bank] == bank + 75
    assert total_money(game) == 0


def test_income_tax_ten_percent_rounds_down_and_includes_mortgaged_prices():
    """TAXE: 10% of cash plus printed prices, mortgaged or not (worth 1234 + 60 + 150 -> 144)."""
    game = scenario(agents=[Scripted(tax=1), Scripted(), Scripted()], dice=[(1, 3)],
                    cash={0: 1234}, owners={"Mediterranean Avenue": 0, "Water Works": 0},
                    mortgaged=["Water Works"])
    game.play_turn()
    assert game.state.cash[0] == 1234 - 144
    assert total_money(game) == 0


def test_income_tax_hotel_counts_as_five_houses():
    """TAXE / VENTE DES PROPRIÉTÉS: buildings count at their price; a hotel costs five houses."""
    game = scenario(agents=[Scripted(tax=1), Scripted(), Scripted()], dice=[(1, 3)],
                    cash={0: 1000}, owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    hotels={"Mediterranean Avenue": 1}, houses={"Baltic Avenue": 4})
    game.play_turn()
    worth = 1000 + 60 + 60 + 5 * 50 + 4 * 50
    assert game.state.cash[0] == 1000 - worth // 10
    assert total_money(game) == 0


def test_income_tax_paid_by_mortgaging_when_short_of_cash():
    """TAXE / HYPOTHÈQUES: a player short of cash mortgages a lot to pay the bank."""
    agent = Scripted(tax=0, raise_with=[Mortgage(P("Boardwalk"))])
    game = scenario(agents=[agent, Scripted(), Scripted()], dice=[(1, 3)], cash={0: 100},
                    owners={"Boardwalk": 0})
    game.play_turn()
    st = game.state
    assert st.mortgaged[P("Boardwalk")] and not st.bankrupt[0]
    assert st.cash[0] == 100 + 200 - 200
    assert total_money(game) == 0


def test_income_tax_the_player_cannot_pay_is_bankrupt_to_the_bank():
    """TAXE / FAILLITE: a player who cannot pay the tax, even by raising funds, is bankrupt."""
    game = scenario(agents=[Scripted(tax=0), Scripted(), Scripted()], dice=[(1, 3)],
                    cash={0: 150})
    bank = game.state.cash[game.state.bank]
    game.play_turn()
    st = game.state
    assert st.bankrupt[0] and st.cash[0] == 0
    assert st.cash[st.bank] == bank + 150  # his cash goes to the bank
    assert not game.over and st.current == 1
    assert total_money(game) == 0


@pytest.mark.parametrize("cash, owners, houses, chosen, paid", [
    # dear houses ($200 each), counted $100: the estimate ($1950) says 10%, the worth $2350
    (800, {"Park Place": 0, "Boardwalk": 0}, {"Park Place": 2, "Boardwalk": 2}, "worth:10", 235),
    # cheap houses ($50 each), counted $100: the estimate ($2220) says $200, the worth $1820
    (1300, {"Mediterranean Avenue": 0, "Baltic Avenue": 0},
     {"Mediterranean Avenue": 4, "Baltic Avenue": 4}, "money:200", 200),
])
def test_the_default_agent_chooses_the_income_tax_before_computing_its_worth(
        cash, owners, houses, chosen, paid):
    """TAXE: « cette décision avant d'avoir calculé son capital total »: the default agent chooses from an estimate
    (cash, printed prices, $100 a house), not from the exact worth, and may so pay more."""
    log: list = []
    game = scenario(agents=[DefaultAgent(), Scripted(), Scripted()], dice=[(1, 3)],
                    cash={0: cash}, owners=owners, houses=houses, log=log)
    game.play_turn()  # GO + 4: Income Tax
    [choice] = [e for e in map(json.loads, log) if e["event"] == "tax_choice"]
    assert (choice["choice"], choice["amount"]) == (chosen, paid)
    assert total_money(game) == 0
