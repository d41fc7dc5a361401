"""Every ruleset of rulesets/, random and default agents: the invariants hold after every event."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import rulelang
from invariants import (
    ROOT, TALLY, Checker, CheckedGame, Violation, load, play_checked, ruleset_paths,
)
from rulelang.check import check
from rulelang.compile import compile_program
from rulelang.parse import parse_file
from rulelang.resolve import load_chain, merge
from rulelang.runner import make_agents
from strategies import AGENT_NAMES, SEEDS, ci_examples, tables, variants

RULESETS = ruleset_paths()


def test_rulesets_are_found():
    """The glob finds the shipped rulebooks, so a new one is covered with no new code."""
    assert "rulesets/classic_1961.rules" in RULESETS


@pytest.mark.parametrize("agents", ["default", "random", "mixed"])
@pytest.mark.parametrize("ruleset", RULESETS)
@ci_examples(3)
@given(data=st.data())
def test_invariants_hold_after_every_event(ruleset, agents, data):
    """Money, buildings, deeds, cards and cash keep their invariants at every event, and the
    game ends by a rule or by the cap, saying which. The same table is played again with the
    log off (the path of most games: no event to check at; the money is checked after every
    transfer and all after every turn), and it ends exactly as the checked game: checking
    and logging change nothing, and the same seed gives the same game."""
    seed, names = data.draw(tables(ruleset, agents), label="seed, agents")
    max_turns = data.draw(st.integers(1, 2000), label="max_turns")
    checked = play_checked(ruleset, make_agents(names, len(names)), seed, max_turns)
    assert checked.end_reason and checked.over
    quiet = play_checked(ruleset, make_agents(names, len(names)), seed, max_turns, log=False)
    assert (quiet.end_reason, quiet.winner) == (checked.end_reason, checked.winner)
    assert attrs.asdict(quiet.state) == attrs.asdict(checked.state)


def test_checker_sees_a_violation_between_two_turns():
    """The checker is not blind: a house appearing in the bank is reported at the next event."""
    rb = load("rulesets/classic_1961.rules")
    game = CheckedGame(rb, make_agents("default", 3), seed=4, max_turns=50)
    game.play_turn()
    game.state.bank_houses += 1
    with pytest.raises(Violation, match="houses: 0 on lots"):
        game.play_turn()


def test_checker_allows_a_drawn_card_in_transit_only_at_its_draw():
    """A card missing from its deck is reported unless it is the one being drawn."""
    rb = load("rulesets/classic_1961.rules")
    game = CheckedGame(rb, make_agents("default", 3), seed=4, max_turns=50)
    card = game.state.decks[0].pop(0)
    checker = game.checker
    checker.check_state(in_transit=(0, card))
    with pytest.raises(Violation, match="cards lost"):
        checker.check_state()
    game.state.decks[0].append(card)
    checker.check_state()



@pytest.fixture(scope="module")
def rulesets_copy(tmp_path_factory):
    """A copy of rulesets/, where variants are written beside the rulebook they extend."""
    copy = tmp_path_factory.mktemp("bounds") / "rulesets"
    shutil.copytree(ROOT / "rulesets", copy)
    return copy


@functools.cache
def _chain(path: str) -> tuple:
    """A rulebook's files, parsed once per session (a variant adds its own in front). The
    copy of rulesets/ is an include path: a house rule there extends "../classic_1961.rules"."""
    return tuple(load_chain(path, [str(Path(path).parent.parent)]
                            if Path(path).parent.name == "house" else []))


@functools.cache
def _declared(path: str) -> tuple[str, ...]:
    """The options a rulebook declares."""
    return tuple(n.name for n in merge(list(_chain(path)))[0].declared_options)


def _variant(path: Path, text: str, options: tuple[str, ...]) -> rulelang.Rulebook | None:
    """The variant rulebook `text`, written at `path` (it extends the rulebook beside it), as
    `rulelang.load` would compile it; None if the checker finds an error in it."""
    path.write_text(text, encoding="utf-8")
    variant = parse_file(str(path))
    chain = [variant, *_chain(str(path.with_name(variant.extends.path.value)))]
    program, errors = merge(chain, options)
    if any(d.is_error for d in errors + check(program)):
        return None
    return compile_program(program)


def test_a_bankruptcy_to_the_bank_leaves_no_group_built_unevenly(rulesets_copy):
    """The short game, a variant a draw once found: a player bankrupt to the bank (a jail
    fine) gives back its buildings, then its deeds one by one; no group is built unevenly in
    between (the buildings of the Reds went back lot by lot with the deeds, [0, 2, 2])."""
    base = rulesets_copy / "classic_1961_short.rules"
    body = ("  set building_sale = 99%\n  set houses_per_hotel = 2\n"
            "  set mortgage_interest = 50%\n"
            "  a player may not sell a building if the player is in jail\n"
            "  a player may not bid\n")
    text = (f'rulebook "short, two houses a hotel"\nextends "{base.name}"\n\n'
            f'rule bounds:\n  cite "test", "bounds"\n{body}')
    rb = _variant(base.with_name("bounds.rules"), text, ())
    game = CheckedGame(rb, make_agents(["default", "default", "random"], 3), seed=154568,
                       max_turns=139, checker=Checker())
    game.play()
    game.checker.check_finished()
    assert any('"event":"deed","space":"Kentucky Avenue","to":"bank"' in line
               for line in game.checker.lines)


@pytest.mark.parametrize("ruleset", RULESETS)
@ci_examples(6)
@given(data=st.data())
def test_rulebooks_at_their_bounds_keep_the_invariants(ruleset, data, rulesets_copy):
    """Any variant that checks clean plays without an exception, with every invariant after
    every event: every setting left alone or drawn at its bounds, options on and off, dice
    redrawn (one die or four, constant, two faces, named faces), player counts at the bounds,
    random and default agents, a modest turn cap."""
    base = rulesets_copy / ruleset.removeprefix("rulesets/")
    declared = _declared(str(base))
    body, options, dice = data.draw(variants(ruleset, declared), label="variant")
    rule = f'rule bounds:\n  cite "test", "bounds"\n{body}' if body else ""
    text = f'rulebook "{ruleset} at its bounds"\nextends "{base.name}"\n\n{rule}{dice}'
    rb = _variant(base.with_name("bounds.rules"), text, options)
    assume(rb is not None)  # not a legal rulebook: the checker says why
    low, high = rb.settings.players
    n = data.draw(st.integers(low, high), label="players")
    names = data.draw(st.lists(st.sampled_from(AGENT_NAMES), min_size=n, max_size=n),
                      label="agents")
    seed = data.draw(SEEDS, label="seed")
    max_turns = data.draw(st.integers(1, 150), label="max_turns")
    game = CheckedGame(rb, make_agents(names, n), seed=seed, max_turns=max_turns,
                       checker=Checker(keep_lines=False))
    game.play()
    game.checker.check_finished()
    key = f"{ruleset} at its bounds"
    TALLY[key, "games"] += 1
    TALLY[key, "events"] += game.checker.events
    TALLY[key, game.end_reason] += 1
