"""Scenario tests of The Lord of the Rings Trilogy Edition (001, English): the Eye of Sauron,
the One Ring of the Optional Rule, and the edition's changes to the rules it shares."""

from rulelang.engine.actions import Build
from scenario import Scripted, pos, refused, scenario, total_money

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


def test_no_stronghold_while_a_territory_of_the_group_is_mortgaged():
    """MORTGAGES: strongholds only once no territory of the group is mortgaged (the 1961
    rules lift the mortgage first instead)."""
    game = lotr(options=(), owners={"Bag End": 0, "Farmer Maggot's": 0},
                mortgaged=["Farmer Maggot's"])
    refused(game, 0, Build(pos(game, "Bag End")), "mortgages")
    refused(game, 0, Build(pos(game, "Farmer Maggot's")), "mortgages")
