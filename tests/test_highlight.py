"""The Pygments lexer and the TextMate grammar colour every ruleset and every documented example
without an error, alike, and keep in step with the grammar and the vocabulary."""

from __future__ import annotations

import json
import re
from pathlib import Path

import onigurumacffi
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Token
from textmate_grammar.parsers.base import LanguageParser

from rulelang import highlight
from rulelang.highlight import lexer as lexer_module
from rulelang.highlight import textmate
from rulelang.highlight.lexer import TOKENS, RulesLexer
from rulelang.vocab import EXPANSIONS, ROLES, TYPES, Slot
from rulelang.vocab.spec import INLINE_ARTICLE, POSSESSIVE

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").rglob("*.rules"))
BLOCK = re.compile(r"^```rules[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
LEXER = RulesLexer(stripnl=False)  # every character of the text, blank lines too
ANNOTATION = re.compile(r"#\s*E:\s*(.+)$")
# The codes of characters that no token of the language starts with (an unexpected character,
# a quote left open, a name in single quotes, the sign of `-$60`): the lexer marks them as
# errors too.
CHARACTER_CODES = {"E001", "E007", "E012", "E204"}


def _blocks() -> list:
    out = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            line = text.count("\n", 0, m.start()) + 2
            out.append(pytest.param(doc.name, m.group(1), id=f"{doc.name}:{line}"))
    return out


def error_lines(text: str, lexer=LEXER) -> list[tuple[int, str]]:
    """(line, text) of each error token of the lexer in `text`."""
    out, line = [], 1
    for ttype, value in lexer.get_tokens(text):
        if ttype in Error:
            out.append((line, value))
        line += value.count("\n")
    return out


def test_registered_with_pygments():
    """Pygments finds the lexer by its alias and by a file's name (the entry point)."""
    assert type(get_lexer_by_name("rules")) is RulesLexer
    assert type(get_lexer_for_filename("house/no_auctions.rules")) is RulesLexer


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_ruleset_has_no_error_token(path):
    """Every ruleset is coloured without an error token, and the tokens are its whole text."""
    text = path.read_text(encoding="utf-8")
    assert error_lines(text) == []
    assert "".join(v for _, v in LEXER.get_tokens(text)) == text


@pytest.mark.parametrize("doc, block", _blocks())
def test_documented_example_has_no_error_token(doc, block):
    """Every ```rules block of the docs is coloured without an error token, but the examples
    of docs/errors.md whose mistake is a character the language refuses."""
    errors = error_lines(block)
    if doc != "errors.md":
        assert errors == []
        return
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    section = text[:text.index(block)].rsplit("\n## ", 1)[-1].split(":")[0]
    assert section in CHARACTER_CODES if errors else section not in {"E001", "E007"}, section


def test_there_are_examples():
    """The extraction finds the documentation's examples (a broken fence would hide them)."""
    assert len(_blocks()) >= 100


def test_errors_are_the_characters_the_parser_refuses():
    """In the annotated rulebooks of tests/data/check, the lexer's errors are on exactly the
    lines annotated with E001 or E007, and on no line without a character code."""
    seen = set()
    for path in sorted((ROOT / "tests" / "data" / "check").glob("*.rules")):
        text = path.read_text(encoding="utf-8", errors="replace")
        codes = {n: set(re.findall(r"[EW]\d{3}", m.group(1)))
                 for n, line in enumerate(text.split("\n"), 1)
                 if (m := ANNOTATION.search(line))}
        errors = {n for n, _ in error_lines(text)}
        assert {n for n, c in codes.items() if c & {"E001", "E007"}} <= errors, path.name
        assert {n for n in errors if not codes.get(n, set()) & CHARACTER_CODES} == set(), \
            path.name
        seen |= {c for n in errors for c in codes[n]}
    assert {"E001", "E007"} <= seen


def test_a_broken_lexer_is_caught():
    """The rulesets' test fails on a lexer that has lost a terminal (money)."""

    class Broken(RulesLexer):
        tokens = {name: [r for r in rules if r[0] != r"\$-?[0-9]+"]
                  for name, rules in lexer_module._tokens().items()}

    text = (ROOT / "rulesets" / "classic_1961.rules").read_text(encoding="utf-8")
    assert error_lines(text, Broken(stripnl=False)) != []


# ---------------------------------------------------------------- in step with the grammar

# A sample text for each kind of slot of the vocabulary's forms.
_SAMPLES = {
    "STRING": '"Boardwalk"', "qty": "3", "NAME": "street", "expr": "$10", "MULT": "x2",
    "PERCENT": "10%", "(MONEY | INT | PERCENT)": "$25", "who": "player", "cmp": "at least",
    "ordinal": "first", "_thing": "houses", "target": '"GO"', "token_ref": 'token "Ring"',
    "NOT": "not", "cond": "the player is in jail", "_ELSE effect": ", else nothing",
    "_amount_choice": "$10 or 10% of worth",
}
# Where a phrase of each role is written, around {}; and the token type of its words.
_CONTEXT = {
    "event": ("when {}: nothing", "event"),
    "target": ("when a player lands on {}: nothing", "event"),
    "token": ("when a player meets {}: nothing", "event"),
    "condition": ("when a turn starts if {}: nothing", "condition"),
    "effect": ("when a turn starts: {}", "effect"),
    "amount": ("when a turn starts: pay {}", "value"),
    "factor": ("when a turn starts: pay {}", "value"),
    "action": ("a player may not {} if the player is in jail", "action"),
}
_OPENS_CONDITION = {"where"}


def _sample(expansion) -> tuple[str, list[str]]:
    """A text of one grammar alternative of the vocabulary, and its keywords."""
    pieces, words = [], []
    for item in expansion.items:
        if item is None or item == INLINE_ARTICLE:
            pieces.append("a")
        elif item == POSSESSIVE:
            pieces[-1] += "'s"
        elif isinstance(item, Slot):
            pieces.append(_SAMPLES[TYPES[item.type].grammar])
        else:
            pieces.append(item)
            if item.isalpha() and item not in _OPENS_CONDITION:
                words.append(item)
    return " ".join(pieces).replace(" ,", ","), words


def test_the_sample_table_knows_every_role():
    """Each role of the vocabulary has a context in this test."""
    assert set(_CONTEXT) == set(ROLES)


@pytest.mark.parametrize("alias", list(EXPANSIONS))
def test_every_form_is_coloured_by_its_role(alias):
    """Each keyword of each alternative of the vocabulary has its role's colour where the
    grammar writes it."""
    expansion = EXPANSIONS[alias]
    context, category = _CONTEXT[expansion.primitive.role]
    phrase, words = _sample(expansion)
    text = context.format(phrase) + "\n"
    start = text.index(phrase)
    coloured, pos = [], 0
    for ttype, value in LEXER.get_tokens(text):
        if start <= pos < start + len(phrase) and ttype is TOKENS[category]:
            coloured += re.findall(r"[a-z]+", value)
        pos += len(value)
    assert error_lines(text) == []
    assert sorted(w for w in words if w not in coloured) == [], text


def test_every_rule_with_keywords_is_classified():
    """Every rule of the grammar that holds a keyword is a statement, a role of the vocabulary
    or a rule of RULE_WORDS: a new statement of the grammar gets its colours here."""
    words = highlight._word_terminals()
    roles = set(ROLES.values())
    known = set(highlight.STATEMENTS) | set(highlight.RULE_WORDS) | roles
    with_words = {name for name, exps in highlight._rules().items()
                  if any(s in words for e in exps for s in e)}
    assert with_words - known == set()


def test_every_keyword_is_coloured_somewhere():
    """Every keyword of the grammar is a word of some match of some region (none is left to
    the colour of a bare name)."""
    coloured = set()
    for region in highlight.regions().values():
        for m in region.matches:
            if m.categories not in (("name",), ("kind",), ("constant",), ("illegal",)) \
                    or "|" in m.regex:
                coloured |= set(re.findall(r"[a-z]+", m.regex.replace(r"\t", " ")))
    assert set(highlight._word_terminals().values()) - coloured == set()


def test_every_terminal_is_known():
    """The lexer reads every terminal of the grammar that is not a keyword: a terminal the
    grammar gains needs a colour (or a reason to have none)."""
    layout = {"_NL", "COMMENT", "__IGNORE_0"}  # `#` comments and blanks: matched by themselves
    regexes = {m.regex for r in highlight.regions().values() for m in r.matches}
    text = "\n".join(regexes)
    for name, (kind, value) in highlight._terminals().items():
        if name in layout or name.startswith("_INDENT") or name.startswith("_DEDENT"):
            continue
        shown = highlight._terminal(name)
        if kind == "re":
            assert shown in text, name
        else:
            assert value in text or re.escape(value) in text, name


# ---------------------------------------------------------------- the TextMate grammar

def test_textmate_grammar_is_up_to_date():
    """editors/vscode/syntaxes/rules.tmLanguage.json is what the generator writes
    (`python -m rulelang.highlight.textmate --write`)."""
    assert textmate.PATH.read_text(encoding="utf-8") == textmate.text()


def _regexes(node) -> list[str]:
    if isinstance(node, dict):
        out = [node[k] for k in ("match", "begin", "end") if k in node]
        return out + [r for v in node.values() for r in _regexes(v)]
    if isinstance(node, list):
        return [r for v in node for r in _regexes(v)]
    return []


def test_textmate_regexes_compile_with_oniguruma():
    """Every regular expression of the TextMate grammar compiles with Oniguruma, the engine
    of VS Code and TextMate, and matches where Python's does on a line of every region."""
    grammar = json.loads(textmate.PATH.read_text(encoding="utf-8"))
    regexes = _regexes(grammar)
    assert len(regexes) > 50
    for regex in regexes:
        onigurumacffi.compile(regex)
    line = 'when a player lands on a street owned by another player: pay $25 per house, x2\n'
    for regex in regexes:
        ours = re.compile(regex, re.M).search(line)
        theirs = onigurumacffi.compile(regex).search(line)
        assert (ours.span() if ours else None) == (theirs.span() if theirs else None), regex


@pytest.fixture(scope="module")
def textmate_parser():
    return LanguageParser(json.loads(textmate.PATH.read_text(encoding="utf-8")))


def _textmate_tokens(parser, text: str) -> list:
    """The token type of each character of `text`, by the scopes of the TextMate grammar."""
    by_scope = {f"{s}.rules": c for c, s in textmate.SCOPES.items() if s}
    at = {}
    for (line, col), value, scopes in parser.parse_string(text).flatten():
        for i in range(len(value)):
            at[line, col + i] = TOKENS[by_scope.get(scopes[-1], "text")]
    out = []
    for n, line in enumerate(text.split("\n")):
        out += [at.get((n, col), TOKENS["text"]) for col in range(len(line))] + [TOKENS["text"]]
    return out[:len(text)]


def _pygments_tokens(text: str) -> list:
    return [t for t, v in LEXER.get_tokens(text) for _ in v][:len(text)]


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_textmate_grammar_colours_ruleset_as_pygments(textmate_parser, path):
    """The TextMate grammar gives no line of a ruleset an "invalid" scope, and colours every
    character as the Pygments lexer does."""
    text = path.read_text(encoding="utf-8")
    for (line, _), value, scopes in textmate_parser.parse_string(text).flatten():
        assert not any("invalid" in s for s in scopes), (line + 1, value)
    ours, theirs = _pygments_tokens(text), _textmate_tokens(textmate_parser, text)
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
    assert first is None, (text[max(0, first - 40):first + 20], ours[first], theirs[first])


def test_textmate_grammar_marks_illegal_characters(textmate_parser):
    """A character the language refuses has the "invalid" scope (the test above can fail)."""
    scopes = [s for _, v, ss in textmate_parser.parse_string("set jail_fine = @60\n").flatten()
              for s in ss if v == "@"]
    assert "invalid.illegal.rules" in scopes
    assert Token.Error in _pygments_tokens("set jail_fine = @60\n")


def test_vscode_extension_uses_the_grammar():
    """The extension of editors/vscode names the grammar file and its scope, for `.rules`."""
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text("utf-8"))
    contributed, = package["contributes"]["grammars"]
    assert (ROOT / "editors" / "vscode" / contributed["path"]).resolve() == textmate.PATH
    assert contributed["scopeName"] == textmate.grammar()["scopeName"]
    language, = package["contributes"]["languages"]
    assert language["extensions"] == [".rules"]
    json.loads((ROOT / "editors" / "vscode" / language["configuration"]).read_text("utf-8"))


def test_documentation_lists_every_colour():
    """docs/highlighting.md has a row for every category with its token type and scope."""
    text = (ROOT / "docs" / "highlighting.md").read_text(encoding="utf-8")
    for category, token in TOKENS.items():
        scope = textmate.SCOPES[category]
        shown = f"`{scope}.rules`" if scope else "(none)"
        assert re.search(rf"^\| {category} \|.*\| `{str(token)[len('Token.'):]}` \| "
                         rf"{re.escape(shown)} \|$", text, re.M), category


_FRAGMENTS = ["when ", "a player lands on ", '"GO"', ": ", "pay ", "rent ", "$200", "10%",
              "x2", "3", "..", ", else ", "if ", "unless ", "the player's cash ", "where ",
              "a player may not ", "build ", "set ", "jail_fine ", "= ", "rule ", "r1", ":",
              "card ", '"id" ', "# note", "\n", "  ", "@", '"open', "or ", "and ", "not ",
              "street ", "option ", "cite ", "(", ")", ";", "’s ", "é", "\t"]


@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=30).map("".join))
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_highlighters_agree_on_any_text(textmate_parser, text):
    """On any text, the lexer's tokens are the text, and the TextMate grammar colours each
    character as the lexer does."""
    text += "\n"
    assert "".join(v for _, v in LEXER.get_tokens(text)) == text
    assert _pygments_tokens(text) == _textmate_tokens(textmate_parser, text)
