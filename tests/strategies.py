"""Hypothesis strategies shared by the property tests: seeds, tables and agents for a ruleset."""

from __future__ import annotations

from hypothesis import strategies as st

from invariants import load

SEEDS = st.integers(0, 2**32 - 1)
AGENT_NAMES = ("default", "random")


def players(ruleset: str) -> st.SearchStrategy[int]:
    """A player count within the rulebook's range."""
    low, high = load(ruleset).settings.players
    return st.integers(low, high)


@st.composite
def tables(draw, ruleset: str, agents: str = "mixed"):
    """(seed, agent names one per seat) for a game of the ruleset.

    agents: "default" or "random" seats that agent everywhere; "mixed" draws each seat.
    """
    n = draw(players(ruleset))
    if agents == "mixed":
        names = draw(st.lists(st.sampled_from(AGENT_NAMES), min_size=n, max_size=n))
    else:
        names = [agents] * n
    return draw(SEEDS), names
