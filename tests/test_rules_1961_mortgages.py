"""Scenario tests of the 1961 regular game: mortgages, lifting them, and the 10% interest."""



from rulelang.engine.actions import Lift, Mortgage, SellAll, Trade, apply
from scenario import Scripted, refused, rulebook, scenario, total_money

RB = rulebook()
BOARD = RB.space("Boardwalk").index
ELECTRIC = RB.space("Electric Company").index
READING = RB.space("Reading Railroad").index





def test_mortgage_lends_the_printed_value():
    """HYPOTHÈQUES / LA BANQUE: the bank lends the mortgage value printed on the deed (half the price)."""
    game = scenario(owners={"Boardwalk": 0, "Electric Company": 0, "Reading Railroad": 0})
    for q in (BOARD, ELECTRIC, READING):
        apply(game, 0, Mortgage(q))
    st = game.state
    assert st.mortgaged[BOARD] and st.mortgaged[ELECTRIC] and st.mortgaged[READING]
    assert st.cash[0] == 1500 + 200 + 75 + 100
    assert total_money(game) == 0


def test_only_the_owner_mortgages_and_only_once():
    """HYPOTHÈQUES: the owner mortgages his own lots; a mortgaged lot cannot be mortgaged again."""
    game = scenario(owners={"Boardwalk": 0}, mortgaged=["Boardwalk"])
    refused(game, 0, Mortgage(BOARD), "mortgages")
    refused(game, 1, Mortgage(BOARD), "mortgages")


def test_buildings_of_the_whole_group_sold_before_mortgaging():
    """HYPOTHÈQUES: before mortgaging, every building on the lot's group goes back to the bank."""
    game = scenario(owners={"Park Place": 0, "Boardwalk": 0}, houses={"Park Place": 1})
    refused(game, 0, Mortgage(BOARD), "mortgages")
    apply(game, 0, SellAll(BOARD))
    apply(game, 0, Mortgage(BOARD))
    assert game.state.cash[0] == 1500 + 100 + 200 and game.state.mortgaged[BOARD]
    assert total_money(game) == 0


def test_lifting_costs_the_mortgage_plus_ten_percent_rounded_up():
    """HYPOTHÈQUES: lifting repays the mortgage with 10% interest ($75 -> $83, rounded up)."""
    game = scenario(owners={"Electric Company": 0, "Boardwalk": 0},
                    mortgaged=["Electric Company", "Boardwalk"])
    apply(game, 0, Lift(ELECTRIC))
    apply(game, 0, Lift(BOARD))
    st = game.state
    assert not st.mortgaged[ELECTRIC] and not st.mortgaged[BOARD]
    assert st.cash[0] == 1500 - 83 - 220
    assert total_money(game) == 0


def test_lifting_without_the_cash_is_refused():
    """HYPOTHÈQUES: the principal and interest are paid in cash."""
    game = scenario(owners={"Boardwalk": 0}, mortgaged=["Boardwalk"], cash={0: 219})
    refused(game, 0, Lift(BOARD), "mortgages")


def test_nobody_else_can_lift_an_owners_mortgage():
    """HYPOTHÈQUES: no other player can take the lot by lifting the mortgage."""
    game = scenario(owners={"Boardwalk": 0}, mortgaged=["Boardwalk"])
    refused(game, 1, Lift(BOARD), "mortgages")


def test_new_owner_by_trade_pays_ten_percent_at_once_and_again_when_lifting():
    """HYPOTHÈQUES: a buyer of a mortgaged lot pays 10% at once, and 10% again with the principal later."""
    game = scenario(agents=[Scripted(), Scripted(accept=True), Scripted()],
                    owners={"Electric Company": 0}, mortgaged=["Electric Company"])
    bank = game.state.cash[game.state.bank]
    apply(game, 0, Trade(1, give=(ELECTRIC,), cash=-40))
    st = game.state
    assert st.owner[ELECTRIC] == 1 and st.mortgaged[ELECTRIC]
    assert st.cash[:2] == [1540, 1500 - 40 - 8]
    assert st.cash[st.bank] == bank + 8
    apply(game, 1, Lift(ELECTRIC))
    assert st.cash[1] == 1452 - 83 and not st.mortgaged[ELECTRIC]
    assert total_money(game) == 0


def test_new_owner_by_trade_may_lift_at_once_for_mortgage_plus_ten_percent():
    """HYPOTHÈQUES: the new owner may lift the mortgage at once, with 10% interest (paid once)."""
    game = scenario(agents=[Scripted(), Scripted(accept=True, lift_on_transfer=True), Scripted()],
                    owners={"Boardwalk": 0}, mortgaged=["Boardwalk"])
    apply(game, 0, Trade(1, give=(BOARD,), cash=-100))
    st = game.state
    assert st.owner[BOARD] == 1 and not st.mortgaged[BOARD]
    assert st.cash[:2] == [1600, 1500 - 100 - 220]
    assert total_money(game) == 0


def test_new_owner_who_cannot_lift_at_once_pays_only_the_interest():
    """HYPOTHÈQUES: a buyer short of the principal keeps the lot mortgaged and pays the 10% now."""
    game = scenario(agents=[Scripted(), Scripted(accept=True, lift_on_transfer=True), Scripted()],
                    owners={"Boardwalk": 0}, mortgaged=["Boardwalk"], cash={1: 150})
    apply(game, 0, Trade(1, give=(BOARD,), cash=-100))
    st = game.state
    assert st.owner[BOARD] == 1 and st.mortgaged[BOARD]
    assert st.cash[1] == 150 - 100 - 20
    assert total_money(game) == 0


def test_mortgaged_utility_pays_no_rent_but_the_other_does_at_ten_times():
    """HYPOTHÈQUES: no rent on a mortgaged utility; the owner's unmortgaged one still pays (x10)."""
    game = scenario(dice=[(3, 4), (3, 4)], positions={0: "Reading Railroad", 2: "Kentucky Avenue"},
                    owners={"Electric Company": 1, "Water Works": 1}, mortgaged=["Electric Company"])
    game.play_turn()  # Reading (5) + 7 = Electric Company, mortgaged
    assert game.state.cash[:2] == [1500, 1500]
    game.state.current = 2
    game.play_turn()  # Kentucky (21) + 7 = Water Works
    assert game.state.cash[1:3] == [1570, 1430]
    assert total_money(game) == 0
