"""Saves are checked for meaning, not only shape: a save edited and resealed with a state no
game can reach (money out of balance, a card held twice, houses on a railroad...) is refused
with a message naming what is wrong and where, before anything is written; a save mutated at
random is either refused or plays on with every invariant holding."""

from __future__ import annotations

import hashlib
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from clirun import in_process
from invariants import ROOT, Checker, load
from rulelang import save
from rulelang.engine.game import Game
from rulelang.runner import make_agents

RULES = "rulesets/classic_1961.rules"
JACKPOT = "rulesets/house/free_parking_jackpot.rules"
STARWARS = "rulesets/starwars_ep2.rules"
# the 1961 board: a street, a railroad, a utility, the orange group, the jail, a card space
MEDITERRANEAN, READING, ELECTRIC, ORANGE, JAIL, CHEST = 1, 5, 12, (16, 18, 19), 10, 2
# the 1961 decks: (deck, card) of each Get Out of Jail Free card, and a card one never keeps
CHANCE_JAIL_CARD, CHEST_JAIL_CARD, CHANCE_GO = (0, 7), (1, 4), (0, 0)


def _played_to(game, turn):
    while not game.over and game.state.turn < turn:
        game.play_turn()
    return game


@pytest.fixture(scope="module")
def good():
    """A real save: four default players at turn 44, seat 0 holding the orange group built."""
    game = _played_to(Game(load(RULES), make_agents("default", 4), seed=1), 44)
    st_ = game.state
    assert [st_.owner[q] for q in ORANGE] == [0, 0, 0] and all(st_.houses[q] for q in ORANGE)
    assert st_.owner[READING] == 0 and st_.owner[MEDITERRANEAN] == -1 and not any(st_.jail_cards)
    return save.dumps(game)


def _reseal(text: str, change) -> str:
    """The save with its game changed by `change(game)` and its checksum computed again."""
    doc = json.loads(text)
    change(doc["game"])
    doc["checksum"] = save._checksum(doc["game"])
    return json.dumps(doc)


def _state(change):
    return lambda g: change(g["state"])


def _move_money(s, src, dst, amount):
    s["cash"][src] -= amount
    s["cash"][dst] += amount


def _set(s, name, index, value):
    s[name][index] = value


def _build(s, pos, houses):
    """Put houses on a lot, taking them from the bank's supply (so the supply adds up)."""
    s["bank_houses"] -= houses - s["houses"][pos]
    s["houses"][pos] = houses


def _hand(s, seat, card):
    s["jail_cards"][seat].append(list(card))


def _take(s, card):
    """Take a card out of its deck."""
    s["decks"][card[0]].remove(card[1])


# name: (change to the game, what the message says)
CASES = {
    "money created": (_state(lambda s: _set(s, "cash", 0, s["cash"][0] + 100)),
                      "the accounts add up to 100, not 0"),
    "money destroyed": (_state(lambda s: _set(s, "cash", 4, s["cash"][4] - 1)),
                        "the accounts add up to -1, not 0"),
    "negative cash": (_state(lambda s: _move_money(s, 2, 4, s["cash"][2] + 50)),
                      "seat 2's cash is -50"),
    "jail card held and in its deck": (_state(lambda s: _hand(s, 1, CHANCE_JAIL_CARD)),
                                       "card 'CH08' of the deck 'Chance' is in 2 places"),
    "jail card held twice": (
        _state(lambda s: (_take(s, CHEST_JAIL_CARD), _hand(s, 1, CHEST_JAIL_CARD),
                          _hand(s, 3, CHEST_JAIL_CARD))),
        "card 'CC05' of the deck 'Community Chest' is in 2 places"),
    "card lost": (_state(lambda s: _take(s, CHANCE_GO)),
                  "card 'CH01' of the deck 'Chance' is nowhere"),
    "card kept that goes back": (_state(lambda s: (_take(s, CHANCE_GO), _hand(s, 0, CHANCE_GO))),
                                 "seat 0 holds the card 'CH01'"),
    "houses on a railroad": (_state(lambda s: _build(s, READING, 1)),
                             "'Reading Railroad' is a railroad, which takes no buildings"),
    "a hotel on a utility": (
        _state(lambda s: (_set(s, "hotels", ELECTRIC, 1),
                          s.__setitem__("bank_hotels", s["bank_hotels"] - 1))),
        "'Electric Company' is a utility"),
    "10**18 hotels": (_state(lambda s: _set(s, "hotels", ORANGE[0], 10**18)),
                      "hotels[16] is 1000000000000000000"),
    "houses beyond the supply": (_state(lambda s: _set(s, "houses", ORANGE[0], 4)),
                                 "in the bank, but the rulebook has 32"),
    "negative supply": (
        _state(lambda s: _build(s, ORANGE[0], s["houses"][ORANGE[0]] + s["bank_houses"] + 1)),
        "the bank's supply of houses is -1"),
    "five houses on a lot": (_state(lambda s: _build(s, ORANGE[0], 5)),
                             "'St. James Place' holds 5 houses: at most 4"),
    "uneven building": (_state(lambda s: _build(s, ORANGE[0], 3)),
                        "the group 'Orange' is built unevenly: 3, 1, 1"),
    "a house and a hotel": (
        _state(lambda s: (_set(s, "hotels", ORANGE[0], 1),
                          s.__setitem__("bank_hotels", s["bank_hotels"] - 1))),
        "'St. James Place' holds both houses and a hotel"),
    "built on a group not held whole": (_state(lambda s: _set(s, "owner", ORANGE[1], 2)),
                                        "the group 'Orange' is built but not held whole"),
    "mortgaged and built": (_state(lambda s: _set(s, "mortgaged", ORANGE[0], True)),
                            "'St. James Place' is mortgaged and built"),
    "mortgaged by the bank": (_state(lambda s: _set(s, "mortgaged", MEDITERRANEAN, True)),
                              "'Mediterranean Avenue' is mortgaged but held by the bank"),
    "a deed of a space that is not a property": (_state(lambda s: _set(s, "owner", CHEST, 1)),
                                                 "'Community Chest' is not a property"),
    "an owner seat that does not exist": (_state(lambda s: _set(s, "owner", READING, 4)),
                                          "owner[5] is 4, expected -1 to 3"),
    "a bankrupt player holding deeds": (
        _state(lambda s: (_set(s, "bankrupt", 3, True), s.__setitem__("bankruptcies", 1),
                          _move_money(s, 3, 4, s["cash"][3]))),
        "seat 3 is bankrupt but holds"),
    "bankruptcies miscounted": (_state(lambda s: s.__setitem__("bankruptcies", 2)),
                                "2 bankruptcies, but 0 bankrupt seats"),
    "position off the board": (_state(lambda s: _set(s, "position", 1, 40)),
                               "position[1] is 40, expected 0 to 39"),
    "jailed away from the jail": (_state(lambda s: _set(s, "in_jail", 1, True)),
                                  "seat 1 is in jail but stands on"),
    "jail turns out of range": (
        _state(lambda s: (_set(s, "in_jail", 1, True), _set(s, "position", 1, JAIL),
                          _set(s, "jail_turns", 1, 4))),
        "seat 1 has spent 4 turns in jail: the rulebook allows 0 to 3"),
    "current seat out of range": (_state(lambda s: s.__setitem__("current", 4)),
                                  "current is 4, not a seat"),
    "turn beyond the cap": (_state(lambda s: s.__setitem__("turn", 2001)),
                            "turn 2001 is beyond the turn cap 2000"),
    "negative round": (_state(lambda s: s.__setitem__("round", -1)), "round is -1"),
    "a roll no dice give": (lambda g: g["progress"].__setitem__("last_roll", [7, 7]),
                            "last roll [7, 7] is not a throw of the rulebook's dice"),
    "a roll of objects": (lambda g: g["progress"].__setitem__("last_roll", [{"a": 1}]),
                          "is not a throw of the rulebook's dice"),
    "a total the roll does not give": (lambda g: g["progress"].__setitem__("dice_total", 12),
                                       "dice total 12 is not that of the last roll"),
    "a winner of a game not over": (lambda g: g["progress"].__setitem__("winner", 1),
                                    "a winner, 1, but the game is not over"),
    "a negative change counter": (lambda g: g["progress"]["seat_version"].__setitem__(0, -3),
                                  "seat_version[0] is -3"),
    "an agent's value of the wrong type": (
        lambda g: g["agents"][0]["state"].__setitem__("reserve", "abc"),
        "seat 0's agent: 'reserve' is a str, expected an int @ $.game.agents[0].state.reserve"),
    "an agent's attribute it does not have": (
        lambda g: g["agents"][1]["state"].__setitem__("hunch", 3),
        "seat 1's agent: 'hunch' is not an attribute of rulelang.engine.agents.DefaultAgent"),
    "an agent's attribute missing": (lambda g: g["agents"][2]["state"].pop("reserve"),
                                     "seat 2's agent: 'reserve' is missing"),
    "an agent's tuple of the wrong length": (
        lambda g: g["agents"][0]["state"].__setitem__("_bid_key", {"tuple": [1, 2, 3]}),
        "'_bid_key' has 3 entries, expected 2"),
    "no seats": (lambda g: (g.__setitem__("agents", []),
                            g["state"].update(players=0, bank=0)), "has no seats"),
    "fewer seats than the rulebook's players": (
        lambda g: (g.__setitem__("agents", g["agents"][:2]),
                   g["state"].update(players=2, bank=2)),
        "2 seats, and the rulebook is for 3 to 8 players"),
    "a turn cap below zero": (lambda g: g.__setitem__("max_turns", -5),
                              "the turn cap is -5"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_save_no_game_can_reach_is_refused(case, good, tmp_path):
    """A resealed save with a state no game reaches is refused, saying what and where."""
    change, message = CASES[case]
    path = tmp_path / "bad.json"
    path.write_text(_reseal(good, change), encoding="utf-8")
    with pytest.raises(rulelang.SaveError) as err:
        rulelang.load_game(path)
    assert "is not a valid save: " in str(err.value)
    assert message in str(err.value)


@pytest.mark.parametrize("case", ["money created", "houses on a railroad",
                                  "an agent's value of the wrong type"])
def test_the_command_line_refuses_a_meaningless_save_before_writing(case, good, tmp_path):
    """`rulelang resume` refuses it with exit 1, an `error:` line, no traceback, and its log
    and save files as they were (--force given: even then nothing is overwritten)."""
    change, message = CASES[case]
    path = tmp_path / "bad.json"
    path.write_text(_reseal(good, change), encoding="utf-8")
    log, target = tmp_path / "events.jsonl", tmp_path / "next.json"
    log.write_text("keep me\n")
    target.write_text("keep me too\n")
    done = in_process("resume", path, "--log", log, "--save-at", "50", "--save", target,
                      "--force", cwd=ROOT)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("error: ") and message in done.stderr
    assert log.read_text() == "keep me\n" and target.read_text() == "keep me too\n"


def test_pots_and_themed_pieces_are_checked(tmp_path):
    """A pot below zero, a token off the board, a character twice or on the wrong side."""
    def saved(ruleset):
        game = _played_to(Game(load(ruleset), make_agents("default", 4), seed=3), 10)
        return save.dumps(game)
    jackpot, starwars = saved(JACKPOT), saved(STARWARS)
    cases = [
        (jackpot, _state(lambda s: _move_money(s, 5, 4, s["cash"][5] + 10)),
         "the pot 'Free Parking jackpot' holds -10"),
        (starwars, _state(lambda s: _set(s, "tokens", 0, 99)), "tokens[0] is 99, expected 0 to"),
        (starwars, _state(lambda s: _set(s, "character", 1, s["character"][0])),
         "seat 1 plays the character"),
        (starwars, _state(lambda s: _set(s, "side", 0, 1 - s["side"][0])), "seat 0 is on the side"),
    ]
    for text, change, message in cases:
        path = tmp_path / "bad.json"
        path.write_text(_reseal(text, change), encoding="utf-8")
        with pytest.raises(rulelang.SaveError, match="is not a valid save: ") as err:
            rulelang.load_game(path)
        assert message in str(err.value)


def _sealed_text(body_text: str, canonical_text: str) -> str:
    """A save from its body's JSON text and the canonical text its checksum is taken over."""
    digest = "sha256:" + hashlib.sha256(canonical_text.encode("utf-8")).hexdigest()
    return (f'{{"format":"{save.FORMAT}","version":{save.VERSION},"checksum":"{digest}",'
            f'"game":{body_text}}}')


def _with_placeholder(good, put, raw: str) -> str:
    """The save with the JSON text `raw` where `put` places a placeholder, resealed."""
    doc = json.loads(good)
    put(doc["game"], "@@RAW@@")
    body = json.dumps(doc["game"], separators=(",", ":"), ensure_ascii=False)
    canonical = json.dumps(doc["game"], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return _sealed_text(body.replace('"@@RAW@@"', raw), canonical.replace('"@@RAW@@"', raw))


@pytest.mark.parametrize("parameters", ["0", ["jail_fine"], ["=3"]])
def test_saved_parameters_that_are_no_name_value_are_refused(parameters, good, tmp_path):
    """Parameters a save holds that read as no NAME=VALUE (a string is a list of its
    characters to the converter): a SaveError, not the checker's RuleError."""
    path = tmp_path / "bad.json"
    path.write_text(_reseal(good, lambda g: g["rulebook"].__setitem__("parameters", parameters)),
                    encoding="utf-8")
    with pytest.raises(rulelang.SaveError) as err:
        rulelang.load_game(path)
    assert "with parameters it cannot read (E017)" in str(err.value)


@pytest.mark.parametrize("raw, message", [
    ("9" * 5000, "an integer of 5000 digits"),
    ("-" + "9" * 120, "an integer of 120 digits"),
    ("1e999", "a number JSON cannot hold"),
    ("NaN", "a number JSON cannot hold"),
    ("[" * 100 + "]" * 100, "nested too deeply"),
    ("[" * 990 + "]" * 990, "nested"),
    ("[" * 50000 + "]" * 50000, "nested too deeply"),
])
def test_numbers_and_nesting_beyond_bounds_are_refused(raw, message, good, tmp_path):
    """A huge integer, a number JSON cannot hold, deep nesting: a clear error, no traceback."""
    def put(g, placeholder):
        g["agents"][0]["state"]["reserve"] = placeholder
    path = tmp_path / "bad.json"
    path.write_text(_with_placeholder(good, put, raw), encoding="utf-8")
    with pytest.raises(rulelang.SaveError) as err:
        rulelang.load_game(path)
    assert message in str(err.value)
    done = in_process("resume", path, cwd=ROOT)
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stderr.startswith("error: ") and message in done.stderr


def test_a_huge_seed_is_refused_on_saving_too(tmp_path):
    """What a save could not load again is refused when saving, and nothing is written (a
    game is not made from such a seed: only a Python caller can set one)."""
    with pytest.raises(ValueError, match="not a 64-bit integer"):
        Game(load(RULES), make_agents("default", 3), seed=10**150)
    game = Game(load(RULES), make_agents("default", 3), seed=1)
    game.seed = 10**150
    with pytest.raises(rulelang.SaveError, match="an integer of 151 digits"):
        rulelang.save_game(game, tmp_path / "g.json")
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------- fuzzing


def _paths(value, path=()):
    """Every path to a value inside a JSON document (the generator's 625 words but one)."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3] if path == ("rng", "internal") else value):
            yield from _paths(v, path + (i,))


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 45) | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=6)


@st.composite
def mutations(draw, doc):
    """A few changes to a save's game: a value replaced, nudged, or swapped with another."""
    for _ in range(draw(st.integers(1, 3))):
        # half the changes in the state, one field of it as likely as another
        where = draw(st.sampled_from(["state", "anywhere"]))
        if where == "state" and isinstance(doc.get("state"), dict) and doc["state"]:
            field = draw(st.sampled_from(sorted(doc["state"])))
            start = ("state", field)
            path = draw(st.sampled_from(list(_paths(_get(doc, start), start))))
        else:
            path = draw(st.sampled_from([p for p in _paths(doc) if p]))
        parent, key = _get(doc, path[:-1]), path[-1]
        old = parent[key]
        how = draw(st.sampled_from(["replace", "nudge", "swap"]))
        if how == "nudge" and type(old) is int:
            parent[key] = old + draw(st.sampled_from([-1, 1, -2, 2, 100, -100, 10**18]))
        elif how == "nudge" and type(old) is bool:
            parent[key] = not old
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
        else:
            parent[key] = draw(JSON_VALUES)
    return doc


@pytest.mark.parametrize("ruleset", [RULES, JACKPOT, STARWARS])
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_mutated_save_is_refused_or_plays_on_within_the_rules(ruleset, data, tmp_path):
    """A save changed at random and resealed: refused with SaveError, or it plays on to the end
    with every invariant holding after every event; never another exception."""
    names = data.draw(st.lists(st.sampled_from(["default", "random"]), min_size=3, max_size=4),
                      label="agents")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    at = data.draw(st.integers(0, 60), label="save at turn")
    game = _played_to(Game(load(ruleset), make_agents(names, len(names)), seed=seed,
                           max_turns=300), at)
    doc = json.loads(save.dumps(game))
    data.draw(mutations(doc["game"]), label="mutated")
    doc["checksum"] = save._checksum(doc["game"])
    path = tmp_path / "mutated.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    checker = Checker(keep_lines=False)
    try:
        resumed = rulelang.load_game(path, log=checker)
    except rulelang.SaveError:
        return
    # a turn cap mutated up to 10**18 is valid, but this test plays only so far
    resumed.max_turns = min(resumed.max_turns, resumed.state.turn + 500)
    checker.bind(resumed, resumed.rulebook)
    checker.check_state()
    resumed.play()
    checker.check_finished()


@pytest.mark.parametrize("secret_name", ["api_key", "api_key.rules"])
def test_a_save_naming_a_secret_file_never_shows_it(secret_name, good, tmp_path):
    """The rulebook a save names is read like any rulebook, but the save is a stranger's
    file: a failure names the codes, never a message that could quote the file's text."""
    secret = tmp_path / "private" / secret_name
    secret.parent.mkdir()
    secret.write_text("sk_live_SECRET123 and more\n")
    path = tmp_path / "game.json"
    path.write_text(_reseal(good, lambda g: g["rulebook"].update(path=str(secret))))
    with pytest.raises(rulelang.SaveError) as err:
        rulelang.load_game(path)
    assert "SECRET" not in str(err.value) and "E0" in str(err.value)
    done = in_process("resume", path, cwd=tmp_path)
    assert done.returncode == 1 and "SECRET" not in done.stdout + done.stderr, done.stderr


def test_save_game_never_overwrites_its_rulebook_nor_a_device(tmp_path):
    """From Python too, a save never replaces the rulebook played nor a non-regular file."""
    rules = tmp_path / "r.rules"
    rules.write_text('rulebook "R"\nextends "classic_1961.rules"\n')
    game = Game(load(str(rules)), make_agents("default", 3), seed=1)
    before = rules.read_bytes()
    with pytest.raises(rulelang.SaveError, match="rulebook being played"):
        save.save_game(game, rules)
    assert rules.read_bytes() == before
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(rulelang.SaveError, match="not a regular file"):
        save.save_game(game, tmp_path / "pipe")
