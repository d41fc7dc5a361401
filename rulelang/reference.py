"""The language reference as `rulelang explain` prints it: the sections of docs/language.md by
their headings, and a page's links made readable by someone who has only the installed package.

The package carries the page as `rulelang/language.md` (a link to docs/language.md in the
source tree), as it carries the error index, so the reference an installed user prints is the
one the documentation shows. Every pointer to the reference that explain or an editor's hover
prints is `see(SECTION)`: a command that prints that section.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["language_sections", "language_section", "see", "readable", "slug"]

_PAGE = Path(__file__).with_name("language.md")
_HEADING = re.compile(r"^(#{2,3}) +(.+?) *$")
_FENCE = re.compile(r"^(`{3,}|~{3,})")


def _title(heading: str) -> str:
    """A heading as the user names it: its words without code marks, the part before a colon
    (`The header: `rulebook` and `extends`` is `The header`)."""
    return heading.replace("`", "").split(": ", 1)[0].strip()


def _key(words: str) -> str:
    return " ".join(words.replace("`", "").split()).lower()


def slug(heading: str) -> str:
    """The anchor a heading gets on the documentation site (Python-Markdown's toc)."""
    text = re.sub(r"[^\w\s-]", "", heading.replace("`", "")).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _headings(text: str) -> list[tuple[int, int, str]]:
    """(line index, level, heading) of the second- and third-level headings, outside fenced
    blocks (a `# comment` in a rules example is no heading)."""
    out, fence = [], None
    for i, line in enumerate(text.split("\n")):
        m = _FENCE.match(line)
        if m:
            mark = line.strip()
            if fence is None:
                fence = m.group(1)
            elif set(mark) == {fence[0]} and len(mark) >= len(fence):
                fence = None
            continue
        if fence is None:
            h = _HEADING.match(line)
            if h:
                out.append((i, len(h.group(1)), h.group(2)))
    return out


def language_sections(text: str | None = None) -> dict[str, tuple[str, str]]:
    """Name -> (heading, section) of the language page, in its order: a `##` section runs to
    the next `##` heading (its `###` sections included), a `###` section to the next heading."""
    if text is None:
        text = _PAGE.read_text(encoding="utf-8")
    lines = text.split("\n")
    found = _headings(text)
    out = {}
    for n, (i, level, heading) in enumerate(found):
        end = next((j for j, lv, _ in found[n + 1:] if lv <= level), len(lines))
        out[_title(heading)] = (heading, "\n".join(lines[i:end]).strip())
    return out


def language_section(words: str, text: str | None = None) -> str | None:
    """The section of the language page whose heading `words` names (case and spacing aside,
    the whole heading or its part before a colon), or None."""
    key = _key(words)
    for name, (heading, section) in language_sections(text).items():
        if key in (_key(name), _key(heading)):
            return section
    return None


def see(section: str) -> str:
    """The command that prints a section of the language reference."""
    return f'rulelang explain "{section}"' if " " in section else f"rulelang explain {section}"


_LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\(([^)\s]+)\)")
_CODE_ANCHOR = re.compile(r"^([ew]\d{3})\b", re.I)
_COMMENT = re.compile(r"^<!--.*?-->[ \t]*\n", re.M)


def readable(text: str, page: str) -> str:
    """A section of `page` (`errors.md` or `language.md`) with each link to a page the
    package lacks turned into its text, followed by the `rulelang explain` command that prints
    what it points to when there is one; links to the web stay links, comments go."""
    anchors = {slug(heading): name for name, (heading, _) in language_sections().items()}

    def target(href: str) -> str | None:
        file, _, anchor = href.partition("#")
        file = file.removeprefix("./")
        if file in ("", page) and page == "errors.md" or file == "errors.md":
            m = _CODE_ANCHOR.match(anchor)
            return f"rulelang explain {m.group(1).upper()}" if m else None
        if file in ("", page) and page == "language.md" or file == "language.md":
            if not anchor:
                return see("Contents")
            return see(anchors[anchor]) if anchor in anchors else None
        return None

    def replace(m: re.Match) -> str:
        words, href = m.group(1), m.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I):  # https:, mailto: ...
            return m.group(0)
        command = target(href)
        if command and words.endswith(".md"):  # [language.md](language.md#settings)
            return f"`{command}`"
        return f"{words} (`{command}`)" if command else words

    return _LINK.sub(replace, _COMMENT.sub("", text))
