"""The deliberate bugs of `python -m tests.mutate` still apply to the source as it is now."""

from __future__ import annotations

import pytest

from mutate import BUGS, main, occurrences


@pytest.mark.parametrize("bug", BUGS, ids=[b.name for b in BUGS])
def test_each_bug_still_applies(bug):
    """The bug's snippet appears exactly once in its file, so planting it changes the code."""
    assert bug.old != bug.new
    assert occurrences(bug) == 1, f"{bug.name}: the code moved; update tests/mutate.py"


def test_at_least_the_five_required_bugs():
    """Salary from nowhere, rent not doubled, uneven building, bankruptcy and mortgages, a lost
    card: the bugs docs/testing.md promises are all there."""
    names = {b.name for b in BUGS}
    assert {"salary_from_nowhere", "rent_not_doubled", "uneven_building",
            "bankruptcy_keeps_mortgages", "card_lost"} <= names


@pytest.mark.slow
def test_every_bug_is_caught():
    """The whole mutation run: the suite fails on every deliberate bug (minutes; --runslow)."""
    assert main([]) == 0
