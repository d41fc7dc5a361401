"""Scenario tests of the 1961 regular game: private sales between players, and no loans."""



from rulelang.engine.actions import Trade, apply
from scenario import Scripted, refused, rulebook, scenario, snapshot, total_money

RB = rulebook()
MED, BALTIC = RB.space("Mediterranean Avenue").index, RB.space("Baltic Avenue").index
BOARD = RB.space("Boardwalk").index
READING = RB.space("Reading Railroad").index
WATER = RB.space("Water Works").index





def agents(accept=True):
    return [Scripted(), Scripted(accept=accept), Scripted()]


def test_lots_railroads_and_utilities_sold_at_any_agreed_price():
    """VENTE DES PROPRIÉTÉS: unimproved lots, railroads and utilities change hands at any price."""
    game = scenario(agents=agents(), owners={"Mediterranean Avenue": 0, "Reading Railroad": 0,
                                             "Water Works": 1})
    apply(game, 0, Trade(1, give=(MED, READING), take=(WATER,), cash=-1))
    st = game.state
    assert st.owner[MED] == 1 and st.owner[READING] == 1 and st.owner[WATER] == 0
    assert st.cash[:2] == [1501, 1499]
    assert total_money(game) == 0


def test_refused_trade_changes_nothing():
    """VENTE DES PROPRIÉTÉS: a sale needs the other player's consent; refused, nothing changes."""
    game = scenario(agents=agents(accept=False), owners={"Boardwalk": 0})
    before = snapshot(game)
    apply(game, 0, Trade(1, give=(BOARD,), cash=-300))
    assert snapshot(game) == before
    assert total_money(game) == 0


def test_no_sale_of_a_lot_whose_group_has_buildings():
    """VENTE DES PROPRIÉTÉS: no lot is sold while any lot of its group has buildings."""
    game = scenario(agents=agents(), owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Baltic Avenue": 1})
    refused(game, 0, Trade(1, give=(MED,), cash=-100), "selling")


def test_no_purchase_of_a_lot_whose_group_has_buildings():
    """VENTE DES PROPRIÉTÉS: nor may another player buy such a lot from its owner."""
    game = scenario(agents=[Scripted(), Scripted(), Scripted(accept=True)],
                    owners={"Park Place": 2, "Boardwalk": 2}, hotels={"Park Place": 1,
                                                                       "Boardwalk": 1})
    refused(game, 0, Trade(2, take=(BOARD,), cash=1000), "selling")


def test_buildings_themselves_cannot_be_traded_but_the_lots_can_once_sold_back():
    """VENTE DES PROPRIÉTÉS: the buildings are sold back to the bank, then the lot may be sold."""
    from rulelang.engine.actions import SellAll

    game = scenario(agents=agents(), owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Mediterranean Avenue": 1, "Baltic Avenue": 1})
    apply(game, 0, SellAll(MED))
    apply(game, 0, Trade(1, give=(MED,), cash=-60))
    st = game.state
    assert st.owner[MED] == 1 and st.houses[MED] == st.houses[BALTIC] == 0
    assert st.cash[:2] == [1500 + 50 + 60, 1440] and st.bank_houses == 32
    assert total_money(game) == 0


def test_cash_must_be_in_hand_no_loans():
    """DIVERS: players never lend to each other: a trade pays only cash in hand."""
    game = scenario(agents=agents(), owners={"Boardwalk": 1}, cash={0: 300})
    refused(game, 0, Trade(1, take=(BOARD,), cash=301), "engine")  # cash in hand
    apply(game, 0, Trade(1, take=(BOARD,), cash=300))
    assert game.state.owner[BOARD] == 0 and game.state.cash[:2] == [0, 1800]
    assert total_money(game) == 0


def test_partner_must_hold_the_cash_he_pays():
    """DIVERS: the partner's side of a trade is also paid in cash in hand."""
    game = scenario(agents=agents(), owners={"Boardwalk": 0}, cash={1: 99})
    refused(game, 0, Trade(1, give=(BOARD,), cash=-100), "engine")


def test_cannot_trade_what_one_does_not_hold():
    """VENTE DES PROPRIÉTÉS: only the owner sells a deed; a trade of another's deed is refused."""
    game = scenario(agents=agents(), owners={"Boardwalk": 2})
    refused(game, 0, Trade(1, give=(BOARD,), cash=-100), "selling")
    refused(game, 0, Trade(1, take=(BOARD,), cash=100), "selling")


def test_cannot_sell_jail_cards_not_held():
    """CHANCE ou CAISSE COMMUNE: only a held "Get out of jail free" card can be sold."""
    game = scenario(agents=agents())
    refused(game, 0, Trade(1, give_cards=1, cash=-50), "selling")  # the rule of trades


def test_trade_with_a_bankrupt_or_oneself_is_refused():
    """FAILLITE / VENTE DES PROPRIÉTÉS: trades are between two players still in the game."""
    game = scenario(agents=agents(), owners={"Boardwalk": 0}, cash={2: 0})
    game.state.bankrupt[2] = True
    refused(game, 0, Trade(2, give=(BOARD,)), "selling")
    refused(game, 0, Trade(0, give=(BOARD,)), "selling")


def test_trade_changing_hands_completes_a_group_for_double_rent():
    """VENTE DES PROPRIÉTÉS / AVANTAGES DES PROPRIÉTAIRES: a bought lot completes the buyer's group."""
    game = scenario(agents=agents(), owners={"Park Place": 0, "Boardwalk": 1},
                    dice=[(2, 3)], positions={2: "Pennsylvania Avenue"})
    apply(game, 0, Trade(1, take=(BOARD,), cash=500))
    game.state.current = 2
    game.play_turn()
    assert game.state.cash[0] == 1000 + 100 and game.state.cash[2] == 1400
    assert total_money(game) == 0
