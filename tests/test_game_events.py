"""The events of the game's course seen firing in played games: each rule's effect appears in
the event log exactly where the event happens, the events log nothing themselves, and a
rulebook whose rules wait for none of them holds only empty tuples (nothing to pay)."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import HealthCheck, given, settings

import rulelang
from rulelang.check import check_path
from rulelang.engine.course import NO_COURSE
from rulelang.runner import make_agents
from rulelang.engine.actions import Trade, apply
from scenario import Scripted, pos, rulebook, scenario
from strategies import SEEDS, course_rules

MIXED = ["default", "random", "default", "random"]

# Each rule pays $1 (or collects it) under its own name; the events the engine logs just
# before the rule's transfer, for each rule.
WATCHERS = """
rule on_turn_end:
  cite "test", "events"
  when a turn ends: collect $1
rule on_jail:
  cite "test", "events"
  when a player is sent to jail: pay $1
rule on_free:
  cite "test", "events"
  when a player leaves jail: collect $1
rule on_offer:
  cite "test", "events"
  when a railroad is offered: collect $1
rule on_auction:
  cite "test", "events"
  when a street is auctioned: collect $1
rule on_bought:
  cite "test", "events"
  when a property is bought: pay $1
rule on_build:
  cite "test", "events"
  when a house is bought: pay $1
rule on_hotel:
  cite "test", "events"
  when a hotel is bought: pay $1
rule on_sell:
  cite "test", "events"
  when a building is sold: collect $1
rule on_mortgage:
  cite "test", "events"
  when a mortgage is taken: pay $1
rule on_lift:
  cite "test", "events"
  when a mortgage is lifted: collect $1
rule on_deed:
  cite "test", "events"
  when a deed changes hands: collect $1
rule on_chance:
  cite "test", "events"
  when a card is drawn from "Chance": collect $1
rule on_jail_turn:
  cite "test", "events"
  when a player takes a turn in jail: collect $1
"""

AFTER = {
    "on_jail": {"jail"},
    "on_free": {"free"},
    "on_offer": {"move"},
    "on_auction": {"auction"},
    "on_bought": {"deed"},
    "on_build": {"build"},
    "on_hotel": {"build"},
    "on_sell": {"sell", "transfer"},  # a hotel broken down; SellAll: after its sale
    "on_mortgage": {"transfer"},  # the bank's loan
    "on_lift": {"transfer"},  # the repayment
    "on_chance": {"draw"},
}


def _rules(tmp_path, text: str, base: str = "classic_1961.rules"):
    path = tmp_path / "watch.rules"  # the title of the base: the logs start with it
    path.write_text(f'rulebook "{rulebook(base).title}"\nextends "{base}"\n{text}',
                    encoding="utf-8")
    return rulelang.load(str(path))


def _play(rb, seed: int, agents=MIXED, max_turns: int = 800) -> list[dict]:
    lines: list[str] = []
    rulelang.Game(rb, make_agents(list(agents), len(agents)), seed=seed, max_turns=max_turns,
                  log=lines.append).play()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    rb = _rules(tmp_path_factory.mktemp("watch"), WATCHERS)
    return [_play(rb, seed, agents) for seed in range(6)
            for agents in (MIXED, ["random"] * 4)]


def _fired(games, rule):
    """(event, the event before it) for each transfer the rule made."""
    return [(e, log[i - 1]) for log in games for i, e in enumerate(log)
            if e["event"] == "transfer" and e["rule"] == rule]


@pytest.mark.parametrize("rule", sorted(set(AFTER) | {"on_turn_end", "on_deed",
                                                      "on_jail_turn"}))
def test_each_event_fires_where_it_happens(watched, rule):
    seen = _fired(watched, rule)
    assert seen, f"{rule} never fired"
    for e, before in seen:
        if rule in AFTER:
            assert before["event"] in AFTER[rule], (rule, before, e)


def test_the_turn_ends_after_the_players_actions(watched):
    """`a turn ends` is the last thing of a turn: the next event is of the next turn (or the
    end of the game), and the player is the one whose turn it was."""
    for log in watched:
        for i, e in enumerate(log):
            if e["event"] == "transfer" and e["rule"] == "on_turn_end":
                assert e["source"] == "bank"
                nxt = log[i + 1] if i + 1 < len(log) else None
                assert nxt is None or nxt["turn"] == e["turn"] + 1 or nxt["event"] == "end"


def test_the_property_events_name_their_kind(watched):
    """A railroad offered, a street auctioned: never another kind."""
    kinds = {s.name: s.kind for s in rulebook().spaces}
    for e, before in _fired(watched, "on_offer"):
        assert kinds[before["to"]] == "railroad"
    for e, before in _fired(watched, "on_auction"):
        assert kinds[before["space"]] == "street"


def test_a_jail_turn_fires_before_the_jail_decision(watched):
    """Before the roll (or the fine, or the card) of a jailed player's turn: only the
    players' actions between turns come before it in that turn."""
    seen = 0
    for log in watched:
        for i, e in enumerate(log):
            if e["event"] == "transfer" and e["rule"] == "on_jail_turn":
                seen += 1
                j = i - 1
                while j >= 0 and log[j]["turn"] == e["turn"]:
                    assert log[j]["event"] not in ("roll", "move", "free", "jail"), log[j]
                    j -= 1
    assert seen


def test_a_rule_freeing_the_player_gives_a_free_turn(tmp_path):
    """`when a player takes a turn in jail: pay the fine, leave jail`: out at once, the turn
    is played as a free one (the player rolls and moves)."""
    rb = _rules(tmp_path, """
rule bail:
  cite "test", "bail"
  when a player takes a turn in jail: pay the fine, leave jail
""")
    freed = 0
    for seed in range(4):
        log = _play(rb, seed)
        for i, e in enumerate(log):
            if e["event"] == "free" and e["rule"] == "bail":
                freed += 1
                assert log[i - 1]["event"] == "transfer" and log[i - 1]["amount"] == 50
                assert log[i + 1]["event"] == "roll" and log[i + 2]["event"] == "move"
            assert not (e["event"] == "roll" and e["rule"] == "leaving_jail")
    assert freed


def test_a_player_who_cannot_pay_may_be_rescued(tmp_path):
    """`when a player cannot pay: collect $2000`: the debt is paid after the rule, so nobody
    ever goes bankrupt."""
    rb = _rules(tmp_path, """
rule rescue:
  cite "test", "rescue"
  when a player cannot pay: collect $2000
""")
    rescued = 0
    for seed in range(6):
        log = _play(rb, seed, max_turns=600)
        assert not [e for e in log if e["event"] == "bankrupt"]
        rescued += sum(e["event"] == "transfer" and e["rule"] == "rescue" for e in log)
    assert rescued


def test_the_game_ends_fires_once_with_the_winner(tmp_path):
    """`the game ends` fires once, for a game ended by the last player or a rule, with the
    winner; never for the turn cap."""
    rb = _rules(tmp_path, """
rule epilogue:
  cite "test", "epilogue"
  when the game ends: nothing
""", "classic_1961_short.rules")
    calls = []
    spy = lambda g, f: calls.append((f.player, g.over))  # noqa: E731
    rb = attrs.evolve(rb, course=attrs.evolve(rb.course, game_ends=((None, "spy", spy),)))
    g = rulelang.Game(rb, make_agents(MIXED, 4), seed=3).play()
    assert g.end_reason == "end_of_game" and calls == [(g.winner, False)]
    calls.clear()
    g = rulelang.Game(rb, make_agents(MIXED, 4), seed=3, max_turns=5).play()
    assert g.end_reason == "turn_cap" and calls == []


def test_a_deed_changes_hands_by_a_trade_or_from_a_bankrupt_player(tmp_path):
    """`a deed changes hands by a trade` fires for the deeds of a trade only, `from a bankrupt
    player` for the deeds a bankrupt leaves to its creditor only."""
    path = tmp_path / "how.rules"
    path.write_text('rulebook "how"\nextends "classic_1961.rules"\n'
                    'rule by_trade:\n  cite "test", "how"\n'
                    '  when a deed changes hands by a trade: collect $1\n'
                    'rule from_bankrupt:\n  cite "test", "how"\n'
                    '  when a deed changes hands from a bankrupt player: collect $2\n',
                    encoding="utf-8")
    traded = scenario(name=str(path), agents=[Scripted(), Scripted(accept=True), Scripted()],
                      owners={"Baltic Avenue": 0, "Oriental Avenue": 0})
    apply(traded, 0, Trade(1, give=(pos(traded, "Baltic Avenue"), pos(traded, "Oriental Avenue")),
                           cash=-10))
    assert traded.state.cash[1] == 1500 - 10 + 2 * 1
    # a rent of $2,000 (a hotel) that the player's $30 and Oriental Avenue's mortgage cannot
    # pay: a bankruptcy at once, the deed to the creditor
    inherited = scenario(name=str(path), dice=[(2, 3)], positions={0: "Pennsylvania Avenue"},
                         cash={0: 30}, owners={"Boardwalk": 1, "Oriental Avenue": 0},
                         hotels={"Boardwalk": 1})
    inherited.play_turn()
    assert inherited.state.bankrupt[0]
    assert inherited.state.cash[1] == 1500 + 30 + 2


def test_events_log_nothing_themselves(tmp_path):
    """A rule that does nothing on every event leaves the game exactly as it was."""
    events = ["a turn ends", "a player is sent to jail", "a player takes a turn in jail",
              "a player leaves jail", "a property is offered", "a street is auctioned",
              "a property is bought", "a building is bought", "a hotel is sold",
              "a mortgage is taken", "a mortgage is lifted", "a deed changes hands",
              'a card is drawn from "Community Chest"', "a player cannot pay",
              "a player goes bankrupt", "the game ends", "buildings run short"]
    text = "rule idle:\n  cite \"test\", \"idle\"\n" + "".join(
        f"  when {e}: nothing\n" for e in events)
    rb = _rules(tmp_path, text)
    assert rb.course != NO_COURSE
    for seed in range(4):
        assert _play(rb, seed) == _play(rulebook(), seed)


# the events of the course an official rulebook waits for: the setup (P1, P2), transfer
# interest (M2), the bankruptcies (X1; E1, E2 in the short games), the building shortage (K1,
# K2) and the time limit (T1)
REGULAR = {"setup_first", "setup_last", "deed_changes_hands", "deed_from_bankrupt", "bankrupt",
           "shortage"}


@pytest.mark.parametrize("name, waits", [
    ("classic_1961.rules", REGULAR), ("classic_1961_short.rules", REGULAR),
    ("french_timed.rules", REGULAR | {"time_limit"}), ("lotr_short.rules", REGULAR),
    ("starwars_ep2.rules", REGULAR), ("dinos_quick.rules", REGULAR)])
def test_no_rule_waits_no_cost(name, waits):
    """The official rulebooks wait for the events of their rules and for no other: every
    other hook tuple of their course is empty, so each firing place costs one test of an
    empty tuple."""
    rb = rulebook(name)
    empty = {f.name for f in attrs.fields(type(rb.course))
             if getattr(rb.course, f.name) in ((), ((), ()), False)}
    assert {f.name for f in attrs.fields(type(rb.course))} - empty == waits


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=course_rules(), seed=SEEDS)
def test_any_rulebook_of_these_events_checks_and_plays(tmp_path, text, seed):
    """Whatever rules of the game's course a rulebook holds, the checker reports them (no
    traceback), and a rulebook that checks clean plays to its end with money conserved."""
    path = tmp_path / "fuzz.rules"
    path.write_text('rulebook "Fuzz"\nextends "classic_1961.rules"\npot "Jackpot"\n'
                    + text, encoding="utf-8")
    _, diags = check_path(str(path))
    if any(d.is_error for d in diags):
        return
    rb = rulelang.load(str(path))
    g = rulelang.Game(rb, make_agents(MIXED, 4), seed=seed, max_turns=300).play()
    assert g.over
    assert sum(g.state.cash) == 0  # the bank's account holds minus what players and pots hold
