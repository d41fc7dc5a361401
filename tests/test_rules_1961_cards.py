"""Scenario tests of the 1961 regular game: Chance and Community Chest cards."""

from rulelang.engine.actions import Trade, apply
from scenario import Scripted, rulebook, scenario, total_money

RB = rulebook()
CHANCE, CHEST = 0, 1
assert RB.decks[CHANCE].name == "Chance" and RB.decks[CHEST].name == "Community Chest"


def P(name: str) -> int:
    return RB.space(name).index


def card(deck: int, card_id: str) -> int:
    return next(i for i, c in enumerate(RB.decks[deck].cards) if c.id == card_id)


def chest_game(top, **kw):
    """Seat 0 on Virginia Avenue (14) rolls 3 onto the Community Chest at 17."""
    return scenario(dice=[(1, 2)], positions={0: "Virginia Avenue"},
                    decks={"Community Chest": top}, **kw)


def chance_game(top, **kw):
    """Seat 0 on GO rolls 7 onto the Chance at 7."""
    return scenario(dice=[(3, 4)], decks={"Chance": top}, **kw)


def test_drawn_card_goes_under_the_deck():
    """CHANCE ou CAISSE COMMUNE: the top card is obeyed, then put face down under the deck."""
    game = chest_game(["CC02"])
    deck = list(game.state.decks[CHEST])
    game.play_turn()
    st = game.state
    assert st.position[0] == 17
    assert st.cash[0] == 1500 + 200  # "Bank error in your favour"
    assert st.decks[CHEST] == deck[1:] + [deck[0]]
    assert total_money(game) == 0


def test_next_landing_draws_the_following_card():
    """CHANCE ou CAISSE COMMUNE: each player takes the card now on top of the deck."""
    game = scenario(dice=[(1, 2), (1, 2)], cash={1: 1000},
                    positions={0: "Virginia Avenue", 1: "Virginia Avenue"},
                    decks={"Community Chest": ["CC03", "CC04"]})
    game.play_turn()
    game.play_turn()
    st = game.state
    assert st.cash[0] == 1500 - 50  # Doctor's fee
    assert st.cash[1] == 1000 + 45  # Sale of stock
    assert total_money(game) == 0


def test_get_out_of_jail_free_is_kept_out_of_the_deck():
    """CHANCE ou CAISSE COMMUNE: "Get out of jail free" is kept until used, out of the deck."""
    game = chest_game(["CC05"])
    game.play_turn()
    st = game.state
    cc05 = card(CHEST, "CC05")
    assert st.jail_cards[0] == [(CHEST, cc05)]
    assert cc05 not in st.decks[CHEST] and len(st.decks[CHEST]) == 15
    assert st.cash[0] == 1500
    assert total_money(game) == 0


def test_used_jail_card_returns_under_its_own_deck():
    """CHANCE ou CAISSE COMMUNE / LA PRISON (2): once used, the card goes back under its deck."""
    game = scenario(agents=[Scripted(jail="card"), Scripted(), Scripted()], dice=[(1, 2)],
                    in_jail={0: 0}, jail_cards={0: [("Chance", "CH08")]})
    game.play_turn()
    st = game.state
    assert not st.in_jail[0] and st.position[0] == P("States Avenue")
    assert st.jail_cards[0] == []
    assert st.decks[CHANCE][-1] == card(CHANCE, "CH08") and len(st.decks[CHANCE]) == 16
    assert st.cash[0] == 1500
    assert total_money(game) == 0


def test_jail_card_sold_to_another_player():
    """CHANCE ou CAISSE COMMUNE: the jail card may be sold to another player at an agreed price."""
    game = scenario(agents=[Scripted(), Scripted(accept=True), Scripted()],
                    jail_cards={0: [("Community Chest", "CC05")]})
    apply(game, 0, Trade(1, give_cards=1, cash=-75))
    st = game.state
    assert st.jail_cards[0] == [] and st.jail_cards[1] == [(CHEST, card(CHEST, "CC05"))]
    assert st.cash[:2] == [1575, 1425]
    assert total_money(game) == 0


def test_bought_jail_card_frees_the_buyer_and_returns_to_its_deck():
    """LA PRISON (2): a card bought from another player frees the buyer, then goes under its deck."""
    game = scenario(agents=[Scripted(accept=True), Scripted(jail="card"), Scripted()], dice=[(1, 2)],
                    in_jail={1: 1}, jail_cards={0: [("Community Chest", "CC05")]}, current=1)
    apply(game, 1, Trade(0, take_cards=1, cash=30))
    game.play_turn()
    st = game.state
    assert not st.in_jail[1] and st.position[1] == P("States Avenue")
    assert st.jail_cards == [[], [], []]
    assert st.decks[CHEST][-1] == card(CHEST, "CC05")
    assert st.cash[:2] == [1530, 1470]
    assert total_money(game) == 0


def test_general_repairs_per_house_and_hotel():
    """Chance "General repairs": $25 per house, $100 per hotel."""
    game = chance_game(["CH11"], owners={"Park Place": 0, "Boardwalk": 0, "Mediterranean Avenue": 0,
                                         "Baltic Avenue": 0},
                       houses={"Park Place": 4, "Mediterranean Avenue": 2, "Baltic Avenue": 1},
                       hotels={"Boardwalk": 1})
    game.play_turn()
    assert game.state.cash[0] == 1500 - (7 * 25 + 100)
    assert total_money(game) == 0


def test_street_repairs_per_house_and_hotel():
    """Community Chest "Street repairs": $40 per house, $115 per hotel."""
    game = chest_game(["CC14"], owners={"Park Place": 0, "Boardwalk": 0},
                      houses={"Park Place": 4}, hotels={"Boardwalk": 1})
    game.play_turn()
    assert game.state.cash[0] == 1500 - (4 * 40 + 115)
    assert total_money(game) == 0


def test_repairs_without_buildings_cost_nothing():
    """Chance "General repairs": a player without buildings pays nothing."""
    game = chance_game(["CH11"], owners={"Park Place": 0})
    game.play_turn()
    assert game.state.cash[0] == 1500
    assert total_money(game) == 0


def test_pay_each_player():
    """Chance "Chairman of the board": pay each other player $50."""
    game = chance_game(["CH15"], players=4)
    game.play_turn()
    assert game.state.cash[:4] == [1500 - 150, 1550, 1550, 1550]
    assert total_money(game) == 0


def test_collect_from_each_player():
    """Community Chest "Grand opera opening": collect $50 from each other player."""
    game = chest_game(["CC07"])
    game.play_turn()
    assert game.state.cash[:3] == [1600, 1450, 1450]
    assert total_money(game) == 0


def test_go_to_jail_card():
    """LA PRISON (2): a "Go to jail" card sends the pawn straight to jail and ends the turn."""
    game = chest_game(["CC06"])
    game.play_turn()
    st = game.state
    assert st.position[0] == RB.jail and st.in_jail[0]
    assert st.cash[0] == 1500
    assert st.decks[CHEST][-1] == card(CHEST, "CC06")
    assert st.current == 1
    assert total_money(game) == 0


def test_go_to_jail_card_after_a_double_ends_the_turn():
    """LA PRISON: a player sent to jail by a card after a double does not roll again."""
    game = scenario(dice=[(2, 2)], positions={0: "Tennessee Avenue"}, decks={"Chance": ["CH10"]})
    game.play_turn()  # 18 + 4 = Chance (22) -> jail; no second roll
    st = game.state
    assert st.in_jail[0] and st.position[0] == RB.jail
    assert total_money(game) == 0


def test_advance_to_go_from_community_chest_without_passing_go():
    """SALAIRE: "Advance to Go" from a Community Chest not past GO pays $200 once."""
    game = chest_game(["CC01"])
    game.play_turn()
    assert game.state.position[0] == P("GO") and game.state.cash[0] == 1700
    assert total_money(game) == 0


def test_card_advance_to_a_lot_owned_by_another_player_pays_rent():
    """BIEN QUI A DÉJA UN PROPRIÉTAIRE: reaching an owned lot by a card pays its normal rent."""
    game = chance_game(["CH14"], owners={"Boardwalk": 1, "Park Place": 1})
    game.play_turn()
    assert game.state.position[0] == P("Boardwalk")
    assert game.state.cash[:2] == [1400, 1600]
    assert total_money(game) == 0


def test_go_back_three_onto_community_chest_draws_there():
    """Chance "Go back three spaces": the space reached is obeyed (here a Community Chest)."""
    game = scenario(dice=[(2, 3)], positions={0: "Pacific Avenue"},
                    decks={"Chance": ["CH09"], "Community Chest": ["CC16"]})
    game.play_turn()  # 31 + 5 = Chance (36) -> back 3 -> Community Chest (33)
    assert game.state.position[0] == 33
    assert game.state.cash[0] == 1600
    assert total_money(game) == 0
