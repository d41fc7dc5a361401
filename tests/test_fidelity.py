"""docs/fidelity.md is true to the code: every place it cites is in its seed text, every rule
and declaration it names is in force in its ruleset, every test it names exists.

A row is `| section | statement | rules | tests |`.

section, one of:
- a heading of the seed text: it appears in the seed once accents, case and everything that
  is not a letter or a digit are removed;
- `"a quoted phrase"`, for a statement under no heading (a cover, a caption, a back page, a
  paragraph whose heading was lost in extraction): at most 12 words, found verbatim in the
  seed (runs of white space and markdown emphasis `*` aside);
- `NNN › heading`, for a statement on pages lost from the seed's text: the heading of its twin
  seed NNN that gives those pages (TWINS; shared/seeds/README.md: "compare it with its French
  twin").

rules, one of:
- `ruleset.rules`, `ruleset.rules with OPTION`, either followed by ` → item, item`: the ruleset
  loads (with the option switched on); an item is the name of a rule in force, optionally
  followed by ` (board)` (its amounts are the board's) or ` (decision)`, or a declaration in
  force in the compiled rulebook: `currency "X"`, `house "X"`, `hotel "X"` (the buildings'
  names), `space "X"`, `group "X"`, `deck "X"`, `die "X"`, `face "X"`, `token "X"`,
  `side "X"`, `character "X"`, `extends "X.rules"` (its board and rules are inherited);
- text beginning `the engine`, for what the engine does with no rule (the bank's account).

tests: one or more `test_file.py::test_function`, separated by `, `; each function exists.
"""

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
SEED_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
# Each `## ` section of the document with the rows its table holds at least: a statement
# removed from a table fails here (raise the count when rows are added).
SECTIONS = {
    "004_123fb5734ffa9d0f.txt — Monopoly, Canadian rules (1961)": 63,
    "003_cf5f0e5cf17a0285.txt — Monopoly Dinosaures !": 49,
    "000_f0eb6d046e265a62.txt — Le Seigneur des Anneaux (French): the standard rules": 51,
    "002_a6a1695109225a9e.txt — Star Wars Épisode II (French): the standard rules": 48,
    "001_bd79da9b55a59a3a.txt — The Lord of the Rings Trilogy Edition (English, 2003)": 69,
    "000_f0eb6d046e265a62.txt — Le Seigneur des Anneaux, Édition Trilogie (LOTR parts)": 24,
    "002_a6a1695109225a9e.txt — Monopoly Star Wars Épisode II (edition parts)": 27,
}
# A seed whose text lost pages, and the seed that gives them.
TWINS = {"001_bd79da9b55a59a3a.txt": "000_f0eb6d046e265a62.txt"}
QUOTE_WORDS = 12
ITEM = re.compile(r'(\w+) "([^"]+)"$|(\w+)(?: \((?:board|decision)\))?$')
RULES_CELL = re.compile(r"([\w/]+\.rules)(?: with (\w+))?(?: → (.+))?$")


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text.lower() if c.isalnum())


def _verbatim(text: str) -> str:
    return " ".join(text.replace("*", "").split())


def _rows():
    section = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:]
        m = ROW.match(line)
        if m:
            yield section, m.groups()


ROWS = list(_rows())


def _seed_of(section: str) -> str:
    m = SEED_FILE.match(section or "")
    assert m, f"a table under '## {section}', which names no seed file"
    return m.group(0)


@cache
def _seed_text(seed: str) -> str:
    return (SEEDS / seed).read_text(encoding="utf-8")


@cache
def _rulebook(ruleset: str, option: str | None):
    return rulelang.load(str(RULESETS / ruleset), (option,) if option else ())


@cache
def _tests(name: str) -> set[str]:
    return set(re.findall(r"^def (test_\w+)", (ROOT / "tests" / name).read_text(), re.M))


def _declared(rb, kind: str, name: str) -> bool:
    """Whether the compiled rulebook holds that declaration."""
    names = {
        "currency": [rb.currency],
        "house": rb.building_names[:1],
        "hotel": rb.building_names[1:],
        "space": [s.name for s in rb.spaces],
        "group": rb.group_names,
        "deck": [d.name for d in rb.decks],
        "die": rb.die_names,
        "face": [face for _, _, face in rb.face_names],
        "token": [t.name for t in rb.tokens],
        "side": rb.sides,
        "character": [c for c, _ in rb.characters],
        "extends": [Path(f).name for f in rb.files[1:]],
    }
    assert kind in names, f"no declaration '{kind}'"
    return name in names[kind]


def _check_section(seed: str, section: str) -> None:
    if section.startswith('"'):
        assert section.endswith('"') and len(section) > 2, section
        phrase = section[1:-1]
        assert len(phrase.split()) <= QUOTE_WORDS, f"a quote of more than {QUOTE_WORDS} words"
        assert _verbatim(phrase) in _verbatim(_seed_text(seed)), section
        return
    twin, sep, heading = section.partition(" › ")
    if sep:
        assert TWINS.get(seed, "").startswith(twin + "_"), f"{twin} is not the twin of {seed}"
        seed, section = TWINS[seed], heading
    assert _plain(section) in _plain(_seed_text(seed)), section


def _check_rules(where: str) -> None:
    if where.startswith("the engine"):
        return
    m = RULES_CELL.match(where)
    assert m, f"'{where}' is not `ruleset.rules [with option] [→ items]`"
    ruleset, option, items = m.groups()
    rb = _rulebook(ruleset, option)
    for item in re.split(r', (?=(?:[^"]*"[^"]*")*[^"]*$)', items or ""):
        if not item:
            continue
        im = ITEM.match(item)
        assert im, f"'{item}' is neither a rule nor a declaration"
        kind, name, rule = im.groups()
        if rule:
            assert rule in rb.rule_names, (ruleset, option, rule)
        else:
            assert _declared(rb, kind, name), (ruleset, option, item)


def test_each_section_has_its_table():
    """Every seed section of the document is known, and none has fewer rows than it had."""
    counts: dict[str, int] = {}
    for section, _ in ROWS:
        counts[section] = counts.get(section, 0) + 1
    assert set(counts) == set(SECTIONS)
    for section, least in SECTIONS.items():
        assert counts[section] >= least, (section, counts[section], least)


@pytest.mark.parametrize("section, row", ROWS, ids=[f"{s[:3]}-{r[0]}" for s, r in ROWS])
def test_row_points_at_real_places(section, row):
    """The place is in the seed; the rules and declarations are in force; the tests exist."""
    seed = _seed_of(section)
    cited, _statement, where, tests = row
    if SEEDS.exists():
        _check_section(seed, cited)
    _check_rules(where)
    for test in tests.split(", "):
        file, sep, function = test.partition("::")
        assert sep and file.startswith("test_") and file.endswith(".py"), test
        assert function in _tests(file), test
