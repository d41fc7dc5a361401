"""Scenario tests of The Lord of the Rings Trilogy Edition (001, English): the Eye of Sauron,
the One Ring of the Optional Rule, and the edition's changes to the rules it shares."""

import json

import rulelang
from rulelang.engine.actions import Build, Lift, Mortgage, Sell, SellAll, Trade, apply
from rulelang.engine.game import Game
from scenario import (Scripted, assert_classic_values, assert_contents, pos, refused, rulebook,
                      scenario, total_money)

LOTR = "lotr.rules"
RING = ("one_ring",)


def ring(game) -> str:
    """The name of the space the One Ring stands on."""
    return game.rulebook.spaces[game.state.tokens[0]].name


def lotr(**kw):
    kw.setdefault("name", LOTR)
    kw.setdefault("options", RING)
    return scenario(**kw)


def test_the_eye_of_sauron_counts_as_one():
    """The Dice: the Eye of Sauron is treated like a 1 for the move."""
    game = lotr(dice=[(1, 3)], options=())
    game.play_turn()
    assert game.state.position[0] == pos(game, "Seen by the Palantir")


def test_only_one_die_carries_the_eye():
    """The Dice: one die has the Eye; a 1 on the other die is a plain 1."""
    rb = lotr().rulebook
    assert [name for _, _, name in rb.face_names] == ["Eye of Sauron"]
    game = lotr(dice=[(3, 1)], positions={0: "Jail"})
    game.play_turn()
    assert ring(game) == "Bag End"


def test_the_ring_starts_on_bag_end_and_skips_to_the_next_territories():
    """OPTIONAL RULE: Bag End -> Farmer Maggot's (over the Event space) -> Buckleberry Ferry
    (over Seen by the Palantir and Bill the Pony), one territory per Eye."""
    game = lotr(dice=[(1, 4), (1, 5)], players=2, positions={0: "Jail", 1: "Jail"})
    assert ring(game) == "Bag End"
    game.play_turn()
    assert ring(game) == "Farmer Maggot's"
    game.play_turn()
    assert ring(game) == "Buckleberry Ferry"


def test_no_ring_without_the_optional_rule():
    """OPTIONAL RULE: the Ring is an option; without it there is no token to move."""
    game = lotr(dice=[(1, 3)], options=())
    game.play_turn()
    assert game.state.tokens == [] and game.rulebook.tokens == ()


def test_the_ring_moves_before_the_pawn_and_gives_the_territory_free():
    """OPTIONAL RULE: the Ring moves first; landing on its unclaimed territory, claim it free."""
    agent = Scripted(claim=True)
    game = lotr(agents=[agent, Scripted(), Scripted()], dice=[(1, 2)])
    game.play_turn()
    assert game.state.position[0] == pos(game, "Farmer Maggot's") == game.state.tokens[0]
    assert game.state.owner[pos(game, "Farmer Maggot's")] == 0
    assert game.state.cash[0] == 1500
    assert ("claim", pos(game, "Farmer Maggot's")) in agent.asked
    assert total_money(game) == 0


def test_declining_the_free_claim_leaves_the_usual_purchase():
    """OPTIONAL RULE ("you can claim it"): a player who declines may still buy at the price."""
    game = lotr(agents=[Scripted(claim=False, buy=True), Scripted(), Scripted()],
                dice=[(1, 2)])
    game.play_turn()
    assert game.state.owner[pos(game, "Farmer Maggot's")] == 0
    assert game.state.cash[0] == 1500 - 60


def test_no_free_claim_where_the_ring_is_not():
    """OPTIONAL RULE: an unclaimed territory without the Ring is bought at its price."""
    game = lotr(agents=[Scripted(claim=True, buy=True), Scripted(), Scripted()],
                dice=[(2, 1)], tokens={"The One Ring": "Bag End"})
    game.play_turn()
    assert game.state.owner[pos(game, "Farmer Maggot's")] == 0
    assert game.state.cash[0] == 1440


def test_double_rent_on_the_rings_claimed_territory():
    """OPTIONAL RULE: on a claimed territory with the Ring, DOUBLE the normal rent."""
    game = lotr(dice=[(2, 3)], positions={0: "Pennsylvania Avenue"},
                owners={"Mount Doom": 1}, tokens={"The One Ring": "Mount Doom"})
    game.play_turn()
    assert game.state.cash[:2] == [1500 - 100, 1500 + 100]
    assert total_money(game) == 0


def test_double_rent_doubles_the_whole_group_rent_too():
    """OPTIONAL RULE: the normal rent of a whole group's bare lot is doubled again."""
    game = lotr(dice=[(2, 3)], positions={0: "Pennsylvania Avenue"},
                owners={"Mount Doom": 1, "Barad-dûr": 1}, tokens={"The One Ring": "Mount Doom"})
    game.play_turn()
    assert game.state.cash[:2] == [1500 - 200, 1500 + 200]


def test_normal_rent_where_the_ring_is_not():
    """OPTIONAL RULE: without the Ring on it, a territory's rent is the normal one."""
    game = lotr(dice=[(2, 3)], positions={0: "Pennsylvania Avenue"},
                owners={"Mount Doom": 1}, tokens={"The One Ring": "Barad-dûr"})
    game.play_turn()
    assert game.state.cash[:2] == [1450, 1550]


def test_the_ring_on_mount_doom_ends_the_game_before_the_pawn_moves():
    """OPTIONAL RULE: the Ring onto Mount Doom ends the game at once, the roller does not
    move, and the greatest total value (not the roller) wins."""
    game = lotr(dice=[(1, 3)], cash={0: 100, 1: 2000, 2: 900}, owners={"Bag End": 2},
                mortgaged=["Bag End"], tokens={"The One Ring": "Barad-dûr"})
    game.play_turn()
    assert ring(game) == "Mount Doom"
    assert game.over and game.end_reason == "mount_doom"
    assert game.state.position[0] == pos(game, "GO")
    assert game.winner == 1
    assert total_money(game) == 0


def test_the_valuation_counts_mortgages_at_half_and_fortresses_with_their_strongholds():
    """OPTIONAL RULE: power, printed values, mortgaged at half, strongholds and fortresses
    (with the four strongholds turned in) at their purchase value."""
    game = lotr(dice=[(1, 3)], cash={0: 1000, 1: 1000, 2: 100},
                owners={"Bag End": 2, "Farmer Maggot's": 2, "Bill the Pony": 1},
                mortgaged=["Bill the Pony"], hotels={"Bag End": 1, "Farmer Maggot's": 1},
                tokens={"The One Ring": "Barad-dûr"})
    game.play_turn()
    # seat 2: 100 + 60 + 60 + 2 * (50 + 4 * 50) = 720; seat 1: 1000 + 100 = 1100
    assert game.winner == 1
    game2 = lotr(dice=[(1, 3)], cash={0: 1000, 1: 1000, 2: 600},
                 owners={"Bag End": 2, "Farmer Maggot's": 2, "Bill the Pony": 1},
                 mortgaged=["Bill the Pony"], hotels={"Bag End": 1, "Farmer Maggot's": 1},
                 tokens={"The One Ring": "Barad-dûr"})
    game2.play_turn()
    # seat 2: 600 + 120 + 500 = 1220 > 1100
    assert game2.winner == 2


def test_an_eye_in_jail_moves_the_ring():
    """OPTIONAL RULE ("every time a player rolls the Eye"): a throw in jail counts too."""
    game = lotr(dice=[(1, 3)], in_jail={0: 0})
    game.play_turn()
    assert game.state.in_jail[0] and ring(game) == "Farmer Maggot's"


def test_players_two_to_six():
    """For 2 to 6 Players: six tokens."""
    assert lotr().rulebook.settings.players == (2, 6)


def test_no_double_rent_on_a_whole_group_with_a_mortgaged_lot():
    """PAYING RENT (missing; the French twin): no double rent while a lot of the group is
    mortgaged."""
    game = lotr(dice=[(2, 3)], positions={0: "Pennsylvania Avenue"}, options=(),
                owners={"Mount Doom": 1, "Barad-dûr": 1}, mortgaged=["Barad-dûr"])
    game.play_turn()
    assert game.state.cash[:2] == [1450, 1550]


def test_themed_names():
    """What's different?: Power, strongholds and fortresses, steeds and staffs."""
    rb = lotr().rulebook
    assert rb.currency == "Power"
    assert rb.building_names == ("stronghold", "fortress")
    steeds = [rb.spaces[q].name for q in rb.groups[rb.space("Bill the Pony").group]]
    assert steeds == ["Bill the Pony", "Asfaloth", "Brego", "Shadowfax"]
    assert rb.group_names[rb.space("Staff of Gandalf").group] == "Staffs of the Wizards"
    assert [d.name for d in rb.decks] == ["People", "Event"]
    assert [rb.spaces[q].name for q in (2, 7, 17, 22, 33, 36)] == [
        "Event", "People", "Event", "People", "Event", "People"]
    assert rb.group_names[rb.space("Bill the Pony").group] == "Steeds"


def test_no_stronghold_while_a_territory_of_the_group_is_mortgaged():
    """MORTGAGES: strongholds only once no territory of the group is mortgaged (the 1961
    rules lift the mortgage first instead)."""
    game = lotr(options=(), owners={"Bag End": 0, "Farmer Maggot's": 0},
                mortgaged=["Farmer Maggot's"])
    refused(game, 0, Build(pos(game, "Bag End")), "mortgages")
    refused(game, 0, Build(pos(game, "Farmer Maggot's")), "mortgages")


def test_territories_keep_the_classic_values():
    """What's different?: all the values are those of the corresponding classic deeds."""
    assert_classic_values(LOTR)


def test_contents():
    """Contents: 2 dice, 16 People and 16 Event cards, 32 strongholds, 12 fortresses, and The
    One Ring for the Optional Rule."""
    assert_contents(LOTR, RING, dice=2, decks=["People", "Event"], tokens=["The One Ring"])


def test_preparation_1500_power_each_and_the_cards_shuffled():
    """PREPARATION: the People and Event cards face down (shuffled); 1,500 units of power
    each; the rest to the Bank."""
    rb = rulebook(LOTR)
    log: list[str] = []
    game = Game(rb, [rulelang.DefaultAgent() for _ in range(4)], seed=2, log=log.append)
    shuffled = [json.loads(line) for line in log if '"event":"shuffle"' in line]
    assert [(e["deck"], e["rule"]) for e in shuffled] == [("People", "preliminaries"),
                                                         ("Event", "preliminaries")]
    assert game.state.cash[:4] == [1500] * 4
    assert total_money(game) == 0


def test_fly_you_fools_after_passing_go_pays_twice():
    """"GO": passing GO and landing on Events two spaces beyond it, "Fly you Fools! Proceed
    to Go" (the classic Advance to Go, decision D3) pays 200 twice."""
    game = lotr(options=(), dice=[(1, 3)], positions={0: "Shelob's Lair"}, cash={0: 100},
                decks={"Event": ["CC01"]})
    game.play_turn()
    assert game.state.position[0] == pos(game, "GO")
    assert game.state.cash[0] == 500
    assert total_money(game) == 0


def test_rent_claimed_before_the_second_following_player_rolls():
    """Rent claims (lost from the English text; the French twin, D2): the owner is in time
    until the second player after the tenant rolls."""
    for delay, paid in ((0, 6), (1, 6), (2, 0)):
        game = lotr(options=(), agents=[Scripted(), Scripted(claim_delay=delay), Scripted()],
                    dice=[(2, 4)], owners={"Buckleberry Ferry": 1})
        game.play_turn()
        assert game.state.position[0] == pos(game, "Buckleberry Ferry")
        assert game.state.cash[:2] == [1500 - paid, 1500 + paid], delay


def test_steeds_rent_by_the_number_held():
    """Railroads (lost from the English text; the French twin, D2): the steeds rent 25, 50,
    100 or 200 by the number the owner holds."""
    steeds = ["Bill the Pony", "Asfaloth", "Brego", "Shadowfax"]
    for held, rent in ((1, 25), (2, 50), (3, 100), (4, 200)):
        game = lotr(options=(), dice=[(1, 2)], positions={0: "North Carolina Avenue"},
                    owners={name: 1 for name in steeds[-held:]})
        game.play_turn()
        assert game.state.position[0] == pos(game, "Shadowfax")
        assert game.state.cash[:2] == [1500 - rent, 1500 + rent], held
    for held, rent in ((1, 25), (2, 50), (3, 100), (4, 200)):  # every steed alike
        game = lotr(options=(), dice=[(2, 3)], owners={name: 1 for name in steeds[:held]})
        game.play_turn()
        assert game.state.position[0] == pos(game, "Bill the Pony")
        assert game.state.cash[:2] == [1500 - rent, 1500 + rent], held


def test_staffs_of_the_wizards_rent_four_or_ten_times_the_dice():
    """Utilities (lost from the English text; the French twin, D2): one staff, 4 times the
    dice; both staffs, 10 times."""
    for owners, rent in (({"Staff of Gandalf": 1}, 28),
                         ({"Staff of Gandalf": 1, "Staff of Saruman": 1}, 70)):
        game = lotr(options=(), dice=[(3, 4)], positions={0: "Bill the Pony"}, owners=owners)
        game.play_turn()
        assert game.state.position[0] == pos(game, "Staff of Gandalf")
        assert game.state.cash[:2] == [1500 - rent, 1500 + rent]


def test_an_event_space_draws_the_top_event_card_which_goes_under():
    """Cards (lost from the English text; the French twin, D2 and D3): the top card of the
    space's deck is obeyed, then put under the deck."""
    game = lotr(options=(), dice=[(1, 2)], positions={0: "Virginia Avenue"},
                decks={"Event": ["CC02"]})
    deck = list(game.state.decks[1])
    game.play_turn()
    assert game.rulebook.spaces[game.state.position[0]].name == "Event"
    assert game.state.cash[0] == 1500 + 200  # "Bank error in your favour"
    assert game.state.decks[1] == deck[1:] + [deck[0]]
    assert total_money(game) == 0


def test_shelobs_lair_pays_75_to_the_bank():
    """Taxes (lost from the English text; the French twin, D2): the amount on the space."""
    game = lotr(options=(), dice=[(1, 2)], positions={0: "Shadowfax"})
    game.play_turn()
    assert game.state.position[0] == pos(game, "Shelob's Lair")
    assert game.state.cash[0] == 1500 - 75
    assert total_money(game) == 0


def test_mortgage_after_the_groups_buildings_are_sold_and_lifting_at_ten_percent():
    """MORTGAGES: the buildings of the color-group go back to the Bank first; the Bank lends
    the printed mortgage value; lifting costs the mortgage plus 10%."""
    game = lotr(options=(), owners={"Barad-dûr": 0, "Mount Doom": 0},
                houses={"Barad-dûr": 1})
    doom = pos(game, "Mount Doom")
    refused(game, 0, Mortgage(doom), "mortgages")
    apply(game, 0, SellAll(doom))
    apply(game, 0, Mortgage(doom))
    assert game.state.mortgaged[doom] and game.state.cash[0] == 1500 + 100 + 200
    apply(game, 0, Lift(doom))
    assert not game.state.mortgaged[doom] and game.state.cash[0] == 1800 - 220
    assert total_money(game) == 0


def test_new_owner_of_a_mortgaged_territory_pays_ten_percent_at_once_and_again_later():
    """MORTGAGES: a mortgaged territory sold at an agreed price: the new owner pays the 10%
    at once, and the mortgage plus 10% again when lifting it later."""
    game = lotr(options=(), agents=[Scripted(), Scripted(accept=True), Scripted()],
                owners={"Staff of Gandalf": 0}, mortgaged=["Staff of Gandalf"])
    staff = pos(game, "Staff of Gandalf")
    refused(game, 1, Lift(staff), "mortgages")
    apply(game, 0, Trade(1, give=(staff,), cash=-40))
    st = game.state
    assert st.owner[staff] == 1 and st.mortgaged[staff]
    assert st.cash[:2] == [1540, 1500 - 40 - 8]
    apply(game, 1, Lift(staff))
    assert st.cash[1] == 1452 - 83 and not st.mortgaged[staff]
    assert total_money(game) == 0
    # lifting at once, on the trade: the mortgage plus 10%, paid once
    game = lotr(options=(), agents=[Scripted(), Scripted(accept=True, lift_on_transfer=True),
                                    Scripted()],
                owners={"Staff of Gandalf": 0}, mortgaged=["Staff of Gandalf"])
    apply(game, 0, Trade(1, give=(staff,), cash=-40))
    assert game.state.cash[:2] == [1540, 1500 - 40 - 83] and not game.state.mortgaged[staff]
    assert total_money(game) == 0


def test_a_jailed_owner_collects_rent_and_a_visitor_pays_nothing():
    """Prison (lost from the English text; the French twin, D2): even in jail a player
    collects his rents; a pawn that only stops on the jail space is visiting, no penalty."""
    game = lotr(options=(), dice=[(2, 3)], in_jail={0: 1}, owners={"Mount Doom": 0},
                positions={1: "Pennsylvania Avenue"}, current=1)
    game.play_turn()
    assert game.state.cash[:2] == [1550, 1450] and game.state.in_jail[0]
    game = lotr(options=(), dice=[(1, 3), (2, 3)], positions={0: "Buckleberry Ferry"})
    game.play_turn()
    st = game.state
    assert st.position[0] == game.rulebook.jail and not st.in_jail[0] and st.cash[0] == 1500
    st.current = 0
    game.play_turn()
    assert st.position[0] == pos(game, "Asfaloth") and not st.in_jail[0]
    assert total_money(game) == 0


def test_strongholds_only_on_a_whole_group_and_sold_back_evenly():
    """Strongholds (Maisons, lost from the English text; the French twin, D2): only on a
    complete colour group the player owns; sold back to the Bank evenly, at half price."""
    game = lotr(options=(), owners={"Mount Doom": 0, "Barad-dûr": 1})
    refused(game, 0, Build(pos(game, "Mount Doom")), "houses")
    lots = ["Buckleberry Ferry", "Vermont Avenue", "Connecticut Avenue"]
    game = lotr(options=(), owners={lot: 0 for lot in lots},
                houses={lots[0]: 2, lots[1]: 2, lots[2]: 1})
    refused(game, 0, Sell(pos(game, lots[2])), "selling")
    apply(game, 0, Sell(pos(game, lots[0])))
    assert game.state.houses[pos(game, lots[0])] == 1 and game.state.cash[0] == 1525
    assert total_money(game) == 0
