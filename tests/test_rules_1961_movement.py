"""Scenario tests of the 1961 regular game: doubles, salary, going to jail, plain corners."""

from scenario import Scripted, rulebook, scenario, total_money

RB = rulebook()


def P(name: str) -> int:
    """The index of the (first) space of that name."""
    return RB.space(name).index


CHANCE_36 = 36  # the third "Chance" space (P("Chance") is the first, 7)


# ------------------------------------------------------------------ doubles


def test_doubles_roll_again_and_each_landing_is_obeyed():
    """DÉBUT DE LA PARTIE: a double moves, obeys the space, then the player rolls again."""
    game = scenario(dice=[(2, 2), (3, 4)], positions={0: "Free Parking"},
                    owners={"Illinois Avenue": 1, "Pacific Avenue": 2})
    game.play_turn()
    st = game.state
    assert st.position[0] == P("Pacific Avenue")
    assert st.cash[0] == 1500 - 20 - 26  # rent at Illinois (after the double), then Pacific
    assert st.cash[1] == 1520 and st.cash[2] == 1526
    assert st.current == 1
    assert total_money(game) == 0


def test_two_doubles_then_a_plain_roll_do_not_send_to_jail():
    """DÉBUT DE LA PARTIE: only three doubles in a row send to jail; two then a plain roll move on."""
    game = scenario(dice=[(2, 2), (3, 3), (1, 2)], positions={0: "Jail"},
                    owners={"Virginia Avenue": 0})
    game.play_turn()
    st = game.state
    assert st.position[0] == P("Indiana Avenue")
    assert not st.in_jail[0]
    assert total_money(game) == 0


def test_third_double_goes_to_jail_without_moving():
    """DÉBUT DE LA PARTIE / LA PRISON (3): the third double in a row sends to jail at once, unmoved."""
    game = scenario(dice=[(2, 2), (3, 3), (4, 4)], positions={0: "Jail"},
                    owners={"Virginia Avenue": 1, "Water Works": 1})
    game.play_turn()
    st = game.state
    assert st.position[0] == RB.jail and st.in_jail[0]
    # rent at Virginia (first double) only: the third roll (to Water Works) is not moved
    assert st.cash[0] == 1500 - 12
    assert st.current == 1
    assert total_money(game) == 0


def test_third_double_that_would_pass_go_pays_no_salary():
    """LA PRISON, Note: a player sent to jail by his third double collects no salary for that roll."""
    game = scenario(dice=[(1, 1), (2, 2), (5, 5)], positions={0: "B. & O. Railroad"},
                    owners={"Ventnor Avenue": 0, "Pacific Avenue": 0})
    game.play_turn()
    st = game.state
    assert st.position[0] == RB.jail and st.in_jail[0]
    assert st.cash[0] == 1500
    assert total_money(game) == 0


def test_turn_ends_when_a_double_lands_on_go_to_jail():
    """LA PRISON: a player sent to jail stops playing, even after a double."""
    game = scenario(dice=[(3, 3)], positions={0: "Illinois Avenue"})
    game.play_turn()  # a second roll would exhaust the script and fail
    st = game.state
    assert st.position[0] == RB.jail and st.in_jail[0] and st.jail_turns[0] == 0
    assert st.cash[0] == 1500
    assert st.current == 1
    assert total_money(game) == 0


# ------------------------------------------------------------------ salary


def test_salary_when_stopping_exactly_on_go():
    """SALAIRE: stopping on GO pays $200, the same as passing it."""
    game = scenario(dice=[(1, 3)], cash={0: 100})
    game.state.position[0] = CHANCE_36
    game.play_turn()
    assert game.state.position[0] == P("GO")
    assert game.state.cash[0] == 300
    assert total_money(game) == 0


def test_salary_paid_once_per_pass_in_a_two_roll_turn():
    """SALAIRE: $200 once for each time round; a double from GO onward pays nothing more."""
    game = scenario(dice=[(3, 3), (2, 3)], positions={0: "Short Line"},
                    owners={"Mediterranean Avenue": 0, "Oriental Avenue": 0}, cash={0: 100})
    game.play_turn()
    st = game.state
    assert st.position[0] == P("Oriental Avenue")  # 35 -> 1 (Mediterranean) -> 6 (Oriental)
    assert st.cash[0] == 300
    assert total_money(game) == 0


def test_advance_to_go_from_chance_seven_spaces_after_go_pays_twice():
    """SALAIRE: passing GO, stopping on "Chance" seven spaces on, "Advance to Go": $400."""
    game = scenario(dice=[(5, 6)], cash={0: 100}, decks={"Chance": ["CH01"]})
    game.state.position[0] = CHANCE_36
    game.play_turn()
    assert game.state.position[0] == P("GO")
    assert game.state.cash[0] == 500
    assert total_money(game) == 0


def test_go_back_three_spaces_pays_no_salary():
    """SALAIRE: only a forward move ("dans le sens de la Flèche") pays; going back 3 pays nothing."""
    agent = Scripted(tax=0)
    game = scenario(agents=[agent, Scripted(), Scripted()], dice=[(3, 4)], cash={0: 1000},
                    decks={"Chance": ["CH09"]})
    game.play_turn()
    st = game.state
    assert st.position[0] == P("Income Tax")  # Chance (7) back 3 -> Income Tax (4)
    assert st.cash[0] == 1000 - 200  # the flat tax, and no salary
    assert agent.asked == [("tax", (("money", 200), ("worth", 10)))]
    assert total_money(game) == 0


def test_card_advance_past_go_pays_salary():
    """SALAIRE: passing GO by a card ("en retirant une carte") pays $200."""
    game = scenario(dice=[(1, 3)], positions={0: "Tennessee Avenue"},
                    owners={"Reading Railroad": 0}, decks={"Chance": ["CH13"]}, cash={0: 100})
    game.play_turn()  # Tennessee (18) + 4 = Chance (22) -> "A ride on the Reading" (5)
    assert game.state.position[0] == P("Reading Railroad")
    assert game.state.cash[0] == 300
    assert total_money(game) == 0


def test_landing_on_go_to_jail_pays_no_salary_and_ends_turn():
    """LA PRISON (1): "Go To Jail" sends the pawn straight to jail; no salary, no more rolls."""
    game = scenario(dice=[(2, 3)], positions={0: "B. & O. Railroad"}, cash={0: 100})
    game.play_turn()
    st = game.state
    assert st.position[0] == RB.jail and st.in_jail[0]
    assert st.cash[0] == 100
    assert total_money(game) == 0


# ------------------------------------------------------------------ plain corners


def test_just_visiting_jail_has_no_effect():
    """LA PRISON, Visite: a pawn that only lands on Jail is visiting and moves on next turn."""
    game = scenario(dice=[(1, 3), (2, 3)], positions={0: "Oriental Avenue"},
                    owners={"Pennsylvania Railroad": 0})
    game.play_turn()
    st = game.state
    assert st.position[0] == RB.jail and not st.in_jail[0] and st.cash[0] == 1500
    st.current = 0
    game.play_turn()
    assert st.position[0] == P("Pennsylvania Railroad") and not st.in_jail[0]
    assert st.cash[0] == 1500
    assert total_money(game) == 0


def test_free_parking_pays_nothing():
    """STATIONNEMENT GRATUIT: stopping on Free Parking brings no money."""
    game = scenario(dice=[(1, 2)])
    game.state.position[0] = 17  # the second Community Chest; + 3 = Free Parking
    bank = game.state.cash[game.state.bank]
    game.play_turn()
    assert game.state.position[0] == P("Free Parking")
    assert game.state.cash[0] == 1500 and game.state.cash[game.state.bank] == bank
    assert total_money(game) == 0


def test_turn_passes_to_the_next_seat():
    """DÉBUT DE LA PARTIE: after a turn, it is the turn of the player on the left (next seat)."""
    game = scenario(dice=[(1, 2), (1, 2)], owners={"Baltic Avenue": 0}, current=1)
    game.play_turn()
    assert game.state.current == 2
    game.play_turn()
    assert game.state.current == 0 and game.state.round == 1
    assert game.state.cash[:3] == [1508, 1496, 1496]  # both paid rent at Baltic
    assert total_money(game) == 0
