"""The formatter: one canonical layout, idempotent, every comment kept, and never a change of
what a rulebook means (the same resolved rulebook) on generated and on every real rulebook."""

from __future__ import annotations

import os
import random
import re
import shutil
import stat
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulelang import parse
from rulelang.diagnostics import RuleError, RuleErrors
from rulelang.fmt import format_text, meaning
from rulelang.parse import parse_text
from rulelang.resolve import resolve
from rulelang_cli.fmt_cmd import fmt
from strategies import ci_examples, rulebooks

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").rglob("*.rules"))
IDS = [str(p.relative_to(ROOT / "rulesets")) for p in RULESETS]


def comments(text: str) -> list[str]:
    """The comments of a rules file, in order, read from its lines (a `#` inside a quoted
    name is none), without their trailing blanks."""
    out = []
    for line in parse.normalize(text).split("\n"):
        quoted = False
        for i, char in enumerate(line):
            if char == '"':
                quoted = not quoted
            elif char == "#" and not quoted:
                out.append(line[i:].rstrip(" \t"))
                break
    return out


def mess(text: str, rnd: random.Random) -> str:
    """The text of a rulebook indented by two spaces per level, laid out otherwise: another
    indentation (spaces or tabs), spaces, tabs or nothing between words where the lexer allows
    it, comments and blank lines kept at their places (blank lines perhaps doubled), blanks
    at the start and the end, perhaps CRLF line ends and a byte-order mark."""
    text = parse.normalize(text)
    unit = rnd.choice([" ", "   ", "    ", "\t", "        "])
    out: list[str] = ["\n" * rnd.randint(0, 2)]
    depth, end, previous = 0, 0, None
    for token in parse.tokens(text, "t.rules"):
        if token.kind == "_INDENT":
            depth += 1
        elif token.kind == "_DEDENT":
            depth -= 1
        elif token.kind not in ("_NL",):
            gap = text[end:token.start]
            if previous is None or "\n" in gap:
                out.append(_lines_between(gap, unit, depth, rnd, previous is None))
            else:
                out.append(_spacing(previous, token, rnd))
            out.append(token.text if token.kind != "_ELSE"
                       else "," + rnd.choice(["", " ", "\t ", "   "]) + "else")
            previous, end = token, token.end
    out.append(_lines_between(text[end:], unit, 0, rnd, False))
    out.append("\n" * rnd.randint(0, 2))
    result = "".join(out)
    if rnd.random() < 0.2:
        result = result.replace("\n", "\r\n")
    return ("\ufeff" if rnd.random() < 0.1 else "") + result


_PUNCTUATION = {",", ":", ";", "(", ")", ".."}


def _spacing(left, right, rnd: random.Random) -> str:
    """Blanks between two tokens of a line: none only where one of them is punctuation."""
    loose = right.kind == "_POSS" or any(
        t.kind != "STRING" and t.text in _PUNCTUATION for t in (left, right))
    return rnd.choice(["", " ", "  ", "\t"] if loose else [" ", "  ", "\t", " \t "])


def _lines_between(gap: str, unit: str, depth: int, rnd: random.Random, first: bool) -> str:
    """The line breaks of a gap (the file's start if `first`), its comments and blank lines
    kept, then the indentation of the next statement at `depth`."""
    parts = gap.split("\n")
    lines = []
    if not first:
        head, parts = parts[0], parts[1:]
        lines.append(rnd.choice([" ", "   ", "\t"]) + head.lstrip(" \t") if "#" in head
                     else rnd.choice(["", " ", "\t"]))
    for part in parts[:-1]:
        if "#" in part:
            column = len(part) - len(part.lstrip(" "))
            lines.append(unit * (column // 2) + part.lstrip(" ") + rnd.choice(["", " ", "\t"]))
        else:
            lines.extend(["  "] * (1 + (rnd.random() < 0.3)))
    return "\n".join([*lines, unit * depth])


def outcome(text: str, folder: str, name: str = "g.rules"):
    """What a rulebook's text resolves to, written as `name` in `folder` (beside the files
    it extends): the resolved program's meaning, or its errors without their positions."""
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    try:
        return meaning(resolve(path))
    except (RuleError, RuleErrors) as e:
        return [(d.code, d.message) for d in e.diagnostics]


# ---------------------------------------------------------------- the rulebooks of rulesets/


@pytest.mark.parametrize("path", RULESETS, ids=IDS)
def test_ruleset_is_formatted(path):
    """Every rulebook of rulesets/ is in the canonical layout (`rulelang fmt --check`)."""
    text = path.read_text(encoding="utf-8")
    assert format_text(text, str(path)) == text


@pytest.fixture(scope="module")
def tree():
    """A copy of rulesets/ to write laid-out rulebooks into, beside the files they extend,
    and what each rulebook of it resolves to."""
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(ROOT / "rulesets", folder, dirs_exist_ok=True)
        yield folder, {}


@pytest.mark.parametrize("path", RULESETS, ids=IDS)
@ci_examples(6)
@given(seed=st.integers(0, 2**32 - 1))
def test_ruleset_laid_out_otherwise(tree, path, seed):
    """A real rulebook laid out otherwise formats back to itself, comments and all; the
    messy text means what the original means (the same resolved rulebook), so formatting
    it changed nothing of its meaning."""
    folder, resolved = tree
    text = path.read_text(encoding="utf-8")
    name = str(path.relative_to(ROOT / "rulesets"))
    if name not in resolved:
        resolved[name] = outcome(text, folder, name)
    messy = mess(text, random.Random(seed))
    assert comments(messy) == comments(text)
    try:
        assert outcome(messy, folder, name) == resolved[name]
    finally:
        (Path(folder) / name).write_text(text, encoding="utf-8")
    assert format_text(messy, str(path)) == text


# ---------------------------------------------------------------- generated rulebooks


@given(rulebooks(), st.integers(0, 2**32 - 1))
def test_generated_rulebook_keeps_its_meaning(text, seed):
    """A generated rulebook in any layout formats to one text, the same as its own
    formatting, idempotently, with its comments in order, resolving to the same rulebook
    (or the same errors)."""
    messy = mess(text, random.Random(seed))
    formatted = format_text(messy, "g.rules")
    assert formatted == format_text(text, "g.rules")
    assert format_text(formatted, "g.rules") == formatted
    assert comments(formatted) == comments(text)
    assert meaning(parse_text(formatted, "g.rules")) == meaning(parse_text(messy, "g.rules"))
    with tempfile.TemporaryDirectory() as folder:
        assert outcome(formatted, folder) == outcome(messy, folder)


# ---------------------------------------------------------------- the layout


MESSY = '''

# top comment
rulebook   "Messy"    # title comment
extends "classic_1961.rules"
# about the dice
die "a" faces 1 .. 6 ,face 1 named "Star"
rule one :
\tcite "x" , "y"

    # inside
\twhen a player rolls if ( the first die is 1 and not(the second die is 1) ): collect $500 ,pay $5
\t  # deeper comment
rule two:
  when a player lands on "GO" : the player chooses one : nothing ; pay $200 ,  advance to a property of the player 's choice
    # trailing deep
  when a player lands on "Chance": advance to the next railroad,else collect $5



option o "T":
    rule three:
        set jail_fine = $50   \n        # end of three
    # end of option body
# top level after option
set houses = 30
board:
  "A": go
  "Longer name": plain  # c
'''

FORMATTED = '''# top comment
rulebook "Messy"  # title comment
extends "classic_1961.rules"

# about the dice
die "a" faces 1..6, face 1 named "Star"

rule one:
  cite "x", "y"

  # inside
  when a player rolls if (the first die is 1 and not (the second die is 1)): collect $500, pay $5
  # deeper comment

rule two:
  when a player lands on "GO": the player chooses one: nothing; pay $200, advance to a property of the player's choice
  # trailing deep
  when a player lands on "Chance": advance to the next railroad, else collect $5

option o "T":
  rule three:
    set jail_fine = $50
    # end of three
  # end of option body

# top level after option
set houses = 30

board:
  "A":           go
  "Longer name": plain  # c
'''


def test_layout():
    """The canonical layout: indentation, spacing, blank lines, comments where they were."""
    assert format_text(MESSY, "m.rules") == FORMATTED
    assert format_text(FORMATTED, "m.rules") == FORMATTED


def test_comment_depth_follows_its_column():
    """A comment where blocks close belongs to the deepest block it is not left of."""
    text = ('rulebook "T"\n\noption o:\n  rule r:\n    set houses = 3\n'
            "      # of r\n   # of o\n # top level\nset hotels = 1\n")
    assert format_text(text, "t.rules") == (
        'rulebook "T"\n\noption o:\n  rule r:\n    set houses = 3\n'
        "    # of r\n  # of o\n\n# top level\nset hotels = 1\n")


def test_blank_lines():
    """One blank line after the header and around blocks; none after an opener nor at the
    ends; runs become one; the author's other blank lines stay."""
    text = ('\n\nrulebook "T"\nset houses = 3\n\n\n\nset hotels = 1\nset players = 2 to 4\n'
            "rule r:\n\n  set houses = 3\n\n  set hotels = 2\nrule s:\n  set houses = 1\n\n\n")
    assert format_text(text, "t.rules") == (
        'rulebook "T"\n\nset houses = 3\n\nset hotels = 1\nset players = 2 to 4\n\n'
        "rule r:\n  set houses = 3\n\n  set hotels = 2\n\nrule s:\n  set houses = 1\n")


def test_docs_examples():
    """docs/formatting.md shows its examples in pairs: as written, then as formatted."""
    text = (ROOT / "docs" / "formatting.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```rules[ \t]*\n(.*?)^```[ \t]*$", text, re.S | re.M)
    assert len(blocks) >= 4 and len(blocks) % 2 == 0
    for written, formatted in zip(blocks[::2], blocks[1::2]):
        header = "" if written.startswith("rulebook") else 'rulebook "T"\n\n'
        assert format_text(header + written, "docs") == header + formatted


def test_unparseable_text_is_refused():
    """A text that does not parse gets the parser's diagnostics, and no layout."""
    with pytest.raises(RuleError) as e:
        format_text('rulebook "T"\nrule r\n  set houses = 3\n', "t.rules")
    assert e.value.diagnostic.code == "E005"


def test_meaning_sees_a_change():
    """`meaning` differs when a value or a word differs, not when spans or spacing do."""
    a = parse_text('rulebook "T"\nset houses = 3\n', "t.rules")
    b = parse_text('\n\nrulebook   "T"\n\nset   houses =  3\n', "t.rules")
    c = parse_text('rulebook "T"\nset houses = 4\n', "t.rules")
    assert meaning(a) == meaning(b)
    assert meaning(a) != meaning(c)


# ---------------------------------------------------------------- the command


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_cli_rewrites_in_place(tmp_path):
    """Without flags, a file that changes is replaced (its permissions kept), one that does
    not is left alone, and the command says which."""
    messy = _write(tmp_path, "messy.rules", MESSY)
    messy.chmod(0o640)
    clean = _write(tmp_path, "clean.rules", FORMATTED)
    before = clean.stat().st_mtime_ns
    result = CliRunner().invoke(fmt, [str(messy), str(clean)])
    assert result.exit_code == 0, result.output
    assert messy.read_text(encoding="utf-8") == FORMATTED
    assert stat.S_IMODE(messy.stat().st_mode) == 0o640
    assert clean.stat().st_mtime_ns == before
    assert f"formatted {messy}" in result.output
    assert "1 file reformatted, 1 unchanged" in result.output
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_cli_check_and_diff(tmp_path):
    """--check lists the files that would change and exits 1; --diff shows a unified diff;
    neither changes a file."""
    messy = _write(tmp_path, "messy.rules", MESSY)
    clean = _write(tmp_path, "clean.rules", FORMATTED)
    result = CliRunner().invoke(fmt, ["--check", str(messy), str(clean)])
    assert result.exit_code == 1
    assert f"would reformat {messy}" in result.output
    assert f"would reformat {clean}" not in result.output
    assert CliRunner().invoke(fmt, ["--check", str(clean)]).exit_code == 0
    result = CliRunner().invoke(fmt, ["--diff", str(messy)])
    assert result.exit_code == 0
    assert f"+++ {messy} (formatted)" in result.output
    assert '\n-rulebook   "Messy"    # title comment\n' in result.output
    assert '\n+rulebook "Messy"  # title comment\n' in result.output
    assert messy.read_text(encoding="utf-8") == MESSY


def test_cli_leaves_a_broken_file(tmp_path):
    """A file that does not parse is not touched: its diagnostics, exit 1; the others are
    still formatted."""
    broken_text = 'rulebook "T"\nrule r\n   set houses = 3\n'
    broken = _write(tmp_path, "broken.rules", broken_text)
    messy = _write(tmp_path, "messy.rules", MESSY)
    result = CliRunner().invoke(fmt, [str(tmp_path)])
    assert result.exit_code == 1
    assert f"{broken}:2:7: error[E005]" in result.output
    assert broken.read_text(encoding="utf-8") == broken_text
    assert messy.read_text(encoding="utf-8") == FORMATTED
    assert "1 file reformatted, 0 unchanged, 1 not formatted" in result.output


def test_cli_usage(tmp_path):
    """A path that names nothing is a usage error (exit 2), as is '-' among files."""
    result = CliRunner().invoke(fmt, [str(tmp_path / "missing.rules")])
    assert result.exit_code == 2
    assert "no such file" in result.output
    assert CliRunner().invoke(fmt, ["-", str(tmp_path)]).exit_code == 2
    assert CliRunner().invoke(fmt, [str(tmp_path)]).exit_code == 2  # no .rules file in it


def test_cli_standard_input():
    """`rulelang fmt -` formats standard input to standard output."""
    result = CliRunner().invoke(fmt, ["-"], input=MESSY)
    assert result.exit_code == 0
    assert result.output == FORMATTED
    assert CliRunner().invoke(fmt, ["--check", "-"], input=MESSY).exit_code == 1


def test_cli_follows_a_link(tmp_path):
    """A link's target is rewritten and the link stays a link."""
    target = _write(tmp_path, "target.rules", MESSY)
    link = tmp_path / "link.rules"
    link.symlink_to(target)
    assert CliRunner().invoke(fmt, [str(link)]).exit_code == 0
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == FORMATTED
