"""The deliberate bugs of `python -m tests.mutate` still apply to the source as it is now, and
the fidelity bugs still match the rows of docs/fidelity.md they break."""

from __future__ import annotations

from collections import Counter

import pytest

from mutate import (AUDIT_COMMIT, AUDIT_LEAST, AUDIT_SEED, AUDIT_SIZE, BUGS, FIDELITY_BUGS,
                    audit_document, draw, fidelity_rows, main, occurrences, row_key)

EVERY = (*BUGS, *FIDELITY_BUGS)


@pytest.mark.parametrize("bug", EVERY, ids=[b.name for b in EVERY])
def test_each_bug_still_applies(bug):
    """The bug's snippet appears exactly once in its file, so planting it changes the code."""
    assert bug.old != bug.new
    assert occurrences(bug) == 1, f"{bug.name}: the code moved; update tests/mutate.py"


def test_bug_names_are_unique():
    """`python -m tests.mutate NAME` finds one bug."""
    assert len({b.name for b in EVERY}) == len(EVERY)


def test_at_least_the_five_required_bugs():
    """Salary from nowhere, rent not doubled, uneven building, bankruptcy and mortgages, a lost
    card: the bugs docs/testing.md promises are all there."""
    names = {b.name for b in BUGS}
    assert {"salary_from_nowhere", "rent_not_doubled", "uneven_building",
            "bankruptcy_keeps_mortgages", "card_lost"} <= names


@pytest.mark.parametrize("bug", FIDELITY_BUGS, ids=[b.name for b in FIDELITY_BUGS])
def test_each_fidelity_bug_runs_its_rows_tests(bug):
    """The row the bug breaks is still in docs/fidelity.md, and the bug runs exactly the tests
    that row cites (a row citing a better test moves its bug along)."""
    cited = {row_key(section, row): tuple(row[3].split(", ")) for section, row in fidelity_rows()}
    assert bug.row in cited, f"{bug.name}: no row '{bug.row}' in docs/fidelity.md"
    assert bug.tests == cited[bug.row], f"{bug.name}: the row cites {cited[bug.row]}"


def test_the_audit_draw_has_a_bug_for_each_row():
    """The draw of the audit's seed from docs/fidelity.md as it was then: AUDIT_SIZE rows, at
    least AUDIT_LEAST from each section, every one broken by a fidelity bug."""
    keys = [row_key(section, row) for section, row in fidelity_rows()]
    assert len(set(keys)) == len(keys)  # a bug's `row` names one row
    text = audit_document()
    if text is None:
        pytest.skip(f"no git history: docs/fidelity.md at {AUDIT_COMMIT} is not at hand")
    drawn = draw(AUDIT_SEED, text)
    assert drawn == draw(AUDIT_SEED, text) and len(drawn) == AUDIT_SIZE
    sections = Counter(section for section, _ in drawn)
    assert len(sections) == 7 and min(sections.values()) >= AUDIT_LEAST
    broken = Counter(b.row for b in FIDELITY_BUGS)
    for section, row in drawn:
        assert broken[row_key(section, row)] >= 1, row_key(section, row)


@pytest.mark.slow
def test_every_bug_is_caught():
    """The whole mutation run: the suite fails on every deliberate bug (minutes; --runslow)."""
    assert main([]) == 0


@pytest.mark.slow
def test_every_fidelity_bug_is_caught():
    """Each fidelity bug makes a test its row cites fail (about two minutes; --runslow)."""
    assert main(["--fidelity"]) == 0
