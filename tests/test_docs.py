"""Every ```rules example of docs/*.md is valid, and the reference covers every setting.

Convention: a block whose first line that is not a comment starts with `rulebook` is a whole
file; it is checked (errors fail, warnings do not) next to copies of rulesets/*.rules, so its
`extends` names a shipped rulebook. Any other block is a list of items and must parse.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulelang.check import check_path
from rulelang.diagnostics import RuleError, RuleErrors, render
from rulelang.engine.settings import SETTINGS
from rulelang.parse import parse_text

ROOT = Path(__file__).resolve().parent.parent
# docs/errors.md shows failing examples on purpose: tests/test_errors_doc.py checks those.
DOCS = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md")
                                    if p.name != "errors.md")]
BLOCK = re.compile(r"^```rules[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _blocks():
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start()) + 2
            yield pytest.param(doc, line, m.group(1), id=f"{doc.name}:{line}")


def _is_whole_file(block: str) -> bool:
    for line in block.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return line.startswith("rulebook")
    return False


@pytest.mark.parametrize("doc, line, block", list(_blocks()))
def test_rules_examples(doc, line, block, tmp_path):
    """The example parses (a snippet) or checks without errors (a whole rulebook)."""
    where = f"{doc.name}:{line}"
    if not _is_whole_file(block):
        try:
            parse_text('rulebook "snippet"\n' + block, where)
        except (RuleError, RuleErrors) as e:
            pytest.fail("\n".join(render(d, None) for d in e.diagnostics))
        return
    for f in (ROOT / "rulesets").glob("*.rules"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "example.rules"
    path.write_text(block, encoding="utf-8")
    _, diags = check_path(str(path))
    errors = [render(d, None) for d in diags if d.is_error]
    assert errors == [], f"{where}: the example has errors"


def test_there_are_examples():
    """The extraction finds the reference's examples (a broken fence would hide them)."""
    assert len(list(_blocks())) >= 10


def test_reference_lists_every_setting():
    """docs/language.md has a row for every setting and sends readers to the code index."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert [s for s in SETTINGS if f"| `{s}` |" not in text] == []
    assert "(errors.md)" in text
