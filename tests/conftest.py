"""Test session settings: the hypothesis profiles, --runslow, the project's bytecode, and the
invariant tally."""

from __future__ import annotations

import compileall
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

# "ci" (the default) keeps the whole suite within a few minutes on a small machine;
# "long" plays many more games per ruleset: pytest --hypothesis-profile=long (docs/testing.md).
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("ci", max_examples=12, stateful_step_count=40, deadline=None,
                          suppress_health_check=_QUIET, print_blob=True)
settings.register_profile("long", max_examples=500, stateful_step_count=80, deadline=None,
                          suppress_health_check=_QUIET, print_blob=True)
# "mutate": the ci profile without shrinking, for `python -m tests.mutate`, which only needs
# to see each deliberate bug fail a test, not the smallest example of it.
settings.register_profile("mutate", settings.get_profile("ci"),
                          phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", help="run the tests marked slow")


def pytest_configure(config):
    """The project's bytecode compiled once, before any worker starts: every `rulelang` the
    tests start in a child process would otherwise compile the package again where
    PYTHONDONTWRITEBYTECODE is set (about 0.08 s of each start). Only stale files are
    compiled; a tree that cannot be written is left as it is."""
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller did it
        return
    root = Path(__file__).resolve().parent.parent
    for package in (root / "rulelang", root / "cli" / "rulelang_cli"):
        compileall.compile_dir(package, quiet=2)


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter):
    """The hypothesis profile the run used; the games and events checked per ruleset, when
    the invariant tests ran in this process."""
    from invariants import TALLY

    profile = settings.get_current_profile_name()
    terminalreporter.write_line(f"hypothesis profile: {profile}")
    rulesets = sorted({r for r, _ in TALLY})
    if not rulesets:
        return
    terminalreporter.write_sep("-", f"invariants checked after every event ({profile} profile)")
    for r in rulesets:
        reasons = ", ".join(f"{k} {v}" for (rr, k), v in sorted(TALLY.items())
                            if rr == r and k not in ("games", "events"))
        terminalreporter.write_line(f"{r}: {TALLY[r, 'games']} games, "
                                    f"{TALLY[r, 'events']} events ({reasons})")
