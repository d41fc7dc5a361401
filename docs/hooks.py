"""mkdocs hook: one page per diagnostic code, generated at build time from docs/errors.md, and
an index linking them (`codes/index.md`, `codes/E104.md` ...).

docs/errors.md stays the one source: `rulelang explain` prints its sections, the tests check
its examples, and the site shows it whole as well as one code per page.
"""

from __future__ import annotations

import re

from markdown.extensions.toc import slugify

__all__ = ["CODES_DIR", "categories", "code_pages", "index_page", "on_files"]

CODES_DIR = "codes"
_SECOND = re.compile(r"^## (.+?)\s*$", re.M)
_CODE = re.compile(r"([EW]\d{3}): (.*)")
# A link of a section, relative to docs/: from docs/codes/ it needs a `../` (a link to a page
# of the site) or the whole page (`#anchor` points into errors.md).
_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:|/)([^)\s]*)\)")


def categories(text: str) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The categories of the error index in order, each with its codes: (category, [(code,
    title, section)]); a section runs from its `## CODE: title` heading to the next `## `."""
    headings = list(_SECOND.finditer(text))
    out: list[tuple[str, list[tuple[str, str, str]]]] = []
    for i, m in enumerate(headings):
        end = headings[i + 1].start() if i + 1 < len(headings) else len(text)
        code = _CODE.fullmatch(m.group(1))
        if code is None:
            out.append((m.group(1), []))
        elif out:
            out[-1][1].append((code.group(1), code.group(2), text[m.start():end].strip()))
    return [(name, codes) for name, codes in out if codes]


def _relinked(body: str) -> str:
    """The links of a section, made to work one directory down; code blocks left alone."""
    parts = re.split(r"(^```.*?^```[ \t]*$)", body, flags=re.S | re.M)

    def relink(m: re.Match) -> str:
        target = m.group(1)
        return f"](../errors.md{target})" if target.startswith("#") else f"](../{target})"

    return "".join(p if p.startswith("```") else _LINK.sub(relink, p) for p in parts)


def code_pages(text: str) -> dict[str, str]:
    """`codes/CODE.md` -> the page of that code: its section of the error index, titled by the
    code, with links to the index and to the section on the page of every code."""
    pages = {}
    for category, codes in categories(text):
        for code, title, section in codes:
            heading = section.splitlines()[0]
            body = _relinked(section[len(heading):].strip())
            anchor = slugify(heading[3:], "-")
            pages[f"{CODES_DIR}/{code}.md"] = (
                f"# {code}: {title}\n\n"
                f"*{category}* · [every code](index.md) · "
                f"[on the page of all codes](../errors.md#{anchor}) · "
                f"`rulelang explain {code}` prints this page\n\n"
                f"{body}\n")
    return pages


def index_page(text: str) -> str:
    """`codes/index.md`: every code, by category, linking to its page."""
    lines = ["# Diagnostic codes, one page each", "",
             "Every code `rulelang check` reports, by category; each page is the code's "
             "section of [the page of all codes](../errors.md), which also says how "
             "diagnostics are printed. `rulelang explain CODE` prints the same text.", ""]
    for category, codes in categories(text):
        lines += [f"## {category}", "", "| Code | Meaning |", "| --- | --- |"]
        lines += [f"| [{code}]({code}.md) | {title.replace('|', chr(92) + '|')} |"
                  for code, title, _ in codes]
        lines.append("")
    return "\n".join(lines)


def on_files(files, config):
    """Add the index and the page of every code to the site's files."""
    from mkdocs.structure.files import File, InclusionLevel

    errors = files.get_file_from_path("errors.md")
    text = errors.content_string
    files.append(File.generated(config, f"{CODES_DIR}/index.md", content=index_page(text)))
    for path, page in code_pages(text).items():
        files.append(File.generated(config, path, content=page,
                                    inclusion=InclusionLevel.NOT_IN_NAV))
    return files
