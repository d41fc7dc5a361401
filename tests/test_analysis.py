"""`rulelang.analysis`: the exact chain against the engine's own games, the textbook figures of
the classic board, the rent table, and every ruleset analysed or refused."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import rulelang  # noqa: E402
from rulelang.analysis.markov import JAIL, Unmodelled, analyze, levels  # noqa: E402
from rulelang.engine.agents import Agent  # noqa: E402
from rulelang.engine.game import Game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = str(ROOT / "rulesets" / "classic_1961.rules")


@functools.cache
def classic() -> rulelang.Rulebook:
    return rulelang.load(CLASSIC)


@functools.cache
def exact(jail: str, cards: str):
    return analyze(classic(), jail, cards)


class Leaving(Agent):
    """Buys nothing (so nobody ever owes rent); in jail, uses a card if it holds one, else
    pays the fine (`--jail leave`), or rolls (`--jail stay`)."""

    name = "leaving"

    def __init__(self, stay: bool = False):
        self.stay = stay

    def jail(self, game, seat):
        if self.stay:
            return "roll"
        return "card" if game.state.jail_cards[seat] else "pay"


class Counted(Game):
    """The engine's game, unchanged but for two things the model says: each draw is a
    uniformly random card of the deck as it stands (shuffled before the draw); with
    `uniform`, a card a player keeps goes back to its deck at once. Each throw's landing is
    counted: where the pawn stands once the move and everything it set off are done."""

    def __init__(self, rulebook, agents, seed, uniform: bool, counts):
        self.counts = counts
        self.uniform = uniform
        self.moving = 0
        self.deck_rng = random.Random(seed * 7919 + 1)
        super().__init__(rulebook, agents, seed=seed, max_turns=1 << 30)

    def _count(self, seat):
        st = self.state
        self.counts[JAIL if st.in_jail[seat] else st.position[seat]] += 1

    def _move(self, seat, *args, **kwargs):
        self.moving += 1
        try:
            super()._move(seat, *args, **kwargs)
        finally:
            self.moving -= 1
        if not self.moving:
            self._count(seat)

    def go_to_jail(self, seat, rule):
        super().go_to_jail(seat, rule)
        if not self.moving:  # a throw that sends to jail without moving: the third double
            self._count(seat)

    def _jail_turn(self, seat):
        before = sum(self.counts)
        super()._jail_turn(seat)
        # a throw in jail that leaves the player there
        if self.state.in_jail[seat] and sum(self.counts) == before:
            self.counts[JAIL] += 1

    def draw(self, f, deck_index):
        st = self.state
        self.deck_rng.shuffle(st.decks[deck_index])
        held = len(st.jail_cards[f.player])
        super().draw(f, deck_index)
        if self.uniform and len(st.jail_cards[f.player]) > held:
            d, c = st.jail_cards[f.player].pop()
            st.decks[d].append(c)


def simulate(jail: str, cards: str, games: int, throws: int):
    """Per game, the share of its throws that end on each square (the last: In Jail)."""
    rb = classic()
    out = []
    for seed in range(games):
        counts = [0] * (rb.size + 1)
        game = Counted(rb, [Leaving(jail == "stay"), Leaving(jail == "stay")], seed,
                       cards == "uniform", counts)
        while sum(counts) < throws and not game.over:
            game.play_turn()
        out.append(np.array(counts, dtype=float) / sum(counts))
    return np.array(out)


@pytest.mark.parametrize("jail, cards", [("leave", "uniform"), ("stay", "kept")])
def test_the_engine_lands_where_the_chain_says(jail, cards):
    """The engine's own games, in the chain's model, land on each square per throw as often
    as the exact analysis says, within sampling error (4.5 standard errors across games)."""
    a = exact(jail, cards)
    expected = np.array(a.per_roll + (a.jail_per_roll,))
    shares = simulate(jail, cards, games=24, throws=6000)
    mean = shares.mean(axis=0)
    error = shares.std(axis=0, ddof=1) / np.sqrt(len(shares))
    z = np.abs(mean - expected) / np.maximum(error, 1e-9)
    names = a.names + ("In Jail",)
    worst = int(np.argmax(z))
    assert z.max() < 4.5, (f"{names[worst]}: simulated {mean[worst]:.5f}, exact "
                           f"{expected[worst]:.5f}, {z[worst]:.1f} standard errors")
