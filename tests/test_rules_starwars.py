"""Scenario tests of Monopoly Star Wars Épisode II (002): the Force die, the two Force
symbols, battles between the light and the dark side, the quick and time-limit games."""

import json
import random

import pytest

import rulelang
from rulelang.engine.game import Game
from scenario import (RULESETS, Scripted, ScriptedDice, assert_classic_values, assert_contents,
                      assert_dealt, pos, rulebook, scenario, total_money)

SW = "starwars_ep2.rules"
LIGHT, DARK = "Obi-Wan Kenobi", "Jango Fett"
BASCULEMENT = "Basculement de la Force"


def where(game, token: str) -> str:
    names = [t.name for t in game.rulebook.tokens]
    return game.rulebook.spaces[game.state.tokens[names.index(token)]].name


def sw(**kw):
    kw.setdefault("name", SW)
    kw.setdefault("characters", {0: LIGHT, 1: DARK, 2: "Padmé Amidala"})
    return scenario(**kw)


def test_the_board_keeps_the_classic_values():
    """Les similitudes: the rules and the board are the classic ones, renamed."""
    assert_classic_values(SW)


def test_themed_names():
    """Les différences: Appartements and Tours, the Crédits de la République, the Jedi and Sith
    cards and spaces; the two spaces the text names (decision S3)."""
    rb = rulebook(SW)
    assert rb.currency == "Crédits de la République"
    assert rb.building_names == ("Appartement", "Tour")
    assert [d.name for d in rb.decks] == ["Jedi", "Sith"]
    assert [rb.spaces[q].name for q in (2, 7, 17, 22, 33, 36)] == [
        "Sith", "Jedi", "Sith", "Jedi", "Sith", "Jedi"]
    assert (rb.space("Palais Royal").index, rb.space("Dégât d'Astéroïde").index) == (39, 38)


def test_contents():
    """Contenu: 8 pions personnages, 16 cartes Jedi, 16 cartes Sith, 32 Appartements, 12 Tours,
    2 dés standards, 1 dé Spécial Force, 2 symboles Force."""
    assert_contents(SW, (), dice=3, decks=["Jedi", "Sith"],
                    tokens=["Force obscure", "Force claire"])
    rb = rulebook(SW)
    assert rb.settings.players == (2, 8) and len(rb.characters) == 8
    assert rb.die_names == ("blanc", "noir", "Force")
    assert rb.dice[:2] == ((1, 2, 3, 4, 5, 6),) * 2


def test_the_force_die_faces():
    """La première fois que vous jouez (the stickers, not printed; decision S1): two faces each
    of Basculement, white square and black square; Basculement and white squares for the light
    side, black squares for the dark side."""
    rb = rulebook(SW)
    faces = rb.dice[2]
    sides = [rb.sides[s] for s in rb.face_sides[2]]
    assert sorted(zip(faces, sides)) == sorted(
        [(BASCULEMENT, "La Lumière")] * 2 + [("carré blanc", "La Lumière")] * 2
        + [("carré noir", "Le Mal")] * 2)


def test_five_characters_of_the_light_three_of_the_dark():
    """The characters (the last page): five of "La Lumière", three of "Le Mal"."""
    rb = rulebook(SW)
    light = [c for c, s in rb.characters if rb.sides[s] == "La Lumière"]
    dark = [c for c, s in rb.characters if rb.sides[s] == "Le Mal"]
    assert light == ["Obi-Wan Kenobi", "Padmé Amidala", "Anakin Skywalker", "Mace Windu",
                     "Soldat Clone"]
    assert dark == ["Super Droïde de Combat", "Jango Fett", "Comte Dooku"]


def test_setup_symbols_start_on_go_and_free_parking_then_move_twice_onto_properties(
        monkeypatch):
    """Utilisez la Force: dark on GO, light on Free Parking, each moved twice by the die of its
    colour, a count ending off a property going on to the next property."""
    rb = rulebook(SW)
    script = ScriptedDice(rb, [(3, 4, "carré noir"), (2, 3, "carré blanc"),
                               (6, 5, "carré noir"), (1, 2, "carré noir"), (1, 3, "carré noir")])
    lines = []
    monkeypatch.setattr(random, "Random", lambda seed: script)
    game = Game(rb, [Scripted(), Scripted(), Scripted()], log=lines.append)
    events = [json.loads(line) for line in lines]
    moved = [(e["token"], e["to"]) for e in events if e["event"] == "token"]
    starts = {t.name: rb.spaces[t.start].name for t in rb.tokens}
    assert starts == {"Force obscure": "GO", "Force claire": "Free Parking"}
    assert moved == [
        ("Force claire", "Indiana Avenue"),  # 20 + 3 = 23
        ("Force obscure", "Reading Railroad"),  # 0 + 4: a tax; on to 5
        ("Force claire", "B. & O. Railroad"),  # 23 + 2
        ("Force obscure", "Vermont Avenue"),  # 5 + 3: Jedi
    ]
    assert game.state.current == 0  # the next throw, 6 + 5, chose the first player


def test_characters_give_sides():
    """Les personnages: each player picks a character of the light or the dark side."""
    game = Game(rulebook(SW), [rulelang.DefaultAgent() for _ in range(4)], seed=1)
    sides = [game.rulebook.sides[s] for s in game.state.side]
    assert sides == ["La Lumière", "Le Mal", "La Lumière", "Le Mal"]
    assert len(set(game.state.character)) == 4
    by_side = {side: [c for c, s in game.rulebook.characters if game.rulebook.sides[s] == side]
               for side in game.rulebook.sides}
    assert by_side == {"La Lumière": ["Obi-Wan Kenobi", "Padmé Amidala", "Anakin Skywalker",
                                      "Mace Windu", "Soldat Clone"],
                       "Le Mal": ["Super Droïde de Combat", "Jango Fett", "Comte Dooku"]}


def test_the_pawn_moves_by_the_white_and_black_dice_only():
    """A votre tour 2: the total of the white and black dice; the Force die is no number."""
    game = sw(dice=[(2, 3, "carré blanc")],
              tokens={"Force claire": "Palais Royal", "Force obscure": "Park Place"})
    game.play_turn()
    assert game.state.position[0] == pos(game, "Reading Railroad")


def test_doubles_are_the_white_and_black_dice():
    """Doubles: the white and black dice alike roll again, whatever the Force die shows."""
    game = sw(dice=[(3, 3, "carré blanc"), (1, 2, "carré noir")],
              tokens={"Force claire": "Palais Royal", "Force obscure": "Park Place"})
    game.play_turn()
    assert game.state.position[0] == pos(game, "Connecticut Avenue")
    one = sw(dice=[(3, 4, "carré blanc")],
             tokens={"Force claire": "Palais Royal", "Force obscure": "Park Place"})
    assert one.rulebook.doubles[one.rulebook.rolls.index((3, 3, "carré noir"))]
    assert not one.rulebook.doubles[one.rulebook.rolls.index((3, 4, "carré blanc"))]


def test_basculement_moves_both_symbols_by_their_dice_after_the_pawn():
    """A votre tour 3: Basculement moves each symbol by the die of its colour, onto
    properties only, after the pawn's move."""
    game = sw(dice=[(3, 4, BASCULEMENT)], positions={0: "Jail", 1: "Jail", 2: "Jail"},
              tokens={"Force claire": "Free Parking", "Force obscure": "Dégât d'Astéroïde"})
    game.play_turn()
    assert game.state.position[0] == pos(game, "Jail") + 7
    assert where(game, "Force claire") == "Indiana Avenue"  # 20 + 3
    # 38 + 4 = 42 -> 2 (Sith), on to the next property: Baltic Avenue
    assert where(game, "Force obscure") == "Baltic Avenue"


def test_a_card_throw_after_a_basculement_leaves_the_symbols_to_the_basculement_throw():
    """A votre tour 3: « selon le résultat indiqué par le dé de leur couleur »: the symbols move
    by the throw that showed the Basculement, not by a throw a card asks for after it (the
    utility card's « lancez les dés »: 6 + 5 here)."""
    lines = []
    game = sw(dice=[(3, 1, BASCULEMENT), (6, 5, "carré noir")],
              positions={0: "Tennessee Avenue", 1: "Jail", 2: "Jail"},
              owners={"Water Works": 1}, decks={"Jedi": ["CH04"]},
              tokens={"Force claire": "Free Parking", "Force obscure": "GO"}, log=lines)
    game.play_turn()
    assert game.state.position[0] == pos(game, "Water Works")
    assert game.state.cash[0] == 1500 - 10 * 11  # the card's throw pays the rent
    assert where(game, "Force claire") == "Indiana Avenue"  # 20 + 3, not 20 + 6
    assert where(game, "Force obscure") == "Mediterranean Avenue"  # 0 + 1, not 0 + 5
    events = [json.loads(line) for line in lines]
    turn = next(i for i, e in enumerate(events) if e["rule"] == "turn")
    moves = [(e["event"], e["rule"]) for e in events[turn:] if e["event"] in ("roll", "token")]
    assert moves == [("roll", "turn"), ("roll", "rent"), ("token", "force_shift"),
                     ("token", "force_shift")]  # the symbols move after the card's throw


def test_a_basculement_shown_by_a_card_throw_moves_no_symbol():
    """A votre tour 3: a card's « lancez les dés » is no throw of the turn: a Basculement it
    shows moves no symbol; the turn's throw, a square, moved none."""
    game = sw(dice=[(3, 1, "carré blanc"), (6, 5, BASCULEMENT)],
              positions={0: "Tennessee Avenue", 1: "Jail", 2: "Jail"},
              owners={"Water Works": 1}, decks={"Jedi": ["CH04"]},
              tokens={"Force claire": "Free Parking", "Force obscure": "GO"})
    game.play_turn()
    assert game.state.cash[0] == 1500 - 10 * 11
    assert where(game, "Force claire") == "Free Parking" and where(game, "Force obscure") == "GO"


@pytest.mark.parametrize("square", ["carré blanc", "carré noir"])
def test_a_square_moves_no_symbol(square):
    """A votre tour 3: "Si vous obtenez un carré, noir ou blanc, ne déplacez aucun symbole"."""
    game = sw(dice=[(3, 4, square)],
              tokens={"Force claire": "Free Parking", "Force obscure": "GO"})
    game.play_turn()
    assert where(game, "Force claire") == "Free Parking" and where(game, "Force obscure") == "GO"


def test_a_light_player_landing_on_the_dark_symbol_fights_and_wins_on_white():
    """Combattre la force: landing on the other side's symbol starts a battle; the player's
    colour wins, and the winner moves the symbol to any free property."""
    agent = Scripted(token_to="Park Place")
    game = sw(agents=[agent, Scripted(), Scripted()], dice=[(1, 2, "carré noir"), "carré blanc"],
              tokens={"Force obscure": "Baltic Avenue", "Force claire": "Free Parking"},
              positions={1: "Oriental Avenue"})
    game.play_turn()
    assert game.state.position[0] == pos(game, "Baltic Avenue")
    assert where(game, "Force obscure") == "Park Place"
    _, token, spaces = next(a for a in agent.asked if a[0] == "place_token")
    free = {game.rulebook.spaces[q].name for q in spaces}
    assert "Oriental Avenue" not in free and "Baltic Avenue" not in free  # pawns stand there
    assert "Free Parking" not in free and "Chance" not in free  # a symbol; not a property
    assert "Palais Royal" in free
    assert game.state.cash[0] == 1500
    assert total_money(game) == 0


class Chooser(Scripted):
    """Answers `the player chooses one` from a list, and records the options it was offered."""

    def __init__(self, answers=(), **kw):
        super().__init__(**kw)
        self.answers = list(answers)
        self.offered: list = []

    def choose(self, game, seat, choice):
        self.offered.append((choice.rule, choice.options))
        return self.answers.pop(0)


@pytest.mark.parametrize("answer, symbol", [(0, "Park Place"), (1, "Baltic Avenue")])
def test_the_winner_may_move_the_symbol_or_leave_it(answer, symbol):
    """Combattre la force: « vous pouvez déplacer ce symbole sur n'importe quelle autre case
    inoccupée »: the winner chooses to move it (to the space it picks) or to leave it where
    it stands (decision S6)."""
    agent = Chooser([answer], token_to="Park Place")
    game = sw(agents=[agent, Scripted(), Scripted()], dice=[(1, 2, "carré noir"), "carré blanc"],
              tokens={"Force obscure": "Baltic Avenue", "Force claire": "Free Parking"})
    game.play_turn()
    assert agent.offered == [("battles", ("move the token to a free property", "nothing"))]
    assert where(game, "Force obscure") == symbol
    assert game.state.cash[0] == 1500
    assert total_money(game) == 0


def test_the_winner_is_not_asked_to_move_the_symbol_after_a_lost_battle():
    """Combattre la force: only a won battle offers the move; a lost one costs 200."""
    agent = Chooser([])
    game = sw(agents=[agent, Scripted(), Scripted()], dice=[(1, 2, "carré noir"), "carré noir"],
              tokens={"Force obscure": "Baltic Avenue", "Force claire": "Free Parking"})
    game.play_turn()
    assert agent.offered == [] and game.state.cash[0] == 1300


def test_a_lost_battle_costs_200_to_the_bank():
    """Combattre la force: a face of the other colour loses; the player pays 200 to the bank."""
    game = sw(dice=[(1, 2, "carré noir"), "carré noir"],
              tokens={"Force obscure": "Baltic Avenue", "Force claire": "Free Parking"})
    game.play_turn()
    assert game.state.cash[0] == 1300
    assert where(game, "Force obscure") == "Baltic Avenue"
    assert total_money(game) == 0


@pytest.mark.parametrize("character, cash", [(LIGHT, 1500), (DARK, 1300)])
def test_basculement_counts_white_only_in_a_battle(character, cash):
    """Combattre la force, Remarque: in a battle the Basculement is a white face only: the
    light side wins with it, the dark side loses, and no symbol moves by it."""
    symbol = "Force obscure" if character == LIGHT else "Force claire"
    other = "Force claire" if character == LIGHT else "Force obscure"
    game = sw(characters={0: character}, dice=[(1, 2, "carré noir"), BASCULEMENT],
              tokens={symbol: "Baltic Avenue", other: "Free Parking"})
    game.play_turn()
    assert game.state.cash[0] == cash
    assert where(game, other) == "Free Parking"


def test_no_battle_with_the_symbol_of_ones_own_side():
    """Combattre la force: only a symbol "de l'autre camp" starts a battle."""
    game = sw(dice=[(1, 2, "carré noir")],
              tokens={"Force claire": "Baltic Avenue", "Force obscure": "GO"})
    game.play_turn()
    assert game.state.cash[0] == 1500 and where(game, "Force claire") == "Baltic Avenue"


def test_a_symbol_stopping_on_a_player_after_him_starts_a_battle():
    """Combattre la force: "ou sur une case sur laquelle s'arrête un symbole Force après
    vous": the dark symbol, moved by a dark player's Basculement, stops on a light player."""
    game = sw(dice=[(2, 4, BASCULEMENT), "carré noir"], current=1,
              positions={0: "Reading Railroad", 1: "Jail", 2: "Jail"},
              tokens={"Force obscure": "Mediterranean Avenue", "Force claire": "Free Parking"})
    game.play_turn()
    assert game.state.position[1] == pos(game, "St. James Place")
    assert where(game, "Force obscure") == "Reading Railroad"  # 1 + 4, where seat 0 stands
    assert where(game, "Force claire") == "Indiana Avenue"  # 20 + 2 is Chance: on to 23
    assert game.state.cash[0] == 1300  # seat 0 (light) fought and lost
    assert game.state.cash[2] == 1500
    assert total_money(game) == 0


def test_several_players_on_the_space_fight_in_turn_order_while_the_symbol_stays():
    """Decision: a symbol stopping on several players meets them in turn order; once beaten
    and moved away it meets nobody else there."""
    game = sw(agents=[Scripted(), Scripted(), Scripted(token_to="Park Place")],
              dice=[(2, 4, BASCULEMENT), "carré blanc"], current=1,
              positions={0: "Reading Railroad", 1: "Jail", 2: "Reading Railroad"},
              tokens={"Force obscure": "Mediterranean Avenue", "Force claire": "Free Parking"})
    game.play_turn()
    # seat 2 comes first after seat 1 and wins; the symbol leaves before seat 0 fights
    assert where(game, "Force obscure") == "Park Place"
    assert game.state.cash[0] == game.state.cash[2] == 1500


def test_quick_game_deals_two_paid_deeds_and_ends_at_the_second_bankruptcy():
    """RÈGLE POUR UNE PARTIE PLUS RAPIDE: two paid deeds; three Appartements before a Tour;
    the second bankruptcy ends the game."""
    game = scenario(name="starwars_ep2_quick.rules", dealt=True)
    for seat in range(3):
        assert sum(1 for q in game.rulebook.properties if game.state.owner[q] == seat) == 2
    rb = game.rulebook
    assert rb.settings.houses_per_hotel == 3
    (bankruptcy, end) = rb.course.bankrupt  # the regular game's auction, then the end
    assert (bankruptcy.rule, bankruptcy.to, bankruptcy.auction) == ("bankruptcy", "bank", True)
    assert (end.rule, end.end, end.everything) == ("end_of_game", True, True)


def test_time_limit_game_ends_at_the_agreed_hour():
    """PARTIE LIMITÉE DANS LE TEMPS: the richest at the agreed hour wins."""
    rb = rulelang.load(str(RULESETS / "starwars_ep2_timed.rules"), parameters={"time_limit": "25"})
    game = Game(rb, [rulelang.DefaultAgent() for _ in range(5)], seed=4).play()
    assert game.end_reason == "time_limit" and game.state.turn == 25


def test_time_limit_game_deals_two_paid_deeds():
    """PARTIE LIMITÉE DANS LE TEMPS: two deeds dealt to each player, paid to the bank at once."""
    assert_dealt("starwars_ep2_timed.rules", players=4, each=2, paid=True)
