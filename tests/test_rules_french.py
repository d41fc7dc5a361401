"""Scenario tests of the French standard rules (000 and 002, RÈGLES DU JEU STANDARD) and of
their quick game and time-limit game."""

import pytest

import rulelang
from rulelang.engine.actions import Build, Sell, SellAll, apply
from rulelang.engine.endings import valuation
from rulelang.engine.game import Game
from rulelang.runner import make_agents
from scenario import (RULESETS, Scripted, assert_dealt, refused, rulebook, scenario,
                      total_money)

STD, QUICK, TIMED = "french_standard.rules", "french_quick.rules", "french_timed.rules"
RB = rulebook(STD)


def P(name: str) -> int:
    return RB.space(name).index


BROWN = {"Mediterranean Avenue": 0, "Baltic Avenue": 0}
DARK_BLUE = {"Park Place": 0, "Boardwalk": 0}


def test_no_double_rent_when_a_lot_of_the_group_is_mortgaged():
    """Arrêt sur une propriété déjà achetée: no double rent if one lot of the group is mortgaged."""
    game = scenario(name=STD, dice=[(2, 3)], positions={1: "Pennsylvania Avenue"}, current=1,
                    owners=DARK_BLUE, mortgaged=["Park Place"])
    game.play_turn()
    assert game.state.cash[0] == 1500 + 50 and game.state.cash[1] == 1450
    # and the 1961 rules double it all the same
    game = scenario(dice=[(2, 3)], positions={1: "Pennsylvania Avenue"}, current=1,
                    owners=DARK_BLUE, mortgaged=["Park Place"])
    game.play_turn()
    assert game.state.cash[0] == 1500 + 100


def test_double_rent_on_a_whole_unmortgaged_group():
    """Arrêt sur une propriété déjà achetée: the rent of a bare lot of a whole group is doubled."""
    game = scenario(name=STD, dice=[(2, 3)], positions={1: "Pennsylvania Avenue"}, current=1,
                    owners=DARK_BLUE)
    game.play_turn()
    assert game.state.cash[0] == 1600 and total_money(game) == 0


def test_no_house_while_a_lot_of_the_group_is_mortgaged():
    """Maisons: no house on a group one of whose lots is mortgaged (1961: lift it first)."""
    game = scenario(name=STD, owners=DARK_BLUE, mortgaged=["Park Place"])
    refused(game, 0, Build(P("Boardwalk")), "houses")  # its permission
    refused(game, 0, Build(P("Park Place")), "houses")


def test_income_tax_is_a_flat_amount():
    """Arrêt sur les cases Impôts et Taxe de luxe: pay the amount shown, no choice of 10%."""
    agent = Scripted()
    game = scenario(name=STD, agents=[agent, Scripted(), Scripted()], dice=[(1, 3)])
    game.play_turn()
    assert game.state.cash[0] == 1300 and not [a for a in agent.asked if a[0] == "tax"]


def test_hotel_traded_back_for_four_houses_and_half_its_price():
    """Vente de propriétés: a hotel is exchanged for four houses and half the hotel's value."""
    game = scenario(name=STD, owners=DARK_BLUE, hotels={"Boardwalk": 1},
                    houses={"Park Place": 4})
    houses = game.state.bank_houses
    apply(game, 0, Sell(P("Boardwalk")))
    st = game.state
    assert st.hotels[P("Boardwalk")] == 0 and st.houses[P("Boardwalk")] == 4
    assert st.bank_houses == houses - 4 and st.cash[0] == 1500 + 100
    assert total_money(game) == 0


def test_hotels_of_a_group_sold_together_for_half_of_hotel_and_four_houses():
    """Vente de propriétés: all the hotels of a group are sold at once, half of hotel + 4 houses."""
    game = scenario(name=STD, owners=DARK_BLUE, hotels={"Boardwalk": 1, "Park Place": 1})
    apply(game, 0, SellAll(P("Boardwalk")))
    st = game.state
    assert st.hotels[P("Boardwalk")] == st.hotels[P("Park Place")] == 0
    assert st.cash[0] == 1500 + 2 * (200 + 4 * 200) // 2 and st.bank_hotels == 12


def test_no_hotel_traded_back_when_the_bank_lacks_houses():
    """Crise de l'immobilier: a hotel cannot be replaced by houses the bank does not have."""
    game = scenario(name=STD, owners=DARK_BLUE, hotels={"Boardwalk": 1},
                    houses={"Park Place": 4}, bank_houses=3)
    refused(game, 0, Sell(P("Boardwalk")), "bank")  # which sets building_sale


def test_scarce_building_auction_opens_at_the_printed_cost():
    """Crise de l'immobilier: "l'enchère commence au prix le plus bas indiqué sur la carte"."""
    a0 = Scripted(wants_building=True, bids=[None])
    a1 = Scripted(wants_building=True, bids=[60], place=P("Oriental Avenue"))
    a2 = Scripted(wants_building=True)
    game = scenario(name=STD, agents=[a0, a1, a2], bank_houses=1,
                    owners={**BROWN, "Oriental Avenue": 1, "Vermont Avenue": 1,
                            "Connecticut Avenue": 1})
    apply(game, 0, Build(P("Mediterranean Avenue")))
    bids = [high for kind, *rest in a0.asked if kind == "bid" for high in rest[1:]]
    assert bids == [49]  # asked to beat $49: the opening bid is the house cost, $50
    assert game.state.houses[P("Oriental Avenue")] == 1
    assert game.state.cash[1] == 1500 - 60 and total_money(game) == 0


@pytest.mark.parametrize("bid, won", [(101, False), (100, True)])
def test_scarce_building_bid_is_paid_in_cash_not_raised_as_a_debt(bid, won):
    """Crise de l'immobilier: decision: the bid replaces the printed price and is paid in cash
    as any building is (not as the debt of a deed's auction): with $100 in hand, a bid of $101
    is refused though mortgages could raise it, and nothing changes; $100 wins the house."""
    a1 = Scripted(wants_building=True, bids=[bid], place=P("Oriental Avenue"))
    game = scenario(name=STD, agents=[Scripted(wants_building=True), a1, Scripted()],
                    bank_houses=1, cash={1: 100},
                    owners={**BROWN, "Oriental Avenue": 1, "Vermont Avenue": 1,
                            "Connecticut Avenue": 1})
    if not won:
        refused(game, 0, Build(P("Mediterranean Avenue")), "building_shortage")
        return
    apply(game, 0, Build(P("Mediterranean Avenue")))
    st = game.state
    assert st.houses[P("Oriental Avenue")] == 1 and st.cash[1] == 0 and total_money(game) == 0


def test_auction_bid_may_exceed_cash_when_funds_can_be_raised():
    """Achat de propriétés: the text does not ask for cash; decision: a bid is paid as a debt."""
    bidder = Scripted(bids=[300], raise_with=[])
    game = scenario(name=STD, agents=[Scripted(), bidder, Scripted()], dice=[(2, 3)],
                    cash={1: 250}, owners={"Oriental Avenue": 1, "Vermont Avenue": 1})
    from rulelang.engine.actions import Mortgage
    bidder.raise_with = [Mortgage(P("Oriental Avenue"))]
    game.play_turn()  # lands on Reading Railroad, declines; seat 1 bids 300 with 250 in hand
    st = game.state
    assert st.owner[P("Reading Railroad")] == 1 and st.mortgaged[P("Oriental Avenue")]
    assert st.cash[1] == 250 + 50 - 300 and total_money(game) == 0


@pytest.mark.parametrize("name", [QUICK, TIMED])
def test_two_deeds_dealt_and_paid(name):
    """PARTIE PLUS RAPIDE 1 / LIMITÉE DANS LE TEMPS: two deeds each, paid at once."""
    assert_dealt(name, players=3, each=2, paid=True, seed=11)


def test_quick_game_hotel_after_three_houses():
    """PARTIE PLUS RAPIDE 2: three houses, then the hotel; the hotel resells for half its price
    plus half of each of three houses."""
    game = scenario(name=QUICK, owners=DARK_BLUE, houses={"Park Place": 3, "Boardwalk": 3})
    apply(game, 0, Build(P("Boardwalk")))
    assert game.state.hotels[P("Boardwalk")] == 1
    apply(game, 0, Build(P("Park Place")))
    cash = game.state.cash[0]
    apply(game, 0, SellAll(P("Boardwalk")))
    assert game.state.cash[0] == cash + 2 * (200 + 3 * 200) // 2


def test_quick_game_ends_at_the_second_bankruptcy_everything_to_the_creditor():
    """PARTIE PLUS RAPIDE 3: the game ends at the second bankruptcy; the bankrupt gives all to
    his creditor; the richest of the others wins."""
    game = scenario(players=4, name=QUICK, dice=[(2, 3)], positions={0: "Pennsylvania Avenue"},
                    cash={0: 20}, owners={"Boardwalk": 1, "Park Place": 1, **{
                        k: 0 for k in BROWN}}, houses={"Boardwalk": 1, "Baltic Avenue": 2,
                                                      "Mediterranean Avenue": 2})
    st = game.state
    st.cash[st.bank] += st.cash[3]
    st.cash[3], st.bankrupt[3], st.bankruptcies = 0, True, 1
    game.play_turn()  # Boardwalk with a house: $200
    assert game.over and game.end_reason == "end_of_game"
    assert st.houses[P("Baltic Avenue")] == 2 and st.owner[P("Baltic Avenue")] == 1
    assert game.winner == 1 and valuation(game, 1) > valuation(game, 2)
    assert total_money(game) == 0


def test_quick_game_first_bankruptcy_goes_on():
    """PARTIE PLUS RAPIDE 3: "Le premier joueur ayant fait faillite se retire du jeu"."""
    game = scenario(name=QUICK, dice=[(1, 2)], positions={0: "Short Line"}, cash={0: 10})
    game.play_turn()
    assert game.state.bankrupt[0] and not game.over


def test_time_limit_game_ends_at_the_agreed_hour():
    """PARTIE LIMITÉE DANS LE TEMPS: the richest at the agreed hour wins (a parameter)."""
    rb = rulelang.load(str(RULESETS / TIMED), parameters=["time_limit=45"])
    game = Game(rb, make_agents("default", 3), seed=2).play()
    assert game.end_reason == "time_limit" and game.state.turn == 45
    alive = [s for s in range(3) if not game.state.bankrupt[s]]
    assert game.winner == max(alive, key=lambda s: (valuation(game, s), game.state.cash[s], -s))


def test_rent_must_be_claimed_before_the_second_player_after_rolls():
    """Arrêt sur une propriété déjà achetée: the owner who claims after the next player has
    rolled is still in time; after the second player after the tenant has rolled, too late."""
    for delay, paid in ((1, 6), (2, 0)):
        owner = Scripted(claim_delay=delay)
        game = scenario(name=STD, agents=[Scripted(), owner, Scripted()], dice=[(2, 4)],
                        owners={"Oriental Avenue": 1})
        game.play_turn()
        assert game.state.cash[1] == 1500 + paid, delay


def test_a_player_short_of_cash_mortgages_to_buy():
    """Achat de propriétés / Vente de propriétés: buildings are sold back « à n'importe quel
    moment » and lots mortgaged for cash: a player without the price in hand may raise it to
    buy the lot it stopped on (decision D10)."""
    from rulelang.engine.actions import Mortgage
    agent = Scripted(buy=True, raise_with=[Mortgage(P("Mediterranean Avenue"))])
    game = scenario(name=STD, agents=[agent, Scripted(), Scripted()], dice=[(1, 2)],
                    cash={0: 40}, owners={"Mediterranean Avenue": 0})
    game.play_turn()  # Départ + 3: Baltic Avenue, 60
    st = game.state
    assert st.owner[P("Baltic Avenue")] == 0 and st.mortgaged[P("Mediterranean Avenue")]
    assert st.cash[0] == 40 + 30 - 60 and total_money(game) == 0


def test_bankrupt_only_when_the_debt_cannot_be_gathered():
    """Faillite: « Si vous devez plus d'argent ... que vous ne puissiez en rassembler »: a
    player whose agent stops while its mortgages would pay is made to mortgage; one whose
    every sale and mortgage falls short is bankrupt."""
    game = scenario(name=STD, dice=[(1, 2)], positions={0: "Short Line"}, cash={0: 50},
                    owners={"Baltic Avenue": 0, "Electric Company": 0})
    game.play_turn()  # Taxe de luxe 75
    st = game.state
    assert not st.bankrupt[0] and st.mortgaged[P("Baltic Avenue")] and st.cash[0] == 5
    short = scenario(name=STD, dice=[(1, 2)], positions={0: "Short Line"}, cash={0: 40},
                     owners={"Baltic Avenue": 0})
    short.play_turn()  # 40 + 30 < 75
    assert short.state.bankrupt[0] and total_money(short) == 0
