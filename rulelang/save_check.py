"""Whether a save holds a game that could have been played: bounded numbers, and a state true
to its rulebook and to the invariants every game keeps, checked before the game resumes.

A save's checksum is an unkeyed SHA-256: it detects accidental damage, and anyone can reseal
a save after editing it. What this module checks is the meaning: money adds up, each building
and card is in one place, deeds and buildings sit where the rulebook allows, counters and
seats are within range, agents' values have their types (docs/engine.md, "Saving and
resuming"). Each check raises a `ValueError` saying what is wrong and where (`@ $.game...`);
save.py turns it into a `SaveError`.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING, Any

import attrs

from .engine.state import State

if TYPE_CHECKING:
    from .engine.game import Game

MAX_DIGITS = 100  # digits of the longest integer a save holds (Python refuses 4,300 and more)
MAX_DEPTH = 64  # levels of nesting of a save's JSON, agents' own values included
_LIMIT = 10**MAX_DIGITS


class Oversized:
    """What the JSON reader gives for an integer too long to be read: found by `check_bounds`,
    which says where it is."""

    __slots__ = ("digits",)

    def __init__(self, digits: int):
        self.digits = digits


def parse_int(text: str) -> int | Oversized:
    """json.loads's parse_int: an integer, unless it is too long to read safely."""
    digits = len(text) - text.startswith("-")
    return Oversized(digits) if digits > MAX_DIGITS else int(text)


def check_bounds(doc: Any, root: str = "$") -> None:
    """No integer longer than MAX_DIGITS, no float JSON cannot hold, no nesting deeper than
    MAX_DEPTH: what a save can be read and written again with."""
    stack = [(doc, root, 1)]
    while stack:
        value, path, depth = stack.pop()
        kind = type(value)
        if kind is int:
            if not -_LIMIT < value < _LIMIT:
                _fail(f"an integer of {len(str(abs(value)))} digits, beyond the {MAX_DIGITS} "
                      "a save may hold", path)
        elif kind is Oversized:
            _fail(f"an integer of {value.digits} digits, beyond the {MAX_DIGITS} a save may "
                  "hold", path)
        elif kind is float:
            if not math.isfinite(value):
                _fail(f"{value}, a number JSON cannot hold", path)
        elif kind is dict or kind is list:
            if depth >= MAX_DEPTH:
                _fail(f"nested too deeply: more than {MAX_DEPTH} levels", path)
            items = value.items() if kind is dict else enumerate(value)
            for key, inner in items:
                sub = f"{path}.{key}" if kind is dict else f"{path}[{key}]"
                stack.append((inner, sub, depth + 1))


def _fail(message: str, path: str) -> None:
    raise ValueError(f"{message} @ {path}")


# ------------------------------------------------------------------ the state


def check_state(saved: State, fresh: State, game: Game, over: bool, max_turns: int) -> None:
    """The saved state fits the table and the rulebook of `game` (a game set up afresh, whose
    state is `fresh`) and keeps the rules' invariants (tests/invariants.py checks the same
    after every event of every game)."""
    _check_sizes(saved, fresh, game)
    _check_counters(saved, over, max_turns)
    _check_money(saved, game)
    _check_seats(saved, game)
    _check_deeds(saved, game)
    _check_buildings(saved, game)
    _check_cards(saved, game)
    _check_sides(saved, game)


def _check_sizes(saved: State, fresh: State, game: Game) -> None:
    rb = game.rulebook
    for field in attrs.fields(State):
        a, b = getattr(saved, field.name), getattr(fresh, field.name)
        if isinstance(b, list) and len(a) != len(b):
            raise ValueError(f"$.game.state.{field.name} has {len(a)} entries, "
                             f"expected {len(b)}")
    n = fresh.players
    if (saved.players, saved.bank) != (fresh.players, fresh.bank):
        raise ValueError(f"$.game.state: {saved.players} players, expected {n}")
    if not 0 <= saved.current < n:
        raise ValueError(f"$.game.state.current is {saved.current}, not a seat")
    for name, values, low, high in (("position", saved.position, 0, rb.size - 1),
                                    ("owner", saved.owner, -1, n - 1),
                                    ("houses", saved.houses, 0, 1000),
                                    ("hotels", saved.hotels, 0, 1000),
                                    ("tokens", saved.tokens, 0, rb.size - 1),
                                    ("laps", saved.laps, 0, _LIMIT)):
        for i, v in enumerate(values):
            if not low <= v <= high:
                raise ValueError(f"$.game.state.{name}[{i}] is {v}, expected {low} to {high}")
    for d, deck in enumerate(saved.decks):
        size = len(rb.decks[d].cards)
        if any(not 0 <= c < size for c in deck):
            raise ValueError(f"$.game.state.decks[{d}] names a card the deck does not have")
    for seat, hand in enumerate(saved.jail_cards):
        for d, c in hand:
            if not (0 <= d < len(rb.decks) and 0 <= c < len(rb.decks[d].cards)):
                raise ValueError(f"$.game.state.jail_cards[{seat}] names a card that does "
                                 "not exist")


def _check_counters(st: State, over: bool, max_turns: int) -> None:
    if max_turns < 0:
        _fail(f"the turn cap is {max_turns}, below zero", "$.game.max_turns")
    if st.turn < 0:
        _fail(f"turn is {st.turn}, below zero", "$.game.state.turn")
    if st.turn > max(max_turns, 1):
        _fail(f"turn {st.turn} is beyond the turn cap {max_turns}", "$.game.state.turn")
    if not 0 <= st.round <= st.turn:
        _fail(f"round is {st.round}: expected 0 to the turn, {st.turn}", "$.game.state.round")
    bankrupt = st.bankrupt.count(True)
    if st.bankruptcies != bankrupt:
        _fail(f"{st.bankruptcies} bankruptcies, but {bankrupt} bankrupt "
              f"{'seat' if bankrupt == 1 else 'seats'}",
              "$.game.state.bankruptcies")
    if not over and st.bankrupt[st.current]:
        _fail(f"seat {st.current}, bankrupt, is to play", "$.game.state.current")


def _check_money(st: State, game: Game) -> None:
    # every account — players, the bank (which may go negative), the pots — adds up to 0:
    # transfers only move money
    total = sum(st.cash)
    if total != 0:
        _fail(f"the accounts add up to {total}, not 0: money was created or destroyed",
              "$.game.state.cash")
    for seat in range(st.players):
        if st.cash[seat] < 0:
            _fail(f"seat {seat}'s cash is {st.cash[seat]}, below zero (a debt is paid, or the "
                  "player goes bankrupt)", f"$.game.state.cash[{seat}]")
    for i, pot in enumerate(game.rulebook.pots):
        account = st.bank + 1 + i
        if st.cash[account] < 0:
            _fail(f"the pot {pot!r} holds {st.cash[account]}, below zero",
                  f"$.game.state.cash[{account}]")


def _check_seats(st: State, game: Game) -> None:
    rb, s = game.rulebook, game.settings
    for seat in range(st.players):
        if st.bankrupt[seat]:
            held = [repr(rb.spaces[q].name) for q in rb.properties if st.owner[q] == seat]
            held += ["cash"] * bool(st.cash[seat]) + ["a card"] * bool(st.jail_cards[seat])
            held += ["a cell in jail"] * st.in_jail[seat]
            if held:
                _fail(f"seat {seat} is bankrupt but holds {', '.join(held)}",
                      f"$.game.state.bankrupt[{seat}]")
        if st.in_jail[seat] and st.position[seat] != rb.jail:
            _fail(f"seat {seat} is in jail but stands on "
                  f"{rb.spaces[st.position[seat]].name!r}", f"$.game.state.in_jail[{seat}]")
        if not 0 <= st.jail_turns[seat] <= s.jail_turns:
            _fail(f"seat {seat} has spent {st.jail_turns[seat]} turns in jail: the rulebook "
                  f"allows 0 to {s.jail_turns}", f"$.game.state.jail_turns[{seat}]")


def _check_deeds(st: State, game: Game) -> None:
    for sp in game.rulebook.spaces:
        q = sp.index
        where = f"$.game.state.owner[{q}]"
        if not sp.is_property:
            if st.owner[q] != -1 or st.mortgaged[q]:
                _fail(f"{sp.name!r} is not a property, but it is held or mortgaged", where)
        elif st.owner[q] == -1 and st.mortgaged[q]:
            _fail(f"{sp.name!r} is mortgaged but held by the bank",
                  f"$.game.state.mortgaged[{q}]")


def _check_buildings(st: State, game: Game) -> None:
    rb, s = game.rulebook, game.settings
    for name, bank, on_lots, declared in (
            ("houses", st.bank_houses, st.houses, s.houses),
            ("hotels", st.bank_hotels, st.hotels, s.hotels)):
        if bank < 0:
            _fail(f"the bank's supply of {name} is {bank}, below zero", f"$.game.state.bank_{name}")
        if bank + sum(on_lots) != declared:
            _fail(f"{name}: {sum(on_lots)} on lots and {bank} in the bank, but the rulebook has "
                  f"{declared}", f"$.game.state.{name}")
    for sp in rb.spaces:
        q = sp.index
        houses, hotels = st.houses[q], st.hotels[q]
        if not (houses or hotels):
            continue
        where = f"$.game.state.{'houses' if houses else 'hotels'}[{q}]"
        if sp.kind != "street":
            _fail(f"{sp.name!r} is a {sp.kind.replace('_', ' ')}, which takes no buildings",
                  where)
        if st.owner[q] == -1:
            _fail(f"{sp.name!r} is built but held by the bank", where)
        if houses and hotels:
            _fail(f"{sp.name!r} holds both houses and a hotel", where)
        if houses > s.max_houses:
            _fail(f"{sp.name!r} holds {houses} houses: at most {s.max_houses}", where)
        if hotels > 1:
            _fail(f"{sp.name!r} holds {hotels} hotels: at most one", where)
        if st.mortgaged[q]:
            _fail(f"{sp.name!r} is mortgaged and built", f"$.game.state.mortgaged[{q}]")
    top = s.houses_per_hotel + 1  # a hotel stands for the houses it replaced, and one more
    # what the rulebook's permissions guarantee in every state of its games (compile_permits):
    # a built group is held whole if building needs the whole group and no deed of a built
    # group is traded; no lot of it is mortgaged if building needs none mortgaged and no lot
    # of a built group can be mortgaged or traded; it is level if built and sold evenly too
    held = rb.guarantees
    whole = rb.whole_group_to_build and "trade_unbuilt" in held
    unmortgaged = {"build_unmortgaged", "mortgage_unbuilt", "trade_unbuilt"} <= held
    even = whole and {"build_evenly", "sell_evenly"} <= held
    for g in rb.street_groups:
        members = rb.groups[g]
        levels = [top if st.hotels[q] else st.houses[q] for q in members]
        if not any(levels):
            continue
        name, where = rb.group_names[g], f"$.game.state.houses[{members[0]}]"
        if whole and len({st.owner[q] for q in members}) != 1:
            _fail(f"the group {name!r} is built but not held whole", where)
        if unmortgaged and any(st.mortgaged[q] for q in members):
            _fail(f"the group {name!r} is built while one of its lots is mortgaged", where)
        if even and max(levels) - min(levels) > 1:
            shown = ", ".join("a hotel" if st.hotels[q] else str(st.houses[q]) for q in members)
            _fail(f"the group {name!r} is built unevenly: {shown}", where)


def _check_cards(st: State, game: Game) -> None:
    """Each card of each deck is in exactly one place: its deck, or one player's hand, and
    only a card the player keeps (Get Out of Jail Free) is ever held."""
    rb = game.rulebook
    places = [Counter(deck) for deck in st.decks]
    for seat, hand in enumerate(st.jail_cards):
        for i, (d, c) in enumerate(hand):
            card = rb.decks[d].cards[c]
            if not card.keep:
                _fail(f"seat {seat} holds the card {card.id!r}, which goes back under its deck",
                      f"$.game.state.jail_cards[{seat}][{i}]")
            places[d][c] += 1
    for d, deck in enumerate(rb.decks):
        for c, card in enumerate(deck.cards):
            count = places[d][c]
            if count != 1:
                state = "nowhere" if count == 0 else f"in {count} places"
                _fail(f"card {card.id!r} of the deck {deck.name!r} is {state}: each card is in "
                      "its deck or in one player's hand", f"$.game.state.decks[{d}]")


def _check_sides(st: State, game: Game) -> None:
    characters = game.rulebook.characters
    taken: dict[int, int] = {}
    for seat in range(st.players):
        c, side = st.character[seat], st.side[seat]
        if not -1 <= c < len(characters):
            _fail(f"seat {seat} plays the character {c}, which does not exist",
                  f"$.game.state.character[{seat}]")
        if c >= 0 and c in taken:
            _fail(f"seat {seat} plays the character {characters[c][0]!r}, as seat {taken[c]} "
                  "does", f"$.game.state.character[{seat}]")
        taken[c] = seat
        expected = characters[c][1] if c >= 0 else -1
        if side != expected:
            _fail(f"seat {seat} is on the side {side}, but its character's side is {expected}",
                  f"$.game.state.side[{seat}]")


# ------------------------------------------------------------------ the game's progress


def check_progress(progress: Any, game: Game, st: State) -> None:
    """The progress counters fit the state: the last throw, the end, the change counters."""
    rb = game.rulebook
    roll = tuple(progress.last_roll)
    if roll:
        try:
            i = rb.rolls.index(roll)
        except ValueError:
            i = -1
        if i < 0 or any(type(a) is not type(b) for a, b in zip(roll, rb.rolls[i])):
            _fail(f"the last roll {list(roll)!r} is not a throw of the rulebook's dice",
                  "$.game.progress.last_roll")
        total = rb.totals[i]
    else:
        total = 0
    if progress.dice_total != total:
        _fail(f"the dice total {progress.dice_total} is not that of the last roll, {total}",
              "$.game.progress.dice_total")
    if progress.version < 0:
        _fail(f"version is {progress.version}, below zero", "$.game.progress.version")
    for seat, v in enumerate(progress.seat_version):
        if v < 0:
            _fail(f"seat_version[{seat}] is {v}, below zero",
                  f"$.game.progress.seat_version[{seat}]")
    winner = progress.winner
    if not progress.over:
        if winner is not None:
            _fail(f"a winner, {winner}, but the game is not over", "$.game.progress.winner")
        if progress.end_reason is not None:
            _fail(f"an end reason, {progress.end_reason!r}, but the game is not over",
                  "$.game.progress.end_reason")
    else:
        if progress.end_reason is None:
            _fail("the game is over but says not why", "$.game.progress.end_reason")
        if winner is not None and not (0 <= winner < st.players and not st.bankrupt[winner]):
            _fail(f"the winner {winner} is not a player still in the game",
                  "$.game.progress.winner")


# ------------------------------------------------------------------ agents


def check_agent(seat: int, kind: str, expected: dict[str, Any], found: dict[str, Any]) -> None:
    """A built-in agent's saved values have the attributes and types a fresh one has."""
    where = f"$.game.agents[{seat}].state"
    for key in expected:
        if key not in found:
            _fail(f"seat {seat}'s agent: {key!r} is missing", f"{where}.{key}")
    for key, value in found.items():
        if key not in expected:
            _fail(f"seat {seat}'s agent: {key!r} is not an attribute of {kind}", f"{where}.{key}")
        _same_shape(seat, key, expected[key], value, f"{where}.{key}")


_JSON_NAMES = {int: "an int", str: "a str", bool: "a bool", float: "a float", list: "a list",
               dict: "a tagged value", type(None): "null"}


def _same_shape(seat: int, key: str, expected: Any, found: Any, where: str) -> None:
    if expected is None:
        return  # the fresh agent does not say what it will hold
    if type(found) is not type(expected):
        _fail(f"seat {seat}'s agent: {key!r} is {_JSON_NAMES.get(type(found), 'a value')}, "
              f"expected {_JSON_NAMES.get(type(expected), 'a value')}", where)
    if type(expected) is dict:
        (tag, inner), = expected.items()
        if list(found) != [tag]:
            _fail(f"seat {seat}'s agent: {key!r} is tagged {sorted(found)}, expected {tag!r}",
                  where)
        if tag == "tuple":
            if len(found[tag]) != len(inner):
                _fail(f"seat {seat}'s agent: {key!r} has {len(found[tag])} entries, expected "
                      f"{len(inner)}", where)
            for i, (a, b) in enumerate(zip(inner, found[tag])):
                _same_shape(seat, key, a, b, f"{where}.tuple[{i}]")
    elif type(expected) is list and expected:
        for i, b in enumerate(found):
            _same_shape(seat, key, expected[0], b, f"{where}[{i}]")
