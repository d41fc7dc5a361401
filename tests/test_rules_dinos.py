"""Scenario tests of Monopoly Dinosaures ! (003) and of its quick game."""

import json

import pytest

from rulelang.engine.actions import Build, IllegalAction, Lift, Sell, Trade, apply
from rulelang.engine.endings import valuation
from rulelang.engine.game import Game
from scenario import (Scripted, assert_classic_values, assert_dealt, refused, rulebook, scenario,
                      total_money)

DINOS, QUICK = "dinos.rules", "dinos_quick.rules"
RB = rulebook(DINOS)
ERAS = ("Trias", "Jurassique", "Crétacé", "Mésozoïque")


def P(name: str) -> int:
    return RB.space(name).index


def test_the_edition_renames_what_the_text_names():
    """LES DIFFÉRENCES: eras for railroads, Découvertes for utilities, Tentes and 4x4."""
    assert [RB.spaces[q].name for q in RB.properties if RB.spaces[q].kind == "railroad"] == \
        list(ERAS)
    assert {RB.spaces[q].name for q in RB.properties if RB.spaces[q].kind == "utility"} == \
        {"Découverte passée", "Découverte future"}
    assert [d.name for d in RB.decks] == ["Site de fouilles", "Laboratoire"]
    assert RB.building_names == ("Tente", "4x4")
    assert RB.spaces[0].name == "Départ" and RB.spaces[RB.jail].name == "Prison"


def test_jail_fine_is_150_paid_before_rolling():
    """Comment sortir de prison ? a) pay 150 at the start of the turn, then roll and move."""
    game = scenario(name=DINOS, agents=[Scripted(jail="pay"), Scripted(), Scripted()],
                    in_jail={0: 0}, dice=[(1, 2)])
    game.play_turn()
    st = game.state
    assert not st.in_jail[0] and st.cash[0] == 1350 and st.position[0] == RB.jail + 3
    assert total_money(game) == 0


def test_jail_fine_150_after_the_third_failed_roll():
    """Comment sortir de prison ? c) after three turns without a double, pay 150 and move."""
    game = scenario(name=DINOS, in_jail={0: 2}, dice=[(1, 2)])
    game.play_turn()
    st = game.state
    assert not st.in_jail[0] and st.cash[0] == 1350 and st.position[0] == RB.jail + 3


@pytest.mark.parametrize("held, rent", [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_eras_rent_by_the_number_held(held, rent):
    """Ère: the rent is 25, 50, 100, 200 for 1 to 4 eras held."""
    game = scenario(name=DINOS, dice=[(2, 3)], current=1, owners={e: 0 for e in ERAS[:held]})
    game.play_turn()  # from Départ to Trias
    assert game.state.position[1] == P("Trias")
    assert game.state.cash[0] == 1500 + rent and game.state.cash[1] == 1500 - rent


@pytest.mark.parametrize("owned, rent", [(("Découverte passée",), 4 * 11),
                                         (("Découverte passée", "Découverte future"), 10 * 11)])
def test_decouvertes_rent_is_a_new_throw_times_4_or_10(owned, rent):
    """Découvertes: « lancez les dés et multipliez le résultat par 4 », by 10 with both: a new
    throw for the rent (5 + 6), not the throw that moved the pawn (1 + 2)."""
    log = []
    game = scenario(name=DINOS, dice=[(1, 2), (5, 6)], current=1,
                    positions={1: "Connecticut Avenue"}, owners={d: 0 for d in owned}, log=log)
    game.play_turn()
    assert game.state.position[1] == P("Découverte passée")
    assert game.state.cash[0] == 1500 + rent and game.state.cash[1] == 1500 - rent
    assert [e["dice"] for e in map(json.loads, log) if e["event"] == "roll"][-2:] == [
        [1, 2], [5, 6]]


def test_no_throw_for_a_mortgaged_decouverte():
    """Découvertes and PROPRIÉTÉ APPARTENANT DÉJÀ À UN AUTRE JOUEUR: no rent on a mortgaged
    lot, so no throw for it (the script holds no second throw)."""
    game = scenario(name=DINOS, dice=[(1, 2)], current=1, positions={1: "Connecticut Avenue"},
                    owners={"Découverte passée": 0}, mortgaged=["Découverte passée"])
    game.play_turn()
    assert game.state.cash[0] == game.state.cash[1] == 1500


def test_the_nearest_utility_card_pays_ten_times_one_new_throw():
    """Découvertes and the classic card « throw dice and pay owner a total ten times the
    amount thrown »: one throw for the rent, x10 (the card's), not two throws."""
    log = []
    game = scenario(name=DINOS, dice=[(3, 4), (5, 6)], current=1,
                    owners={"Découverte passée": 0}, decks={"Site de fouilles": ["CH04"]},
                    log=log)
    game.play_turn()
    assert game.state.position[1] == P("Découverte passée")
    assert game.state.cash[0] == 1500 + 110 and game.state.cash[1] == 1500 - 110
    rolls = [(e["rule"], e["dice"]) for e in map(json.loads, log)
             if e["event"] == "roll" and e["rule"] != "first_player"]
    assert rolls == [("turn", [3, 4]), ("rent", [5, 6])]


def test_auction_opens_at_1_and_is_paid_in_notes():
    """VENTE AUX ENCHÈRES: from a minimum of 1, paid only in notes: no bid above one's cash."""
    bidder = Scripted(bids=[1])
    game = scenario(name=DINOS, agents=[Scripted(), bidder, Scripted()], dice=[(2, 4)])
    game.play_turn()  # Oriental Avenue, declined
    assert ("bid", bidder.asked[0][1], 0) == bidder.asked[0]  # any bid of at least 1
    assert game.state.owner[P("Oriental Avenue")] == 1 and game.state.cash[1] == 1499
    rich = Scripted(bids=[1501])  # more than its cash, less than a mortgage would raise
    game = scenario(name=DINOS, agents=[Scripted(), rich, Scripted()], dice=[(2, 4)],
                    owners={"Boardwalk": 1})
    with pytest.raises(IllegalAction) as err:
        game.play_turn()
    assert (err.value.rule, err.value.message) == (
        "unowned_property", "a player may not bid if the bid is more than the player's cash")


def test_bankruptcy_to_the_bank_auctions_the_lots_unmortgaged():
    """AU SECOURS ! / VENTE AUX ENCHÈRES: the bank takes the lots and auctions them unmortgaged."""
    bidder = Scripted(bids=[40])
    game = scenario(name=DINOS, agents=[Scripted(), bidder, Scripted()], dice=[(1, 2)],
                    positions={0: "Mésozoïque"}, cash={0: 50},
                    owners={"Oriental Avenue": 0}, mortgaged=["Oriental Avenue"])
    game.play_turn()  # Location de matériel (100)
    st = game.state
    assert st.bankrupt[0] and st.owner[P("Oriental Avenue")] == 1
    assert not st.mortgaged[P("Oriental Avenue")] and st.cash[1] == 1460
    assert total_money(game) == 0


def test_a_mortgaged_lot_bought_by_trade_is_lifted_at_once_for_its_mortgage_value():
    """PASSEZ DES ACCORDS: « soit lever immédiatement l'hypothèque en payant à la banque la
    valeur de l'hypothèque »: the buyer lifts it at once for the mortgage value alone, 75,
    not 75 + 10% (decision, as written)."""
    game = scenario(name=DINOS, agents=[Scripted(), Scripted(accept=True, lift_on_transfer=True),
                                        Scripted()],
                    owners={"Découverte passée": 0}, mortgaged=["Découverte passée"])
    bank = game.state.cash[game.state.bank]
    apply(game, 0, Trade(1, give=(P("Découverte passée"),), cash=-40))
    st = game.state
    assert st.owner[P("Découverte passée")] == 1 and not st.mortgaged[P("Découverte passée")]
    assert st.cash[:2] == [1540, 1500 - 40 - 75]
    assert st.cash[st.bank] == bank + 75
    assert total_money(game) == 0


def test_a_mortgaged_lot_bought_by_trade_and_kept_pays_ten_percent_now_and_again_later():
    """PASSEZ DES ACCORDS: « soit garder l'hypothèque et payer les 10% d'intérêts ... payer de
    nouveau les 10% d'intérêts »: 8 now; lifting later costs the value and 10% again."""
    game = scenario(name=DINOS, agents=[Scripted(), Scripted(accept=True), Scripted()],
                    owners={"Découverte passée": 0}, mortgaged=["Découverte passée"])
    apply(game, 0, Trade(1, give=(P("Découverte passée"),), cash=-40))
    st = game.state
    assert st.mortgaged[P("Découverte passée")] and st.cash[1] == 1500 - 40 - 8
    apply(game, 1, Lift(P("Découverte passée")))
    assert st.cash[1] == 1452 - 83 and not st.mortgaged[P("Découverte passée")]
    assert total_money(game) == 0


@pytest.mark.parametrize("lifts, paid", [(False, 8), (True, 8 + 75)])
def test_the_creditor_of_a_bankrupt_pays_ten_percent_then_the_value_if_he_lifts(lifts, paid):
    """AU SECOURS !: the creditor « doit immédiatement payer 10% d'intérêts sur chaque propriété
    hypothéquée qu'il récupère puis choisir de conserver les hypothèques ... ou tout régler
    tout de suite »: 10%, then the mortgage value if he lifts (unlike a trade's lifting)."""
    creditor = Scripted(lift_on_transfer=lifts)
    game = scenario(name=DINOS, agents=[Scripted(), creditor, Scripted()], dice=[(2, 3)],
                    positions={0: "Pennsylvania Avenue"}, cash={0: 30},
                    owners={"Boardwalk": 1, "Découverte passée": 0},
                    mortgaged=["Découverte passée"])
    game.play_turn()
    st = game.state
    assert st.bankrupt[0] and st.owner[P("Découverte passée")] == 1
    assert st.mortgaged[P("Découverte passée")] == (not lifts)
    assert st.cash[1] == 1500 + 30 - paid and total_money(game) == 0


def test_rent_must_be_claimed_before_the_next_player_rolls():
    """PROPRIÉTÉ APPARTENANT DÉJÀ À UN AUTRE JOUEUR: an owner who notices only after the next
    player has rolled gets nothing; under the 1961 rules (second player) he is in time."""
    for name, paid in ((DINOS, 0), ("classic_1961.rules", 6)):
        owner = Scripted(claim_delay=1)
        game = scenario(name=name, agents=[Scripted(), owner, Scripted()], dice=[(2, 4)],
                        owners={"Oriental Avenue": 1})
        game.play_turn()
        assert game.state.cash[1] == 1500 + paid, name


def test_no_double_rent_with_a_mortgaged_lot_in_the_group():
    """Dinosaure: double rent only when the owner holds every (unmortgaged) lot of the group."""
    game = scenario(name=DINOS, dice=[(2, 3)], current=1, positions={1: "Pennsylvania Avenue"},
                    owners={"Park Place": 0, "Boardwalk": 0}, mortgaged=["Park Place"])
    game.play_turn()
    assert game.state.cash[0] == 1550


@pytest.mark.parametrize("start, dice, paid", [("Départ", (1, 3), 200),
                                                ("Mésozoïque", (1, 2), 100)])
def test_location_de_materiel(start, dice, paid):
    """LOCATION DE MATÉRIEL: pay the amount shown to the bank (200 and 100, a decision)."""
    game = scenario(name=DINOS, dice=[dice], positions={0: start})
    game.play_turn()
    assert game.state.cash[0] == 1500 - paid


def test_nothing_on_parc_gratuit():
    """PARC GRATUIT / N'INVENTEZ PAS VOS RÈGLES !: nothing is paid or received there."""
    game = scenario(name=DINOS, dice=[(1, 3)], positions={0: "St. James Place"})
    game.play_turn()
    assert game.state.position[0] == P("Parc gratuit") and game.state.cash[0] == 1500


def test_no_tente_while_a_lot_of_the_group_is_mortgaged():
    """CONSTRUIRE: neither Tente nor 4x4 while a lot of the colour group is mortgaged."""
    game = scenario(name=DINOS, owners={"Park Place": 0, "Boardwalk": 0},
                    mortgaged=["Park Place"])
    refused(game, 0, Build(P("Boardwalk")), "houses")  # its permission


# ------------------------------------------------------------------ the quick game


def test_quick_three_free_deeds():
    """PARTIE RAPIDE 1: three deeds to each player, given free."""
    assert_dealt(QUICK, players=4, each=3, paid=False)


def test_quick_three_tentes_then_a_4x4_traded_back_for_three():
    """PARTIE RAPIDE 2: 3 Tentes at most, then a 4x4; a 4x4 is traded back for 3 Tentes."""
    game = scenario(name=QUICK, owners={"Park Place": 0, "Boardwalk": 0},
                    houses={"Park Place": 3, "Boardwalk": 3})
    st = game.state
    apply(game, 0, Build(P("Boardwalk")))
    assert st.hotels[P("Boardwalk")] == 1 and st.houses[P("Boardwalk")] == 0
    assert max(st.houses) == 3
    apply(game, 0, Sell(P("Boardwalk")))
    assert st.houses[P("Boardwalk")] == 3 and st.cash[0] == 1500 - 200 + 100


@pytest.mark.parametrize("answer, dice, fine", [("roll", (1, 2), 50), ("roll", (2, 2), 0),
                                                ("pay", (1, 2), 50)])
def test_quick_forced_exit_from_prison_on_the_next_turn(answer, dice, fine):
    """PARTIE RAPIDE 3: on the next turn, a double in one throw, or a fine of 50 (as written)."""
    game = scenario(name=QUICK, agents=[Scripted(jail=answer), Scripted(), Scripted()],
                    in_jail={0: 0}, dice=[dice])
    game.play_turn()
    st = game.state
    assert not st.in_jail[0] and st.cash[0] == 1500 - fine
    assert st.position[0] == RB.jail + sum(dice)


def test_quick_forced_exit_with_a_card():
    """PARTIE RAPIDE 3: or use a "libéré de prison" card, then roll (and move by it)."""
    game = scenario(name=QUICK, agents=[Scripted(jail="card"), Scripted(), Scripted()],
                    in_jail={0: 0}, dice=[(1, 2)], jail_cards={0: [("Site de fouilles", "CH08")]})
    game.play_turn()
    assert not game.state.in_jail[0] and game.state.cash[0] == 1500
    assert game.state.position[0] == P("States Avenue")


def test_quick_game_ends_at_the_first_bankruptcy_richest_wins():
    """PARTIE RAPIDE 4: the game ends when ONE player goes bankrupt; the highest value wins."""
    bidder = Scripted(bids=[100])
    game = scenario(name=QUICK, agents=[Scripted(), bidder, Scripted()], dice=[(1, 2)],
                    positions={0: "Mésozoïque"}, cash={0: 50, 2: 1600},
                    owners={"Oriental Avenue": 0, "Boardwalk": 1}, mortgaged=["Oriental Avenue"])
    game.play_turn()
    st = game.state
    assert game.over and game.end_reason == "end_of_game" and st.bankruptcies == 1
    assert bidder.asked == [] and st.owner[P("Oriental Avenue")] == -1  # no auction now
    assert valuation(game, 1) == 1900 > valuation(game, 2) == 1600 and game.winner == 1
    assert total_money(game) == 0


def test_deeds_keep_the_classic_values():
    """CE QUI RESTE: the deed values of a classic game; the four corners keep their work."""
    assert_classic_values(DINOS)
    rb = rulebook(DINOS)
    kinds = [rb.spaces[q].kind for q in (0, 10, 20, 30)]
    assert kinds == ["go", "jail", "plain", "go_to_jail"]  # Parc gratuit: a plain space
