"""`rulelang show`: the resolved rulebook, each rule and setting with the line it comes from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from clirun import in_process
from rulelang import RuleErrors
from rulelang.show import SECTIONS, describe
from rulelang_cli.main import main

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
JACKPOT = str(RULESETS / "house" / "free_parking_jackpot.rules")


def _line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of `path` that starts with `text`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.lstrip().startswith(text))


@pytest.fixture
def house(tmp_path) -> Path:
    """A house rule that replaces, removes, places a rule and sets a setting at the top."""
    path = tmp_path / "house.rules"
    path.write_text(
        'rulebook "House"\n'
        'extends "classic_1961.rules"\n'
        "\n"
        "remove rule luxury_tax\n"
        "\n"
        "replace rule income_tax:\n"
        '  cite "house", "taxes"\n'
        '  when a player lands on "Income Tax": pay $100\n'
        "\n"
        "before salary rule welcome:\n"
        '  cite "house", "welcome"\n'
        '  when a player lands on "Free Parking": collect $10\n'
        "\n"
        "set jail_fine = $60\n", encoding="utf-8")
    return path


def test_the_rules_in_order_with_what_they_replaced_and_what_was_removed(house):
    d = describe(str(house))
    classic = RULESETS / "classic_1961.rules"
    names = [r.name for r in d.rules]
    assert "luxury_tax" not in names
    assert names.index("welcome") == names.index("salary") - 1
    (income,) = [r for r in d.rules if r.name == "income_tax"]
    assert (income.how, income.origin.file, income.origin.line) == ("replace", str(house), 6)
    assert (income.replaced.file, income.replaced.line) == (
        str(classic), _line_of(classic, "rule income_tax:"))
    assert income.cite == ("house", "taxes")
    (welcome,) = [r for r in d.rules if r.name == "welcome"]
    assert (welcome.how, welcome.target, welcome.replaced) == ("before", "salary", None)
    (removed,) = d.removed
    assert (removed.name, removed.origin.line, removed.removed_by.line) == (
        "luxury_tax", _line_of(classic, "rule luxury_tax:"), 4)
    # every other rule is the parent's, at its own line
    (salary,) = [r for r in d.rules if r.name == "salary"]
    assert (salary.how, salary.origin.line) == ("new", _line_of(classic, "rule salary:"))
    assert d.files == (str(house), str(classic), str(RULESETS / "classic_board.rules"))


def test_each_setting_says_where_its_value_comes_from(house):
    d = describe(str(house))
    by = {s.name: s for s in d.settings}
    fine = by["jail_fine"]  # set at the top of the house rule, over the parent's rule
    assert (fine.value, fine.origin.file, fine.origin.line, fine.rule) == (
        "$60", str(house), 14, None)
    classic = RULESETS / "classic_1961.rules"
    cash = by["starting_cash"]  # the parent's rule `capital`
    assert (cash.value, cash.origin.file, cash.rule) == ("$1500", str(classic), "capital")
    assert cash.origin.line == _line_of(classic, "set starting_cash")
    limit = by["time_limit"]  # nobody sets it: the engine's default
    assert (limit.origin, limit.rule, limit.value) == (None, None, "0")
    assert list(by) == [s.name for s in d.settings]  # one row per setting


def test_parameters_options_and_the_command_line():
    timed = RULESETS / "classic_1961_timed.rules"
    agreed = {s.name: s for s in describe(str(timed)).settings}["time_limit"]
    assert agreed.parameter and agreed.origin.line == _line_of(timed, "parameter time_limit")
    changed = {s.name: s for s in describe(str(timed), parameters=["time_limit=45"]).settings}
    assert changed["time_limit"].value == "45"
    assert changed["time_limit"].origin.file == "<command line>"
    lotr = str(RULESETS / "lotr.rules")
    assert [(o.name, o.on) for o in describe(lotr).options] == [("one_ring", False)]
    on = describe(lotr, options=["one_ring"])
    assert [(o.name, o.on) for o in on.options] == [("one_ring", True)]
    assert "one_ring_moves" in [r.name for r in on.rules]
    assert "one_ring_moves" not in [r.name for r in describe(lotr).rules]


def test_the_board_decks_and_dice_are_the_compiled_ones():
    d = describe(JACKPOT)
    assert len(d.spaces) == 40
    boardwalk = d.spaces[39]
    assert (boardwalk.name, boardwalk.kind, boardwalk.group, boardwalk.price) == (
        "Boardwalk", "street", "Dark Blue", 400)
    assert boardwalk.rents == (50, 200, 600, 1400, 1700, 2000)
    assert [(k.name, k.cards) for k in d.decks] == [("Chance", 16), ("Community Chest", 16)]
    assert [die.faces for die in d.dice] == [(1, 2, 3, 4, 5, 6)] * 2


def test_a_rulebook_with_errors_raises_its_diagnostics(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('rulebook "Bad"\nextends "nowhere.rules"\n', encoding="utf-8")
    with pytest.raises(RuleErrors):
        describe(str(bad))


def _show(*args: str):
    return CliRunner().invoke(main, ["show", *args])


def test_json_has_the_documented_shape(house):
    out = _show(str(house), "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert list(data) == ["title", "files", "currency", "rules", "removed", "options",
                          "settings", "board", "decks", "dice"]
    income = next(r for r in data["rules"] if r["name"] == "income_tax")
    assert set(income) == {"name", "file", "line", "how", "target", "replaced", "cite"}
    assert income["replaced"]["file"].endswith("classic_1961.rules")
    assert data["removed"][0]["removed_by"] == {"file": str(house), "line": 4}
    setting = next(s for s in data["settings"] if s["name"] == "jail_fine")
    assert setting == {"name": "jail_fine", "value": "$60",
                       "origin": {"file": str(house), "line": 14}, "rule": None,
                       "parameter": False}
    assert data["board"][1] == {"index": 1, "name": "Mediterranean Avenue", "kind": "street",
                                "group": "Purple", "price": 60, "rents": [2, 10, 30, 90, 160, 250]}
    only = json.loads(_show(str(house), "--json", "--section", "dice").output)
    assert list(only) == ["title", "files", "currency", "dice"]


def test_the_tables_name_the_lines(house):
    out = _show(str(house))
    assert out.exit_code == 0, out.output
    assert f"{house}:6" in out.output and "replaces income_tax of" in out.output
    assert "luxury_tax" in out.output and f"{house}:4" in out.output  # removed, and where
    assert "placed before salary" in out.output
    assert "\x1b[" not in out.output  # no colour codes when not a terminal
    for section in SECTIONS:
        assert _show(str(house), "--section", section).exit_code == 0


def test_mistakes_are_reported_not_raised(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('rulebook "Bad"\nrule r:\n  set no_such_setting = 3\n', encoding="utf-8")
    done = in_process("show", bad)
    assert done.returncode == 1 and "E101" in done.stderr
    for args in ([str(tmp_path / "missing.rules")], [JACKPOT, "--option", "nope"],
                 [JACKPOT, "--set", "nope=1"], [JACKPOT, "--section", "nope"]):
        out = _show(*args)
        assert out.exit_code == 2, (args, out.output)
        assert "Traceback" not in out.output
