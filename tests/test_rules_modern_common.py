"""Scenario tests of the rules the French standard text (000 and 002) and Dinosaures (003)
state alike, each run on both rulesets (Dinosaures renames some spaces)."""

import pytest

from rulelang.engine.actions import Build, Lift, Mortgage, Sell, Trade, apply
from rulelang.engine.game import Game
from rulelang.runner import make_agents
from scenario import Scripted, refused, rulebook, scenario, total_money

BOOKS = {
    "french_standard.rules": {"fine": 50},
    "dinos.rules": {"fine": 150, "GO": "Départ", "Reading Railroad": "Trias",
                    "Pennsylvania Railroad": "Jurassique", "Electric Company": "Découverte passée",
                    "Go To Jail": "Allez en prison", "Chance": "Site de fouilles"},
}
parametrize = pytest.mark.parametrize("name", list(BOOKS))


def N(name: str, space: str) -> str:
    return BOOKS[name].get(space, space)


def P(name: str, space: str) -> int:
    return rulebook(name).space(N(name, space)).index


@parametrize
def test_salary_passing_or_stopping_on_go(name):
    """Départ: 200 each time the pawn passes or stops on GO."""
    game = scenario(name=name, dice=[(1, 2), (2, 4)], positions={0: "Park Place",
                                                                  1: "Park Place"})
    game.play_turn()
    game.play_turn()
    assert game.state.cash[0] == 1700 and game.state.cash[1] == 1700


@parametrize
def test_doubles_roll_again_and_three_go_to_jail(name):
    """Doubles: obey the space and roll again; the third double in a row sends to jail."""
    game = scenario(name=name, dice=[(1, 1), (2, 2), (3, 3)], positions={0: "Baltic Avenue"})
    game.play_turn()
    st = game.state
    assert st.in_jail[0] and st.position[0] == rulebook(name).jail


@parametrize
def test_buy_or_auction(name):
    """Achat: buy at the printed price; declined, the bank auctions it, the decliner may bid."""
    game = scenario(name=name, agents=[Scripted(buy=True), Scripted(), Scripted()],
                    dice=[(2, 3)])
    game.play_turn()
    assert game.state.owner[P(name, "Reading Railroad")] == 0 and game.state.cash[0] == 1300
    decliner = Scripted(bids=[120])
    game = scenario(name=name, agents=[decliner, Scripted(), Scripted()], dice=[(2, 3)])
    game.play_turn()
    assert game.state.owner[P(name, "Reading Railroad")] == 0 and game.state.cash[0] == 1380


@parametrize
def test_railroad_and_utility_rents(name):
    """Gares / eras by the number held; services / Découvertes the dice x4 (Découvertes: of
    a new throw, test_rules_dinos.py)."""
    game = scenario(name=name, dice=[(2, 3)], current=1, owners={
        N(name, "Reading Railroad"): 0, N(name, "Pennsylvania Railroad"): 0})
    game.play_turn()
    assert game.state.cash[0] == 1550
    rent_throw = [(1, 2)] if name == "dinos.rules" else []
    game = scenario(name=name, dice=[(1, 2)] + rent_throw, current=1,
                    positions={1: "Connecticut Avenue"},
                    owners={N(name, "Electric Company"): 0})
    game.play_turn()
    assert game.state.cash[0] == 1512


@parametrize
def test_rent_doubled_on_a_whole_group_and_none_on_a_mortgaged_lot(name):
    """Propriété déjà achetée: double on a whole bare group; nothing on a mortgaged lot."""
    game = scenario(name=name, dice=[(1, 2)], current=1, positions={1: N(name, "GO")},
                    owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0})
    game.play_turn()
    assert game.state.cash[0] == 1508
    game = scenario(name=name, dice=[(1, 2)], current=1, positions={1: N(name, "GO")},
                    owners={"Baltic Avenue": 0}, mortgaged=["Baltic Avenue"])
    game.play_turn()
    assert game.state.cash[0] == 1500


@parametrize
def test_cards_drawn_obeyed_and_put_under(name):
    """Cartes: take the top card, obey it, put it under the pile; the jail card is kept."""
    rb = rulebook(name)
    chance = N(name, "Chance")
    game = scenario(name=name, dice=[(3, 4)], decks={chance: ["CH07", "CH08"]})
    game.play_turn()  # GO + 7 = the first Chance: dividend $50
    st = game.state
    deck = next(i for i, d in enumerate(rb.decks) if d.name == chance)
    assert st.cash[0] == 1550 and rb.decks[deck].cards[st.decks[deck][-1]].id == "CH07"
    game = scenario(name=name, dice=[(3, 4)], decks={chance: ["CH08"]})
    game.play_turn()
    assert len(game.state.jail_cards[0]) == 1 and len(game.state.decks[deck]) == 15


@parametrize
def test_go_to_jail_without_salary(name):
    """Allez en prison: straight to jail, no salary, the turn ends even after a double."""
    game = scenario(name=name, dice=[(2, 2)], positions={0: "Atlantic Avenue"})
    game.play_turn()
    st = game.state
    assert st.in_jail[0] and st.cash[0] == 1500


@parametrize
def test_leaving_jail(name):
    """Prison: a double frees and moves; the third failure pays the fine and moves."""
    fine = BOOKS[name]["fine"]
    game = scenario(name=name, dice=[(2, 2)], in_jail={0: 0})
    game.play_turn()
    assert not game.state.in_jail[0] and game.state.cash[0] == 1500
    game = scenario(name=name, dice=[(1, 2)], in_jail={0: 2})
    game.play_turn()
    assert not game.state.in_jail[0] and game.state.cash[0] == 1500 - fine
    game = scenario(name=name, dice=[(1, 2)], in_jail={0: 0})
    game.play_turn()
    assert game.state.in_jail[0]
    game = scenario(name=name, dice=[(1, 2)], in_jail={0: 1})  # the second failed roll
    game.play_turn()
    assert game.state.in_jail[0] and game.state.cash[0] == 1500


@parametrize
def test_jailed_owner_collects_rent(name):
    """Prison / N'ATTENDEZ PAS VOTRE TOUR: a prisoner still collects rent."""
    game = scenario(name=name, dice=[(2, 4)], in_jail={1: 0}, owners={"Oriental Avenue": 1})
    game.play_turn()
    assert game.state.cash[1] == 1506


@parametrize
def test_houses_evenly_on_a_whole_group(name):
    """Maisons / CONSTRUIRE: a whole group, evenly."""
    game = scenario(name=name, owners={"Mediterranean Avenue": 0})
    refused(game, 0, Build(P(name, "Mediterranean Avenue")), "houses")
    game = scenario(name=name, owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Mediterranean Avenue": 1})
    refused(game, 0, Build(P(name, "Mediterranean Avenue")), "houses")
    apply(game, 0, Build(P(name, "Baltic Avenue")))
    assert game.state.cash[0] == 1450


@parametrize
def test_mortgage_and_lift_with_ten_percent(name):
    """Hypothèques: the mortgage value from the bank; lifting costs it plus 10%."""
    game = scenario(name=name, owners={"Oriental Avenue": 0})
    apply(game, 0, Mortgage(P(name, "Oriental Avenue")))
    assert game.state.cash[0] == 1550
    apply(game, 0, Lift(P(name, "Oriental Avenue")))
    assert game.state.cash[0] == 1495 and total_money(game) == 0


@parametrize
def test_trading_lots_but_not_a_built_group(name):
    """Vente de propriétés / PASSEZ DES ACCORDS: lots at any price, not while the group is built."""
    game = scenario(name=name, agents=[Scripted(), Scripted(accept=True), Scripted()],
                    owners={"Oriental Avenue": 0})
    apply(game, 0, Trade(1, give=(P(name, "Oriental Avenue"),), cash=-300))
    assert game.state.owner[P(name, "Oriental Avenue")] == 1 and game.state.cash[0] == 1800
    game = scenario(name=name, owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Baltic Avenue": 1})
    refused(game, 0, Trade(1, give=(P(name, "Mediterranean Avenue"),), cash=-10), "selling")


@parametrize
def test_bankruptcy_to_a_player(name):
    """Faillite / AU SECOURS: to a player, cash, lots and cards to him, 10% on mortgaged lots."""
    game = scenario(name=name, dice=[(2, 3)], positions={0: "Pennsylvania Avenue"},
                    cash={0: 30}, owners={"Boardwalk": 1, "Oriental Avenue": 0},
                    mortgaged=["Oriental Avenue"])
    game.play_turn()
    st = game.state
    assert st.bankrupt[0] and st.owner[P(name, "Oriental Avenue")] == 1
    assert st.cash[1] == 1500 + 30 - 5 and total_money(game) == 0


@parametrize
def test_no_loans(name):
    """Remarques / N'INVENTEZ PAS: cash must be in hand; players never lend."""
    game = scenario(name=name, cash={0: 100}, owners={"Oriental Avenue": 1})
    refused(game, 0, Trade(1, take=(P(name, "Oriental Avenue"),), cash=500), "engine")


@parametrize
def test_decks_shuffled_face_down_and_pawns_on_go(name):
    """PRÉPARATION DU JEU / MISE EN PLACE: the two decks are shuffled before the game (each
    seed deals its own order, none the printed one) and every pawn starts on GO."""
    rb = rulebook(name)
    orders = set()
    for seed in range(4):
        game = Game(rb, make_agents("default", 3), seed=seed)
        assert game.state.position == [0, 0, 0]
        for deck, printed in zip(game.state.decks, rb.decks):
            assert sorted(deck) == list(range(len(printed.cards)))
            assert deck != list(range(len(printed.cards)))
        orders.add(tuple(map(tuple, game.state.decks)))
    assert len(orders) == 4


@parametrize
def test_houses_sold_back_at_half_price(name):
    """Vente de propriétés / VENDRE UN BÂTIMENT: buildings go back to the bank only, at half
    their price."""
    game = scenario(name=name, owners={"Park Place": 0, "Boardwalk": 0},
                    houses={"Park Place": 1, "Boardwalk": 1})
    houses = game.state.bank_houses
    apply(game, 0, Sell(P(name, "Boardwalk")))
    st = game.state
    assert st.houses[P(name, "Boardwalk")] == 0 and st.bank_houses == houses + 1
    assert st.cash[0] == 1500 + 100 and total_money(game) == 0


@parametrize
def test_just_visiting_jail_has_no_effect(name):
    """Prison / SIMPLE VISITE: a pawn that only stops on the prison space is visiting: no
    penalty, and it moves on at its next turn."""
    game = scenario(name=name, dice=[(1, 3), (2, 3)], positions={0: "Oriental Avenue"})
    game.play_turn()
    st = game.state
    assert st.position[0] == rulebook(name).jail and not st.in_jail[0] and st.cash[0] == 1500
    st.current = 0
    game.play_turn()
    assert st.position[0] == P(name, "Pennsylvania Railroad") and not st.in_jail[0]


@parametrize
def test_the_last_player_left_wins(name):
    """Le vainqueur / CE QUI RESTE: a first bankruptcy does not end the game; the player left
    when all the others are bankrupt wins."""
    game = scenario(name=name, dice=[(2, 3), (2, 3)], positions={0: "Pennsylvania Avenue",
                                                                  1: "Pennsylvania Avenue"},
                    cash={0: 10, 1: 20}, owners={"Boardwalk": 2})
    game.play_turn()
    assert game.state.bankrupt[0] and not game.over and game.state.current == 1
    game.play_turn()
    assert game.state.bankrupt[1]
    assert game.over and game.winner == 2 and game.end_reason == "last_player"
    assert total_money(game) == 0
