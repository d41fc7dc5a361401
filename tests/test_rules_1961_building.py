"""Scenario tests of the 1961 regular game: houses, hotels, the bank's supply, selling back."""



import random

import pytest

from rulelang.engine.actions import Build, Lot, Sell, SellAll, apply, building_bid_limit
from rulelang.engine.agents import DefaultAgent, RandomAgent
from scenario import Scripted, refused, rulebook, scenario, total_money

RB = rulebook()
PARK, BOARD = RB.space("Park Place").index, RB.space("Boardwalk").index
ORIENTAL, VERMONT, CONNECTICUT = (RB.space(n).index for n in
                                  ("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue"))
MED, BALTIC = RB.space("Mediterranean Avenue").index, RB.space("Baltic Avenue").index
DARK_BLUE = {"Park Place": 0, "Boardwalk": 0}
LIGHT_BLUE = {"Oriental Avenue": 0, "Vermont Avenue": 0, "Connecticut Avenue": 0}





def test_bank_starts_with_32_houses_and_12_hotels():
    """LES ACCESSOIRES: the equipment has thirty-two houses and twelve hotels."""
    game = scenario()
    assert game.state.bank_houses == 32 and game.state.bank_hotels == 12
    assert total_money(game) == 0


def test_house_bought_from_the_bank_at_the_deed_price():
    """MAISONS: a house is bought from the bank at the price on the deed."""
    game = scenario(owners=DARK_BLUE)
    apply(game, 0, Build(BOARD))
    st = game.state
    assert st.houses[BOARD] == 1 and st.bank_houses == 31
    assert st.cash[0] == 1300
    assert total_money(game) == 0


def test_house_needs_the_whole_group():
    """MAISONS: houses only on a whole colour group owned by the player."""
    game = scenario(owners={"Boardwalk": 0, "Park Place": 1})
    refused(game, 0, Build(BOARD), "houses")


def test_no_house_on_railroads_or_utilities():
    """MAISONS: houses go on lots (streets) only."""
    game = scenario(owners={"Reading Railroad": 0, "Pennsylvania Railroad": 0,
                            "B. & O. Railroad": 0, "Short Line": 0})
    refused(game, 0, Build(RB.space("Short Line").index), "engine")  # the model: streets


def test_building_must_be_even():
    """MAISONS: no second house on a lot before every lot of the group has one."""
    game = scenario(owners=LIGHT_BLUE)
    apply(game, 0, Build(ORIENTAL))
    err = refused(game, 0, Build(ORIENTAL), "houses")
    assert err.message == "a player may not build unless the space has the fewest buildings " \
        "of the group"
    apply(game, 0, Build(VERMONT))
    apply(game, 0, Build(CONNECTICUT))
    apply(game, 0, Build(ORIENTAL))  # now the second row may start
    st = game.state
    assert [st.houses[q] for q in (ORIENTAL, VERMONT, CONNECTICUT)] == [2, 1, 1]
    assert st.cash[0] == 1500 - 4 * 50
    assert total_money(game) == 0


def test_no_three_houses_next_to_one():
    """MAISONS: never three houses on a lot while another lot of the group has only one."""
    game = scenario(owners=LIGHT_BLUE, houses={"Oriental Avenue": 2, "Vermont Avenue": 2,
                                               "Connecticut Avenue": 1})
    refused(game, 0, Build(ORIENTAL), "houses")


def test_hotel_replaces_four_houses_which_go_back_to_the_bank():
    """HÔTELS: with four houses on every lot, a hotel is bought; the lot's four houses go back."""
    game = scenario(owners=DARK_BLUE, houses={"Park Place": 4, "Boardwalk": 4})
    assert game.state.bank_houses == 24
    apply(game, 0, Build(BOARD))
    st = game.state
    assert st.hotels[BOARD] == 1 and st.houses[BOARD] == 0
    assert st.bank_houses == 28 and st.bank_hotels == 11
    assert st.cash[0] == 1300  # the price on the deed
    assert total_money(game) == 0


def test_no_hotel_before_four_houses_on_every_lot():
    """HÔTELS: four houses on EVERY lot of the group first."""
    game = scenario(owners=DARK_BLUE, houses={"Park Place": 3, "Boardwalk": 4})
    # uneven too (`houses`): the model's check comes first
    refused(game, 0, Build(BOARD), "hotels")


def test_at_most_four_houses_then_the_next_building_is_a_hotel():
    """MAISONS: four houses per lot at most; the fifth building bought is a hotel."""
    game = scenario(owners=DARK_BLUE, houses={"Park Place": 4, "Boardwalk": 4})
    apply(game, 0, Build(PARK))
    assert game.state.houses[PARK] == 0 and game.state.hotels[PARK] == 1
    refused(game, 0, Build(PARK), "hotels")
    assert total_money(game) == 0


def test_one_hotel_per_lot():
    """HÔTELS: only one hotel on a lot."""
    game = scenario(owners=DARK_BLUE, hotels={"Park Place": 1, "Boardwalk": 1})
    refused(game, 0, Build(BOARD), "hotels")


def test_no_house_when_the_bank_has_none():
    """LA CRISE DU BÂTIMENT: with no house in the bank, the player must wait."""
    game = scenario(owners=DARK_BLUE, bank_houses=0)
    refused(game, 0, Build(BOARD), "building_shortage")


def test_no_hotel_when_the_bank_has_none():
    """LA CRISE DU BÂTIMENT: with no hotel in the bank, no hotel is built."""
    game = scenario(owners=DARK_BLUE, houses={"Park Place": 4, "Boardwalk": 4}, bank_hotels=0)
    refused(game, 0, Build(BOARD), "building_shortage")


def test_house_without_enough_cash_is_refused():
    """MAISONS: houses are bought as far as the player's means allow."""
    game = scenario(owners=DARK_BLUE, cash={0: 199})
    refused(game, 0, Build(BOARD), "engine")  # cash in hand


def test_shortage_auction_when_more_players_want_than_the_bank_has():
    """LA CRISE DU BÂTIMENT: several players wanting more houses than the bank has: auctioned."""
    a0 = Scripted(wants_building=True, bids=[10, None])
    a1 = Scripted(wants_building=True, bids=[20], place=CONNECTICUT)
    a2 = Scripted(wants_building=True, bids=[None])
    game = scenario(agents=[a0, a1, a2], bank_houses=2,
                    owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0,
                            "Oriental Avenue": 1, "Vermont Avenue": 1, "Connecticut Avenue": 1,
                            "Park Place": 2, "Boardwalk": 2})
    apply(game, 0, Build(MED))
    st = game.state
    assert st.houses[MED] == 0  # seat 0 lost the auction: no house for him
    assert st.houses[CONNECTICUT] == 1 and st.bank_houses == 1
    # reading (engine): the winning bid is the price of the house, from $1
    assert st.cash[:3] == [1500, 1480, 1500]
    assert a0.asked[0] == ("bid", Lot("house"), 0)
    assert total_money(game) == 0


def test_shortage_auction_winner_must_place_the_house_on_a_lot_that_takes_it():
    """LA CRISE DU BÂTIMENT: the house won goes on a lot that may take it; else refused, nothing changes."""
    a0 = Scripted(wants_building=True, bids=[None])
    a1 = Scripted(wants_building=True, bids=[20], place=BOARD)
    game = scenario(agents=[a0, a1, Scripted()], bank_houses=1,
                    owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0,
                            "Oriental Avenue": 1, "Vermont Avenue": 1, "Connecticut Avenue": 1})
    refused(game, 0, Build(MED), "building_shortage")


def test_no_shortage_auction_when_only_one_player_wants():
    """LA CRISE DU BÂTIMENT: the auction is only for two or more players wanting too few houses."""
    a1 = Scripted(wants_building=False)
    game = scenario(agents=[Scripted(), a1, Scripted()], bank_houses=1,
                    owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0,
                            "Oriental Avenue": 1, "Vermont Avenue": 1, "Connecticut Avenue": 1})
    apply(game, 0, Build(MED))
    st = game.state
    assert st.houses[MED] == 1 and st.bank_houses == 0 and st.cash[0] == 1450
    assert total_money(game) == 0


def test_shortage_auction_for_the_last_hotel():
    """LA CRISE DU BÂTIMENT: the same auction for hotels when there are too few."""
    builder = Scripted(wants_building=True, bids=[None])
    rival = Scripted(wants_building=True, bids=[120], place=BALTIC)
    game = scenario(agents=[builder, rival, Scripted()], bank_hotels=1,
                    owners={"Park Place": 0, "Boardwalk": 0,
                            "Mediterranean Avenue": 1, "Baltic Avenue": 1},
                    houses={"Park Place": 4, "Boardwalk": 4,
                            "Mediterranean Avenue": 4, "Baltic Avenue": 4})
    apply(game, 0, Build(BOARD))
    st = game.state
    assert st.hotels[BOARD] == 0 and st.hotels[BALTIC] == 1 and st.houses[BALTIC] == 0
    assert st.bank_hotels == 0
    assert st.cash[:2] == [1500, 1380]
    assert total_money(game) == 0


def test_selling_a_house_back_at_half_price():
    """VENTE DES PROPRIÉTÉS / LA BANQUE: the bank buys buildings back at half their price."""
    game = scenario(owners=DARK_BLUE, houses={"Park Place": 1, "Boardwalk": 1})
    apply(game, 0, Sell(BOARD))
    st = game.state
    assert st.houses[BOARD] == 0 and st.bank_houses == 31
    assert st.cash[0] == 1600
    assert total_money(game) == 0


def test_selling_must_be_even():
    """MAISONS: houses are sold back evenly, as they were built."""
    game = scenario(owners=LIGHT_BLUE, houses={"Oriental Avenue": 2, "Vermont Avenue": 2,
                                               "Connecticut Avenue": 1})
    refused(game, 0, Sell(CONNECTICUT), "selling")
    apply(game, 0, Sell(ORIENTAL))
    assert game.state.houses[ORIENTAL] == 1 and game.state.cash[0] == 1525
    assert total_money(game) == 0


def test_hotel_broken_down_into_four_houses_for_half_its_price():
    """VENTE DES PROPRIÉTÉS: a hotel sold alone comes down to four houses; the bank pays half its price."""
    game = scenario(owners=DARK_BLUE, hotels={"Park Place": 1, "Boardwalk": 1})
    apply(game, 0, Sell(BOARD))
    st = game.state
    assert st.hotels[BOARD] == 0 and st.houses[BOARD] == 4
    assert st.bank_hotels == 11 and st.bank_houses == 28
    assert st.cash[0] == 1600
    # evenly: a house of Boardwalk may not go before Park Place's hotel comes down
    refused(game, 0, Sell(BOARD), "selling")
    assert total_money(game) == 0


def test_hotel_cannot_be_broken_down_without_four_houses_in_the_bank():
    """VENTE DES PROPRIÉTÉS: breaking a hotel down needs four houses from the bank."""
    game = scenario(owners=DARK_BLUE, hotels={"Park Place": 1, "Boardwalk": 1}, bank_houses=3)
    refused(game, 0, Sell(BOARD), "bank")  # which sets building_sale


def test_all_hotels_of_a_group_sold_at_once_for_half_of_five_houses_each():
    """VENTE DES PROPRIÉTÉS: all the group's hotels sold at once at half price (a hotel = five houses)."""
    game = scenario(owners=DARK_BLUE, hotels={"Park Place": 1, "Boardwalk": 1}, bank_houses=0)
    apply(game, 0, SellAll(BOARD))
    st = game.state
    assert st.hotels[PARK] == st.hotels[BOARD] == 0 and st.houses[PARK] == st.houses[BOARD] == 0
    assert st.bank_hotels == 12 and st.bank_houses == 0
    assert st.cash[0] == 1500 + 2 * (5 * 200 // 2)
    assert total_money(game) == 0


def test_building_on_a_mortgaged_lot_lifts_it_first():
    """HYPOTHÈQUES: to build on a mortgaged lot, pay the mortgage plus 10%, then the full house price."""
    game = scenario(owners=LIGHT_BLUE, mortgaged=["Oriental Avenue"])
    apply(game, 0, Build(ORIENTAL))
    st = game.state
    assert not st.mortgaged[ORIENTAL] and st.houses[ORIENTAL] == 1
    assert st.cash[0] == 1500 - 55 - 50
    assert total_money(game) == 0


def test_building_on_a_mortgaged_lot_needs_cash_for_both():
    """HYPOTHÈQUES: lifting and the house are paid together; short of either, nothing happens."""
    game = scenario(owners=LIGHT_BLUE, mortgaged=["Oriental Avenue"], cash={0: 104})
    refused(game, 0, Build(ORIENTAL), "engine")  # cash in hand


def test_houses_and_hotels_sold_only_to_the_bank_any_time_during_another_turn():
    """VENTE DES PROPRIÉTÉS: buildings go back to the bank at any time, not only in one's turn."""
    game = scenario(owners=DARK_BLUE, houses={"Park Place": 1, "Boardwalk": 1}, current=2)
    apply(game, 0, Sell(PARK))
    assert game.state.cash[0] == 1600 and game.state.houses[PARK] == 0
    assert total_money(game) == 0


def _mortgaged_bidder(bid: int):
    """Seat 1 wants the last house for its light blues, all mortgaged ($55 to lift Oriental or
    Vermont, $66 Connecticut), with $150 in hand; seat 0 builds on its browns and drops out."""
    a1 = Scripted(wants_building=True, bids=[bid], place=ORIENTAL)
    game = scenario(agents=[Scripted(wants_building=True), a1, Scripted()], bank_houses=1,
                    cash={1: 150},
                    owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0,
                            "Oriental Avenue": 1, "Vermont Avenue": 1, "Connecticut Avenue": 1},
                    mortgaged=("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue"))
    return game


def test_shortage_bid_above_the_cash_left_after_lifting_the_lot_is_refused():
    """LA CRISE DU BÂTIMENT: decision: the bid replaces the printed price and is paid in cash,
    as any building, with the lifting of the mortgage of the lot it goes on (HYPOTHÈQUES); a
    bid above the cash left after that lifting is refused, and nothing changes."""
    game = _mortgaged_bidder(96)  # $150 - $55 = $95 at most
    refused(game, 0, Build(MED), "building_shortage")


def test_shortage_bid_within_the_cash_wins_the_house_and_lifts_its_lot():
    """LA CRISE DU BÂTIMENT: the winner pays its bid instead of the printed $50, and the lifting
    of the lot's mortgage ($55): no cash goes below zero."""
    game = _mortgaged_bidder(95)
    apply(game, 0, Build(MED))
    st = game.state
    assert st.houses[ORIENTAL] == 1 and not st.mortgaged[ORIENTAL] and st.bank_houses == 0
    assert st.cash[1] == 150 - 95 - 55 == 0 and st.houses[MED] == 0
    assert total_money(game) == 0


class _KeenDefault(DefaultAgent):
    def wants_building(self, game, seat, kind):
        return True


@pytest.mark.parametrize("agent", [_KeenDefault, RandomAgent])
def test_the_built_in_agents_bid_for_a_building_only_what_they_can_pay(agent):
    """LA CRISE DU BÂTIMENT: the built-in agents never bid above what they can pay in cash
    with the lifting of the lot (actions.building_bid_limit), whatever the bid to beat."""
    bids = []
    for seed in range(20):
        bidder = agent()
        game = scenario(agents=[Scripted(), bidder, Scripted()], cash={1: 150},
                        owners={"Oriental Avenue": 1, "Vermont Avenue": 1,
                                "Connecticut Avenue": 1},
                        mortgaged=("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue"))
        bidder.seat_at(game, 1)
        if isinstance(bidder, RandomAgent):
            bidder.rng = random.Random(seed)
        assert building_bid_limit(game, 1, "house") == 95
        for high in range(0, 120, 7):
            bid = bidder.bid(game, 1, Lot("house"), high)
            assert bid is None or high < bid <= 95
            bids.append(bid)
    assert any(b is not None for b in bids)
