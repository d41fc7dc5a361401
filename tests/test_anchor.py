"""Diagnostics where the author looks: binary input, negative amounts, mixed indentation,
errors the author's file causes in a parent's text, long lines, every mistake in one run."""

from __future__ import annotations

import gzip
import io
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang import ast
from rulelang.check import check_path
from rulelang.diagnostics import _EXCERPT_WIDTH, RuleErrors, diagnostic, render
from rulelang_cli.check_cmd import check as check_cmd

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
HEAD = 'rulebook "House"\nextends "classic_1961.rules"\n\n'
# the line of classic_1961.rules whose rule draws on Chance
DRAWS_CHANCE = (RULESETS / "classic_1961.rules").read_text(encoding="utf-8").splitlines().index(
    '  when a player lands on "Chance": draw from "Chance"') + 1


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder holding a copy of the official rulebooks, for house rules to extend."""
    for f in RULESETS.glob("*.rules"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def _check(folder: Path, text: str | bytes, name: str = "house.rules"):
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return check_path(str(path))


def _zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("house.rules", HEAD)
    return out.getvalue()


# ---------------------------------------------------------------- binary input

BINARY = {
    "gzip": (gzip.compress(HEAD.encode()), "this looks like gzip data, not a rules file"),
    "zip": (_zip(), "this looks like a zip archive, not a rules file"),
    "pdf": (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "this looks like a PDF document"),
    "png": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "this looks like a PNG image"),
    "jpeg": (b"\xff\xd8\xff\xe0\x00\x10JFIF", "this looks like a JPEG image"),
    "nul": (HEAD.encode() + b"\x00\x00\x00", "this looks like binary data (it holds NUL "
            "bytes)"),
    "utf16": (HEAD.encode("utf-16"), "this looks like UTF-16 text"),
    "utf16-no-bom": (HEAD.encode("utf-16-le"), "this looks like UTF-16 text"),
}


@pytest.mark.parametrize("kind", sorted(BINARY))
def test_binary_input_is_named_not_shown(folder, kind):
    """A compressed file, an archive, a document, an image or NUL bytes: one E011 that says
    what the file looks like, for the file as a whole, and no byte of it in the output."""
    data, message = BINARY[kind]
    path = folder / "house.rules"
    path.write_bytes(data)
    program, diags = check_path(str(path))
    assert program is None
    assert [(d.code, d.span.line) for d in diags] == [("E011", 0)]
    assert diags[0].message.startswith(message) and diags[0].hint
    result = CliRunner().invoke(check_cmd, [str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"{path}: error[E011]: {diags[0].message}"
    assert lines[1].startswith("hint: ") and lines[2] == f"{path}: 1 error"
    assert len(lines) == 3  # no source line: nothing of the file is echoed


def test_text_that_is_not_utf8_still_points_at_the_byte(folder):
    """A Latin-1 name (not binary) keeps its E011 at the first byte that is not UTF-8."""
    _, (d,) = _check(folder, b'rulebook "Caf\xe9"\n')
    assert (d.code, d.span.line, d.span.column) == ("E011", 1, 14)
    assert d.message == "byte 0xe9 is not valid UTF-8"


def test_a_stray_nul_in_a_text_is_reported_where_it_is(folder):
    """One NUL inside a line of text is not binary data: the lexer reports it at its place."""
    _, diags = _check(folder, HEAD.encode() + b"set jail_fine = $5\x00\n")
    assert [(d.code, d.span.line) for d in diags] == [("E001", 4)]


def test_a_binary_parent_is_named_too(folder):
    """A gzipped file that a house rule extends: E011 for that file, named as such."""
    (folder / "parent.rules").write_bytes(gzip.compress(b'rulebook "P"\n'))
    _, diags = _check(folder, 'rulebook "H"\nextends "parent.rules"\n')
    assert [(Path(d.span.file).name, d.code) for d in diags] == [("parent.rules", "E011")]
    assert "gzip" in diags[0].message


# ---------------------------------------------------------------- negative amounts

@pytest.mark.parametrize("effect, hint", [
    ("collect -$60", "write 'pay $60' instead of 'collect -$60'"),
    ("pay -$60", "write 'collect $60' instead of 'pay -$60'"),
])
def test_a_sign_before_the_dollar_is_a_negative_amount(folder, effect, hint):
    """`collect -$60` is E204, the negative-amount message, with the verb to write instead."""
    line = f'  when a player lands on "Free Parking": {effect}'
    _, diags = _check(folder, HEAD + f'rule t:\n  cite "h", "t"\n{line}\n')
    assert [(d.code, d.span.line, d.span.column) for d in diags] == [
        ("E204", 6, line.index("-$") + 1)]
    (d,) = diags
    assert d.message == "amounts are never negative, found -$60"
    assert d.span.end_column - d.span.column == len("-$60")
    assert hint in d.hint


def test_a_negative_setting_says_the_same(folder):
    """`set jail_fine = -$60` gets the message the checker gives `$-60`."""
    text = HEAD + 'set jail_fine = -$60\n'
    _, (d,) = _check(folder, text)
    _, (e,) = _check(folder, HEAD + 'set jail_fine = $-60\n')
    assert (d.code, e.code) == ("E204", "E204")
    assert d.message.replace("-$", "$-") == e.message


# ---------------------------------------------------------------- W101

def test_the_missing_cite_hint_speaks_to_the_author(folder):
    """W101's hint shows a house rule's cite, not the project's own sources."""
    _, (d,) = _check(folder, HEAD + 'rule t:\n  when a player lands on "GO": collect $1\n')
    assert d.code == "W101"
    assert "seed" not in d.hint and 'cite "our house rules"' in d.hint


# ---------------------------------------------------------------- long lines

def test_a_long_line_is_cut_around_the_column():
    """The excerpt of a line longer than _EXCERPT_WIDTH is a window around the span, marked
    with '...' where it is cut, the caret under the span's own characters."""
    line = "  when " + "x" * 600 + ' "Bordwalk" ' + "y" * 600
    column = line.index('"Bordwalk"') + 1
    span = ast.Span("long.rules", 1, column, 1, column + len('"Bordwalk"'))
    text = render(diagnostic("E104", "unknown space 'Bordwalk'", span), line + "\n")
    _, shown, marks = text.splitlines()
    assert shown.startswith("  1 | ...") and shown.endswith("...")
    assert len(shown) <= len("  1 | ") + _EXCERPT_WIDTH + 6
    start = marks.index("^")
    assert shown[start: start + len('"Bordwalk"')] == '"Bordwalk"'
    assert marks[start:] == "^" + "~" * (len('"Bordwalk"') - 1)


def test_a_long_line_near_its_start_is_cut_at_its_end_only():
    """A span near the start of a long line: the window starts at the line's start."""
    line = 'set "Bordwalk" ' + "z" * 1000
    span = ast.Span("long.rules", 1, 5, 1, 15)
    _, shown, marks = render(diagnostic("E104", "m", span), line).splitlines()
    assert shown == "  1 | " + line[:_EXCERPT_WIDTH] + "..."
    assert marks == "    | " + " " * 4 + "^" + "~" * 9


def test_a_long_line_in_a_checked_file(folder):
    """The checker's own diagnostic on a long line: the rendered excerpt is cut."""
    text = HEAD + 'rule t:\n  cite "h", "t"\n  when a player lands on "Bordwalk": collect $1' + \
        " " * 500 + "# " + "w" * 500 + "\n"
    path = folder / "house.rules"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(check_cmd, [str(path)])
    excerpt = [line for line in result.output.splitlines() if line.startswith("  6 | ")]
    assert excerpt and excerpt[0].endswith("...") and "w" * 300 not in excerpt[0]


# ---------------------------------------------------------------- every mistake in one run

UNITS = HEAD + '''rule back:
  cite "house rules", "back"
  when a player lands on "Free Parking": move $3

rule tax:
  when a player lands on "Bordwalk": pay 5

set houses = -5
'''


def test_a_unit_error_does_not_stop_the_other_checks(folder):
    """E205 and E204 found by the parser come with the checker's E104 and W101, in one run."""
    program, diags = _check(folder, UNITS)
    assert program is None
    assert [(d.code, d.span.line) for d in diags] == [
        ("E205", 6), ("W101", 8), ("E104", 9), ("E205", 9), ("E204", 11)]


def test_no_knock_on_diagnostic_where_the_parser_reported(folder):
    """`set houses = -5` is read as 0 houses: the checker does not add that hotels then cannot
    be built (E301), nor say again what the parser said."""
    _, diags = _check(folder, UNITS)
    assert [d.code for d in diags if d.span.line == 11] == ["E204"]
    _, alone = _check(folder, HEAD + "set houses = 0\n")
    assert [d.code for d in alone] == ["E301"]  # what 0 alone would give


def test_loading_refuses_a_unit_error(folder):
    """Loading the rulebook to play it raises every error, the parser's among them."""
    import rulelang

    (folder / "house.rules").write_text(UNITS, encoding="utf-8")
    with pytest.raises(RuleErrors) as e:
        rulelang.load(str(folder / "house.rules"))
    assert [d.code for d in e.value.diagnostics] == ["E205", "E104", "E205", "E204"]


def test_check_reports_unit_errors_with_the_rest(folder):
    """`rulelang check` prints the parser's and the checker's diagnostics and exits 1."""
    (folder / "house.rules").write_text(UNITS, encoding="utf-8")
    result = CliRunner().invoke(check_cmd, [str(folder / "house.rules")])
    assert result.exit_code == 1
    assert "error[E104]: unknown space 'Bordwalk'" in result.output
    assert result.output.count("error[E205]") == 2
    assert result.output.splitlines()[-1].endswith("4 errors, 1 warning")


# The builder's other mistakes (E009 is in tests/data/check/one_run_space_attribute.rules),
# each followed by a rule with the checker's E104 on the last line of the file.
TYPO = '\nrule typo:\n  cite "h", "t"\n  when a player lands on "Bordwalk": pay $5\n'
ONE_RUN = {
    "E010": 'deck "Chance":\n' + "".join(
        f'  card "C{i:02}" "Card": advance to "Boardwalk"{", rent x2" if i == 1 else ""}\n'
        for i in range(1, 17)),
    "E013": 'rule bonus:\n  when a player lands on "GO": collect $5\n  cite "h", "b"\n',
    "E208": 'die "first" faces 6..1\ndie "second" faces 1..6\n',
    "E209": 'die "first" faces 1..600, 601..1200\ndie "second" faces 1..6\n',
    "E308": 'rule pick:\n  cite "h", "p"\n'
            '  when a player lands on "GO": the player chooses one: collect $5\n',
}


@pytest.mark.parametrize("code", sorted(ONE_RUN))
def test_a_builder_mistake_does_not_stop_the_other_checks(folder, code):
    """E010, E013, E208, E209 and E308 found while building the AST come with the
    checker's E104 of a later line, and nothing else (the placeholder adds no mistake)."""
    text = HEAD + ONE_RUN[code] + TYPO
    program, diags = _check(folder, text)
    last = text.count("\n")
    assert program is None
    assert [(d.code, d.span.line) for d in diags] == [(code, 4 + ONE_RUN[code].count(
        "\n", 0, ONE_RUN[code].index(_MARK[code]))), ("E104", last)]


_MARK = {"E010": "rent x2", "E013": 'cite "h", "b"', "E208": "6..1", "E209": "1..600",
         "E308": "chooses"}


def test_loading_refuses_a_builder_mistake(folder):
    """Loading the rulebook to play it still raises the builder's mistake."""
    import rulelang

    (folder / "house.rules").write_text(HEAD + ONE_RUN["E308"], encoding="utf-8")
    with pytest.raises(RuleErrors) as e:
        rulelang.load(str(folder / "house.rules"))
    assert [d.code for d in e.value.diagnostics] == ["E308"]


def test_the_readers_limits_still_stop(folder):
    """E209 of a die past the reader's limit of words on a line stops the check: going on
    would cost work without bound."""
    from rulelang.parse import MAX_LINE_TOKENS

    faces = ", ".join(str(n) for n in range(1, MAX_LINE_TOKENS))
    _, diags = _check(folder, HEAD + f'die "first" faces {faces}\n' + TYPO)
    assert [d.code for d in diags] == ["E209"]


def test_a_mistake_of_the_played_file_comes_with_its_parents(folder):
    """The played file's E308 is reported with a syntax error of the file it extends."""
    (folder / "parent.rules").write_text('rulebook "P"\nextends "classic_1961.rules"\nrule r\n',
                                         encoding="utf-8")
    text = 'rulebook "H"\nextends "parent.rules"\n\n' + ONE_RUN["E308"]
    _, diags = _check(folder, text)
    assert [(d.code, *_where(d)) for d in diags] == [
        ("E308", "house.rules", 6), ("E005", "parent.rules", 3)]


# ---------------------------------------------------------------- anchored in the author's file

def _where(d) -> tuple[str, int]:
    return Path(d.span.file).name, d.span.line


def test_a_setting_an_inherited_board_does_not_fit_is_one_error_at_the_setting(folder):
    """`set max_houses = 3` under classic_board.rules (6 rents a street): one E409 at the
    `set` line, a note at the board's streets naming how many and where, none in the board."""
    _, diags = _check(folder, HEAD + "set max_houses = 3\n")
    e409 = [d for d in diags if d.code == "E409"]
    assert [_where(d) for d in e409] == [("house.rules", 4)]
    (d,) = e409
    assert "22 streets of 'classic_board.rules' list 6" in d.message
    assert "set max_houses = 4" in d.hint
    ((note, span),) = d.notes
    assert note == "22 streets list 6 rents here, on lines 12 to 50"
    assert (Path(span.file).name, span.line) == ("classic_board.rules", 12)
    assert all(Path(d.span.file).name == "house.rules" for d in diags)


def test_a_board_of_the_authors_own_is_blamed_line_by_line(folder):
    """A board declared in the played file that does not fit an inherited `max_houses`: the
    streets are the change, each reported where it is."""
    (folder / "parent.rules").write_text(
        'rulebook "P"\nextends "classic_1961.rules"\n\nset max_houses = 3\n', encoding="utf-8")
    board = (RULESETS / "classic_board.rules").read_text(encoding="utf-8")
    board = board[board.index("board:"):]
    board = board[:board.index("\n\n")] + "\n" if "\n\n" in board else board
    _, diags = _check(folder, 'rulebook "H"\nextends "parent.rules"\n\n' + board)
    e409 = [d for d in diags if d.code == "E409"]
    assert len(e409) == 22 and {_where(d)[0] for d in e409} == {"house.rules"}


def test_a_loop_closed_through_an_inherited_rule_is_reported_at_the_authors_rule(folder):
    """Free Parking -> the nearest Chance -> every card back to Free Parking: the E417 is at
    the author's rule, with a note at classic_1961's rule that draws on Chance."""
    cards = "".join(f'  card "C{i:02}" "Back": advance to "Free Parking"\n'
                    for i in range(1, 11))
    text = HEAD + ('rule detour:\n  cite "h", "detour"\n'
                   '  when a player lands on "Free Parking": advance to the nearest cards\n'
                   '\ndeck "Chance":\n' + cards)
    _, diags = _check(folder, text)
    assert [(d.code, *_where(d)) for d in diags] == [("E417", "house.rules", 6)]
    ((note, span),) = diags[0].notes
    assert note == "the chain goes on here (rule 'cards')"
    assert (Path(span.file).name, span.line) == ("classic_1961.rules", DRAWS_CHANCE)


def test_a_loop_closed_by_the_authors_cards_is_reported_at_a_card(folder):
    """A deck of the author's whose every card goes back to Chance: the E417 is at the first
    card, not at the inherited rule that draws, which a note shows."""
    cards = "".join(f'  card "C{i:02}" "Again": advance to the nearest cards\n'
                    for i in range(1, 11))
    community = "".join(f'  card "K{i:02}" "Again": advance to the nearest cards\n'
                        for i in range(1, 11))
    text = HEAD + 'deck "Chance":\n' + cards + '\ndeck "Community Chest":\n' + community
    _, diags = _check(folder, text)
    e417 = [d for d in diags if d.code == "E417"]
    assert [_where(d) for d in e417] == [("house.rules", 5)]
    assert [(Path(s.file).name, s.line) for _, s in e417[0].notes][:1] == \
        [("classic_1961.rules", DRAWS_CHANCE)]


def test_inconsistent_settings_name_the_later_rule_that_set_the_value(folder):
    """E301: the author's `set max_houses = 6` was replaced by a later rule's 4; the notes say
    so, and where the value in force comes from."""
    text = HEAD + ('rule more_houses:\n  cite "h", "m"\n  set max_houses = 6\n\n'
                   'rule big_hotels:\n  cite "h", "b"\n  set houses_per_hotel = 5\n\n'
                   'rule fewer:\n  cite "h", "f"\n  set max_houses = 4\n')
    _, diags = _check(folder, text)
    (d,) = [d for d in diags if d.code == "E301"]
    assert _where(d) == ("house.rules", 10)
    assert [(m, s.line) for m, s in d.notes] == [
        ("'max_houses' is set to 6 here, but the later rule 'fewer' sets it to 4", 6),
        ("'max_houses' is set to 4 here, by rule 'fewer'", 14)]


def test_inconsistent_settings_name_a_default(folder):
    """E301 against a setting no file sets: a note gives its default."""
    _, diags = _check(folder, HEAD + "set auction_min_bid = $2000\n")
    (d,) = [d for d in diags if d.code == "E301"]
    assert ("'starting_cash' is set to $1500 here, by rule 'capital'",
            ) == tuple(m for m, _ in d.notes)
    _, diags = _check(folder, HEAD + "set houses_per_hotel = 5\n")
    (d,) = [d for d in diags if d.code == "E301"]
    assert d.notes == (("'max_houses' is not set: its default is 4", None),)


TOKEN_PARENT = '''rulebook "Tokens"
extends "classic_1961.rules"

token "Eye" starts on "GO"

rule eye:
  cite "p", "eye"
  when a player passes "GO": move token "Eye" to the next {first}
  when token "Eye" reaches a {first}: move token "Eye" to the next {second}
'''


@pytest.mark.parametrize("first, second", [("utility", "railroad"), ("railroad", "utility")])
def test_a_token_loop_closed_through_a_parents_rule_is_reported_at_the_authors_rule(
        folder, first, second):
    """A token sent on by the parent's rule and sent back by the author's: the E417 is at the
    author's rule, with a note at the parent's, whichever rule the loop is found from."""
    (folder / "tokens.rules").write_text(TOKEN_PARENT.format(first=first, second=second),
                                         encoding="utf-8")
    text = ('rulebook "H"\nextends "tokens.rules"\n\nrule back:\n  cite "h", "back"\n'
            f'  when token "Eye" reaches a {second}: move token "Eye" to the next {first}\n')
    _, diags = _check(folder, text)
    assert [(d.code, *_where(d)) for d in diags] == [("E417", "house.rules", 6)]
    ((note, span),) = diags[0].notes
    assert note == "the chain goes on here (rule 'eye')"
    assert (Path(span.file).name, span.line) == ("tokens.rules", 9)
