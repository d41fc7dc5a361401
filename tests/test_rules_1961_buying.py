"""Scenario tests of the 1961 regular game: buying unowned properties, and auctions."""

import copy

import attrs
import pytest

from rulelang.engine.actions import IllegalAction, Lot, Mortgage
from rulelang.engine.agents import DefaultAgent
from scenario import Scripted, rulebook, scenario, total_money

RB = rulebook()


def P(name: str) -> int:
    return RB.space(name).index


def test_buy_at_the_printed_price():
    """QUAND LE JETON TOMBE SUR UN BIEN SANS PROPRIÉTAIRE: the player buys at the printed price."""
    agent = Scripted(buy=True)
    game = scenario(agents=[agent, Scripted(), Scripted()], dice=[(2, 3)],
                    positions={0: "Pennsylvania Avenue"})
    game.play_turn()
    st = game.state
    assert st.position[0] == P("Boardwalk")
    assert st.owner[P("Boardwalk")] == 0
    assert st.cash[0] == 1500 - 400
    assert agent.asked == [("buy", P("Boardwalk"))]
    assert total_money(game) == 0


def test_railroad_and_utility_bought_at_printed_price():
    """QUAND LE JETON TOMBE SUR UN BIEN SANS PROPRIÉTAIRE: railroads and utilities too."""
    game = scenario(agents=[Scripted(buy=True), Scripted(), Scripted()], dice=[(1, 4), (3, 4)])
    game.play_turn()
    game.state.current = 0
    game.play_turn()
    st = game.state
    assert st.owner[P("Reading Railroad")] == 0 and st.owner[P("Electric Company")] == 0
    assert st.cash[0] == 1500 - 200 - 150
    assert total_money(game) == 0


def test_declined_lot_is_auctioned_and_the_decliner_may_bid_and_win():
    """BIEN SANS PROPRIÉTAIRE: a declined lot is auctioned at once; everyone, the decliner too, bids."""
    a0 = Scripted(buy=False, bids=[10, 40])
    a1 = Scripted(bids=[20, None])
    a2 = Scripted(bids=[30, None])
    game = scenario(agents=[a0, a1, a2], dice=[(2, 3)], positions={0: "Pennsylvania Avenue"})
    game.play_turn()
    st = game.state
    assert st.owner[P("Boardwalk")] == 0
    assert st.cash[:3] == [1500 - 40, 1500, 1500]
    lot = Lot("deed", P("Boardwalk"))
    # bidding starts at any price: the first bidder is asked above 0
    assert a0.asked == [("buy", P("Boardwalk")), ("bid", lot, 0), ("bid", lot, 30)]
    assert a1.asked == [("bid", lot, 10), ("bid", lot, 40)]
    assert a2.asked == [("bid", lot, 20), ("bid", lot, 40)]
    assert total_money(game) == 0


def test_auction_won_by_another_player_below_the_printed_price():
    """BIEN SANS PROPRIÉTAIRE: sold to the highest bidder for his bid, even $1; the pawn owes no rent."""
    game = scenario(agents=[Scripted(), Scripted(bids=[1]), Scripted()], dice=[(2, 3)],
                    positions={0: "Pennsylvania Avenue"})
    game.play_turn()
    st = game.state
    assert st.owner[P("Boardwalk")] == 1
    assert st.cash[:3] == [1500, 1499, 1500]  # no rent for the landing that held the auction
    assert total_money(game) == 0


def test_auction_without_bids_leaves_the_lot_with_the_bank():
    """BIEN SANS PROPRIÉTAIRE: when nobody bids, the deed stays with the bank."""
    game = scenario(dice=[(2, 3)], positions={0: "Pennsylvania Avenue"})
    bank = game.state.cash[game.state.bank]
    game.play_turn()
    st = game.state
    assert st.owner[P("Boardwalk")] == -1
    assert st.cash[st.bank] == bank and st.cash[:3] == [1500, 1500, 1500]
    assert total_money(game) == 0


def test_player_short_of_the_price_is_not_asked_and_the_lot_is_auctioned():
    """BIEN SANS PROPRIÉTAIRE: a player who cannot pay the price does not buy; the lot is auctioned."""
    # reading (engine): the purchase is paid in cash in hand; he may still bid what he has
    a0 = Scripted(buy=True, bids=[300])
    game = scenario(agents=[a0, Scripted(bids=[None]), Scripted()], dice=[(2, 3)],
                    positions={0: "Pennsylvania Avenue"}, cash={0: 300})
    game.play_turn()
    st = game.state
    assert a0.asked[0][0] == "bid"  # never asked to buy
    assert st.owner[P("Boardwalk")] == 0 and st.cash[0] == 0
    assert total_money(game) == 0


def test_bid_above_cash_is_refused():
    """BIEN SANS PROPRIÉTAIRE: the highest bidder pays in cash; a bid above his cash is refused,
    though a mortgage would raise it."""
    game = scenario(agents=[Scripted(), Scripted(bids=[501]), Scripted()], cash={1: 500},
                    owners={"Baltic Avenue": 1})
    before = copy.deepcopy(attrs.asdict(game.state))
    with pytest.raises(IllegalAction) as err:
        game.auction(P("Boardwalk"), "unowned_property")
    assert (err.value.rule, err.value.message) == (
        "unowned_property", "a player may not bid if the bid is more than the player's cash")
    assert attrs.asdict(game.state) == before
    assert total_money(game) == 0


def test_bid_of_all_cash_is_accepted():
    """BIEN SANS PROPRIÉTAIRE: a bid equal to the bidder's cash stands."""
    game = scenario(agents=[Scripted(), Scripted(bids=[500]), Scripted()], cash={1: 500})
    game.auction(P("Boardwalk"), "unowned_property")
    assert game.state.owner[P("Boardwalk")] == 1 and game.state.cash[1] == 0
    assert total_money(game) == 0


def test_bids_start_at_one_dollar_a_zero_bid_is_no_bid():
    """BIEN SANS PROPRIÉTAIRE: bidding may start at any price from $1; $0 is no bid at all."""
    game = scenario(agents=[Scripted(bids=[0]), Scripted(bids=[0]), Scripted(bids=[0])])
    game.auction(P("Boardwalk"), "unowned_property")
    assert game.state.owner[P("Boardwalk")] == -1
    game = scenario(agents=[Scripted(bids=[0]), Scripted(bids=[0]), Scripted(bids=[1])])
    game.auction(P("Boardwalk"), "unowned_property")
    assert game.state.owner[P("Boardwalk")] == 2 and game.state.cash[2] == 1499
    assert total_money(game) == 0


def test_card_advance_to_unowned_lot_offers_it():
    """BIEN SANS PROPRIÉTAIRE: reaching an unowned lot by a card also offers it for sale."""
    game = scenario(agents=[Scripted(buy=True), Scripted(), Scripted()], dice=[(3, 4)],
                    decks={"Chance": ["CH03"]})
    game.play_turn()  # GO -> Chance (7) -> "Advance to St. Charles Place"
    st = game.state
    assert st.position[0] == P("St. Charles Place") and st.owner[P("St. Charles Place")] == 0
    assert st.cash[0] == 1500 - 140
    assert total_money(game) == 0


def test_owner_landing_on_own_property_pays_and_buys_nothing():
    """BIEN QUI A DÉJA UN PROPRIÉTAIRE: only another player's pawn owes rent."""
    agent = Scripted(buy=True)
    game = scenario(agents=[agent, Scripted(), Scripted()], dice=[(2, 3)],
                    positions={0: "Pennsylvania Avenue"}, owners={"Boardwalk": 0})
    game.play_turn()
    assert game.state.cash[0] == 1500 and agent.asked == []
    assert total_money(game) == 0


def test_a_player_short_of_cash_mortgages_to_buy():
    """HYPOTHÈQUES « en tout temps » / QUAND LE JETON TOMBE SUR UN BIEN SANS PROPRIÉTAIRE: a
    player without the price in hand is offered the lot when a mortgage could raise it, and
    buys it by mortgaging."""
    agent = Scripted(buy=True, raise_with=[Mortgage(P("Mediterranean Avenue"))])
    game = scenario(agents=[agent, Scripted(), Scripted()], dice=[(1, 2)],
                    cash={0: 40}, owners={"Mediterranean Avenue": 0})
    game.play_turn()  # GO + 3: Baltic Avenue, $60
    st = game.state
    assert agent.asked == [("buy", P("Baltic Avenue"))]
    assert st.owner[P("Baltic Avenue")] == 0 and st.mortgaged[P("Mediterranean Avenue")]
    assert st.cash[0] == 40 + 30 - 60
    assert total_money(game) == 0


def test_a_player_who_stops_raising_the_price_has_declined_and_the_lot_is_auctioned():
    """QUAND LE JETON TOMBE SUR UN BIEN SANS PROPRIÉTAIRE: a purchase is no debt: the player who
    stops raising the price before holding it has declined; the lot is auctioned."""
    agent = Scripted(buy=True)  # raises nothing
    bidder = Scripted(bids=[10])
    game = scenario(agents=[agent, bidder, Scripted()], dice=[(1, 2)],
                    cash={0: 40}, owners={"Mediterranean Avenue": 0})
    game.play_turn()
    st = game.state
    assert st.owner[P("Baltic Avenue")] == 1 and not st.mortgaged[P("Mediterranean Avenue")]
    assert st.cash[:2] == [40, 1490] and not st.bankrupt[0]
    assert total_money(game) == 0


def test_a_player_who_could_not_raise_the_price_is_not_asked():
    """QUAND LE JETON TOMBE SUR UN BIEN SANS PROPRIÉTAIRE: cash, sales and mortgages all short of
    the price: the player is not offered the lot; it is auctioned."""
    agent = Scripted(buy=True)
    game = scenario(agents=[agent, Scripted(), Scripted()], dice=[(1, 2)],
                    cash={0: 20}, owners={"Mediterranean Avenue": 0})
    game.play_turn()
    assert ("buy", P("Baltic Avenue")) not in agent.asked
    assert game.state.owner[P("Baltic Avenue")] == -1


@pytest.mark.parametrize("cash, buys", [(100, True), (10, False)])
def test_the_default_agent_mortgages_to_complete_a_group_but_never_sells_buildings(cash, buys):
    """Decision (agents): short of cash, the default agent buys a lot that completes a group
    when mortgaging its lots outside built or whole groups raises the price and leaves a third
    of its reserve; it never sells buildings for a purchase."""
    agent = DefaultAgent()
    game = scenario(agents=[agent, Scripted(), Scripted()], dice=[(1, 3)], cash={0: cash},
                    positions={0: "Free Parking"},
                    owners={"Kentucky Avenue": 0, "Indiana Avenue": 0, "Park Place": 0,
                            "Boardwalk": 0},
                    houses={"Park Place": 2, "Boardwalk": 2})
    game.play_turn()  # Illinois Avenue, $240
    st = game.state
    assert (st.owner[P("Illinois Avenue")] == 0) == buys
    assert st.houses[P("Park Place")] == st.houses[P("Boardwalk")] == 2
    if buys:
        assert st.mortgaged[P("Kentucky Avenue")] and st.mortgaged[P("Indiana Avenue")]
        assert st.cash[0] == cash + 110 + 110 - 240
    else:
        assert not any(st.mortgaged)
    assert total_money(game) == 0
