"""No input makes the checker raise: random text and bytes, rulebooks generated from the grammar,
mutations of every ruleset, and the awkward files (empty, a directory, missing, huge).

The budget is small in CI: 20 examples per property under the ci profile, 40 under the others
(`--hypothesis-profile=long`); `RULELANG_FUZZ_EXAMPLES=N` runs N (the longer run of
docs/performance.md). Each example goes through `check_path` as the CLI calls it and
every diagnostic is rendered, so a crash anywhere between reading and rendering fails here.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, example
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

import rulelang
from rulelang import parse as parse_module
from rulelang.check import check_path
from rulelang.diagnostics import CODES, RuleError, RuleErrors, render, to_json
from rulelang.parse import parse_text
from rulelang.recover import MAX_SYNTAX_ERRORS
from rulelang_cli.check_cmd import check as check_cmd
from strategies import SEEDS, ci_count, conditions, expressions

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").rglob("*.rules"))
# By path under rulesets/: a mutated house rule is checked in house/, where it extends "../x".
SOURCES = {p.relative_to(ROOT / "rulesets").as_posix(): p.read_text(encoding="utf-8")
           for p in RULESETS}
EXAMPLES = int(os.environ.get("RULELANG_FUZZ_EXAMPLES", ci_count(20, 40)))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A folder holding copies of the rulesets, so that mutated files can extend them."""
    path = tmp_path_factory.mktemp("fuzz") / "rulesets"
    shutil.copytree(ROOT / "rulesets", path)
    return path


def _check(folder: Path, data: bytes | str, beside: str = "") -> list:
    """Write `data` as a rules file in `folder` (beside the ruleset `beside`, so that it
    extends what that one extends), check it, render it; return the diagnostics."""
    path = (folder / beside).parent / "fuzzed.rules" if beside else folder / "fuzzed.rules"
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", errors="surrogatepass")
    else:
        path.write_bytes(data)
    program, diags = check_path(str(path), include_path=[folder])  # house/ reaches "../x"
    text = path.read_text(encoding="utf-8", errors="replace")
    for d in diags:
        assert d.code in CODES and d.message and d.span.line >= 0
        assert render(d, text) and to_json(d)
    assert program is not None or any(d.is_error for d in diags)
    return diags


# ---------------------------------------------------------------- random input

_PIECES = st.sampled_from(
    list('abrulesetwhn :,"$%.#\n\t\r 0123456789x_=-é\'@') + [
        "rule ", "when ", "board:\n", "  ", "\n  ", '"GO"', "$50", "to ", "a player lands on ",
        "rulebook \"R\"\n", "extends \"classic_1961.rules\"\n", "deck \"Chance\":\n",
        "  card \"A\" \"B\": ", "option o:\n", "replace rule salary:\n", "draw from ", "\x00"])


@FUZZ
@given(st.lists(_PIECES, max_size=80).map("".join))
def test_random_text(folder, text):
    """Text made of the language's own pieces, in any order."""
    _check(folder, text)


@FUZZ
@given(st.text(max_size=400))
def test_random_unicode(folder, text):
    """Any Unicode text at all."""
    _check(folder, text)


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(folder, data):
    """Any bytes, UTF-8 or not."""
    diags = _check(folder, data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        assert [d.code for d in diags] == ["E011"]


# ---------------------------------------------------------------- mutations of the rulesets

_TOKEN = re.compile(r'"[^"\n]*"|\$-?\d+|\d+%|x\d+|\w+|\n[ \t]*|[ \t]+|.', re.S)


@st.composite
def _mutated(draw, unit: str):
    """A ruleset with tokens or lines deleted, duplicated or swapped, and its path."""
    name = draw(st.sampled_from(sorted(SOURCES)))
    text = SOURCES[name]
    parts = _TOKEN.findall(text) if unit == "token" else text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(parts) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "swap"]))
        if op == "delete":
            del parts[i]
        elif op == "duplicate":
            parts.insert(i, parts[i])
        else:
            j = draw(st.integers(0, len(parts) - 1))
            parts[i], parts[j] = parts[j], parts[i]
    return name, "".join(parts)


@FUZZ
@given(_mutated("token"))
def test_token_mutations(folder, mutated):
    """Every ruleset with tokens deleted, duplicated or swapped."""
    name, text = mutated
    _syntax_errors_in_order(text)
    _check(folder, text, name)


@FUZZ
@given(_mutated("line"))
def test_line_mutations(folder, mutated):
    """Every ruleset with lines deleted, duplicated or swapped."""
    name, text = mutated
    _syntax_errors_in_order(text)
    _check(folder, text, name)


def _syntax_errors_in_order(text: str) -> None:
    """Recovery keeps the first syntax error first and adds only later ones, each once."""
    try:
        parse_text(text, "m.rules")
        return
    except RuleErrors as e:
        diags = e.diagnostics
    except RuleError as e:
        return
    positions = [(d.span.line, d.span.column) for d in diags]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)


# ---------------------------------------------------------------- from the grammar

_NAMES = ["street", "railroad", "utility", "property", "space", "cards", "plain", "tax",
          "houses", "railroads", "building",
          "jail_fine", "players", "starting_cash", "jail_turns", "richest", "salary",
          "rent_rule", "one_ring", "highest_roll", "houses", "time_limit", "fines_to",
          "max_houses", "seconds_per_turn", "house", "hotel", "building"]
_SPACE_NAMES = ['"GO"', '"Boardwalk"', '"Chance"', '"Jail"', '"Purple"', '"Go To Jail"', '"X"',
                '"Community Chest"', '"Mediterranean Avenue"', '"Eye"', '"first"', '"Ring"',
                '"Force"', '"Light"', '"Jackpot"', '"classic_1961.rules"']


def _layout(text: str) -> str:
    """Turn the generator's \\x01 (indent) and \\x02 (dedent) into indented lines."""
    out, depth = [], 0
    for line in text.split("\n"):
        while line[:1] in ("\x01", "\x02") or line[:1].isspace() and line.strip():
            if line[0] == "\x01":
                depth += 1
            elif line[0] == "\x02":
                depth -= 1
            line = line[1:]
        depth -= line.count("\x02")
        line = line.replace("\x02", "").strip(" \t\f")
        out.append("  " * depth + line if line else "")
    return "\n".join(out)


def _grammar_rulebooks():
    lark = Lark(parse_module.grammar_text(), parser="lalr",
                lexer="contextual", postlex=parse_module._Indenter())
    spaced = {t.name: st.just(f" {t.pattern.value} ") for t in lark.terminals
              if t.pattern.type == "str"}
    word = lambda values: st.sampled_from(values).map(lambda v: f" {v} ")  # noqa: E731
    # a name is never one of the language's words: `advance to a house of the player's
    # choice` is a syntax error (E002), not a name the grammar accepts
    keywords = {t.pattern.value for t in lark.terminals if t.pattern.type == "str"}
    explicit = {
        **spaced,
        "STRING": word(_SPACE_NAMES),
        "NAME": word([n for n in _NAMES if n not in keywords]),
        "INT": st.integers(0, 12).map(lambda n: f" {n} "),
        "MONEY": st.integers(0, 500).map(lambda n: f" ${n} "),
        "PERCENT": st.integers(0, 200).map(lambda n: f" {n}% "),
        "MULT": st.integers(0, 12).map(lambda n: f" x{n} "),
        "_POSS": st.sampled_from(["'s ", "\u2019s "]),
        "COMMENT": st.just(""),
        "_NL": st.just("\n"),
        "_ELSE": st.just(", else "),
        "_POSS": st.sampled_from(["'s ", "\u2019s "]),
        "_INDENT": st.just("\x01"),
        "_DEDENT": st.just("\x02"),
    }
    return from_lark(lark, explicit=explicit).map(_layout)


# The errors a text the grammar accepts can still have: the builder's (values, units, a choice
# with one option) and the reader's bound on nesting (conditions, `, else` effects).
_BUILT = {"E202", "E204", "E205", "E208", "E009", "E010", "E013", "E210", "E019", "E308"}


@FUZZ
@given(st.deferred(_grammar_rulebooks))  # the grammar's parser built when the test runs
def test_generated_rulebooks_parse_and_check(folder, text):
    """A rulebook the grammar generates parses, and checks without raising."""
    try:
        parse_text(text, "generated.rules")
    except RuleErrors as e:
        codes = {d.code for d in e.diagnostics}
        assert codes <= _BUILT, [render(d, text) for d in e.diagnostics]
    except RuleError as e:
        assert e.diagnostic.code in _BUILT, render(e.diagnostic, text)
    _check(folder, text)


# ---------------------------------------------------------------- conditions and expressions


@FUZZ
@given(conditions(), expressions())
def test_generated_conditions_check(folder, cond, expr):
    """Any condition and expression, of any unit and subject, checks without raising."""
    _check(folder, _fuzzed(f"when a player rolls if {cond}: collect {expr}",
                           f"when a turn starts unless {cond}: move {expr}"))


def test_generated_conditions_play(folder):
    """Well-typed conditions and expressions check, mostly clean, and are evaluated in a
    played game (on throws, landings, the turn's start, the candidates of a `where`) without
    raising; games did evaluate some (one test, so that a parallel run keeps them together)."""
    PLAYED.clear()
    _generated_conditions_play(folder)
    assert PLAYED


@FUZZ
@given(conditions(typed=True, who=("player", "owner")),
       conditions(typed=True, who=("player",)),
       expressions("money"), expressions("count", who=("player",)), SEEDS)
# one well-formed rulebook always plays, whatever the generated ones are
@example(on_street="the player's cash is at least $1",
         on_throw="the player's cash is at least $1", money="$10", steps="2", seed=1)
def _generated_conditions_play(folder, on_street, on_throw, money, steps, seed):
    text = _fuzzed(f"when a player lands on a street if {on_street}: pay {money}",
                   f"when a player rolls if {on_throw}: collect $10",
                   f"when a turn starts unless {on_throw}: move {steps}",
                   f"when a player lands on a street unless {on_street}: move back {steps}",
                   f"when a player lands on \"Free Parking\": advance to the next street "
                   f"where {on_street}, else collect $1")
    if any(d.is_error for d in _check(folder, text)):
        return
    PLAYED.append(text)
    rb = rulelang.load(str(folder / "fuzzed.rules"))
    game = rulelang.Game(rb, [rulelang.RandomAgent() for _ in range(3)], seed=seed,
                         max_turns=60)
    game.play()


PLAYED: list[str] = []


def _fuzzed(*lines: str) -> str:
    return ('rulebook "Fuzzed"\nextends "classic_1961.rules"\n'
            'die "first" faces 1..6, face 1 named "Star 1"\n'
            'die "second" faces 1..6, face 2 named "Star 2"\npot "Jackpot"\n'
            'rule fuzzed:\n  cite "t", "t"\n' + "".join(f"  {line}\n" for line in lines))


# ---------------------------------------------------------------- awkward files


def test_awkward_paths(tmp_path):
    """An empty file, a directory, a missing file: one diagnostic each, no exception."""
    (tmp_path / "empty.rules").write_text("", encoding="utf-8")
    (tmp_path / "blank.rules").write_text("\n\n   \n# only a comment\n", encoding="utf-8")
    cases = {"empty.rules": "E008", "blank.rules": "E008", "missing.rules": "E401", ".": "E420"}
    for name, code in cases.items():
        program, diags = check_path(str(tmp_path / name))
        assert program is None and [d.code for d in diags] == [code]


def test_awkward_paths_on_the_command_line(tmp_path):
    """The CLI: an empty file exits 1 with E008; a directory or a missing file exits 2."""
    (tmp_path / "empty.rules").write_text("", encoding="utf-8")
    runner = CliRunner()
    empty = runner.invoke(check_cmd, [str(tmp_path / "empty.rules")])
    assert empty.exit_code == 1 and "error[E008]" in empty.output
    for path in (tmp_path, tmp_path / "missing.rules"):
        result = runner.invoke(check_cmd, [str(path)])
        assert result.exit_code == 2 and "Usage" in result.output


def test_huge_files(folder):
    """A 1 MB rulebook and 5 MB of junk check without raising, in linear time."""
    rule = ('rule r{i}:\n  cite "fuzz", "huge"\n'
            '  when a player lands on "Boardwalk" if option o{i}: collect $1\n')
    valid = 'rulebook "Huge"\nextends "classic_1961.rules"\n' + "".join(
        rule.format(i=i) for i in range(6_000))
    start = time.perf_counter()
    diags = _check(folder, valid)
    assert {d.code for d in diags} == {"E107"}
    junk = ("rule @ when: pay $ ~~ \n" * 220_000)
    diags = _check(folder, junk)
    assert 1 < len(diags) <= MAX_SYNTAX_ERRORS + 1
    assert time.perf_counter() - start < 120  # a guard against a quadratic path, not a timing
