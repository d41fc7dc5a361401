"""Scenario tests of the LOTR short game (its five changes) and time-limit game (001)."""

import rulelang
from rulelang.engine.actions import Build, apply, legal_actions
from rulelang.engine.endings import valuation
from rulelang.engine.game import Game
from scenario import RULESETS, Scripted, pos, refused, scenario, total_money

SHORT = "lotr_short.rules"
TIMED = "lotr_timed.rules"


def deeds(game, seat):
    return [q for q in game.rulebook.properties if game.state.owner[q] == seat]


def test_change_1_three_free_deeds_are_dealt():
    """SHORT GAME 1: three Title Deeds dealt to each player, free."""
    game = scenario(name=SHORT, dealt=True)
    for seat in range(3):
        assert len(deeds(game, seat)) == 3
        assert game.state.cash[seat] == 1500
    assert total_money(game) == 0


def test_change_2_a_fortress_after_three_strongholds():
    """SHORT GAME 2: three strongholds on each territory of the group, then a fortress."""
    owners = {"Bag End": 0, "Farmer Maggot's": 0}
    game = scenario(name=SHORT, owners=owners, houses={"Bag End": 3, "Farmer Maggot's": 3})
    apply(game, 0, Build(pos(game, "Bag End")))
    assert game.state.hotels[pos(game, "Bag End")] == 1
    assert game.state.houses[pos(game, "Bag End")] == 0
    regular = scenario(name="lotr.rules", owners=owners,
                       houses={"Bag End": 3, "Farmer Maggot's": 3})
    before = regular.state.hotels[pos(regular, "Bag End")]
    apply(regular, 0, Build(pos(regular, "Bag End")))
    assert regular.state.hotels[pos(regular, "Bag End")] == before  # a fourth stronghold
    assert regular.state.houses[pos(regular, "Bag End")] == 4


def test_change_2_no_fourth_stronghold_even_without_a_fortress_to_buy():
    """SHORT GAME 2: « You need only three strongholds (instead of four) ... before you may buy
    a fortress » (decision D9, as the 004 and 000 short games): three strongholds is the most
    a territory holds; with no fortress left in the Bank nothing more is built there, where
    the regular game builds a fourth stronghold."""
    owners = {"Bag End": 0, "Farmer Maggot's": 0}
    three = {"Bag End": 3, "Farmer Maggot's": 3}
    game = scenario(name=SHORT, owners=owners, houses=three, bank_hotels=0)
    assert not [a for a in legal_actions(game, 0) if isinstance(a, Build)]
    refused(game, 0, Build(pos(game, "Bag End")), "building_shortage")
    assert game.state.houses[pos(game, "Bag End")] == 3
    regular = scenario(name="lotr.rules", owners=owners, houses=three, bank_hotels=0)
    apply(regular, 0, Build(pos(regular, "Bag End")))
    assert regular.state.houses[pos(regular, "Bag End")] == 4


def test_change_2_the_fortress_counts_three_strongholds_in_the_valuation():
    """SHORT GAME 2 and 5: a fortress is valued with the three strongholds turned in."""
    game = scenario(name=SHORT, owners={"Bag End": 0, "Farmer Maggot's": 0},
                    hotels={"Bag End": 1})
    own = sum(game.rulebook.spaces[q].price for q in deeds(game, 0))
    assert valuation(game, 0) == 1500 + own + 50 + 3 * 50


def test_change_3_out_of_jail_on_the_next_turn_paying_after_a_failed_double():
    """SHORT GAME 3: try for doubles and, failing, pay 50 on the same turn and move."""
    game = scenario(name=SHORT, dice=[(2, 3)], in_jail={0: 0}, cash={0: 500})
    game.play_turn()
    assert not game.state.in_jail[0]
    assert game.state.cash[0] == 450
    assert game.state.position[0] == pos(game, "Jail") + 5
    assert total_money(game) == 0


def test_change_3_the_regular_game_keeps_the_player_in_jail():
    """The regular game: a failed double on the first turn in jail keeps the player there."""
    game = scenario(name="lotr.rules", dice=[(2, 3)], in_jail={0: 0}, cash={0: 500})
    game.play_turn()
    assert game.state.in_jail[0] and game.state.cash[0] == 500


def test_change_4_seen_by_the_palantir_is_a_flat_200():
    """SHORT GAME 4: a flat 200, no choice of a percentage."""
    agent = Scripted(tax=1)
    game = scenario(name=SHORT, agents=[agent, Scripted(), Scripted()], dice=[(1, 3)],
                    cash={0: 5000})
    game.play_turn()
    assert game.state.position[0] == pos(game, "Seen by the Palantir")
    assert game.state.cash[0] == 4800
    assert not [a for a in agent.asked if a[0] == "tax"]


def test_the_regular_game_offers_the_choice_on_seen_by_the_palantir():
    """The regular game: 200 or 10% of the worth (the change 4 implies it is not flat)."""
    agent = Scripted(tax=0)
    game = scenario(name="lotr.rules", agents=[agent, Scripted(), Scripted()], dice=[(1, 3)])
    game.play_turn()
    assert ("tax", (("money", 200), ("worth", 10))) in agent.asked


def test_change_5_the_first_bankruptcy_ends_the_game_and_the_most_powerful_wins():
    """SHORT GAME 5: one bankruptcy ends the game; the remaining players' valuation decides."""
    game = scenario(name=SHORT, dice=[(2, 3)], positions={0: "Pennsylvania Avenue"},
                    cash={0: 10, 1: 100, 2: 3000}, owners={"Mount Doom": 1},
                    hotels={"Mount Doom": 1})
    game.play_turn()
    assert game.state.bankrupt[0]
    assert game.over and game.end_reason == "end_of_game"
    assert game.winner == 2
    assert total_money(game) == 0


def test_timed_two_deeds_are_dealt_and_paid():
    """TIME LIMIT GAME: two deeds each, paid to the bank at once."""
    game = scenario(name=TIMED, dealt=True)
    for seat in range(3):
        mine = deeds(game, seat)
        assert len(mine) == 2
        paid = sum(game.rulebook.spaces[q].price for q in mine)
        assert game.state.cash[seat] == 1500 - paid
    assert total_money(game) == 0


def test_timed_the_game_ends_at_the_agreed_hour_and_the_most_powerful_wins():
    """TIME LIMIT GAME: at the hour agreed before the game, the most powerful player wins."""
    rb = rulelang.load(str(RULESETS / TIMED), parameters={"time_limit": "30"})
    game = Game(rb, [rulelang.DefaultAgent() for _ in range(4)], seed=3).play()
    assert game.end_reason == "time_limit" and game.state.turn == 30
    alive = [s for s in range(4) if not game.state.bankrupt[s]]
    assert len(alive) > 1
    assert valuation(game, game.winner) == max(valuation(game, s) for s in alive)
