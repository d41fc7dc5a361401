"""Scenario tests of the house rules of rulesets/house/, each against the rulebook it extends."""

from scenario import Scripted, rulebook, scenario, total_money

JACKPOT = "house/free_parking_jackpot.rules"
DOUBLE_GO = "house/double_salary_on_go.rules"
NO_AUCTIONS = "house/no_auctions.rules"
NO_RENT_IN_JAIL = "house/no_rent_in_jail.rules"
LAP = "house/lap_before_buying.rules"


def P(game, name):
    return game.rulebook.space(name).index


def pot(game):
    st = game.state
    return st.cash[st.bank + 1]


def test_jackpot_collects_taxes_fines_and_card_penalties():
    """Free Parking jackpot: taxes, the jail fine and card penalties go into the pot."""
    game = scenario(name=JACKPOT, agents=[Scripted(), Scripted(jail="pay"), Scripted()],
                    dice=[(1, 3), (2, 3), (3, 5)], in_jail={1: 0}, positions={2: "Boardwalk"},
                    decks={"Chance": ["CH12"]})
    bank = game.state.cash[game.state.bank]
    game.play_turn()  # seat 0: Income Tax, $200 (the agent's first choice)
    assert pot(game) == 200
    game.play_turn()  # seat 1 pays the $50 fine, then moves 5
    assert pot(game) == 250
    game.play_turn()  # seat 2: Boardwalk + 8 = Chance (salary on the way): poor tax $15
    assert pot(game) == 265 and game.state.cash[game.state.bank] == bank - 200
    assert total_money(game) == 0


def test_jackpot_is_taken_by_whoever_stops_on_free_parking():
    """Free Parking jackpot: stopping on Free Parking takes everything in the pot."""
    game = scenario(name=JACKPOT, dice=[(1, 3), (2, 2), (1, 2)],
                    positions={0: "GO", 1: "St. James Place"}, current=0)
    game.play_turn()  # Income Tax 200 into the pot
    game.state.current = 1
    game.play_turn()  # St. James Place + 4 = Free Parking, then a double: +3
    st = game.state
    assert st.cash[1] == 1700 and pot(game) == 0
    assert total_money(game) == 0


def test_jackpot_bankruptcy_owing_the_pot():
    """Free Parking jackpot: a player who cannot pay a tax gives his cash to the pot, his lots
    to the bank."""
    game = scenario(name=JACKPOT, dice=[(1, 2)], positions={0: "Short Line"}, cash={0: 50},
                    owners={"Baltic Avenue": 0})
    game.play_turn()  # Luxury Tax $75
    st = game.state
    assert st.bankrupt[0] and pot(game) == 50 and st.owner[P(game, "Baltic Avenue")] == -1
    assert total_money(game) == 0


def test_official_rules_have_no_pot():
    """The 1961 rules: the tax goes to the bank; Free Parking gives nothing."""
    game = scenario(dice=[(1, 3)])
    game.play_turn()
    assert len(game.state.cash) == game.state.players + 1


def test_double_salary_when_landing_on_go():
    """Double salary on GO: 400 for stopping on GO, 200 for passing it."""
    game = scenario(name=DOUBLE_GO, dice=[(1, 2), (2, 4)], positions={0: "Park Place",
                                                                        1: "Boardwalk"})
    game.play_turn()  # Park Place + 3 = GO
    assert game.state.cash[0] == 1900
    game.play_turn()  # Boardwalk + 6 = Reading Railroad, passing GO
    assert game.state.cash[1] == 1700


def test_no_auctions_a_declined_lot_stays_with_the_bank():
    """No auctions: a declined lot is not auctioned; nobody is asked to bid."""
    others = [Scripted(bids=[100]), Scripted(bids=[100])]
    game = scenario(name=NO_AUCTIONS, agents=[Scripted(), *others], dice=[(2, 4)])
    game.play_turn()
    assert game.state.owner[P(game, "Oriental Avenue")] == -1
    assert others[0].asked == others[1].asked == []


def test_no_rent_while_the_owner_is_in_jail():
    """No rent from jail: a jailed owner collects nothing; once out, he does."""
    game = scenario(name=NO_RENT_IN_JAIL, dice=[(2, 4), (2, 4)], current=1,
                    owners={"Oriental Avenue": 0}, in_jail={0: 0}, positions={2: "GO"})
    game.play_turn()
    assert game.state.cash[0] == 1500 and game.state.cash[1] == 1500
    game.state.in_jail[0] = False
    game.play_turn()
    assert game.state.cash[0] == 1506


def test_lap_before_buying():
    """A lap before buying: no purchase nor auction until the player has passed GO."""
    buyer = Scripted(buy=True)
    game = scenario(name=LAP, agents=[buyer, Scripted(), Scripted()],
                    dice=[(2, 4), (1, 3)], positions={1: "GO", 2: "GO"})
    game.play_turn()  # from GO to Oriental Avenue: first lap not done
    assert game.state.owner[P(game, "Oriental Avenue")] == -1 and buyer.asked == []
    st = game.state
    st.position[0] = P(game, "Park Place")
    st.current = 0
    game.play_turn()  # Park Place + 4 = Mediterranean, passing GO
    assert st.laps[0] == 1 and st.owner[P(game, "Mediterranean Avenue")] == 0


def test_house_rules_extend_an_official_rulebook():
    """Each house rule is a short file extending an official rulebook."""
    for name in (JACKPOT, DOUBLE_GO, NO_AUCTIONS, NO_RENT_IN_JAIL, LAP):
        rb = rulebook(name)
        assert len(rb.files) >= 3 and rb.files[1].endswith(("classic_1961.rules",
                                                           "french_standard.rules"))
