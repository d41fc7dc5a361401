"""`the player with the highest roll starts` (004 DÉBUT DE LA PARTIE, 003 QUI JOUE EN PREMIER ?,
000 and 002 PRÉPARATION DU JEU 5, 001 THE PLAY): every player throws, the tied highest throw
again, and the one left with the highest total plays the first turn."""

from __future__ import annotations

import json

import pytest

import rulelang
from scenario import rulebook

# each rulebook whose first player is drawn so (the others extend one of these)
RULEBOOKS = ["classic_1961.rules", "french_standard.rules", "dinos.rules", "lotr.rules",
             "lotr_fr.rules", "starwars_ep2.rules"]
SEEDS = range(60)


def _setup(rb, seed: int, players: int) -> tuple[list[dict], rulelang.Game]:
    lines: list[str] = []
    agents = [rulelang.DefaultAgent() for _ in range(players)]
    game = rulelang.Game(rb, agents, seed=seed, max_turns=1, log=lines.append)
    return [json.loads(line) for line in lines], game


@pytest.mark.parametrize("name", RULEBOOKS)
def test_the_highest_roll_starts_and_ties_throw_again(name):
    rb = rulebook(name)
    total = dict(zip(rb.rolls, rb.totals))
    starters, tie_breaks = set(), 0
    for seed in SEEDS:
        players = (rb.settings.players[0] + rb.settings.players[1]) // 2
        events, game = _setup(rb, seed, players)
        (first,) = [e for e in events if e["event"] == "first_player"]
        assert first["rule"] == "first_player"
        throws = [(e["player"], total[tuple(e["dice"])]) for e in events
                  if e["event"] == "roll" and e["rule"] == "first_player"]
        # the throws go round by round: every player first, then the tied highest again
        contenders = list(range(players))
        while throws:
            this, throws = throws[:len(contenders)], throws[len(contenders):]
            assert [seat for seat, _ in this] == contenders, (seed, this)
            best = max(t for _, t in this)
            contenders = [seat for seat, t in this if t == best]
            tie_breaks += len(contenders) > 1
        assert len(contenders) == 1, (seed, contenders)
        assert first["player"] == contenders[0] == game.state.current
        starters.add(first["player"])
    # not a test of seat 0 only: every seat started some game, and ties were thrown again
    assert starters == set(range(players)), starters
    assert tie_breaks > 0
