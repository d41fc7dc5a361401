"""Resource limits of the checker: deep nesting and long lists are coded errors, never a
RecursionError or a hang; checking is linear in the input and its memory bounded.

Big inputs are generated here, never stored. The timings compare two sizes of the same input
on the same machine (a ratio, not a duration), so a slow CI machine does not fail them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulelang import parse, source
from rulelang.check import check_path
from rulelang.diagnostics import render
from rulelang.parse import MAX_BLOCK_LINES, MAX_DEPTH, MAX_FACES, MAX_LINE_TOKENS, \
    MAX_RENTS, parse_text

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = (ROOT / "rulesets" / "classic_1961.rules").as_posix()
HEAD = f'rulebook "Limits"\nextends "{CLASSIC}"\n'


def _codes(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "limits.rules"
    path.write_text(text, encoding="utf-8")
    _, diags = check_path(str(path))
    for d in diags:
        assert render(d, text)
    return [d.code for d in diags]


def _nested(depth: int) -> str:
    lines = [HEAD.rstrip("\n")]
    lines += ["  " * i + f"option o{i}:" for i in range(depth)]
    lines.append("  " * depth + "set jail_fine = $50")
    return "\n".join(lines) + "\n"


def test_486_nested_blocks_are_E018(tmp_path):
    """486 nested options: E018, not a RecursionError."""
    assert _codes(tmp_path, _nested(486)) == ["E018"]


def test_nesting_limit_is_exact(tmp_path):
    """MAX_DEPTH nested blocks check; one more is E018, reported once."""
    assert "E018" not in _codes(tmp_path, _nested(MAX_DEPTH))
    assert _codes(tmp_path, _nested(MAX_DEPTH + 1)) == ["E018"]


def test_deep_indentation_of_one_line_is_not_nesting(tmp_path):
    """A line indented by 10,000 spaces is one level (E002 at worst), whatever its width."""
    codes = _codes(tmp_path, HEAD + "rule r:\n" + " " * 10_000 + "set jail_fine = $50\n")
    assert "E018" not in codes and codes


def test_die_with_40000_faces_is_E209_and_quick(tmp_path):
    """A die listing 40,000 faces: E209 in well under a second of checking."""
    faces = ", ".join(str(i % 6 + 1) for i in range(40_000))
    start = time.perf_counter()
    assert _codes(tmp_path, HEAD + f'die "big" faces {faces}\n') == ["E209"]
    assert time.perf_counter() - start < 5


def test_die_faces_limit_is_exact(tmp_path):
    """MAX_FACES faces (listed, each once) check; one more is E209."""
    ok = ", ".join(str(i) for i in range(1, MAX_FACES + 1))
    assert "E209" not in _codes(tmp_path, HEAD + f'die "big" faces {ok}\n')
    named = ", ".join(f'face {i} named "N{i}"' for i in range(MAX_FACES + 1))
    assert "E209" in _codes(tmp_path, HEAD + f'die "big" faces 1..6, {named}\n')


def test_long_rent_table_is_E209(tmp_path):
    """A street with more than MAX_RENTS rents is E209, not a 100,000-entry table."""
    rents = " ".join("$5" for _ in range(MAX_RENTS + 1))
    text = (HEAD + f'board:\n  "GO": go\n  "Jail": jail\n'
            f'  "A": street in "G", price $60, mortgage $30, house $50, rent {rents}\n')
    assert "E209" in _codes(tmp_path, text)


# The bound counts lines the same way in every block: the kinds of block are tried under a
# bound of 500 lines (a 10,000-line deck or rule takes seconds to lex), and once at the real one.
@pytest.mark.parametrize("header,line,limit", [
    ("board:", '  "S{i}": plain', 500),
    ('deck "Big":', '  card "C{i}" "Card": collect $1', 500),
    ("rule long:", "  when a player passes \"GO\": collect $1", 500),
    ("option big:", "  set jail_fine = $50", 500),
    ("option big:", "  set jail_fine = $50", MAX_BLOCK_LINES),
])
def test_block_with_too_many_lines_is_E209(tmp_path, monkeypatch, header, line, limit):
    """A board, deck, rule or option of more than MAX_BLOCK_LINES lines is E209, reported
    before the block is built."""
    monkeypatch.setattr(parse, "MAX_BLOCK_LINES", limit)
    body = "\n".join(line.format(i=i) for i in range(limit + 1))
    codes = _codes(tmp_path, HEAD + header + "\n" + body + "\n")
    assert codes == ["E209"]


def test_line_with_too_many_tokens_is_E209(tmp_path):
    """A line of more than MAX_LINE_TOKENS tokens is E209 (here a list of effects)."""
    effects = ", ".join("collect $1" for _ in range(MAX_LINE_TOKENS))
    text = HEAD + f'rule r:\n  cite "x", "y"\n  when a player passes "GO": {effects}\n'
    assert _codes(tmp_path, text) == ["E209"]


def test_no_recursion_error_from_other_shapes(tmp_path):
    """Long chains on one line and long files of small items raise no RecursionError."""
    pays = " or ".join("$1" for _ in range(2_000))
    text = HEAD + f'rule r:\n  cite "x", "y"\n  when a player passes "GO": pay {pays}\n'
    assert "E209" not in _codes(tmp_path, text)
    conds = " ".join("if option o" for _ in range(1_500))
    text = HEAD + f'option o:\n  set jail_fine = $50\nrule r:\n  cite "x", "y"\n' \
        f'  when a player passes "GO" {conds}: collect $1\n'
    _codes(tmp_path, text)


def _sets(size: int) -> str:
    line = "set jail_fine = $50\n"
    return HEAD + line * (size // len(line))


def _timed_check(path: Path) -> float:
    start = time.process_time()
    check_path(str(path))
    return time.process_time() - start


def test_check_time_is_linear(tmp_path):
    """Four times the text takes less than six times as long (best of two runs each; the
    ratio of smaller sizes swings past 6 on a busy machine)."""
    small, big = tmp_path / "small.rules", tmp_path / "big.rules"
    small.write_text(_sets(100_000), encoding="utf-8")
    big.write_text(_sets(400_000), encoding="utf-8")
    check_path(str(small))  # warm: parser tables, imports
    t_small = min(_timed_check(small) for _ in range(2))
    t_big = min(_timed_check(big) for _ in range(2))
    assert t_big < 6 * t_small, (t_small, t_big)


# Run in a fresh interpreter, so that what earlier tests left in this process (caches,
# garbage, the collector's thresholds) is not counted: the parent chain checked and the parser
# loaded first, then the peak of one check of each size under tracemalloc.
_PEAKS = """
import gc, json, sys, tracemalloc
from rulelang import parse, source
from rulelang.check import check_path
from rulelang.parse import parse_text
check_path(sys.argv[1])
parse_text('rulebook "warm"\\n', "warm.rules")
peaks = []
for path in sys.argv[2:]:
    gc.collect()
    tracemalloc.start()
    check_path(path)
    peaks.append(tracemalloc.get_traced_memory()[1])
    tracemalloc.stop()
print(json.dumps(peaks))
"""


def test_check_memory_is_bounded(tmp_path):
    """Checking `set` lines, the densest text there is (three nodes in 20 bytes), takes at
    most 20 bytes at its peak for each byte more of the file (about 16 measured; it was 95,
    then 24): the slope between 70 kB and 280 kB, free of what the parent rulebook costs."""
    # four times apart, both above AST_CACHE_CHARS (a smaller file would come from, and be
    # written to, the cache of syntax trees, which moves the peak)
    sizes = (70_000, 280_000)
    assert min(sizes) > source.AST_CACHE_CHARS
    paths = []
    for size in sizes:
        path = tmp_path / f"sets{size}.rules"
        path.write_text(_sets(size), encoding="utf-8")
        paths.append(path)
    done = subprocess.run([sys.executable, "-c", _PEAKS, CLASSIC, *map(str, paths)],
                          capture_output=True, text=True, check=True)
    small, big = json.loads(done.stdout)
    extra = paths[1].stat().st_size - paths[0].stat().st_size
    assert (big - small) / extra < 20, (small, big, extra)


def test_many_diagnostics_of_one_kind_are_capped(tmp_path):
    """Thousands of the same warning in a file: the first MAX_PER_CODE, the last with a note."""
    from rulelang.diagnostics import MAX_PER_CODE

    path = tmp_path / "sets.rules"
    path.write_text(_sets(100_000), encoding="utf-8")
    _, diags = check_path(str(path))
    w102 = [d for d in diags if d.code == "W102"]
    assert len(w102) == MAX_PER_CODE
    assert "more" in w102[-1].notes[-1][0]
