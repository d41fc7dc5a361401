"""`rulelang explain` and the editor's hover send an installed user only to what the package
carries: the language reference's sections, the codes, the actions as written, the agents."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang import explain, hover, reference, vocab
from rulelang.diagnostics import CODES
from rulelang.engine.agents import AGENTS
from rulelang.navigate import KEYWORDS, Reference
from rulelang_cli.main import main

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
SECTIONS = reference.language_sections(PAGE)
# `rulelang explain X`, X quoted or one word: a pointer to what explain prints
POINTER = re.compile(r'rulelang explain ("[^"\n]+"|[^\s`,.)]+)')
# a Markdown link to a file of the documentation (a page an installed user lacks)
LOCAL_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:)[^)]*\)", re.I)


def _explain(*words: str):
    return CliRunner().invoke(main, ["explain", *words])


def _printed_texts() -> dict[str, str]:
    """What explain and hover print of every word that has a pointer to the reference."""
    texts = {f"structure {name}": str(text) for name, text in explain.STRUCTURE.items()}
    texts |= {f"setting {name}": explain.describe(spec) for name, spec in vocab.SETTINGS.items()}
    texts |= {f"primitive {p.name}": explain.describe(p) for p in vocab.PRIMITIVES}
    for word in KEYWORDS:
        texts[f"explain {word}"] = _explain(word).output
        texts[f"hover {word}"] = hover.hover(None, Reference("keyword", word, None))
    return texts


def test_explain_prints_a_section_of_the_language_reference():
    """`rulelang explain Choices` (any case, the heading whole or before its colon) prints that
    section of docs/language.md, as written when piped, and stops before the next heading."""
    result = _explain("choices")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == reference.readable(SECTIONS["Choices"][1], "language.md")
    assert result.output.startswith("### Choices\n")
    assert "### Moves by die" not in result.output
    for words in (["SETTINGS"], ["The", "header:", "`rulebook`", "and", "`extends`"],
                  ["the header"]):
        result = _explain(*words)
        assert result.exit_code == 0 and result.output.startswith("## "), (words, result.output)
    settings = _explain("Settings").output
    assert "## Settings" in settings and "## Extending a rulebook" not in settings


def test_a_second_level_section_holds_its_third_level_ones():
    """`explain Effects` prints the effects and the choices and moves under them."""
    text = reference.language_section("effects", PAGE)
    assert "### Choices" in text and "### Moves by die" in text and "## Permissions" not in text


def test_a_heading_in_an_example_is_no_section():
    """A `## ` line inside a fenced example is part of its section, not a heading."""
    page = "## A\n\n````rules\n## no heading\n```\n## still none\n````\ntext\n\n## B\nend\n"
    assert list(reference.language_sections(page)) == ["A", "B"]
    assert "## still none\n````\ntext" in reference.language_section("a", page)


def test_every_pointer_names_a_section_the_user_can_print():
    """Every `rulelang explain X` printed by explain or hover prints something, every section
    named exists in docs/language.md, and no text sends the user to docs/."""
    seen = set()
    for where, text in _printed_texts().items():
        assert "docs/" not in text and ".md" not in text, (where, text)
        seen |= {m.strip('"') for m in POINTER.findall(text) if not m.isupper()}  # not NAME
    named = {s for s in seen if reference.language_section(s, PAGE) is not None}
    assert {"Choices", "Permissions", "Conditions", "Settings", "The header", "Dice",
            "Moves by die and to the next space that qualifies"} <= named
    for words in sorted(seen):
        result = _explain(words)
        assert result.exit_code == 0, (words, result.output)


@pytest.mark.parametrize("section", sorted({section for _, _, section in KEYWORDS.values()}))
def test_each_keywords_section_is_a_heading(section):
    """The section a keyword's hover names is a heading of the page, by its name."""
    assert section in SECTIONS, section


def test_links_are_shown_as_text_or_as_the_command():
    """A link to a page the package lacks is its text; a link to a code or to a section of the
    reference is followed by the command that prints it, or is that command when its text is
    the page's file name; a web address stays a link."""
    text = ("see [the cookbook](cookbook.md), [y](errors.md#e104-unknown-space), "
            "[z](#e211-comparison-of-different-units), [Pots](#pots), "
            "[language.md](language.md#settings), [site](https://example.org/x)")
    assert reference.readable(text, "errors.md") == (
        "see the cookbook, y (`rulelang explain E104`), z (`rulelang explain E211`), Pots, "
        "`rulelang explain Settings`, [site](https://example.org/x)")
    assert reference.readable("[Pots](#pots) [the header](#the-header-rulebook-and-extends)",
                              "language.md") == (
        'Pots (`rulelang explain Pots`) the header (`rulelang explain "The header"`)')
    assert reference.readable("a\n<!-- vocab:event -->\nb\n", "language.md") == "a\nb\n"


def test_no_printed_section_links_a_file():
    """Every code's and every section's printed text holds no link to a local file: E002's
    cookbook is named, and the contents list the commands."""
    for code in CODES:
        result = _explain(code)
        assert not LOCAL_LINK.search(result.output), (code, LOCAL_LINK.search(result.output))
    for name in SECTIONS:
        result = _explain(name)
        assert result.exit_code == 0 and not LOCAL_LINK.search(result.output), name
    assert "(see the cookbook)" in _explain("E002").output
    assert "Dice (`rulelang explain Dice`)" in _explain("contents").output


@pytest.mark.parametrize("p", [p for p in vocab.PRIMITIVES if p.role == "action"],
                         ids=lambda p: p.name)
def test_an_action_is_shown_as_written(p):
    """`explain "may not build"` names the action by its words and shows it after `a player
    may not`, never by the declaration's internal name (`explain build` too, where no effect
    has those words)."""
    words = explain.action_words(p)
    result = _explain("may", "not", *words.split())
    assert result.exit_code == 0, result.output
    first = result.output.split("\n\n")[0]
    assert first.startswith(f"{words}: an action") and "may_" not in result.output.lower()
    assert all(f"a player may not {form}" in first for form in vocab.shown_forms(p))


def test_explain_build_is_the_action():
    """`rulelang explain build` prints the action of a permission, as a rule writes it."""
    result = _explain("build")
    assert result.output.startswith("build: an action") and "may_build" not in result.output
    assert "  a player may not build [a BUILDING]\n" in result.output


def test_a_near_miss_of_an_action_suggests_it_as_written():
    """A misspelt action is suggested as a rule writes it."""
    assert explain.suggestion("may_mortgag") == "did you mean 'a player may not mortgage'?"


@pytest.mark.parametrize("name", list(AGENTS))
def test_explain_describes_each_built_in_agent(name):
    """`rulelang explain own-turn` (any case) prints the agent's class documentation."""
    result = _explain(name.upper())
    assert result.exit_code == 0, result.output
    about = " ".join(AGENTS[name].about.split())
    assert about  # every built-in agent says what it does
    assert result.output.startswith(f"agent '{name}'")
    assert about in " ".join(result.output.split())


def test_the_usage_error_names_sections_and_agents():
    """What explain does not know is a usage error whose hint lists what it knows."""
    result = _explain("zzqx")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "agent" in result.output and "own-turn" in result.output
    assert "Contents" in result.output


def test_the_package_carries_the_language_reference():
    """rulelang/language.md is docs/language.md, and pyproject ships it with the package."""
    assert (ROOT / "rulelang" / "language.md").read_text(encoding="utf-8") == PAGE
    assert reference.language_sections() == SECTIONS
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = project["tool"]["setuptools"]["package-data"]["rulelang"]
    assert "language.md" in data and "errors.md" in data


@pytest.mark.slow
def test_a_built_wheel_holds_the_pages(tmp_path):
    """`pip wheel .` makes a wheel with the error index and the language reference (built
    from a copy of the sources: a build/ left in the tree would hold older files)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    for name in ("rulelang", "cli", "docs", "rulesets"):
        shutil.copytree(ROOT / name, tree / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(tree), "-w", str(tmp_path),
                    "--no-deps", "-q"], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("rulelang-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {"rulelang/errors.md", "rulelang/language.md"} <= set(names)


def test_the_permission_lists_every_declared_action():
    """`explain permission` names the actions as the vocabulary declares them, every one."""
    from rulelang import vocab

    text = " ".join(_explain("permission").output.split())
    actions = [p for p in vocab.PRIMITIVES if p.role == "action"]
    assert actions
    for p in actions:
        assert explain.action_words(p) in text, p.name
