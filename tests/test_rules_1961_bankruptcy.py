"""Scenario tests of the 1961 regular game: bankruptcy to a player or to the bank, and the end."""

import json

import pytest

from rulelang.engine.actions import IllegalAction, Trade, apply
from scenario import Scripted, rulebook, scenario, total_money

RB = rulebook()
CHANCE, CHEST = 0, 1
MED, BALTIC = RB.space("Mediterranean Avenue").index, RB.space("Baltic Avenue").index
READING = RB.space("Reading Railroad").index
ORIENTAL = RB.space("Oriental Avenue").index
ELECTRIC = RB.space("Electric Company").index


def card(deck: int, card_id: str) -> int:
    return next(i for i, c in enumerate(RB.decks[deck].cards) if c.id == card_id)


def test_bankrupt_to_a_player_gives_him_everything():
    """FAILLITE: to a player: buildings sold to the bank at half, then cash, deeds and cards to him."""
    game = scenario(dice=[(2, 3)], positions={0: "Pennsylvania Avenue"}, cash={0: 100},
                    owners={"Boardwalk": 1, "Park Place": 1, "Mediterranean Avenue": 0,
                            "Baltic Avenue": 0, "Water Works": 0},
                    hotels={"Boardwalk": 1, "Mediterranean Avenue": 1},
                    houses={"Park Place": 4, "Baltic Avenue": 4},
                    jail_cards={0: [("Community Chest", "CC05")]})
    bank_houses, bank_hotels = game.state.bank_houses, game.state.bank_hotels
    game.play_turn()  # Boardwalk with a hotel: $2000
    st = game.state
    assert st.bankrupt[0] and st.cash[0] == 0 and st.jail_cards[0] == []
    # at half price: the hotel (five $50 houses) $125, four houses $100; with his $100 cash
    assert st.cash[1] == 1500 + 125 + 100 + 100
    assert st.hotels[MED] == 0 and st.houses[MED] == st.houses[BALTIC] == 0
    assert st.bank_houses == bank_houses + 4 and st.bank_hotels == bank_hotels + 1
    assert [st.owner[q] for q in (MED, BALTIC, RB.space("Water Works").index)] == [1, 1, 1]
    assert st.jail_cards[1] == [(CHEST, card(CHEST, "CC05"))]
    assert not game.over and st.current == 1 and st.bankruptcies == 1
    assert total_money(game) == 0


def test_creditor_of_a_bankrupt_pays_ten_percent_on_mortgaged_deeds():
    """FAILLITE: a mortgaged deed goes to the creditor, who pays the bank 10% interest at once."""
    game = scenario(dice=[(2, 3)], positions={0: "Pennsylvania Avenue"}, cash={0: 10},
                    owners={"Boardwalk": 1, "Reading Railroad": 0, "Electric Company": 0},
                    mortgaged=["Reading Railroad", "Electric Company"])
    bank = game.state.cash[game.state.bank]
    game.play_turn()  # Boardwalk: $50 rent, $10 in hand, nothing left to mortgage
    st = game.state
    assert st.bankrupt[0]
    assert st.owner[READING] == st.owner[ELECTRIC] == 1
    assert st.mortgaged[READING] and st.mortgaged[ELECTRIC]
    assert st.cash[1] == 1500 + 10 - 10 - 8
    assert st.cash[st.bank] == bank + 18
    assert total_money(game) == 0


def test_creditor_may_lift_the_bankrupts_mortgages_at_once():
    """FAILLITE: the creditor may pay the principal at once (with the 10% interest)."""
    game = scenario(agents=[Scripted(), Scripted(lift_on_transfer=True), Scripted()],
                    dice=[(2, 3)], positions={0: "Pennsylvania Avenue"}, cash={0: 10},
                    owners={"Boardwalk": 1, "Reading Railroad": 0}, mortgaged=["Reading Railroad"])
    game.play_turn()
    st = game.state
    assert st.owner[READING] == 1 and not st.mortgaged[READING]
    assert st.cash[1] == 1500 + 10 - 110
    assert total_money(game) == 0


def test_bankrupt_to_the_bank_auctions_his_lots_unmortgaged():
    """FAILLITE: owing the bank, all goes to it; it auctions every lot (unmortgaged) at once."""
    a1 = Scripted(bids=[60, None, 100])
    a2 = Scripted(bids=[70, None])
    game = scenario(agents=[Scripted(), a1, a2], dice=[(1, 2)], positions={0: "Short Line"},
                    cash={0: 50}, owners={"Oriental Avenue": 0, "Electric Company": 0},
                    mortgaged=["Oriental Avenue", "Electric Company"],
                    jail_cards={0: [("Chance", "CH08")]})
    bank = game.state.cash[game.state.bank]
    game.play_turn()  # Luxury Tax: $75, more than his $50 and his lots, all mortgaged
    st = game.state
    assert st.bankrupt[0] and st.cash[0] == 0
    assert st.owner[ORIENTAL] == 2 and not st.mortgaged[ORIENTAL]
    assert st.owner[ELECTRIC] == 1 and not st.mortgaged[ELECTRIC]
    assert st.cash[1:3] == [1400, 1430]
    assert st.cash[st.bank] == bank + 50 + 70 + 100
    # his jail card goes back under its deck
    assert st.jail_cards[0] == [] and st.decks[CHANCE][-1] == card(CHANCE, "CH08")
    assert len(st.decks[CHANCE]) == 16
    assert not game.over
    assert total_money(game) == 0


def test_a_player_who_gives_up_while_his_lots_could_pay_is_made_to_mortgage():
    """FAILLITE: bankrupt only when the debt truly cannot be paid: an agent that stops raising
    funds while its mortgages would pay has them made by the engine, lot by lot in board
    order, until the debt is paid."""
    game = scenario(dice=[(1, 2)], positions={0: "Short Line"}, cash={0: 50},
                    owners={"Baltic Avenue": 0, "Electric Company": 0})
    game.play_turn()  # Luxury Tax $75; the passive agent answers None to raise funds
    st = game.state
    assert not st.bankrupt[0] and st.owner[BALTIC] == 0 and st.owner[ELECTRIC] == 0
    assert st.mortgaged[BALTIC] and not st.mortgaged[ELECTRIC]
    assert st.cash[0] == 50 + 30 - 75
    assert total_money(game) == 0


def test_a_player_who_gives_up_while_his_houses_could_pay_is_made_to_sell_them():
    """FAILLITE: with no lot that may be mortgaged (its group is built), the engine sells the
    houses, evenly, then mortgages the bare lots, until the debt is paid."""
    game = scenario(dice=[(1, 2)], positions={0: "Short Line"}, cash={0: 10},
                    owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Mediterranean Avenue": 1, "Baltic Avenue": 1})
    game.play_turn()  # Luxury Tax $75
    st = game.state
    assert not st.bankrupt[0]
    assert st.houses[MED] == st.houses[BALTIC] == 0 and st.bank_houses == 32
    assert st.mortgaged[MED] and not st.mortgaged[BALTIC]
    assert st.cash[0] == 10 + 25 + 25 + 30 - 75
    assert total_money(game) == 0


def test_a_debt_larger_than_everything_the_player_could_raise_may_be_given_up_at_once():
    """FAILLITE: a debt that even every sale and mortgage could not pay is a bankruptcy; the
    engine sells and mortgages nothing for it first (the bankruptcy settles its estate)."""
    log: list = []
    game = scenario(dice=[(1, 3)], positions={0: "GO"}, cash={0: 10}, log=log,
                    owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Mediterranean Avenue": 1, "Baltic Avenue": 1})
    game.play_turn()  # Income Tax $200 > $10 + $50 of houses + $60 of mortgages
    events = [json.loads(line)["event"] for line in log]
    assert game.state.bankrupt[0]
    assert "sell" not in events and "mortgage" not in events
    assert total_money(game) == 0


def test_bankrupt_to_the_bank_lot_without_bids_stays_with_the_bank():
    """FAILLITE: a lot nobody bids for stays with the bank, free of mortgage."""
    game = scenario(dice=[(1, 2)], positions={0: "Short Line"}, cash={0: 50},
                    owners={"Oriental Avenue": 0}, mortgaged=["Oriental Avenue"])
    game.play_turn()
    st = game.state
    assert st.bankrupt[0] and st.owner[ORIENTAL] == -1 and not st.mortgaged[ORIENTAL]
    assert total_money(game) == 0


def test_bankrupt_to_the_bank_sells_his_buildings_back():
    """FAILLITE: owing the bank, his buildings go back to the bank (the auction excludes them)."""
    game = scenario(dice=[(1, 3)], positions={0: "GO"}, cash={0: 10},
                    owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Mediterranean Avenue": 1, "Baltic Avenue": 1})
    bank = game.state.cash[game.state.bank]
    game.play_turn()  # Income Tax $200: more than his $10, $50 of houses and $60 of mortgages
    st = game.state
    assert st.bankrupt[0]
    assert st.houses[MED] == st.houses[BALTIC] == 0 and st.bank_houses == 32
    assert st.owner[MED] == st.owner[BALTIC] == -1
    assert st.cash[st.bank] == bank + 10
    assert total_money(game) == 0


def test_bankrupt_player_is_skipped_and_cannot_act():
    """FAILLITE: a bankrupt player retires from the game at once: skipped, and he cannot act."""
    game = scenario(dice=[(1, 2), (1, 2), (1, 2)], positions={0: "Short Line"}, cash={0: 50},
                    owners={"Baltic Avenue": 1}, current=0)
    game.play_turn()
    assert game.state.bankrupt[0] and game.state.current == 1
    game.play_turn()
    game.play_turn()
    assert game.state.current == 1  # seat 2 passes the turn over seat 0 to seat 1
    with pytest.raises(IllegalAction) as err:
        apply(game, 0, Trade(1, cash=10))
    assert err.value.rule == "bankruptcy"
    assert total_money(game) == 0


def test_last_player_standing_wins():
    """FAILLITE: the player who holds out to the last wins the game."""
    game = scenario(dice=[(2, 3), (2, 3)], positions={0: "Pennsylvania Avenue",
                                                      1: "Pennsylvania Avenue"},
                    cash={0: 10, 1: 20}, owners={"Boardwalk": 2})
    game.play_turn()
    assert game.state.bankrupt[0] and not game.over
    assert game.state.current == 1
    game.play_turn()
    st = game.state
    assert st.bankrupt[1]
    assert game.over and game.winner == 2 and game.end_reason == "last_player"
    assert st.cash[2] == 1530
    assert total_money(game) == 0
    turn = st.turn
    game.play_turn()  # nothing happens once the game is over
    assert st.turn == turn


def test_bankrupt_by_a_card_paying_each_player():
    """FAILLITE: a player who cannot pay every other player goes bankrupt to the one he cannot pay."""
    # reading (engine): the others are paid in turn order; the first one left unpaid is the creditor
    game = scenario(dice=[(3, 4)], decks={"Chance": ["CH15"]}, cash={0: 70}, players=4)
    game.play_turn()  # Chance "Chairman of the board": $50 to each
    st = game.state
    assert st.bankrupt[0]
    assert st.cash[1:4] == [1550, 1520, 1500]
    assert total_money(game) == 0


def test_bankrupt_by_a_card_collecting_from_each_player():
    """FAILLITE: a player who cannot pay the drawer of "collect from each player" goes bankrupt to him."""
    game = scenario(dice=[(1, 2)], positions={0: "Virginia Avenue"}, cash={2: 30},
                    owners={"Water Works": 2}, mortgaged=["Water Works"],
                    decks={"Community Chest": ["CC07"]})
    game.play_turn()  # Community Chest (17): "Grand opera opening", $50 from each
    st = game.state
    assert st.bankrupt[2] and not st.bankrupt[1]
    # the mortgaged utility comes with its 10% interest ($8) for the new owner
    assert st.cash[:3] == [1500 + 50 + 30 - 8, 1450, 0]
    assert st.owner[RB.space("Water Works").index] == 0
    assert total_money(game) == 0


def test_turn_cap_ends_without_winner():
    """FAILLITE (engine turn cap): a game stopped by the cap has end_reason "turn_cap", no winner."""
    game = scenario(dice=[(1, 2)], owners={"Baltic Avenue": 0})
    game.max_turns = 1
    game.play_turn()
    assert game.over and game.end_reason == "turn_cap" and game.winner is None
    assert total_money(game) == 0
