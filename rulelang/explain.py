"""The long explanation of each diagnostic code: its section of docs/errors.md.

The package carries the page as `rulelang/errors.md` (a link to docs/errors.md in the
source tree), so `rulelang explain` and the documentation can never disagree.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["explanation", "sections"]

_PAGE = Path(__file__).with_name("errors.md")
_HEADING = re.compile(r"^## ([EW]\d{3})\b.*$", re.M)
# Any second-level heading ends a section: the next code's, or a category's (`## Names`).
_ANY_HEADING = re.compile(r"^## ", re.M)


def sections(text: str | None = None) -> dict[str, str]:
    """Code -> its section (heading included) of the error index."""
    if text is None:
        text = _PAGE.read_text(encoding="utf-8")
    out = {}
    for m in _HEADING.finditer(text):
        end = _ANY_HEADING.search(text, m.end())
        out[m.group(1)] = text[m.start():end.start() if end else len(text)].strip()
    return out


def explanation(code: str) -> str:
    """The section of `code`, as printed by `rulelang explain`."""
    return sections().get(code, f"{code}: no explanation is written yet")
