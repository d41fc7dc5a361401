"""W113 (a game that can end only at the turn cap) and W114 (a pot nothing pays out): told at
the author's line, true in played games, and never on a shipped rulebook."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.check import check_path

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "rulesets" / "classic_1961.rules"
HEAD = f'rulebook "House"\nextends "{CLASSIC}"\n\n'


def _check(tmp_path, body: str, code: str):
    path = tmp_path / "house.rules"
    path.write_text(HEAD + body, encoding="utf-8")
    return [d for d in check_path(str(path))[1] if d.code == code], str(path)


def test_removing_the_rent_is_told_at_the_removal_with_a_note_at_the_rent(tmp_path):
    found, path = _check(tmp_path, "remove rule rent\n", "W113")
    assert len(found) == 1
    d = found[0]
    assert (d.span.file, d.span.line) == (path, 4)
    (message, where), = d.notes
    assert "rule 'rent' made players pay rent here" in message
    assert where.file == str(CLASSIC) and "rule rent" in CLASSIC.read_text().splitlines()[
        where.line - 1]


def test_a_replacement_that_charges_a_fixed_sum_is_told_at_the_replacement(tmp_path):
    found, path = _check(tmp_path, 'replace rule rent:\n  cite "ours", "rent"\n'
                         "  when a player lands on a property owned by another player: "
                         "pay $10\n", "W113")
    assert len(found) == 1 and found[0].span.line == 4
    assert "its replacement charges none" in found[0].notes[0][0]


def test_a_rent_of_ones_own_or_a_growing_payment_keeps_the_game_ending(tmp_path):
    assert _check(tmp_path, 'replace rule rent:\n  cite "ours", "rent"\n'
                  "  when a player lands on a property owned by another player: "
                  "pay rent x2\n", "W113")[0] == []
    assert _check(tmp_path, 'remove rule rent\nrule levy:\n  cite "ours", "levy"\n'
                  '  when a player lands on "Free Parking": pay each other player $10 per '
                  "house the player owns\n", "W113")[0] == []


def test_without_rent_every_game_runs_to_the_cap(tmp_path):
    """What W113 says is what happens: no game of the 1961 rules without rent ends before
    the cap (the default agents, 12 games)."""
    path = tmp_path / "house.rules"
    path.write_text(HEAD + "remove rule rent\n", encoding="utf-8")
    rulebook = rulelang.load(str(path))
    batch = rulelang.play_games(rulebook, 12, "default", 4, seed=1, max_turns=600)
    assert batch.end_reasons == {"turn_cap": 12}


def test_a_pot_paid_into_and_never_out(tmp_path):
    body = ('pot "Jar"\nrule jar:\n  cite "ours", "jar"\n'
            '  when a player lands on "Free Parking": pay $20 into "Jar"\n')
    found, _ = _check(tmp_path, body, "W114")
    assert len(found) == 1 and found[0].span.line == 4
    assert found[0].notes[0][1].line == 7
    paid_out = body + '  when a player lands on "GO": collect the pot "Jar"\n'
    assert _check(tmp_path, paid_out, "W114")[0] == []
    # a pot that nothing pays into is left alone
    assert _check(tmp_path, 'pot "Jar"\n', "W114")[0] == []


@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").rglob("*.rules")),
                         ids=lambda p: p.name)
def test_no_shipped_rulebook_is_warned(path):
    codes = {d.code for d in check_path(str(path))[1]}
    assert not codes & {"W113", "W114"}
