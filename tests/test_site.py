"""The documentation site: one page per diagnostic code from docs/errors.md (docs/hooks.py),
`rules` blocks in colour, a strict build; and `rulelang explain CODE` rendered on a terminal."""

from __future__ import annotations

import importlib.util
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from rulelang.diagnostics import CODES
from rulelang.explain import explanation
from rulelang_cli.explain_cmd import show_section

ROOT = Path(__file__).resolve().parent.parent
ERRORS = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hooks = _hooks()


def test_every_code_gets_a_page_titled_by_its_code():
    """code_pages makes codes/CODE.md for every code of the registry, headed `# CODE: title`."""
    pages = hooks.code_pages(ERRORS)
    assert list(pages) == [f"codes/{code}.md" for code in CODES]
    for code, title in CODES.items():
        page = pages[f"codes/{code}.md"]
        assert page.splitlines()[0] == f"# {code}: {title}"
        assert "**How to fix it:**" in page


def test_a_page_holds_its_section_and_no_other():
    """A code's page is its section of errors.md (its example too), and stops before the next."""
    pages = hooks.code_pages(ERRORS)
    page = pages["codes/E104.md"]
    body = explanation("E104").split("\n", 1)[1].strip()
    assert body in page
    assert "## E105" not in page and "## " not in page


def test_the_index_links_every_code_under_its_category():
    """codes/index.md links each code's page, under the category heading of errors.md."""
    index = hooks.index_page(ERRORS)
    assert [c for c in CODES if f"| [{c}]({c}.md) |" not in index] == []
    assert index.index("## Syntax") < index.index("[E001]") < index.index("## Names") \
        < index.index("[E101]") < index.index("## Warnings") < index.index("[W101]")


def test_links_of_a_section_work_one_directory_down():
    """A page's links to other pages get `../`; links inside code blocks are left alone."""
    pages = hooks.code_pages(ERRORS)
    assert "](../language.md#settings)" in pages["codes/E101.md"]
    assert "](../language.md)" in pages["codes/E203.md"]
    text = "See [x](language.md#a), [y](#e104-unknown-space), <https://a.b/c>, [z](https://a.b).\n" \
           "```rules\n# [not a link](language.md)\n```\n"
    relinked = hooks._relinked(text)
    assert "[x](../language.md#a)" in relinked
    assert "[y](../errors.md#e104-unknown-space)" in relinked
    assert "[z](https://a.b)" in relinked
    assert "# [not a link](language.md)" in relinked


def test_on_files_adds_the_pages_to_the_site():
    """The hook of mkdocs.yml adds the index (in the navigation) and every code's page (out of
    it) to the site's files."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import InclusionLevel, get_files

    config = load_config(str(ROOT / "mkdocs.yml"))
    files = config.plugins.on_files(get_files(config), config=config)
    assert files.get_file_from_path("codes/index.md") is not None
    for code in CODES:
        page = files.get_file_from_path(f"codes/{code}.md")
        assert page is not None and page.inclusion == InclusionLevel.NOT_IN_NAV
        assert page.content_string.startswith(f"# {code}: ")


def test_the_site_builds_strictly_with_rules_in_colour(tmp_path):
    """`mkdocs build --strict` passes; a code's page shows its rules block in the lexer's
    colours (keywords, names, strings), with no error token."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                             "-d", str(tmp_path / "site")], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    html = (tmp_path / "site" / "codes" / "E104" / "index.html").read_text(encoding="utf-8")
    assert '<h1 id="e104-unknown-space">E104: unknown space' in html
    block = html[html.index('class="language-rules highlight"'):]
    block = block[:block.index("</code>")]
    assert {'<span class="k">rule</span>', '<span class="nf">a player lands on</span>',
            '<span class="s2">"Bordwalk"</span>', '<span class="nb">pay rent</span>'} \
        <= set(re.findall(r'<span class="[a-z0-9]+">[^<]*</span>', block))
    assert 'class="err"' not in block
    tutorial = (tmp_path / "site" / "tutorial" / "index.html").read_text(encoding="utf-8")
    assert tutorial.count('class="language-rules highlight"') >= 3


def test_explain_renders_the_section_on_a_terminal():
    """On a terminal the section is rendered: heading and emphasis without their Markdown marks,
    the rules example in several colours."""
    out = io.StringIO()
    show_section(explanation("E104"),
                 Console(file=out, force_terminal=True, width=100, color_system="standard"))
    text = out.getvalue()
    plain = ANSI.sub("", text)
    assert plain.lstrip().startswith("E104: unknown space")
    assert "## " not in plain and "**" not in plain and "```" not in plain
    assert "How to fix it:" in plain
    line = next(ln for ln in text.splitlines() if "Bordwalk" in ln)
    assert len(set(ANSI.findall(line))) >= 4  # keyword, event, string, effect: each its colour


def test_explain_prints_markdown_when_piped(capsys):
    """Piped, the section is printed as written in errors.md."""
    show_section(explanation("E104"), Console(file=io.StringIO(), force_terminal=False))
    assert capsys.readouterr().out.strip() == explanation("E104")


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_explain_on_a_real_terminal():
    """`rulelang explain E211` run on a pseudo-terminal prints the rendered section."""
    import pty

    main, child = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(TERM="xterm-256color", COLUMNS="100")
    proc = subprocess.Popen([sys.executable, "-c",
                             "from rulelang_cli.main import main; main(['explain', 'E211'])"],
                            stdin=child, stdout=child, stderr=child, env=env, close_fds=True)
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # the child has closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    assert proc.wait(timeout=60) == 0
    text = b"".join(chunks).decode("utf-8")
    assert "\x1b[" in text
    plain = ANSI.sub("", text)
    assert plain.lstrip().startswith("E211: comparison of different units")
    assert "**How to fix it:**" not in plain and "How to fix it:" in plain
