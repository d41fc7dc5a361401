"""The language's variant constructs end to end: parameters and `--set`, pots, `end the game`,
laps, building renames; each through parse, check, compile and a game."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.check import check_path
from rulelang.diagnostics import RuleError, RuleErrors
from rulelang.engine.endings import valuation
from rulelang.parse import parse_override
from scenario import RULESETS, ScriptedDice, Scripted, total_money

HEAD = f'rulebook "variant"\nextends "{RULESETS / "classic_1961.rules"}"\n'


def _file(tmp_path: Path, body: str) -> str:
    path = tmp_path / "variant.rules"
    path.write_text(HEAD + body, encoding="utf-8")
    return str(path)


def _game(rb, dice, players=3, agents=None):
    game = rulelang.Game(rb, agents or [Scripted() for _ in range(players)], seed=0)
    game.rng = ScriptedDice(rb, dice)
    game.state.current = 0
    return game


def test_parse_override_reads_values_as_a_rules_file_does():
    """`--set` values are written as in a rules file: money, counts, flags, words."""
    assert parse_override("time_limit=90").value.value == 90
    assert parse_override("jail_fine = $75").value.amount == 75
    assert parse_override("strict=no").value.value is False
    for bad in ("time_limit", "=3", "x=", "time_limit=@"):
        with pytest.raises(RuleError) as err:
            parse_override(bad)
        assert err.value.diagnostic.code == "E017"


def test_set_only_changes_a_declared_parameter(tmp_path):
    """A `--set` of a setting the file does not declare as a parameter is E418; a declared one
    is type-checked like any setting."""
    path = _file(tmp_path, "rule clock:\n  cite \"x\", \"y\"\n  parameter time_limit = 60\n"
                 "  when the time limit is reached: end the game\n")
    assert rulelang.load(path).settings.time_limit == 60
    assert rulelang.load(path, parameters={"time_limit": "15"}).settings.time_limit == 15
    codes = {d.code for d in rulelang.check(path, parameters=["jail_fine=$10"])}
    assert codes == {"E418"}
    codes = {d.code for d in rulelang.check(path, parameters=["time_limit=$10"])}
    assert codes == {"E201"}
    with pytest.raises(RuleErrors):
        rulelang.load(path, parameters=["jail_fine=$10"])


def test_clock_pace_is_the_rulebooks(tmp_path):
    """time_limit minutes at seconds_per_turn seconds a turn: 10 minutes at 30 s = 20 turns."""
    path = _file(tmp_path, "rule clock:\n  cite \"x\", \"y\"\n  parameter time_limit = 10\n"
                 "  set seconds_per_turn = 30\n"
                 "  when the time limit is reached: end the game\n")
    game = rulelang.Game(rulelang.load(path), [rulelang.DefaultAgent() for _ in range(3)],
                         seed=4).play()
    assert game.end_reason == "clock" and game.state.turn == 20


def test_end_the_game_names_the_rule_and_the_richest_wins(tmp_path):
    """`end the game`: over at once, the rule's name is the end reason, the richest wins."""
    path = _file(tmp_path, "rule doom:\n  cite \"x\", \"y\"\n"
                 "  when a player lands on \"Boardwalk\": end the game\n")
    rb = rulelang.load(path)
    game = _game(rb, [(2, 3)])
    game.state.position[0] = rb.space("Pennsylvania Avenue").index
    game.state.owner[rb.space("Park Place").index] = 2
    game.play_turn()
    assert game.over and game.end_reason == "doom" and game.winner == 2
    assert valuation(game, 2) == 1500 + 350


def test_pot_moves_money_in_and_out_never_creating_it(tmp_path):
    """`pay $N into "Pot"` and `collect the pot "Pot"` are transfers with the pot's account."""
    path = _file(tmp_path, 'pot "Kitty"\nrule kitty:\n  cite "x", "y"\n'
                 '  when a player passes "Jail": pay $10 into "Kitty"\n'
                 '  when a player lands on "Water Works": collect the pot "Kitty"\n')
    rb = rulelang.load(path)
    assert rb.pots == ("Kitty",)
    log = []
    game = rulelang.Game(rb, [Scripted() for _ in range(3)], seed=0, log=log.append)
    game.rng = ScriptedDice(rb, [(5, 6), (3, 4)])
    st = game.state
    st.position[0] = rb.space("Reading Railroad").index
    st.position[1] = rb.space("Kentucky Avenue").index
    st.current = 0
    game.play_turn()  # passes Jail: $10 into the kitty
    assert st.cash[st.bank + 1] == 10 and total_money(game) == 0
    assert any('"to":"Kitty"' in line for line in log)
    st.current = 1
    cash = st.cash[1]
    game.play_turn()  # Kentucky Avenue + 7 = Water Works: takes the kitty
    assert st.cash[st.bank + 1] == 0 and st.cash[1] == cash + 10
    assert total_money(game) == 0


def test_lap_condition_counts_passing_go_only_when_used(tmp_path):
    """Laps are counted only by a rulebook whose conditions ask for them."""
    rb = rulelang.load(str(RULESETS / "french_standard.rules"))
    game = _game(rb, [(1, 2)])
    game.state.position[0] = rb.space("Boardwalk").index
    game.play_turn()
    assert game.state.laps == [0, 0, 0]


def test_building_renames_and_the_currency(tmp_path):
    """`rename house to "..."`, `rename hotel to "..."` name the buildings of an edition."""
    path = _file(tmp_path, 'rename house to "Tente"\nrename hotel to "4x4"\n'
                 'currency "Crédits"\n')
    rb = rulelang.load(path)
    assert rb.building_names == ("Tente", "4x4") and rb.currency == "Crédits"


def test_checker_cases_for_variants():
    """The annotated file of variant mistakes gives exactly its coded diagnostics."""
    _, diags = check_path("tests/data/check/variants.rules")
    assert {d.code for d in diags} >= {"E116", "E117", "E312", "E201"}


def test_a_token_sent_on_by_its_own_rules_is_cut_like_a_landing_chain(tmp_path):
    """A conditional `reaches` loop (which check cannot call endless) stops after MAX_CHAIN
    moves, as a land -> card -> move chain does, instead of recursing without end."""
    import json

    from rulelang.engine.tables import MAX_CHAIN

    path = _file(tmp_path, 'token "Q" starts on "GO"\nrule r:\n  cite "t", "t"\n'
                 '  when a player lands on "Reading Railroad": move token "Q" to the next street\n'
                 '  when token "Q" reaches a street unless the player is in jail: '
                 'move token "Q" to the next street\n')
    rb = rulelang.load(path)
    log: list[str] = []
    game = rulelang.Game(rb, [Scripted() for _ in range(3)], seed=0, log=log.append)
    game.rng = ScriptedDice(rb, [(2, 3)])
    game.state.current = 0
    game.play_turn()  # GO + 5 = Reading Railroad: the token goes round the streets
    events = [json.loads(line) for line in log]
    cut = [e for e in events if e["event"] == "chain_cut"]
    moves = [e for e in events if e["event"] == "token"]
    assert len(cut) == 1 and cut[0]["depth"] == MAX_CHAIN + 1
    assert len(moves) == MAX_CHAIN  # the landing is the first link of the chain
