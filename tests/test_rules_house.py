"""Scenario tests of the house rules of rulesets/house/, each against the rulebook it extends."""

from rulelang.engine.actions import Build, apply
from scenario import RULESETS, Scripted, assert_dealt, refused, rulebook, scenario, total_money

JACKPOT = "house/free_parking_jackpot.rules"
DOUBLE_GO = "house/double_salary_on_go.rules"
NO_AUCTIONS = "house/no_auctions.rules"
NO_RENT_IN_JAIL = "house/no_rent_in_jail.rules"
LAP = "house/lap_before_buying.rules"
CITY = "house/city_build.rules"
FREE_BUILD = "house/free_build.rules"
FLAT_TAX = "house/flat_income_tax.rules"
NO_SHORTAGE = "house/no_housing_shortage.rules"
RANDOM_START = "house/random_start.rules"
BONUS = "house/free_parking_bonus.rules"
COUNTDOWN = "house/countdown_token.rules"
GO_ANYWHERE = "house/go_or_anywhere.rules"
SPEED_DIE = "house/speed_die.rules"
LUCKY = "house/lucky_roller.rules"
SIGHTS = "house/see_the_sights.rules"
NO_HOTEL = "house/no_hotel_on_a_monopoly.rules"


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
                    owners={"Baltic Avenue": 0}, mortgaged=["Baltic Avenue"])
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


def test_see_the_sights_nothing_bought_nor_bid_for_before_a_lap():
    """See the Sights: before passing GO the player is not asked to buy, the lot is auctioned
    among the players who have passed GO, and the player may not trade for a deed."""
    from rulelang.engine.actions import Bid, Lot, Trade

    buyer, bidder = Scripted(buy=True), Scripted(bids=[10])
    game = scenario(name=SIGHTS, agents=[buyer, bidder, Scripted()],
                    dice=[(2, 4), (1, 3)], positions={1: "GO", 2: "GO"},
                    owners={"Baltic Avenue": 1})
    st = game.state
    st.laps[1] = 1
    oriental = P(game, "Oriental Avenue")
    game.play_turn()  # from GO to Oriental Avenue: no lap yet, not asked; seat 1 wins it
    assert not [a for a in buyer.asked if a[0] == "buy"]
    assert st.owner[oriental] == 1 and st.cash[1] == 1500 - 10
    assert refused(game, 0, Trade(1, take=(P(game, "Baltic Avenue"),), cash=100),
                   "see_the_sights").message == \
        "a player may not trade a property unless the player has completed a lap"
    from rulelang.engine.actions import why_refused
    assert why_refused(game, 0, Bid(Lot("deed", oriental), 20)) is not None
    st.position[0] = P(game, "Park Place")
    st.current = 0
    game.play_turn()  # Park Place + 4 = Mediterranean, passing GO: now asked, and buys
    assert st.laps[0] == 1 and st.owner[P(game, "Mediterranean Avenue")] == 0


def test_city_build_a_house_without_the_whole_group():
    """City Build: a house on a street whose group another player shares; evenness still
    counts every lot of the group, the other owner's too."""
    game = scenario(name=CITY, owners={"Boardwalk": 0, "Park Place": 1})
    apply(game, 0, Build(P(game, "Boardwalk")))
    assert game.state.houses[P(game, "Boardwalk")] == 1 and game.state.cash[0] == 1300
    refused(game, 0, Build(P(game, "Boardwalk")), "houses")  # Park Place has none
    apply(game, 1, Build(P(game, "Park Place")))
    apply(game, 0, Build(P(game, "Boardwalk")))
    assert game.state.houses[P(game, "Boardwalk")] == 2
    assert total_money(game) == 0


def test_no_hotel_on_a_monopoly_four_houses_then_no_hotel_on_a_whole_group():
    """No hotel on a monopoly: on a group held whole, four houses on every lot and no hotel,
    refused by the file's rule; a group held in parts, four houses on every lot, takes its
    hotel; the same whole group takes its hotel under the 1961 rules."""
    houses = {"Boardwalk": 4, "Park Place": 4}
    game = scenario(name=NO_HOTEL, owners={"Boardwalk": 0, "Park Place": 0}, houses=houses)
    boardwalk = P(game, "Boardwalk")
    assert refused(game, 0, Build(boardwalk), "no_hotel_on_a_monopoly").message == \
        "a player may not build a hotel if the player holds the whole group"
    game = scenario(name=NO_HOTEL, owners={"Boardwalk": 0, "Park Place": 1}, houses=houses)
    apply(game, 0, Build(boardwalk))
    assert game.state.hotels[boardwalk] == 1 and game.state.houses[boardwalk] == 0
    assert total_money(game) == 0
    game = scenario(owners={"Boardwalk": 0, "Park Place": 0}, houses=houses)
    apply(game, 0, Build(boardwalk))
    assert game.state.hotels[boardwalk] == 1

def test_free_build_houses_in_any_order_on_a_whole_group():
    """Free Build: four houses on one lot while the others have none; not on a group held in
    parts; a hotel still needs four houses on every lot of the group."""
    game = scenario(name=FREE_BUILD, owners={"Oriental Avenue": 0, "Vermont Avenue": 0,
                                             "Connecticut Avenue": 0, "Boardwalk": 0,
                                             "Park Place": 1})
    oriental = P(game, "Oriental Avenue")
    for _ in range(4):
        apply(game, 0, Build(oriental))
    st = game.state
    assert [st.houses[P(game, n)] for n in ("Oriental Avenue", "Vermont Avenue",
                                            "Connecticut Avenue")] == [4, 0, 0]
    refused(game, 0, Build(oriental), "hotels")
    refused(game, 0, Build(P(game, "Boardwalk")), "houses")
    assert total_money(game) == 0


def test_flat_income_tax_takes_200_without_a_choice():
    """Flat income tax: $200 whatever the player's worth; the player is not asked."""
    agent = Scripted(tax=1)
    game = scenario(name=FLAT_TAX, agents=[agent, Scripted(), Scripted()], dice=[(1, 3)],
                    cash={0: 300})
    game.play_turn()  # GO + 4 = Income Tax; 10% of worth would be $30
    assert game.state.cash[0] == 100
    assert not [a for a in agent.asked if a[0] == "tax"]
    assert total_money(game) == 0


def test_no_housing_shortage_a_33rd_house():
    """No housing shortage: 1000 houses and hotels in the bank; a house is built while 32
    already stand."""
    greens = ("Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue")
    yellows = ("Atlantic Avenue", "Ventnor Avenue", "Marvin Gardens")
    reds = ("Kentucky Avenue", "Indiana Avenue")
    built = greens + yellows + reds
    game = scenario(name=NO_SHORTAGE, owners={**{n: 1 for n in built + ("Illinois Avenue",)},
                                              "Boardwalk": 0, "Park Place": 0},
                    houses={n: 4 for n in built})
    st = game.state
    assert sum(st.houses) == 32 and st.bank_houses == 1000 - 32 and st.bank_hotels == 1000
    apply(game, 0, Build(P(game, "Boardwalk")))
    assert sum(st.houses) == 33 and st.bank_houses == 1000 - 33


def test_random_start_deals_three_paid_deeds():
    """Random start: three deeds to each player before the first roll, paid at their price."""
    assert_dealt(RANDOM_START, players=4, each=3, paid=True)


def test_free_parking_bonus_every_time():
    """Free Parking bonus: each stop on Free Parking collects $100 from the bank."""
    game = scenario(name=BONUS, dice=[(1, 3), (2, 4)],
                    positions={0: "St. James Place", 1: "Virginia Avenue"})
    game.play_turn()  # St. James Place + 4 = Free Parking
    game.play_turn()  # Virginia Avenue + 6 = Free Parking
    assert game.state.cash[:2] == [1600, 1600]
    assert total_money(game) == 0


def test_countdown_token_moves_on_the_marked_one_only():
    """Countdown token: the first die's 1 moves the token to the next property (over tax and
    card spaces); the second die's 1 does not."""
    game = scenario(name=COUNTDOWN, dice=[(1, 3), (3, 1)],
                    tokens={"Countdown": "Baltic Avenue"})
    game.play_turn()
    assert game.rulebook.spaces[game.state.tokens[0]].name == "Reading Railroad"
    game.play_turn()
    assert game.rulebook.spaces[game.state.tokens[0]].name == "Reading Railroad"


def test_countdown_token_on_boardwalk_ends_the_game_richest_wins():
    """Countdown token: from Park Place, a marked one takes it to Boardwalk and the game ends
    at once; the richest player wins."""
    game = scenario(name=COUNTDOWN, dice=[(1, 2)], cash={0: 100, 1: 2000, 2: 900},
                    tokens={"Countdown": "Park Place"})
    game.play_turn()
    assert game.rulebook.spaces[game.state.tokens[0]].name == "Boardwalk"
    assert game.over and game.end_reason == "countdown" and game.winner == 1
    assert total_money(game) == 0


def test_house_rules_extend_an_official_rulebook():
    """Each house rule is a short file extending an official rulebook."""
    names = sorted(f"house/{p.name}" for p in (RULESETS / "house").glob("*.rules"))
    assert {JACKPOT, DOUBLE_GO, NO_AUCTIONS, NO_RENT_IN_JAIL, LAP, CITY, FREE_BUILD, FLAT_TAX,
            NO_SHORTAGE, RANDOM_START, BONUS, COUNTDOWN, GO_ANYWHERE, SPEED_DIE, LUCKY,
            SIGHTS, NO_HOTEL} == set(names)
    for name in names:
        rb = rulebook(name)
        assert len(rb.files) >= 3 and rb.files[1].endswith(("classic_1961.rules",
                                                           "french_standard.rules"))
