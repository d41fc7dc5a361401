"""The hostile corpus: rulebooks written to break the tools, each checked and played by the
command line under a time limit.

Every file under tests/data/hostile/ opens with comment lines that say what must happen:

    # expect: E419          the code `rulelang check` must report (several: `E018, E209`),
                            or `none` for a rulebook that checks without errors
    # end: roll_limit       (optional) the end reason `rulelang run` must report

For every file, whatever it says: `check` and `run` finish within the time limit, exit 0 or 1,
print no traceback, write no control or bidirectional character to the terminal, and never
show a byte of a file outside the repository (/etc/passwd, the process's environment). A file
that checks clean is also played (`--players 3 --max-turns 50 --seed 1 --log`): the log stays
small and holds no raw control character either.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from clirun import in_process

HOSTILE = Path(__file__).parent / "data" / "hostile"
CASES = sorted(HOSTILE.rglob("*.rules"))
TIME_LIMIT = 60  # seconds for one command; a case that hangs fails instead of stalling CI
CANARY = "rulelang-canary-6b1f2e"  # in the environment: /proc/self/environ would show it
SECRETS = (CANARY, "root:x:0:0")  # the second: the first line of /etc/passwd
MAX_LOG = 5_000_000  # bytes of event log from a 50-turn game
BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
SEPARATORS = set("\u2028\u2029\x85")

CODE = re.compile(r"\[([EW]\d{3})\]")


def header(path: Path) -> dict[str, str]:
    """The `# key: value` lines at the top of a case."""
    fields = {}
    for line in path.read_bytes().decode("utf-8", "replace").splitlines():
        m = re.match(r"#\s*(\w+):\s*(.*?)\s*$", line)
        if not m:
            break
        fields[m.group(1)] = m.group(2)
    return fields


def rulelang(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`rulelang ARGS` on a hostile file: in this process (tests/clirun.py, stopped after
    TIME_LIMIT) for the checker's and the engine's cases; in a child, with the canary in its
    environment from its start (/proc/self/environ), for the cases of files/, which name
    devices, the process's own files and directories."""
    if "files" not in Path(args[1]).relative_to(HOSTILE).parts:
        done = in_process(*args, cwd=cwd, env={"RULELANG_CANARY": CANARY, "FORCE_COLOR": None},
                          timeout=TIME_LIMIT)
        return subprocess.CompletedProcess(done.args, done.returncode,
                                           done.stdout.encode("utf-8", "surrogateescape"),
                                           done.stderr.encode("utf-8", "surrogateescape"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULELANG_CANARY")}
    env["RULELANG_CANARY"] = CANARY
    env.pop("FORCE_COLOR", None)
    try:
        return subprocess.run([sys.executable, "-m", "rulelang_cli.main", *args], cwd=cwd,
                              env=env, capture_output=True, timeout=TIME_LIMIT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`rulelang {' '.join(args)}` still running after {TIME_LIMIT} s")


def unsafe_characters(text: str) -> list[str]:
    """Characters a terminal would act on, or that reorder or break lines, in `text`."""
    bad = []
    for ch in text:
        if ch in "\n\t":
            continue
        if unicodedata.category(ch) == "Cc" or ch in BIDI or ch in SEPARATORS:
            bad.append(f"U+{ord(ch):04X}")
    return sorted(set(bad))


def assert_safe(result: subprocess.CompletedProcess, what: str) -> str:
    out = result.stdout.decode("utf-8", "replace") + result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out, f"{what} printed a traceback:\n{out[-3000:]}"
    assert result.returncode in (0, 1), f"{what} exited {result.returncode}:\n{out[-3000:]}"
    for secret in SECRETS:
        assert secret not in out, f"{what} showed the content of a file outside the tree"
    assert not unsafe_characters(out), (f"{what} wrote {unsafe_characters(out)} to the "
                                        f"terminal:\n{out[-2000:]!r}")
    return out


def test_the_corpus_is_there():
    """Each area of the corpus has cases, and every case says what it expects."""
    areas = {p.relative_to(HOSTILE).parts[0] for p in CASES}
    assert {"files", "engine", "checker"} <= areas, areas
    for path in CASES:
        assert "expect" in header(path), f"{path}: no '# expect:' line at the top"


@pytest.mark.parametrize("path", CASES, ids=lambda p: str(p.relative_to(HOSTILE)))
def test_hostile_rulebook(path: Path, tmp_path: Path):
    fields = header(path)
    expected = [c.strip() for c in fields["expect"].split(",") if c.strip() != "none"]
    checked = rulelang("check", str(path), cwd=tmp_path)
    out = assert_safe(checked, "check")
    found = set(CODE.findall(out))
    for code in expected:
        assert code in found, f"check reported {sorted(found)}, not {code}:\n{out[-3000:]}"
    errors = {c for c in found if c.startswith("E")}
    if expected and any(c.startswith("E") for c in expected):
        assert checked.returncode == 1
        played = rulelang("run", str(path), "--players", "3", cwd=tmp_path)
        assert_safe(played, "run")
        assert played.returncode == 1, "run played a rulebook that check refuses"
        return
    assert checked.returncode == 0 and not errors, f"check refused it:\n{out[-3000:]}"
    log = tmp_path / "events.jsonl"
    played = rulelang("run", str(path), "--players", "3", "--max-turns", "50", "--seed", "1",
                      "--log", str(log), cwd=tmp_path)
    out = assert_safe(played, "run")
    assert played.returncode == 0, out[-3000:]
    if "end" in fields:
        assert fields["end"] in out, f"run did not end by {fields['end']}:\n{out[-2000:]}"
    assert log.stat().st_size < MAX_LOG, f"a 50-turn game logged {log.stat().st_size} bytes"
    text = log.read_bytes().decode("utf-8")
    assert not unsafe_characters(text.replace("\n", "")), "raw control characters in the log"
