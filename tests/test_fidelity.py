"""docs/fidelity.md is true to the code: every section it cites is in its seed text, every
rule it names is in force in its ruleset, every test it names exists."""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

import pytest

import rulelang
from scenario import RULESETS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "fidelity.md"
SEEDS = ROOT.parent / "shared" / "seeds"
ROW = re.compile(r"^\| (?!section \|)(?!---)(.+?) \| (.+?) \| (.+?) \| (.+?) \|$")
OURS = ("004_123fb5734ffa9d0f.txt", "003_cf5f0e5cf17a0285.txt", "000_f0eb6d046e265a62.txt",
        "002_a6a1695109225a9e.txt")


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text.lower() if c.isalnum())


def _rows():
    seed = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            seed = line[3:].split(" ")[0]
        m = ROW.match(line)
        if m:
            yield seed, m.groups()


ROWS = list(_rows())


@cache
def _rules(ruleset: str) -> set[str]:
    return set(rulelang.load(str(RULESETS / ruleset)).rule_names)


@cache
def _tests(name: str) -> set[str]:
    return set(re.findall(r"^def (test_\w+)", (ROOT / "tests" / name).read_text(), re.M))


def test_each_of_our_seeds_has_its_section_and_rows():
    """One `## ` section per seed, with its table; a placeholder for the themed editions."""
    seeds = [seed for seed, _ in ROWS]
    for seed in OURS:
        assert seeds.count(seed) >= 40, seed
    assert "## 001_bd79da9b55a59a3a.txt" in DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("seed, row", ROWS, ids=lambda x: x if isinstance(x, str) else x[0])
def test_row_points_at_real_places(seed, row):
    """The section is in the seed; the ruleset's rules are in force; the test exists."""
    section, _statement, where, test = row
    if SEEDS.exists():
        assert _plain(section) in _plain((SEEDS / seed).read_text(encoding="utf-8")), section
    m = re.match(r"([\w/]+\.rules)(?: → (.+))?", where)
    if m:
        ruleset, names = m.groups()
        for name in re.sub(r" \((board|decision)\)", "", names or "").split(", "):
            if name and name != "(renames)":
                assert name in _rules(ruleset), (ruleset, name)
    file, _, function = test.partition("::")
    assert function in _tests(file), test
