"""Text from a rules file reaches the terminal escaped: no escape sequence, control, bidi or
line-separator character of a name, a string, a title or a path is ever written raw by
`check`, `run` or `resume`, nor into the files `run` writes; and the line shown under a
diagnostic is the line the editor shows at that number.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.diagnostics import printable
from rulelang_cli.main import main

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = (ROOT / "rulesets" / "classic_1961.rules").as_posix()
HOSTILE = {
    "ESC": "\x1b[2J\x1b[H FAKE OK",
    "OSC": "\x1b]0;title\x07",
    "NUL": "a\x00b",
    "CSI (C1)": "a\x9b31mb",
    "DEL": "a\x7fb",
    "bidi": "abc\u202edcba\u2066x\u2069",
    "line separator": "a\u2028b\u2029c",
    "NEL": "a\x85b",
    "form feed": "a\x0cb\x0bc",
}
RAW = set("\x1b\x00\x9b\x7f\u202e\u2066\u2069\u2028\u2029\x85\x0c\x0b\x07")


def _raw(text: str) -> set[str]:
    return {c for c in text if c in RAW}


def _run(args: list[str]):
    return CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_printable_escapes(what):
    """The one helper shows every hostile character as a visible escape and keeps the rest."""
    shown = printable(HOSTILE[what])
    assert not _raw(shown) and "\\" in shown
    assert printable("Rue de la Paix, «Départ» 5 €") == "Rue de la Paix, «Départ» 5 €"
    assert printable("\x1b") == "\\x1b" and printable("\u202e") == "\\u202e"


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_check_shows_names_escaped(tmp_path, what):
    """A space, a deck and a title named with hostile characters: `check` escapes them in
    the message, the source excerpt and the hint."""
    name = HOSTILE[what]
    text = (f'rulebook "T {name}"\nextends "{CLASSIC}"\n\n'
            f'rule r:\n  cite "x", "y"\n  when a player lands on "{name}": draw from "{name}"\n')
    path = tmp_path / "hostile.rules"
    path.write_text(text, encoding="utf-8")
    result = _run(["check", str(path)])
    assert result.exit_code == 1
    assert "error[E104]" in result.output and "error[E105]" in result.output
    assert not _raw(result.output), repr(result.output)
    assert printable(name) in result.output
    as_json = _run(["check", "--format", "json", str(path)])
    assert not _raw(as_json.output)
    assert json.loads(as_json.output)[0]["message"].count(name) == 1


def test_check_escapes_a_hostile_file_name(tmp_path):
    """The file's own path is shown escaped in locations and the summary."""
    path = tmp_path / "bad\x1b[2Jname.rules"
    path.write_text('rulebook "T"\nextends "nowhere.rules"\n', encoding="utf-8")
    result = _run(["check", str(path)])
    assert result.exit_code == 1 and not _raw(result.output)
    assert "bad\\x1b[2Jname.rules" in result.output


def test_caret_lines_up_under_escaped_text(tmp_path):
    """A name after an escape sequence: the caret is under the name as printed."""
    text = (f'rulebook "T"\nextends "{CLASSIC}"\n\nrule r:\n  cite "\x1b[1m", "y"\n'
            '  when a player passes "Nowhere": collect $1\n')
    (tmp_path / "c.rules").write_text(text, encoding="utf-8")
    out = _run(["check", str(tmp_path / "c.rules")]).output
    lines = out.splitlines()
    i = next(i for i, line in enumerate(lines) if '"Nowhere"' in line)
    assert lines[i + 1].index("^") == lines[i].index('"Nowhere"')


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x0c", "\x85", "\x0b", "\x1c"])
def test_excerpt_line_is_the_editors_line(tmp_path, separator):
    """A line holding U+2028, a form feed, NEL...: the excerpt under a later error shows the
    numbered line itself, not a line shifted by the separator."""
    text = (f'rulebook "T {separator} x"\nextends "{CLASSIC}"\n\n'
            'rule r:\n  cite "x", "y"\n  when a player passes "Nowhere": collect $1\n')
    (tmp_path / "s.rules").write_text(text, encoding="utf-8")
    out = _run(["check", str(tmp_path / "s.rules")]).output
    assert ':6:' in out and '  6 |   when a player passes "Nowhere": collect $1' in out, out
    assert not _raw(out)


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\x0b"])
def test_separator_outside_a_string_is_an_error_on_its_line(tmp_path, separator):
    """Outside double quotes such a character is E001, reported on the line it is on."""
    text = f'rulebook "T"\nextends "{CLASSIC}"\nset jail_fine = $50 {separator}\n'
    (tmp_path / "s.rules").write_text(text, encoding="utf-8")
    out = _run(["check", str(tmp_path / "s.rules")]).output
    assert "s.rules:3:" in out and "error[E001]" in out and not _raw(out), out


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_a_lone_carriage_return_hides_nothing(tmp_path, ending):
    """A `set` after a lone CR in a comment (one line to an editor, grep and wc) does not
    take effect: the CR is E001 on that line, shown escaped, with the line as the editor
    shows it under it."""
    text = ending.join(['rulebook "T"', f'extends "{CLASSIC}"', "# a friendly comment\r"
                        "set starting_cash = $1", "set jail_fine = $60", ""])
    (tmp_path / "cr.rules").write_bytes(text.encode("utf-8"))
    out = _run(["check", str(tmp_path / "cr.rules")]).output
    assert "cr.rules:3:21: error[E001]" in out and "\\x0d" in out, out
    assert "  3 | # a friendly comment\\x0dset starting_cash = $1\n" in out, out
    assert "\r" not in out and not _raw(out)


def _hostile_game(tmp_path: Path) -> Path:
    name = HOSTILE["ESC"] + HOSTILE["bidi"] + HOSTILE["CSI (C1)"] + HOSTILE["line separator"]
    path = tmp_path / "game.rules"
    path.write_text(f'rulebook "{name}"\nextends "{CLASSIC}"\nrename space "Boardwalk" to '
                    f'"{name}"\n', encoding="utf-8")
    return path


def test_run_writes_no_escape_sequences(tmp_path):
    """`run`'s text and JSON output, its event log and its save hold no raw hostile character."""
    path = _hostile_game(tmp_path)
    log, save = tmp_path / "game.jsonl", tmp_path / "game.save"
    text = _run(["run", str(path), "--players", "3", "--seed", "1", "--max-turns", "200",
                 "--log", str(log)])
    assert text.exit_code == 0, text.output
    assert "\\x1b" in text.output and not _raw(text.output), repr(text.output)
    assert not _raw(log.read_text(encoding="utf-8"))
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert HOSTILE["ESC"] in events[0]["rulebook"]  # the same value, escaped in the file
    as_json = _run(["run", str(path), "--players", "3", "--max-turns", "50", "--json"])
    assert not _raw(as_json.output) and HOSTILE["ESC"] in json.loads(as_json.output)["ruleset"]
    batch = _run(["run", str(path), "--players", "3", "--max-turns", "50", "--games", "2"])
    assert batch.exit_code == 0 and not _raw(batch.output)
    saved = _run(["run", str(path), "--players", "3", "--save-at", "3", "--save", str(save)])
    assert saved.exit_code == 0 and not _raw(saved.output)
    assert not _raw(save.read_text(encoding="utf-8"))
    resumed = _run(["resume", str(save)])
    assert resumed.exit_code == 0 and not _raw(resumed.output)


def test_run_shows_diagnostics_escaped(tmp_path):
    """A rulebook with errors: `run` prints its diagnostics escaped too."""
    path = tmp_path / "bad.rules"
    path.write_text(f'rulebook "T"\nextends "{CLASSIC}"\nrule r:\n  cite "x", "y"\n'
                    f'  when a player passes "\x1b[2J": collect $1\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path)])
    assert result.exit_code == 1 and "E104" in result.stderr
    assert not _raw(result.stderr + result.stdout)
