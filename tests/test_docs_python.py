"""Every ```python example in README.md and docs/ runs as written, from the project root."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
EXAMPLES = [
    pytest.param(code, id=f"{path.name}:{text[: m.start()].count(chr(10)) + 1}")
    for path in FILES
    for text in [path.read_text(encoding="utf-8")]
    for m in BLOCK.finditer(text)
    for code in [m.group(1)]
]


@pytest.mark.parametrize("code", EXAMPLES)
def test_python_example_runs(code, monkeypatch, capsys):
    """The example runs without error."""
    monkeypatch.chdir(ROOT)
    exec(compile(code, "<doc example>", "exec"), {"__name__": "__doc_example__"})


def test_there_are_python_examples():
    """The docs do show Python usage."""
    assert len(EXAMPLES) >= 3
