"""`rulelang explain CODE|WORDS`: a diagnostic code's explanation (docs/errors.md) or a section
of the language reference (docs/language.md), rendered on a terminal and as written when piped;
a word of the language (an event, condition, effect, setting ...) from its declaration; or a
built-in agent."""

from __future__ import annotations

import re

import click

from rulelang.diagnostics import CODES, printable
from rulelang.explain import agent, describe, explanation, find, suggestion
from rulelang.reference import language_section, readable, see
from rulelang.resolve import did_you_mean

from .main import short_help


@click.command(short_help=short_help("explain"))
@click.argument("what", nargs=-1, required=True)
def explain(what: tuple[str, ...]) -> None:
    """Print what a code (such as E104) means, an example that fails and how to fix it; a
    section of the language reference (`rulelang explain Choices`, `explain Contents` for the
    list); what a word of the language does (`rulelang explain "pay rent"`, `explain
    jail_fine`); or what a built-in agent does (`explain own-turn`)."""
    text = " ".join(what).strip()
    code = text.upper()
    if re.fullmatch(r"[EW]\d+", code):
        if code not in CODES:
            hint = did_you_mean(code, CODES) or "codes look like E104 or W101"
            raise click.BadParameter(printable(f"there is no code '{code}'; {hint}"),
                                     param_hint="CODE")
        show_section(readable(explanation(code), "errors.md"))
        return
    section = language_section(text)
    if section is not None:
        show_section(readable(section, "language.md"))
        return
    from rulelang.navigate import KEYWORDS  # the structure of a file: rule, cite, extends ...

    keyword = KEYWORDS.get(text.lower())
    if keyword is not None:
        form, doc, section = keyword
        click.echo(f"{form}\n  {doc} (more: {see(section)})")
        return
    about = agent(text)
    if about is not None:
        click.echo(about)
        return
    found = find(text)
    if not found:
        hint = suggestion(text) or \
            ("name a code (E104), a setting (jail_fine), a word of the language (pay rent), "
             "a section of the language reference (Choices; Contents lists them) or a "
             "built-in agent (default, own-turn, random)")
        raise click.BadParameter(printable(f"'{text}' is neither a code nor a word of the "
                                           f"language; {hint}"), param_hint="CODE|WORDS")
    click.echo("\n\n".join(describe(item) for item in found))


def show_section(text: str, console=None) -> None:
    """Print a section of docs/errors.md or docs/language.md: rendered by rich on a terminal
    (headings, emphasis, ```rules blocks in colour by the `rules` lexer), its Markdown as
    written otherwise, so that piped output can be searched and pasted."""
    from .console import make_console

    console = console or make_console()
    if not console.is_terminal:
        click.echo(text)
        return
    from rich.markdown import Markdown

    console.print(Markdown(text))
