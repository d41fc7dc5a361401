"""The checker and the `check` command: annotated cases, resolution, golden output, the CLI."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelang import ast
from rulelang.check import check, check_path
from rulelang.diagnostics import CODES, RuleError, RuleErrors, render
from rulelang.parse import COMMAND_LINE, parse_override
from rulelang.resolve import resolve
from rulelang_cli.check_cmd import check as check_cmd

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
RULESETS = ROOT / "rulesets"
ANNOTATED = sorted((DATA / "check").glob("*.rules"))
GOLDEN = DATA / "golden"
EXPECT = re.compile(r"#\s*E:\s*(.+)$")
OPTIONS = re.compile(r"^#\s*options:\s*(.+)$", re.M)
SETS = re.compile(r"^#\s*set:\s*([^#]+)")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")  # syntax_utf8.rules is not UTF-8


def _expected(path: Path) -> set[tuple[int, str]]:
    out = set()
    for number, line in enumerate(_text(path).splitlines(), 1):
        m = EXPECT.search(line)
        if m:
            out |= {(number, code) for code in re.findall(r"[EW]\d{3}", m.group(1))}
    return out


def _options(path: Path) -> list[str]:
    """The options a case switches on: a `# options: a, b` line, as `--option a --option b`."""
    m = OPTIONS.search(_text(path))
    return [o.strip() for o in m.group(1).split(",")] if m else []


def _sets(path: Path) -> tuple[list[str], int]:
    """The `--set` values of a case (a `# set: a=1; b=2` line) and that line's number."""
    for number, line in enumerate(_text(path).splitlines(), 1):
        m = SETS.match(line)
        if m:
            return [v.strip() for v in m.group(1).split(";")], number
    return [], 0


def _rel(path: Path) -> str:
    return os.path.relpath(path, ROOT)


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("path", ANNOTATED, ids=lambda p: p.stem)
def test_annotated_cases(path):
    """Each `# E: CODE` comment is reported on its line, and nothing else is reported.

    What a `--set` of the case causes is expected on its `# set:` line; a `--set` that is
    not NAME=VALUE stops the command, as it stops `rulelang check`."""
    values, set_line = _sets(path)
    try:
        overrides = [parse_override(v) for v in values]
    except RuleError as e:
        diags = e.diagnostics
    else:
        _, diags = check_path(_rel(path), _options(path), overrides)
    line = {_rel(path): None, COMMAND_LINE: set_line}
    found = {(line[d.span.file] or d.span.line, d.code) for d in diags if d.span.file in line}
    elsewhere = [render(d, None) for d in diags if d.span.file not in line]
    assert elsewhere == []
    expected = _expected(path)
    assert (sorted(expected - found), sorted(found - expected)) == ([], []), \
        "(missing, unexpected) (line, code) pairs"


def test_messages_follow_the_house_style():
    """Messages start with a lowercase word and end without a period."""
    for path in ANNOTATED + sorted(GOLDEN.glob("*.rules")):
        _, diags = check_path(_rel(path))
        for d in diags:
            assert d.message[0].islower() and not d.message.endswith("."), d.message


def test_every_annotated_code_is_registered():
    """The annotations only use codes the registry knows."""
    for path in ANNOTATED:
        assert {code for _, code in _expected(path)} <= set(CODES)


@pytest.mark.parametrize("path", sorted(RULESETS.rglob("*.rules")), ids=lambda p: p.name)
def test_rulesets_check_clean(path):
    """The shipped rulebooks have no errors and no warnings."""
    program, diags = check_path(_rel(path))
    assert program is not None
    assert [render(d, None) for d in diags] == []


def test_rulesets_check_clean_with_strict():
    """`rulelang check --strict` on every ruleset at once exits 0."""
    paths = [_rel(p) for p in sorted(RULESETS.rglob("*.rules"))]
    result = CliRunner().invoke(check_cmd, ["--strict", *paths])
    assert result.exit_code == 0, result.output


def test_diagnostics_are_sorted_and_never_stop_at_the_first():
    """check reports all problems of a file, ordered by line and column."""
    _, diags = check_path(_rel(DATA / "check" / "names.rules"))
    positions = [(d.span.line, d.span.column) for d in diags]
    assert len(diags) > 5 and positions == sorted(positions)


def test_did_you_mean_hints():
    """Unknown names suggest the closest known one."""
    _, diags = check_path(_rel(DATA / "check" / "names.rules"))
    hints = {d.code: d.hint for d in diags}
    assert hints["E101"] == "did you mean 'jail_fine'?"
    assert hints["E104"] == "did you mean 'Boardwalk'?"
    assert hints["E105"] == "did you mean 'Chance'?"
    assert hints["E107"] == "did you mean 'jackpot'?"


def test_did_you_mean_hints_of_the_editions_names():
    """Tokens, sides, dice, symbol faces, pots and parameters suggest the closest name too."""
    hints = {}
    for case, sets in (("tokens", ()), ("variants", ()), ("parameters", ("houses=40",))):
        path = _rel(DATA / "check" / f"{case}.rules")
        _, diags = check_path(path, (), [parse_override(v) for v in sets])
        hints.update({(d.code, d.message.split("'")[1]): d.hint for d in diags
                      if "'" in d.message})
    assert hints[("E150", "Rnig")] == "did you mean 'Ring'?"
    assert hints[("E151", "Lite")] == "did you mean 'Light'?"
    assert hints[("E152", "whte")] == "did you mean 'white'?"
    assert hints[("E106", "drak")] == "did you mean 'dark'?"
    assert hints[("E103", "stret")] == "did you mean 'street'?"
    assert hints[("E116", "Jakpot")] == "did you mean 'Jackpot'?"
    assert hints[("E418", "houses")] == "did you mean 'hotels'?"


def test_setting_type_message():
    """A count where money is expected says what to write."""
    _, diags = check_path(_rel(DATA / "check" / "types.rules"))
    fine = next(d for d in diags if d.code == "E201" and d.span.line == 5)
    assert fine.message == "expected money like $50 for 'jail_fine', found the count 50"
    assert fine.hint == "write $50"


@pytest.mark.parametrize("line, code, hint", [
    ("set starting_cash = 20%", "E201",
     "a percentage is not an amount of money: write an amount, e.g. $1500"),
    ("set players = 3", "E201", "write 3 to 3 for exactly 3, or a range such as 2 to 3"),
    ("rule r:\n  cite \"a\", \"b\"\n"
     "  when a player passes \"GO\" if the dice total is $7: collect $10",
     "E211", "'the dice total' is a count: write 7"),
])
def test_type_hints_say_what_to_write(tmp_path, line, code, hint):
    """A percentage for money, a count for a range, money against a count: each hint says
    what the value should be."""
    path = _write(tmp_path, "h.rules", f'rulebook "H"\nextends "classic_1961.rules"\n{line}\n')
    _, diags = check_path(path, include_path=[str(RULESETS)])
    assert [(d.code, d.hint) for d in diags] == [(code, hint)]


def test_a_rulebook_with_a_syntax_error_is_checked_but_never_played():
    """The rest of a file with a syntax error is checked, its program is None, and loading
    it to play refuses with every mistake."""
    import rulelang

    path = _rel(DATA / "check" / "syntax_and_other_mistakes.rules")
    program, diags = check_path(path)
    assert program is None
    assert [d.code for d in diags] == ["E211", "E104", "E201", "E002"]
    with pytest.raises(RuleErrors) as e:
        rulelang.load(path)
    assert [d.code for d in e.value.diagnostics] == ["E211", "E104", "E201", "E002"]


def test_a_reader_s_limit_in_a_rule_still_stops_the_check(tmp_path):
    """A rule past the reader's limits (E019) is not left out for the rest to be checked:
    the check stops at the syntax errors."""
    deep = "not (" * 17 + "option x" + ")" * 17
    path = _write(tmp_path, "deep.rules",
                  'rulebook "D"\nextends "classic_1961.rules"\n'
                  f'rule a:\n  cite "a", "b"\n  when a turn starts if {deep}: nothing\n'
                  'rule b:\n  cite "a", "b"\n  when a player lands on "Bordwalk": pay $1\n')
    _, diags = check_path(path, include_path=[str(RULESETS)])
    assert [d.code for d in diags] == ["E019"]


def test_duplicate_notes_point_at_the_first_definition():
    """A duplicate rule from a parent names the parent's rule and suggests `replace`."""
    _, diags = check_path(_rel(DATA / "check" / "duplicates.rules"))
    dup = next(d for d in diags if d.code == "E110" and d.span.line == 19)
    assert dup.hint == "write 'replace rule salary:' to change the inherited rule"
    (message, span), = dup.notes
    assert span.file == "rulesets/classic_1961.rules" and span.line == 38


def test_ambiguous_advance_lists_every_candidate():
    """`advance to "Chance"` is ambiguous on a board with three Chance spaces."""
    _, diags = check_path(_rel(DATA / "check" / "names.rules"))
    amb = next(d for d in diags if d.code == "E109")
    assert len(amb.notes) == 3


# ---------------------------------------------------------------- resolution


def _write(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return str(tmp_path / name)


@pytest.fixture
def library(tmp_path):
    """A copy of the shipped rulesets to extend from a temporary directory."""
    for f in RULESETS.glob("*.rules"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def test_merge_order_of_overrides(library):
    """replace swaps in place, before/after insert, remove drops, new rules are appended."""
    path = _write(library, "house.rules", """rulebook "House"
extends "classic_1961.rules"
replace rule salary:
  cite "h", "s"
  when a player passes "GO": collect $400
before doubles rule early:
  cite "h", "s"
  set jail_fine = $60
after doubles rule late:
  cite "h", "s"
  set jail_turns = 2
remove rule no_loans
rule extra:
  cite "h", "s"
  set auction_min_bid = $5
""")
    program = resolve(path)
    names = [r.name.name for r in program.rules]
    assert names[names.index("early") + 1] == "doubles"
    assert names[names.index("doubles") + 1] == "late"
    assert "no_loans" not in names and names[-1] == "extra"
    salary = program.rules[names.index("salary")]
    assert salary.override == "replace" and salary.span.file == path
    assert program.files == (path, str(library / "classic_1961.rules"),
                             str(library / "classic_board.rules"))
    assert check(program) == []


def test_rename_reaches_board_decks_and_rules(library):
    """A child's rename changes the parent's board, cards and rules alike."""
    path = _write(library, "lotr.rules", """rulebook "Renamed"
extends "classic_1961.rules"
currency "Power"
rename space "Boardwalk" to "Mount Doom"
rename space "Chance" to "Fate"
rename deck "Chance" to "Fate"
rename group "Purple" to "Shire"
""")
    program = resolve(path)
    names = [s.name.value for s in program.board.spaces]
    assert "Mount Doom" in names and "Boardwalk" not in names and names.count("Fate") == 3
    assert {s.group.value for s in program.board.spaces if s.group} >= {"Shire"}
    cards = {c.id.value: c for d in program.decks for c in d.cards}
    assert cards["CH14"].effects == (ast.AdvanceTo(ast.Text("Mount Doom")),)
    assert [d.name.value for d in program.decks] == ["Fate", "Community Chest"]
    events = [w.event for r in program.rules for w in r.body if isinstance(w, ast.When)]
    assert ast.Lands(ast.SpaceByName(ast.Text("Fate"))) in events
    assert program.currency.name.value == "Power"
    assert check(program) == []


def test_child_equipment_replaces_the_parents(library):
    """A child's board, same-named deck and dice replace the parent's."""
    path = _write(library, "small.rules", """rulebook "Small"
extends "classic_1961.rules"
die "only" faces 1..4
deck "Chance":
  card "S1" "Go": advance to "GO"
""")
    program = resolve(path)
    assert [d.name.value for d in program.dice] == ["only"]
    assert [d.name.value for d in program.decks] == ["Chance", "Community Chest"]
    assert [c.id.value for c in program.decks[0].cards] == ["S1"]


def test_options_are_in_force_only_when_switched_on(library):
    """An option's items apply only when named; unknown options are E406."""
    path = _write(library, "opt.rules", """rulebook "Options"
extends "classic_1961.rules"
option jackpot "Free Parking jackpot":
  replace rule free_parking:
    cite "h", "s"
    when a player lands on "Free Parking": collect $500
""")
    off, on = resolve(path), resolve(path, ["jackpot"])
    assert [r.override for r in off.rules if r.name.name == "free_parking"] == [None]
    assert [r.override for r in on.rules if r.name.name == "free_parking"] == ["replace"]
    assert on.options == ("jackpot",) and [n.name for n in on.declared_options] == ["jackpot"]
    with pytest.raises(RuleErrors) as e:
        resolve(path, ["jackpt"])
    assert e.value.diagnostics[0].code == "E406"
    assert e.value.diagnostics[0].hint == "did you mean 'jackpot'?"


def test_options_that_are_off_are_checked_too(library):
    """Mistakes inside an option block are found without switching it on, with a note."""
    path = _write(library, "opt.rules", """rulebook "Options"
extends "classic_1961.rules"
option ring "The One Ring":
  set jail_fine = 50
""")
    program, diags = check_path(path)
    assert program is not None
    (d,) = diags
    assert (d.code, d.span.line) == ("E201", 4)
    assert d.notes == (("found with option 'ring' switched on", None),)
    _, (on,) = check_path(path, ["ring"])
    assert on.notes == ()


def test_missing_and_cyclic_extends(tmp_path):
    """A missing parent points at the extends line; a cycle names every link."""
    missing = _write(tmp_path, "a.rules", 'rulebook "A"\nextends "nope.rules"\n')
    with pytest.raises(RuleError) as e:
        resolve(missing)
    d = e.value.diagnostic
    assert (d.code, d.span.line, d.span.column) == ("E401", 2, 9)
    _write(tmp_path, "b.rules", 'rulebook "B"\nextends "c.rules"\n')
    _write(tmp_path, "c.rules", 'rulebook "C"\nextends "b.rules"\n')
    with pytest.raises(RuleError) as e:
        resolve(str(tmp_path / "b.rules"))
    d = e.value.diagnostic
    assert d.code == "E402" and "b.rules -> " in d.message and len(d.notes) == 1


def test_a_broken_chain_is_reported_by_position(tmp_path):
    """When an `extends` cannot be read, the mistakes found before it come with it, by file
    (the played file first) and line: in `rulelang check` and in an editor alike."""
    from rulelang import navigate

    _write(tmp_path, "parent.rules", 'rulebook "P"\nextends "nope"\n\nrule r:\n'
           '  cite "p", "p"\n  when a player lands on "GO" collect $1\n')
    text = ('rulebook "C"\nextends "parent"\n\nrule r:\n  cite "c", "c"\n'
            '  when a player lands on "GO": move $3\n')
    child = _write(tmp_path, "child.rules", text)
    expected = [("child.rules", 6, "E205"), ("parent.rules", 2, "E401"),
                ("parent.rules", 6, "E005")]
    _, diags = check_path(child)
    assert [(Path(d.span.file).name, d.span.line, d.code) for d in diags] == expected
    edited = navigate.analyse(child, text).diagnostics
    assert [(Path(d.span.file).name, d.span.line, d.code) for d in edited] == expected


def test_a_parse_error_in_a_parent_is_reported_in_the_parent(tmp_path):
    """The span of an error in an extended file names that file."""
    _write(tmp_path, "parent.rules",
           'rulebook "P"\nextends "classic_1961.rules"\nrule r\n')
    child = _write(tmp_path, "child.rules", 'rulebook "C"\nextends "parent.rules"\n')
    program, diags = check_path(child, include_path=[str(RULESETS)])
    assert program is None
    assert [(Path(d.span.file).name, d.code) for d in diags] == [("parent.rules", "E005")]


def test_a_played_rulebook_needs_a_board_and_dice(tmp_path):
    """E404 and E405 point at the title when the board or the dice are missing."""
    path = _write(tmp_path, "bare.rules", 'rulebook "Bare"\nset jail_fine = $10\n')
    _, diags = check_path(path)
    assert [(d.code, d.span.line) for d in diags] == [("E404", 1), ("E405", 1)]


def test_unreadable_files_are_diagnostics(tmp_path):
    """A missing file, a directory and non-UTF-8 bytes each give one coded diagnostic."""
    (tmp_path / "latin1.rules").write_bytes(b'rulebook "Caf\xe9"\n')
    cases = {str(tmp_path / "none.rules"): "E401", str(tmp_path): "E420",
             str(tmp_path / "latin1.rules"): "E011"}
    for path, code in cases.items():
        program, diags = check_path(path)
        assert program is None and [d.code for d in diags] == [code]
    _, (latin,) = check_path(str(tmp_path / "latin1.rules"))
    assert (latin.span.line, latin.span.column) == (1, 14)


# ---------------------------------------------------------------- rendering and the CLI


def _golden_cases():
    """(source, golden) pairs: a golden file renders tests/data/golden/NAME.rules, or else the
    annotated case tests/data/check/NAME.rules; NAME.json goldens are `--format json`."""
    out = []
    for golden in sorted(GOLDEN.glob("*.txt")) + sorted(GOLDEN.glob("*.json")):
        source = golden.with_suffix(".rules")
        if not source.exists():
            source = DATA / "check" / source.name
        out.append((source, golden))
    return out


@pytest.mark.parametrize("source, golden", _golden_cases(), ids=lambda p: p.name)
def test_golden_rendering(source, golden):
    """Rendered diagnostics match the reviewed golden text (REGEN_GOLDEN=1 rewrites it).

    Exit status 1 when the output has an error, else 0.
    """
    args = [_rel(source)] + (["--format", "json"] if golden.suffix == ".json" else [])
    result = CliRunner().invoke(check_cmd, args)
    if os.environ.get("REGEN_GOLDEN"):
        golden.write_text(result.output, encoding="utf-8")
    assert result.output == golden.read_text(encoding="utf-8")
    assert result.exit_code == (1 if '"severity": "error"' in result.output
                                or "error[" in result.output else 0)


def test_there_are_a_dozen_goldens():
    """At least twelve rendered outputs are kept as goldens."""
    assert len(_golden_cases()) >= 12


def _broken_copy(tmp_path: Path, old: str, new: str) -> str:
    shutil.copy(RULESETS / "classic_board.rules", tmp_path)
    text = (RULESETS / "classic_1961.rules").read_text(encoding="utf-8")
    assert old in text
    return _write(tmp_path, "broken.rules", text.replace(old, new, 1))


def _line_of(path: str, text: str) -> int:
    """The line number of the first line of the file that holds `text`."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_cli_misspelled_space(tmp_path):
    """A misspelled space exits 1 with file:line:col, the source line, a caret and a hint."""
    path = _broken_copy(tmp_path, '"Luxury Tax": pay $75', '"Luxury Taks": pay $75')
    result = CliRunner().invoke(check_cmd, [path])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    n = _line_of(path, '"Luxury Taks"')
    assert lines[0] == f"{path}:{n}:26: error[E104]: unknown space 'Luxury Taks'"
    assert lines[1] == f'  {n} |   when a player lands on "Luxury Taks": pay $75'
    assert lines[2] == "     |                          ^~~~~~~~~~~~~"
    assert lines[3] == "hint: did you mean 'Luxury Tax'?"
    assert lines[-1] == f"{path}: 1 error"


def test_cli_syntax_error(tmp_path):
    """A syntax error exits 1 with its position, a caret and a hint."""
    path = _broken_copy(tmp_path, "rule free_parking:", "rul free_parking:")
    result = CliRunner().invoke(check_cmd, [path])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"{path}:{_line_of(path, 'rul free_parking:')}:1: error[E006]: " \
        "unknown keyword 'rul'"
    assert lines[2].endswith("| ^~~") and lines[3] == "hint: did you mean 'rule'?"


def test_cli_json_strict_and_options(tmp_path):
    """--format json lists diagnostics; --strict fails on warnings; --option is passed on."""
    (tmp_path / "lib").mkdir()
    shutil.copy(RULESETS / "classic_board.rules", tmp_path / "lib" / "w2.rules")
    path = _write(tmp_path, "w.rules", 'rulebook "W"\nextends "lib/w2.rules"\n'
                  'rule r:\n  when a player lands on "Luxury Tax": pay $75\n')
    runner = CliRunner()
    plain = runner.invoke(check_cmd, [path, "--format", "json"])
    assert plain.exit_code == 0, plain.output
    report = json.loads(plain.output)
    assert len(report) == 4 and all(
        set(d) == {"file", "line", "column", "end_line", "end_column", "severity", "code",
                   "message", "hint", "notes"} for d in report)
    # a board and one tax: nothing grows, no one goes bankrupt (W113)
    assert {d["code"] for d in report} == {"W101", "W105", "W113"}
    assert {d["severity"] for d in report} == {"warning"}
    assert runner.invoke(check_cmd, [path, "--strict"]).exit_code == 1
    bad = runner.invoke(check_cmd, [path, "--option", "nope"])
    # an option the rulebook does not declare is a mistake of the command line
    assert bad.exit_code == 2 and "--option" in bad.output and "[E406]" in bad.output


def test_cli_usage_errors(tmp_path):
    """No file, a missing file or a directory is a usage error (exit 2), not a traceback."""
    runner = CliRunner()
    for args in ([], [str(tmp_path / "missing.rules")], [str(tmp_path)],
                 ["rulesets/classic_1961.rules", "--format", "xml"]):
        result = runner.invoke(check_cmd, args)
        assert result.exit_code == 2 and result.exception is None or \
            isinstance(result.exception, SystemExit), result.output


def test_cli_non_utf8_file(tmp_path):
    """Bytes that are not UTF-8 give a coded diagnostic at their position, exit 1."""
    path = tmp_path / "latin1.rules"
    path.write_bytes(b'rulebook "T"\nset jail_fine = $50 # caf\xe9\n')
    result = CliRunner().invoke(check_cmd, [str(path)])
    assert result.exit_code == 1 and result.exception is None or \
        isinstance(result.exception, SystemExit)
    assert result.output.startswith(f"{path}:2:26: error[E011]: byte 0xe9 is not valid UTF-8")


def test_cli_ok_summary():
    """A clean file prints `FILE: ok` and exits 0."""
    result = CliRunner().invoke(check_cmd, ["rulesets/classic_1961.rules",
                                            "rulesets/classic_board.rules"])
    assert result.exit_code == 0
    assert result.output.splitlines() == ["rulesets/classic_1961.rules: ok",
                                          "rulesets/classic_board.rules: ok"]


# ---------------------------------------------------------------- robustness

_LINES = (RULESETS / "classic_1961.rules").read_text(encoding="utf-8").splitlines()
_BITS = ['"Boardwalk"', "$-5", "x0", "0", "rule r:", "  set jail_fine = 5", "replace ",
         "  when a player lands on a tax owned by the player: pay rent", 'rename space "GO"',
         "  when a die shows \"Eye\": move 0", "option o:", "  ", ":", ","]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(_LINES) - 1), st.sampled_from(_BITS),
                          st.booleans()), min_size=1, max_size=4))
def test_mutated_rulebooks_check_without_crashing(edits):
    """Any edit of classic_1961.rules gives diagnostics (or none), never an exception."""
    lines = list(_LINES)
    for at, bit, replace in edits:
        lines[at:at + replace] = [bit]
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(RULESETS / "classic_board.rules", tmp)
        path = os.path.join(tmp, "m.rules")
        Path(path).write_text("\n".join(lines), encoding="utf-8")
        program, diags = check_path(path)
        for d in diags:
            assert render(d, Path(d.span.file).read_text(encoding="utf-8"))
        assert program is not None or any(d.is_error for d in diags)


def test_check_does_not_load_the_engine():
    """`rulelang check` imports neither the engine nor the compiler (it must start quickly)."""
    code = ("import sys; from rulelang_cli.main import main\n"
            "for path in ('rulesets/classic_1961.rules', 'rulesets/starwars_ep2.rules'):\n"
            "    try:\n        main(['check', path], standalone_mode=False)\n"
            "    except SystemExit as e:\n        assert e.code == 0, e.code\n"
            "loaded = [m for m in sys.modules if m.startswith(('rulelang.engine.', "
            "'rulelang.compile', 'rulelang.runner')) and m != 'rulelang.engine.settings']\n"
            "assert loaded == [], loaded\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_every_effect_says_how_money_moves():
    """check_flow.MONEY_FLOWS covers every effect of the language, so E306 and E416 see
    every payment (a new effect without a row would make the checker raise)."""
    import typing

    from rulelang.check_flow import MONEY_FLOWS

    assert set(typing.get_args(ast.Effect)) | {ast.Choice} == set(MONEY_FLOWS)


_RULE_HEADER = re.compile(r"^(?:rule|replace rule|(?:before|after) \w+ rule) (\w+):$", re.M)
_TARGET = re.compile(r"^(?:replace rule (\w+)|(?:before|after) (\w+) rule \w+|remove rule (\w+))",
                     re.M)


def _break_headers(path: Path, names) -> list[tuple[str, int]]:
    """Take the colon off the headers of the rules `names` of the file; their (file, line)."""
    text = path.read_text(encoding="utf-8")
    colons = [m.end() - 1 for m in _RULE_HEADER.finditer(text) if m.group(1) in names]
    path.write_text("".join(ch for i, ch in enumerate(text) if i not in set(colons)),
                    encoding="utf-8")
    return [(str(path), text.count("\n", 0, c) + 1) for c in colons]


@pytest.mark.parametrize("path", sorted(RULESETS.rglob("*.rules")), ids=lambda p: p.name)
def test_left_out_rules_say_nothing_more(path, tmp_path):
    """A shipped rulebook whose middle rule's header is broken, or whose parents' rules that
    it overrides are, reports those syntax errors and nothing else: the rest is checked (and
    clean), and no rule left out makes anything else fail (`there is no rule 'x' to
    replace`, a rule placed before a missing one, a warning over every rule)."""
    shutil.copytree(RULESETS, tmp_path / "rulesets")
    root = tmp_path / "rulesets"
    copy = root / path.relative_to(RULESETS)
    text = path.read_text(encoding="utf-8")
    names = _RULE_HEADER.findall(text)
    targets = {n for m in _TARGET.finditer(text) for n in m.groups() if n}
    cases = [[names[len(names) // 2]]] if names else []
    for case in cases + ([targets] if targets else []):
        shutil.copy(path, copy)
        if case is targets:
            broken = [b for f in root.rglob("*.rules") if f != copy
                      for b in _break_headers(f, targets)]
        else:
            broken = _break_headers(copy, case)
        program, diags = check_path(str(copy), include_path=[str(root)])
        assert program is None and diags, broken
        assert {d.code for d in diags} == {"E005"}, [render(d, None) for d in diags]
        assert {(d.span.file, d.span.line) for d in diags} <= set(broken)
        shutil.copytree(RULESETS, root, dirs_exist_ok=True)
