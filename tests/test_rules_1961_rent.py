"""Scenario tests of the 1961 regular game: rents of lots, railroads and utilities."""

from scenario import Scripted, rulebook, scenario, total_money

RB = rulebook()


def P(name: str) -> int:
    return RB.space(name).index


def land_on_boardwalk(**kw):
    """Seat 0 on Pennsylvania Avenue rolls 5 (no double) onto Boardwalk."""
    kw.setdefault("positions", {0: "Pennsylvania Avenue"})
    game = scenario(dice=[(2, 3)], **kw)
    game.play_turn()
    assert game.state.position[0] == P("Boardwalk")
    assert total_money(game) == 0
    return game


def test_street_rent_from_the_deed():
    """BIEN QUI A DÉJA UN PROPRIÉTAIRE: the rent printed on the deed, paid to the owner."""
    game = land_on_boardwalk(owners={"Boardwalk": 1})
    assert game.state.cash[:3] == [1450, 1550, 1500]


def test_double_rent_on_unimproved_whole_group():
    """AVANTAGES DES PROPRIÉTAIRES: the owner of a whole group collects double on its bare lots."""
    game = land_on_boardwalk(owners={"Boardwalk": 1, "Park Place": 1})
    assert game.state.cash[:2] == [1400, 1600]


def test_the_rule_that_doubles_the_rent_is_seen_in_the_log():
    """The `when rent is due` rule that multiplies a rent logs its own line, by its name,
    before the rent is paid; a rent it does not multiply logs none."""
    import json
    log: list = []
    land_on_boardwalk(owners={"Boardwalk": 1, "Park Place": 1}, log=log)
    events = [json.loads(line) for line in log]
    (factor,) = [e for e in events if e["event"] == "rent_factor"]
    assert factor == {"turn": factor["turn"], "event": "rent_factor", "player": 0, "owner": 1,
                      "factor": 2, "rule": "full_group"}
    rent = next(e for e in events if e["event"] == "transfer" and e["reason"] == "rent")
    assert events.index(factor) < events.index(rent) and rent["amount"] == 100
    log.clear()
    land_on_boardwalk(owners={"Boardwalk": 1}, log=log)
    assert not [line for line in log if '"rent_factor"' in line]


def test_double_rent_even_when_another_lot_of_the_group_is_mortgaged():
    """AVANTAGES DES PROPRIÉTAIRES (1961): double rent still applies if ANOTHER lot is mortgaged."""
    game = land_on_boardwalk(owners={"Boardwalk": 1, "Park Place": 1}, mortgaged=["Park Place"])
    assert game.state.cash[:2] == [1400, 1600]


def test_double_rent_on_a_three_lot_group_with_one_lot_mortgaged():
    """AVANTAGES DES PROPRIÉTAIRES / HYPOTHÈQUES: the unmortgaged lot of the group still pays double."""
    game = scenario(dice=[(1, 2)], owners={"Oriental Avenue": 2, "Vermont Avenue": 2,
                                           "Connecticut Avenue": 2},
                    mortgaged=["Oriental Avenue", "Connecticut Avenue"])
    game.state.position[0] = P("Reading Railroad")
    game.play_turn()
    assert game.state.position[0] == P("Vermont Avenue")
    assert game.state.cash[0] == 1500 - 12 and game.state.cash[2] == 1512
    assert total_money(game) == 0


def test_double_rent_on_the_bare_lot_of_a_group_being_built():
    """MAISONS: double rent on the lots WITHOUT buildings of a whole group, even if another has some."""
    game = land_on_boardwalk(owners={"Boardwalk": 1, "Park Place": 1}, houses={"Park Place": 1})
    assert game.state.cash[:2] == [1400, 1600]


def test_no_rent_on_a_mortgaged_lot():
    """QUAND LE JETON TOMBE ... / HYPOTHÈQUES: no rent is collected on a mortgaged lot."""
    game = land_on_boardwalk(owners={"Boardwalk": 1, "Park Place": 1}, mortgaged=["Boardwalk"])
    assert game.state.cash[:2] == [1500, 1500]


def test_no_double_rent_when_the_group_is_split():
    """AVANTAGES DES PROPRIÉTAIRES: double rent needs the WHOLE group in one hand."""
    game = land_on_boardwalk(owners={"Boardwalk": 1, "Park Place": 2})
    assert game.state.cash[:3] == [1450, 1550, 1500]


def test_house_rents():
    """AVANTAGES DES PROPRIÉTAIRES: houses raise the rent to the deed's 1-4 house figures."""
    for count, rent in ((1, 200), (2, 600), (3, 1400), (4, 1700)):
        game = land_on_boardwalk(owners={"Boardwalk": 1, "Park Place": 1}, cash={0: 2000},
                                 houses={"Boardwalk": count, "Park Place": count})
        assert game.state.cash[:2] == [2000 - rent, 1500 + rent], count


def test_hotel_rent():
    """HÔTELS: a hotel's rent is the deed's last figure."""
    game = land_on_boardwalk(owners={"Boardwalk": 1, "Park Place": 1}, cash={0: 2500},
                             hotels={"Boardwalk": 1}, houses={"Park Place": 4})
    assert game.state.cash[:2] == [500, 3500]


def test_railroad_rent_by_number_owned():
    """BIEN QUI A DÉJA UN PROPRIÉTAIRE: railroads pay $25, $50, $100, $200 by how many are held."""
    railroads = ["Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad", "Short Line"]
    for held, rent in ((1, 25), (2, 50), (3, 100), (4, 200)):
        owners = {name: 1 for name in railroads[-held:]}
        game = scenario(dice=[(1, 2)], positions={0: "North Carolina Avenue"}, owners=owners)
        game.play_turn()
        assert game.state.position[0] == P("Short Line")
        assert game.state.cash[:2] == [1500 - rent, 1500 + rent], held
        assert total_money(game) == 0


def test_railroad_count_includes_a_mortgaged_railroad():
    """HYPOTHÈQUES: a mortgaged railroad pays nothing but still counts for the owner's others."""
    game = scenario(dice=[(1, 2)], positions={0: "North Carolina Avenue"},
                    owners={"Short Line": 1, "Reading Railroad": 1}, mortgaged=["Reading Railroad"])
    game.play_turn()
    assert game.state.cash[:2] == [1450, 1550]
    assert total_money(game) == 0


def test_utility_rent_four_times_the_dice_with_one():
    """BIEN QUI A DÉJA UN PROPRIÉTAIRE: one utility: 4 times the dice thrown."""
    game = scenario(dice=[(3, 4)], positions={0: "Reading Railroad"}, owners={"Electric Company": 1})
    game.play_turn()
    assert game.state.position[0] == P("Electric Company")
    assert game.state.cash[:2] == [1500 - 28, 1528]
    assert total_money(game) == 0


def test_utility_rent_ten_times_the_dice_with_both():
    """BIEN QUI A DÉJA UN PROPRIÉTAIRE: both utilities: 10 times the dice thrown."""
    game = scenario(dice=[(3, 4)], positions={0: "Reading Railroad"},
                    owners={"Electric Company": 1, "Water Works": 1})
    game.play_turn()
    assert game.state.cash[:2] == [1500 - 70, 1570]
    assert total_money(game) == 0


def test_utility_rent_after_leaving_jail_uses_the_double_thrown():
    """LA PRISON (1) / utilities: the double that frees the prisoner is the roll the rent counts."""
    game = scenario(dice=[(1, 1)], in_jail={0: 0}, owners={"Electric Company": 1})
    game.play_turn()
    assert game.state.position[0] == P("Electric Company")
    assert game.state.cash[:2] == [1500 - 8, 1508]
    assert total_money(game) == 0


def test_card_nearest_railroad_pays_twice_the_rent():
    """CHANCE card: "advance to the nearest railroad" pays the owner twice the rent."""
    game = scenario(dice=[(3, 4)], owners={"Pennsylvania Railroad": 1, "Short Line": 1},
                    decks={"Chance": ["CH05"]})
    game.play_turn()  # GO -> Chance (7) -> Pennsylvania Railroad (15)
    assert game.state.position[0] == P("Pennsylvania Railroad")
    assert game.state.cash[:2] == [1500 - 100, 1600]
    assert total_money(game) == 0


def test_card_nearest_railroad_past_go_pays_salary_and_twice_the_rent():
    """CHANCE card / SALAIRE: from the last Chance the nearest railroad is Reading, past GO."""
    game = scenario(dice=[(1, 2)], owners={"Reading Railroad": 2}, decks={"Chance": ["CH06"]})
    game.state.position[0] = 33  # the last Community Chest
    game.play_turn()  # Community Chest (33) -> Chance (36) -> Reading (5)
    assert game.state.position[0] == P("Reading Railroad")
    assert game.state.cash[0] == 1500 + 200 - 50 and game.state.cash[2] == 1550
    assert total_money(game) == 0


def test_card_nearest_utility_rerolls_and_pays_ten_times():
    """CHANCE card: "advance to the nearest utility": the dice are thrown again, rent x10."""
    game = scenario(dice=[(3, 4), (2, 3)], owners={"Electric Company": 1},
                    decks={"Chance": ["CH04"]})
    game.play_turn()  # GO -> Chance (7) -> Electric Company (12); re-roll 5
    assert game.state.position[0] == P("Electric Company")
    assert game.state.cash[:2] == [1500 - 50, 1550]
    assert total_money(game) == 0


def test_card_nearest_utility_from_the_middle_chance_is_water_works():
    """CHANCE card: from the Chance at 22 the nearest utility is Water Works; x10 even when both are held."""
    game = scenario(dice=[(1, 3), (6, 5)], positions={0: "Tennessee Avenue"},
                    owners={"Electric Company": 1, "Water Works": 1}, decks={"Chance": ["CH04"]})
    game.play_turn()  # Tennessee (18) + 4 = Chance (22) -> Water Works (28), re-roll 11
    assert game.state.position[0] == P("Water Works")
    assert game.state.cash[:2] == [1500 - 110, 1610]
    assert total_money(game) == 0


def test_card_nearest_unowned_railroad_is_offered_at_the_printed_price():
    """CHANCE card / BIEN SANS PROPRIÉTAIRE: an unowned nearest railroad is offered at its price."""
    game = scenario(agents=[Scripted(buy=True), Scripted(), Scripted()], dice=[(3, 4)],
                    decks={"Chance": ["CH05"]})
    game.play_turn()
    assert game.state.owner[P("Pennsylvania Railroad")] == 0
    assert game.state.cash[0] == 1300
    assert total_money(game) == 0


def test_inattentive_owner_collects_nothing():
    """BIEN QUI A DÉJA UN PROPRIÉTAIRE: no rent if the owner fails to claim it in time."""
    agents = [Scripted(), Scripted(attentive=False), Scripted()]
    game = land_on_boardwalk(agents=agents, owners={"Boardwalk": 1})
    assert game.state.cash[:2] == [1500, 1500]


def test_rent_paid_by_raising_funds_when_short():
    """BIEN QUI A DÉJA UN PROPRIÉTAIRE / HYPOTHÈQUES: a player short of cash mortgages to pay rent."""
    from rulelang.engine.actions import Mortgage

    agents = [Scripted(raise_with=[Mortgage(P("Reading Railroad"))]), Scripted(), Scripted()]
    game = land_on_boardwalk(agents=agents, owners={"Boardwalk": 1, "Reading Railroad": 0},
                             cash={0: 20})
    st = game.state
    assert st.mortgaged[P("Reading Railroad")]
    assert st.cash[:2] == [20 + 100 - 50, 1550]
    assert not st.bankrupt[0]
