"""docs/tutorial.md shows what the commands print: each of its ```text blocks that starts with
`$ rulelang ...` is run on the tutorial's file as it stands at that point of the page.

The file is the last whole-file ```rules block above the command; a line of a diagnostic
shown in the block (`  6 |   when ...`) is written at that line of the file first, which is
how the page shows a mistake. The lines shown, but for `...`, must appear in the output in
their order, spaces between words aside, a path to an installed rulebook shortened to
`…/rulesets/`.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang_cli.main import main

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w+)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
SOURCE_LINE = re.compile(r"^\s*(\d+) \| (.*)$")
FILE = "our_house.rules"


def _commands():
    """(line of the page, command, file text, the lines shown) for each command block."""
    text = PAGE.read_text(encoding="utf-8")
    current = None
    for m in FENCE.finditer(text):
        kind, body = m.group(1), m.group(2)
        if kind == "rules" and body.lstrip().startswith(("rulebook", "#")):
            current = body
        elif kind == "text" and body.startswith("$ rulelang "):
            first, *shown = body.splitlines()
            line = text.count("\n", 0, m.start()) + 1
            yield pytest.param(shlex.split(first[2:])[1:], current, shown, id=f"tutorial.md:{line}")


def _normal(line: str) -> str:
    return " ".join(re.sub(r"\S*/rulesets/", "…/rulesets/", line).split())


def _as_shown(source: str | None, shown: list[str]) -> str:
    """The file with the lines a diagnostic shows written in it."""
    lines = (source or "").splitlines()
    for line in shown:
        m = SOURCE_LINE.match(line)
        if m:
            lines[int(m.group(1)) - 1] = m.group(2)
    return "\n".join(lines) + "\n"


def _missing(output: str, shown: list[str]) -> list[str]:
    """The lines shown that the output lacks, or has out of order."""
    out = [_normal(line) for line in output.splitlines()]
    at, missing = 0, []
    for line in shown:
        want = _normal(line)
        if want in ("", "..."):
            continue
        try:
            at = out.index(want, at) + 1
        except ValueError:
            missing.append(line)
    return missing


COMMANDS = list(_commands())


def test_the_tutorial_shows_commands():
    """The page has its command blocks: check, the mistakes, run, show, stats and compare."""
    assert [p.values[0][0] for p in COMMANDS] == ["list", "check", "check", "run", "show",
                                                 "stats", "show", "compare"]


@pytest.mark.parametrize("args, source, shown", COMMANDS)
def test_the_tutorial_shows_what_the_command_prints(args, source, shown, tmp_path, monkeypatch):
    """The command, run on the file of that point of the page, prints the lines shown."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / FILE).write_text(_as_shown(source, shown), encoding="utf-8")
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert _missing(result.output, shown) == [], result.output


def test_the_tutorial_ends_with_a_clean_file(tmp_path, monkeypatch):
    """The last file of the tutorial checks with --strict and is laid out as `fmt` lays it."""
    monkeypatch.chdir(tmp_path)
    final = COMMANDS[-1].values[1]
    (tmp_path / FILE).write_text(final, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--strict", FILE])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["fmt", "--check", FILE])
    assert result.exit_code == 0, result.output
