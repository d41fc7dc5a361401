"""The vocabulary's tables in docs/language.md, generated from the declarations.

Each table stands between `<!-- vocab:ROLE -->` and `<!-- /vocab:ROLE -->` in the page.
`python -m rulelang.vocab.docs --write` rewrites them; `--check` (and tests/test_vocab.py)
fails when the page differs from the declarations.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from rulelang.vocab import SETTINGS, SettingSpec, of_role, shown_forms

__all__ = ["tables", "render", "PAGE"]

PAGE = Path(__file__).resolve().parent.parent.parent / "docs" / "language.md"
_BLOCK = re.compile(r"(<!-- vocab:(\w+) -->\n)(.*?)(<!-- /vocab:\2 -->)", re.S)
_HEADS = {"event": ("event", "happens when"), "target": ("target", "names"),
          "token": ("token", "means"), "condition": ("condition", "holds when"),
          "effect": ("effect", "does"), "amount": ("amount", "is"),
          "factor": ("value", "is"), "action": ("a player may not", "refuses")}


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _primitives(role: str) -> str:
    rows = [(" / ".join(f"`{s}`" for s in shown_forms(p)), p.doc) for p in of_role(role)]
    return _table(_HEADS[role], rows)


def _setting_value(spec: SettingSpec, value) -> str:
    if spec.type == "range":
        return f"`{value[0]} to {value[1]}`"
    if spec.type == "money":
        return f"`${value}`"
    if spec.type == "percent":
        return f"`{value}%`"
    if spec.type == "flag":
        return "`yes`" if value else "`no`"
    if spec.type == "pot":
        return "unset (the bank)" if not value else f'`"{value}"`'
    return f"`{value}`"


def _bounds(spec: SettingSpec) -> str:
    if spec.choices:
        return ", ".join(spec.choices)
    if spec.low is None and spec.high is None:
        return ""
    unit = {"money": ("$", ""), "percent": ("", "%")}.get(spec.type, ("", ""))
    high = f"{unit[0]}{spec.high}{unit[1]}" if spec.high is not None else ""
    return f"{unit[0]}{spec.low}..{high}" if high or not unit[1] else f"{spec.low}%.."


def _settings() -> str:
    rows = [(f"`{s.name}`", s.type, _setting_value(s, s.default), _bounds(s), s.doc)
            for s in SETTINGS.values()]
    return _table(("setting", "type", "default", "bounds / choices", "meaning"), rows)


def tables() -> dict[str, str]:
    """The text of each table, by the name of its block."""
    out = {role: _primitives(role) for role in _HEADS}
    out["setting"] = _settings()
    return out


def render(page: str) -> str:
    """The page with every table block filled from the declarations."""
    made = tables()

    def fill(m: re.Match) -> str:
        if m.group(2) not in made:
            raise ValueError(f"docs/language.md: no table named {m.group(2)!r}")
        return m.group(1) + made[m.group(2)] + m.group(4)

    return _BLOCK.sub(fill, page)


def main(argv: list[str]) -> int:
    """`--write`: rewrite the page's tables; `--check`: exit 1 if they differ."""
    page = PAGE.read_text(encoding="utf-8")
    new = render(page)
    if "--write" in argv:
        if new != page:
            PAGE.write_text(new, encoding="utf-8")
        return 0
    if new != page:
        print("docs/language.md: the vocabulary's tables differ from rulelang/vocab; "
              "run python -m rulelang.vocab.docs --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
