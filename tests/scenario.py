"""Scenario tests set up as data: a board position, scripted dice and scripted answers.

`scenario(...)` builds a game of a rulebook, then puts the state exactly as described
(cash, deeds, buildings, mortgages, positions, jail, deck order) and replaces the dice with
a script, so a test reads as "given this position and these dice, the rules do that".
Money the setup moves is balanced against the bank, so conservation still holds.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import attrs
import pytest

import rulelang
from rulelang.engine.actions import IllegalAction, apply
from rulelang.engine.agents import Agent
from rulelang.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"


@functools.cache
def rulebook(name: str = "classic_1961.rules", options: tuple[str, ...] = (),
             parameters: tuple[str, ...] = ()):
    """A compiled rulebook from rulesets/, compiled once per test session."""
    return rulelang.load(str(RULESETS / name), options, parameters)


class ScriptedDice:
    """Stands in for the game's generator: each random() yields the next scripted roll."""

    def __init__(self, rulebook, rolls):
        self.table = rulebook.rolls
        self.rolls = list(rolls)

    def random(self) -> float:
        if not self.rolls:
            raise AssertionError("the scenario ran out of scripted dice")
        roll = tuple(self.rolls.pop(0))
        return (self.table.index(roll) + 0.5) / len(self.table)

    def choice(self, seq):
        """One die thrown alone (a battle): the next scripted item is the face it shows."""
        if not self.rolls:
            raise AssertionError("the scenario ran out of scripted dice")
        face = self.rolls.pop(0)
        if face not in seq:
            raise AssertionError(f"the die has no face {face!r}")
        return face

    def shuffle(self, seq) -> None:
        pass


class Scripted(Agent):
    """Answers from lists and values given by the test; passive where nothing is given."""

    name = "scripted"

    def __init__(self, buy=False, bids=(), jail="roll", tax=0, actions=(), raise_with=(),
                 accept=False, lift_on_transfer=False, wants_building=False, place=None,
                 attentive=True, claim_delay=0, claim=False, token_to=None, between=()):
        self.buy_answer = buy
        self.bids = list(bids)
        self.jail_answer = jail
        self.tax_answer = tax
        self.actions = list(actions)
        self.raise_with = list(raise_with)
        self.accept = accept
        self.lift = lift_on_transfer
        self.wants = wants_building
        self.place = place
        self.attentive = attentive
        self.claim_answer = claim
        self.token_to = token_to
        self.claim_delay = claim_delay
        self.between_actions = list(between)
        self.asked: list[tuple] = []

    def buy(self, game, seat, pos):
        self.asked.append(("buy", pos))
        return self.buy_answer

    def bid(self, game, seat, lot, high):
        self.asked.append(("bid", lot, high))
        return self.bids.pop(0) if self.bids else None

    def jail(self, game, seat):
        return self.jail_answer

    def tax(self, game, seat, options):
        self.asked.append(("tax", options))
        return self.tax_answer

    def raise_funds(self, game, seat, owed):
        return self.raise_with.pop(0) if self.raise_with else None

    def manage(self, game, seat):
        return self.actions.pop(0) if self.actions else None

    def between(self, game, seat):
        """The next scripted action between turns; it notes who was about to play."""
        self.asked.append(("between", game.state.current))
        return self.between_actions.pop(0) if self.between_actions else None

    def accept_trade(self, game, seat, proposer, trade):
        return self.accept

    def lift_on_transfer(self, game, seat, pos):
        return self.lift

    def wants_building(self, game, seat, kind):
        return self.wants

    def place_building(self, game, seat, kind, lots):
        return self.place if self.place is not None else lots[0]

    def claim(self, game, seat, pos):
        self.asked.append(("claim", pos))
        return self.claim_answer

    def place_token(self, game, seat, token, spaces):
        self.asked.append(("place_token", token, spaces))
        return pos(game, self.token_to) if self.token_to is not None else spaces[0]


def pos(game: Game, name: str) -> int:
    """The index of the space of that name."""
    return game.rulebook.space(name).index


def scenario(
    players: int = 3,
    agents=None,
    dice=(),
    cash=None,
    owners=None,
    houses=None,
    hotels=None,
    mortgaged=(),
    positions=None,
    in_jail=None,
    jail_cards=None,
    decks=None,
    current: int = 0,
    bank_houses: int | None = None,
    bank_hotels: int | None = None,
    name: str = "classic_1961.rules",
    options: tuple[str, ...] = (),
    log: list | None = None,
    tokens=None,
    characters=None,
    dealt: bool = False,
) -> Game:
    """A game whose state is exactly the one described; dice follow the script.

    Deeds a rulebook deals at setup are taken back (and their price refunded) unless dealt.
    """
    rb = rulebook(name, options)
    agents = list(agents or [Scripted() for _ in range(players)])
    game = Game(rb, agents, seed=0, log=log.append if log is not None else None)
    st = game.state
    bank = st.bank
    if not dealt:
        for q in rb.properties:
            st.owner[q] = -1
        for seat in range(st.players):
            st.cash[bank] += st.cash[seat] - rb.settings.starting_cash
            st.cash[seat] = rb.settings.starting_cash
    for seat, amount in (cash or {}).items():
        st.cash[bank] += st.cash[seat] - amount
        st.cash[seat] = amount
    for space, seat in (owners or {}).items():
        st.owner[pos(game, space)] = seat
    game.version += 1
    for space, count in (houses or {}).items():
        st.houses[pos(game, space)] = count
        st.bank_houses -= count
    for space, count in (hotels or {}).items():
        st.hotels[pos(game, space)] = count
        st.bank_hotels -= count
    if bank_houses is not None:
        st.bank_houses = bank_houses
    if bank_hotels is not None:
        st.bank_hotels = bank_hotels
    for space in mortgaged:
        st.mortgaged[pos(game, space)] = True
    for seat, space in (positions or {}).items():
        st.position[seat] = pos(game, space)
    for seat, turns in (in_jail or {}).items():
        st.in_jail[seat] = True
        st.jail_turns[seat] = turns
        st.position[seat] = rb.jail
    for seat, cards in (jail_cards or {}).items():
        for deck_name, card_id in cards:
            d = next(i for i, d in enumerate(rb.decks) if d.name == deck_name)
            c = next(i for i, c in enumerate(rb.decks[d].cards) if c.id == card_id)
            st.decks[d].remove(c)
            st.jail_cards[seat].append((d, c))
    for deck_name, top in (decks or {}).items():
        d = next(i for i, d in enumerate(rb.decks) if d.name == deck_name)
        ids = [rb.decks[d].cards[c].id for c in st.decks[d]]
        first = [ids.index(card_id) for card_id in top]
        rest = [i for i in range(len(ids)) if i not in first]
        st.decks[d] = [st.decks[d][i] for i in first + rest]
    for token, space in (tokens or {}).items():
        st.tokens[[t.name for t in rb.tokens].index(token)] = pos(game, space)
    for seat, character in (characters or {}).items():
        c = [name for name, _ in rb.characters].index(character)
        st.character[seat], st.side[seat] = c, rb.characters[c][1]
    st.current = current
    game.refresh_views()
    game.rng = ScriptedDice(rb, dice)
    return game


def total_money(game: Game) -> int:
    """Every account added up: players and the bank (0 by construction)."""
    return sum(game.state.cash)


def snapshot(game: Game) -> dict:
    """A deep copy of the whole state, to compare before and after a refused answer."""
    return copy.deepcopy(attrs.asdict(game.state))


def refused(game: Game, seat: int, action, rule: str) -> IllegalAction:
    """The action raises IllegalAction naming `rule`, and changes nothing at all."""
    before, version = snapshot(game), game.version
    with pytest.raises(IllegalAction) as err:
        apply(game, seat, action)
    assert err.value.rule == rule, err.value
    assert snapshot(game) == before and game.version == version
    assert total_money(game) == 0
    return err.value


def assert_dealt(name: str, players: int, each: int, paid: bool, seed: int = 5) -> Game:
    """A new game of the rulebook dealt `each` deeds to every player, paid or free, distinct
    deeds, the same for the same seed; returns the game."""
    rb = rulebook(name)
    game = Game(rb, [Scripted() for _ in range(players)], seed=seed)
    st = game.state
    for seat in range(players):
        mine = [q for q in rb.properties if st.owner[q] == seat]
        assert len(mine) == each
        cost = sum(rb.spaces[q].price for q in mine) if paid else 0
        assert st.cash[seat] == rb.settings.starting_cash - cost
    assert sum(1 for q in rb.properties if st.owner[q] >= 0) == players * each
    assert total_money(game) == 0
    again = Game(rb, [Scripted() for _ in range(players)], seed=seed)
    assert again.state.owner == st.owner  # the deal is part of the seeded game
    return game


def assert_contents(name: str, options: tuple[str, ...], dice: int, decks: list[str],
                    tokens: list[str]) -> None:
    """The box of an edition: its dice, two decks of 16 cards, 32 houses and 12 hotels under
    their own names, and its tokens (with the options that bring them)."""
    rb = rulebook(name, options)
    assert len(rb.dice) == dice
    assert [(d.name, len(d.cards)) for d in rb.decks] == [(deck, 16) for deck in decks]
    assert (rb.settings.houses, rb.settings.hotels) == (32, 12)
    assert [t.name for t in rb.tokens] == tokens


# The classic deeds as printed (shared/data/board_classic.csv): position -> price, mortgage,
# house cost, rents (a street: bare to hotel; a railroad: by the number held; a utility: the
# dice multipliers), so that an edition "with the classic values" is held to the deeds
# themselves, not only to classic_board.rules.
CLASSIC_DEEDS = {
    1: (60, 30, 50, (2, 10, 30, 90, 160, 250)),
    3: (60, 30, 50, (4, 20, 60, 180, 320, 450)),
    5: (200, 100, 0, (25, 50, 100, 200)),
    6: (100, 50, 50, (6, 30, 90, 270, 400, 550)),
    8: (100, 50, 50, (6, 30, 90, 270, 400, 550)),
    9: (120, 60, 50, (8, 40, 100, 300, 450, 600)),
    11: (140, 70, 100, (10, 50, 150, 450, 625, 750)),
    12: (150, 75, 0, (4, 10)),
    13: (140, 70, 100, (10, 50, 150, 450, 625, 750)),
    14: (160, 80, 100, (12, 60, 180, 500, 700, 900)),
    15: (200, 100, 0, (25, 50, 100, 200)),
    16: (180, 90, 100, (14, 70, 200, 550, 750, 950)),
    18: (180, 90, 100, (14, 70, 200, 550, 750, 950)),
    19: (200, 100, 100, (16, 80, 220, 600, 800, 1000)),
    21: (220, 110, 150, (18, 90, 250, 700, 875, 1050)),
    23: (220, 110, 150, (18, 90, 250, 700, 875, 1050)),
    24: (240, 120, 150, (20, 100, 300, 750, 925, 1100)),
    25: (200, 100, 0, (25, 50, 100, 200)),
    26: (260, 130, 150, (22, 110, 330, 800, 975, 1150)),
    27: (260, 130, 150, (22, 110, 330, 800, 975, 1150)),
    28: (150, 75, 0, (4, 10)),
    29: (280, 140, 150, (24, 120, 360, 850, 1025, 1200)),
    31: (300, 150, 200, (26, 130, 390, 900, 1100, 1275)),
    32: (300, 150, 200, (26, 130, 390, 900, 1100, 1275)),
    34: (320, 160, 200, (28, 150, 450, 1000, 1200, 1400)),
    35: (200, 100, 0, (25, 50, 100, 200)),
    37: (350, 175, 200, (35, 175, 500, 1100, 1300, 1500)),
    39: (400, 200, 200, (50, 200, 600, 1400, 1700, 2000)),
}


def assert_classic_values(name: str) -> None:
    """Every space of the rulebook is the classic board's space at that position, its name
    aside: kind, group, price, mortgage, building costs, rents and multipliers."""
    rb, classic = rulebook(name), rulebook("classic_board.rules")
    assert len(rb.spaces) == len(classic.spaces)
    for mine, theirs in zip(rb.spaces, classic.spaces):
        assert attrs.evolve(mine, name="") == attrs.evolve(theirs, name=""), mine.name
    deeds = {sp.index: (sp.price, sp.mortgage, sp.house_cost, sp.rents or sp.multipliers)
             for sp in rb.spaces if sp.price}
    assert deeds == CLASSIC_DEEDS
