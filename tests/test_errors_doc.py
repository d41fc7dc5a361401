"""docs/errors.md, the code registry and the test data agree; every example fails as it says."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from clirun import in_process
from rulelang.check import check_path
from rulelang.diagnostics import CODES
from rulelang.explain import explanation, sections
from rulelang_cli.main import main

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "errors.md"
SECTIONS = sections(PAGE.read_text(encoding="utf-8"))
BLOCK = re.compile(r"^```(rules|sh)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
ANNOTATION = re.compile(r"#\s*E:\s*(.+)$")
# Codes that no rules snippet can show: bytes that are not UTF-8, command-line options, a
# file that is a pipe or too large. Their examples are shell commands, run as written.
COMMAND_LINE_ONLY = {"E011", "E017", "E406", "E418", "E420", "E421"}
# Codes without an annotated case in tests/data/check: a file over 16 MiB is not committed
# (tests/test_files.py makes one).
NOT_ANNOTATED = {"E421"}
# Codes kept with their meaning that nothing reports any more: a section without an example.
RETIRED = {"E203"}
SNIPPET_HEAD = 'rulebook "Example"\nextends "classic_1961.rules"\n\n'


def _annotated_codes() -> set[str]:
    codes = set()
    for path in (ROOT / "tests" / "data" / "check").glob("*.rules"):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            m = ANNOTATION.search(line)
            if m:
                codes |= set(re.findall(r"[EW]\d{3}", m.group(1)))
    return codes


def test_registry_docs_and_test_data_list_the_same_codes():
    """CODES, the sections of docs/errors.md and the annotated rulebooks name the same codes."""
    assert list(SECTIONS) == list(CODES)
    assert _annotated_codes() | NOT_ANNOTATED | RETIRED == set(CODES)
    assert not _annotated_codes() & (NOT_ANNOTATED | RETIRED)


def test_the_package_ships_the_page():
    """`rulelang explain` reads the same page as docs/errors.md."""
    assert sections() == SECTIONS


@pytest.mark.parametrize("code", list(CODES))
def test_section_has_meaning_example_and_fix(code):
    """Each section has a title, a meaning, a failing example and how to fix it."""
    section = SECTIONS[code]
    title = section.splitlines()[0]
    assert title == f"## {code}: {CODES[code]}"
    assert "**How to fix it:**" in section
    kinds = {kind for kind, _ in BLOCK.findall(section)}
    assert kinds == (set() if code in RETIRED else {"sh"} if code in COMMAND_LINE_ONLY
                     else {"rules"})


def _is_whole_file(block: str) -> bool:
    return any(line.startswith(("rulebook", "extends")) for line in block.splitlines())


@pytest.mark.parametrize("code", [c for c in CODES if c not in COMMAND_LINE_ONLY | RETIRED])
def test_examples_fail_with_their_code(code, tmp_path):
    """Every rules example of a section, checked, reports that section's code."""
    for f in (ROOT / "rulesets").glob("*.rules"):
        shutil.copy(f, tmp_path / f.name)
    for kind, block in BLOCK.findall(SECTIONS[code]):
        path = tmp_path / "example.rules"
        path.write_text(block if _is_whole_file(block) else SNIPPET_HEAD + block,
                        encoding="utf-8")
        _, diags = check_path(str(path))
        assert code in {d.code for d in diags}, [f"{d.code} {d.message}" for d in diags]


@pytest.mark.parametrize("code", sorted(COMMAND_LINE_ONLY))
def test_shell_examples_fail_with_their_code(code, tmp_path):
    """Every shell example, run in a copy of the project's rulesets, prints its code."""
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    blocks = [block for kind, block in BLOCK.findall(SECTIONS[code]) if kind == "sh"]
    assert blocks
    for block in blocks:
        result = _shell(block, tmp_path, env)
        assert result.returncode != 0 and code in result.stdout + result.stderr, result


def _shell(block: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """A shell example run by bash, but for a last command that is a plain `rulelang ...`
    (no pipe, no redirection): that one in this process (tests/clirun.py), after the rest."""
    *before, last = block.strip().splitlines()
    if " && rulelang " in last:
        first, last = last.rsplit(" && ", 1)
        before.append(first)
    plain = re.sub(r"'[^']*'", "", last)  # what single quotes hold, the shell leaves alone
    if not last.startswith("rulelang ") or any(c in plain for c in "|<>;&`$(*?\\\"~"):
        return subprocess.run(["bash", "-c", block], cwd=cwd, env=env, capture_output=True,
                              text=True, check=False)
    if before:
        subprocess.run(["bash", "-ec", "\n".join(before)], cwd=cwd, env=env, check=True)
    return in_process(*shlex.split(last)[1:], cwd=cwd)


@pytest.mark.parametrize("code", list(CODES))
def test_an_explanation_ends_before_the_next_heading(code):
    """A section ends at the next `## ` heading, a code's or a category's (`## Names`)."""
    lines = explanation(code).splitlines()
    assert lines[0].startswith(f"## {code}:")
    assert not [line for line in lines[1:] if line.startswith("## ")], lines[-3:]


def test_explain_prints_the_section():
    """`rulelang explain e104` prints the E104 section; an unknown code is a usage error."""
    runner = CliRunner()
    result = runner.invoke(main, ["explain", "e104"])
    assert result.exit_code == 0 and result.output.strip() == explanation("E104")
    assert "**How to fix it:**" in result.output
    bad = runner.invoke(main, ["explain", "E999"])
    assert bad.exit_code == 2 and "there is no code 'E999'" in bad.output
