"""Text to AST: `parse_text` turns one rules file into an `ast.File` or raises `RuleError(s)`.

The only module that imports Lark. The LALR parser is built once per process and pickled,
whole, in the user's private cache directory (`rulelang.cache`), never in the shared
temporary directory; it is loaded only from a file no other user can have written. Lark
trees never leave this module: a transformer builds the frozen nodes of `rulelang.ast`, each
with the span of its own text, and every Lark exception becomes a coded `RuleError` (worded
by `rulelang.parse_errors`).
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import os
import pickle
import re
import sys
import tempfile
import types
from pathlib import Path
from typing import Callable, NamedTuple

import attrs

import lark
import lark.lexer
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    GrammarError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError,
)
from lark.indenter import Indenter

from rulelang import ast, cache, parse_errors, source, units, vocab
from rulelang.diagnostics import Diagnostics, RuleError, RuleErrors, diagnostic
from rulelang.source import (  # noqa: F401 - re-exported: the reading half of parsing
    COMMAND_LINE, _normalize, decode_source, normalize, read_source,
)
from rulelang.recover import recover_items, shift, without_comment
from rulelang.vocab.grammar import fill

__all__ = ["parse_text", "parse_file", "read_source", "parse_override", "grammar_text",
           "tokens", "Lexeme", "normalize", "decode_source", "grammar_symbols",
           "COMMAND_LINE", "MAX_DEPTH", "MAX_NESTING", "MAX_BLOCK_LINES", "MAX_LINE_TOKENS",
           "MAX_FACES", "MAX_RENTS", "LENIENT_CODES"]


_GRAMMAR = Path(__file__).with_name("grammar.lark")
_LAYOUT = frozenset({"_NL", "_INDENT", "_DEDENT"})
# Limits far above any printed game, so that no input can exhaust the checker: blocks nested
# deeper than MAX_DEPTH (E018) and lists longer than the others (E209) are coded errors,
# found while the text is read, before a parse tree or an AST of that size exists.
MAX_DEPTH = 50  # blocks inside blocks (options within options)
# parentheses and prefix `not` within one condition, and `, else` effects nested in one
# another on one line (E019: the builder's transformer recurses)
MAX_NESTING = 16
MAX_BLOCK_LINES = 10_000  # lines directly in one block: spaces, cards, a rule's lines
MAX_LINE_TOKENS = 10_000  # words and values on one line: faces, effects, characters
MAX_FACES = 1000  # faces of one die, a range included (a longer range is E208)
MAX_RENTS = 100  # entries of one rent table or of one list of dice multipliers
MAX_ITEM_TOKENS = 250_000  # words and values in one top-level item (a board, an option)
# A long file is parsed a chunk of whole top-level items at a time: its parse tree (tens of
# times the size of its text) then never holds more than a chunk, and only the AST grows.
_CHUNK_CHARS = 8 * 1024
_TOP_LINE = re.compile(r"\n(?=[^ \t\f#\n])(?!extends)")  # a newline before a top-level item
_MAX_FACES = MAX_FACES
# What the lines of a block are, by the first word of the line that opens it (for E209).
_BLOCK_LINES = {"board": "the board lists more than {n} spaces",
                "deck": "the deck lists more than {n} cards",
                "option": "the option holds more than {n} lines"}
# Amounts and counts have at most 9 digits: more is a slip, and Python refuses to convert
# a number of thousands of digits.
_MAX_DIGITS = 9


class _Indenter(Indenter):
    """Python-style INDENT/DEDENT from the indentation after each newline."""

    NL_type = "_NL"
    OPEN_PAREN_types: list = []
    CLOSE_PAREN_types: list = []
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8
    # Every state's lexer (Lark's and ours) tries NAME, so a word is always lexed whole: a
    # keyword never matches the start of a longer word (`a` in `at`, `after`). A word that is
    # a keyword of the state becomes that keyword (Lark folds the keywords a NAME matches
    # into it); any other word is a NAME the parser rejects with the state's expectations.
    always_accept = ("_NL", "NAME")
    path = "<string>"  # set by parse_text, for the spans of E004
    offset = 0  # lines of the file before the chunk being parsed

    def process(self, stream):
        self.paren_level = 0
        self.indent_level = [0]
        # Each level's indentation as written: its width with a tab as one column and the
        # text, so that a comparison that depends on the width of a tab is E004.
        self.indent_text: list[str] = [""]
        self.heads: list[Token] = []  # the first token of the line that opened each block
        self.lines: list[int] = [0]  # lines so far directly in each open block
        return self._process(stream)

    def _process(self, stream):
        # Lark's version, with the limits: tokens on one line, lines in one block.
        token = None
        head = None
        count = in_item = 0
        nesting = _Nesting(self)
        for token in stream:
            if token.type == self.NL_type:
                yield from self.handle_NL(token, head)
                head, count = None, 0
                nesting.reset()
                if len(self.indent_level) == 1:
                    in_item = 0
                continue
            nesting.see(token)
            if head is None:
                head = token
            count += 1
            in_item += 1
            if in_item > MAX_ITEM_TOKENS:
                opener = self.heads[0] if self.heads else head
                raise RuleError("E209", f"this block holds more than {MAX_ITEM_TOKENS:,} words "
                                "and values",
                                self._span(opener, opener.line, opener.column),
                                hint="no printed game needs a block this long: split it")
            if count > MAX_LINE_TOKENS:
                # A die's faces take at most 4 tokens each ("1..6,"): this many are too many.
                what = f"this die lists more than {MAX_FACES:,} faces" if head.value == "die" \
                    else f"this line holds more than {MAX_LINE_TOKENS:,} words and values"
                raise RuleError("E209", what, self._span(head, head.line, head.column),
                                hint="no printed game needs a line this long: shorten the "
                                "list")
            yield token
        while len(self.indent_level) > 1:
            self.indent_level.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, "", token) if token \
                else Token(self.DEDENT_type, "", 0, 0, 0, 0, 0, 0)

    def _same_either_way(self, indent_str: str, relation: str, line: int, token) -> None:
        """E004 if the line's indentation compares with its block's (`>` deeper, `=` the
        same) when a tab is 8 columns but not when it is 1: tabs and spaces mixed so that
        the depth depends on the editor (as Python's TabError)."""
        block = self.indent_text[-1]
        if len(indent_str) > len(block) if relation == ">" else len(indent_str) == len(block):
            return
        how = "deeper" if relation == ">" else "the same depth"
        span = ast.Span(self.path, line, 1, line, max(token.end_column, 2))
        raise RuleError(
            "E004", f"this line is indented by {_spell_indent(indent_str)} and its block by "
            f"{_spell_indent(block) or 'nothing'}: {how} only if a tab is {self.tab_len} "
            "columns wide (tabs and spaces mixed)", span,
            hint="indent with spaces only (two per level is the custom), or with tabs only")

    def _span(self, token, line, column) -> ast.Span:
        width = len(token.value) if token.type not in _LAYOUT else 1
        line += self.offset
        return ast.Span(self.path, line, column, line, column + max(width, 1))

    def handle_NL(self, token, head=None):
        # Lark's version raises a bare DedentError; ours says where.
        yield token
        indent_str = token.rsplit("\n", 1)[-1]
        indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        line = token.end_line + self.offset
        if indent > self.indent_level[-1]:
            self._same_either_way(indent_str, ">", line, token)
            self.indent_level.append(indent)
            self.indent_text.append(indent_str)
            if len(self.indent_level) > MAX_DEPTH + 1:
                raise RuleError(
                    "E018", f"blocks are nested more than {MAX_DEPTH} deep here",
                    ast.Span(self.path, line, 1, line, max(token.end_column, 2)),
                    hint="options within options this deep are surely a mistake: "
                    "flatten them")
            self.heads.append(head if head is not None else token)
            self.lines.append(1)
            yield Token.new_borrow_pos(self.INDENT_type, indent_str, token)
            return
        levels = list(self.indent_level)
        while indent < self.indent_level[-1]:
            self.indent_level.pop()
            self.indent_text.pop()
            self.heads.pop()
            self.lines.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, indent_str, token)
        if indent != self.indent_level[-1]:
            span = ast.Span(self.path, line, 1, line, max(token.end_column, 2))
            shown = ", ".join(str(n) for n in levels[:-1]) + f" or {levels[-1]}"
            raise RuleError(
                "E004", f"this line is indented by {indent}, which matches no enclosing block "
                f"(indented by {shown})",
                span, hint="indent the lines of a block by the same amount as its first line")
        self._same_either_way(indent_str, "=", line, token)
        self.lines[-1] += 1
        if self.lines[-1] > MAX_BLOCK_LINES and self.heads:
            opener = self.heads[-1]
            what = _BLOCK_LINES.get(opener.value, "this block holds more than {n} lines")
            raise RuleError("E209", what.format(n=f"{MAX_BLOCK_LINES:,}"),
                            self._span(opener, opener.line, opener.column),
                            hint="no printed game needs a block this long: split it, or "
                            "check that the file is a rulebook")


def _spell_indent(indent_str: str) -> str:
    """'a tab and 2 spaces': the characters of an indentation, counted."""
    counts = ((indent_str.count("\t"), "tab"), (indent_str.count(" "), "space"))
    return " and ".join(f"a {word}" if n == 1 else f"{n} {word}s" for n, word in counts if n)


class _Nesting:
    """E019: a condition nested deeper than MAX_NESTING by `(` and prefix `not`, or more than
    MAX_NESTING `, else` effects nested in one another, counted on the tokens of a line before
    any tree is built (the builder's transformer is recursive).

    A prefix `not` (after `if`, `unless`, `and`, `or`, `(` or another prefix `not`) opens a
    level that closes with its operand: an atom, or the parenthesised condition after it."""

    __slots__ = ("indenter", "held", "pending", "prefix", "elses")

    def __init__(self, indenter: "_Indenter") -> None:
        self.indenter = indenter
        self.reset()

    def reset(self) -> None:
        self.held: list[int] = []  # per open `(`: the prefix `not`s it closes with
        self.pending = 0  # prefix `not`s waiting for their operand
        self.prefix = False  # whether a prefix `not` may come next
        self.elses = 0  # `, else` effects on the line, each nested in the one before

    def see(self, token: Token) -> None:
        kind = token.type
        if kind == "_ELSE":
            self.elses += 1
            if self.elses > MAX_NESTING:
                raise RuleError("E019", f"more than {MAX_NESTING} ', else' effects are "
                                "nested in one another here",
                                self.indenter._span(token, token.line, token.column),
                                hint="no rule needs so many fallbacks: split the rule")
        if kind == "NOT" and self.prefix:
            self.pending += 1
            self._deepest(token)
        elif kind in ("IF", "UNLESS") or (kind != "NAME" and token.value in ("and", "or")):
            self.prefix = True
            return
        elif token.value == "(" and kind != "STRING":
            self.held.append(self.pending)
            self.pending = 0
            self.prefix = True
            self._deepest(token)
            return
        elif token.value == ")" and kind != "STRING":
            if self.held:
                self.held.pop()
            self.pending = 0
        else:
            self.pending = 0
        self.prefix = kind == "NOT" and self.prefix

    def _deepest(self, token: Token) -> None:
        depth = len(self.held) + sum(self.held) + self.pending
        if depth > MAX_NESTING:
            raise RuleError("E019", f"this condition is nested more than {MAX_NESTING} deep",
                            self.indenter._span(token, token.line, token.column),
                            hint="flatten it with 'and' and 'or': 'not (A or B)' is 'not A "
                            "and not B'")


class _SkipLayout:
    """propagate_positions filter: a node's span ends at its last real token, not the newline.

    Its repr is stable so that Lark's on-disk cache key does not change between runs.
    """

    def __call__(self, node) -> bool:
        return not (isinstance(node, Token) and node.type in _LAYOUT)

    def __repr__(self) -> str:
        return "rulelang.parse._SkipLayout"


# ---------------------------------------------------------------- the lexer of each state
#
# Lark's contextual lexer makes, when the parser loads, a lexer for every set of terminals a
# parser state accepts (256 of them), and each compiles, on first use, one regular expression
# of all its terminals: about 75 compiles, a third of `rulelang check`'s time on a short
# file. These make each state's lexer on first use, and match its terminals one after
# another (each terminal's expression compiled once per process) until the state has lexed
# _HOT tokens, then compile its alternation as Lark does. Python tries an alternation's
# branches in order and returns the first that matches, which is what the loop over the
# terminals (in Lark's order) does: the tokens are the same either way (tests/test_parse.py).
_HOT = 256
_TERMINAL_RES: dict[tuple, object] = {}


class _Scanner(lark.lexer.Scanner):
    """Lark's scanner of one state, matching one terminal at a time until it is hot."""

    def __init__(self, terminals, g_regex_flags, re_, use_bytes):
        self.terminals = terminals
        self.g_regex_flags = g_regex_flags
        self.re_ = re_
        self.use_bytes = use_bytes
        self.allowed_types = {t.name for t in terminals}
        self._mres = [self._one(t) for t in terminals]
        self._uses = 0

    def _one(self, terminal):
        key = (terminal.name, terminal.pattern.to_regexp(), self.g_regex_flags, self.use_bytes)
        compiled = _TERMINAL_RES.get(key)
        if compiled is None:
            pattern = f"(?P<{key[0]}>{key[1]})"
            compiled = _TERMINAL_RES[key] = self.re_.compile(
                pattern.encode("latin-1") if self.use_bytes else pattern, self.g_regex_flags)
        return compiled

    def match(self, text, pos):
        self._uses += 1
        if self._uses == _HOT:
            self._mres = self._build_mres(self.terminals, len(self.terminals))
        return super().match(text, pos)


class _BasicLexer(lark.lexer.BasicLexer):
    """Lark's lexer of one state, with the scanner above."""

    def _build_scanner(self):
        # Lark's own (1.2 and 1.3), but for the scanner's class; no user callbacks here.
        terminals, self.callback = lark.lexer._create_unless(
            self.terminals, self.g_regex_flags, self.re, self.use_bytes)
        assert not self.user_callbacks and all(self.callback.values())
        self._scanner = _Scanner(terminals, self.g_regex_flags, self.re, self.use_bytes)
        return self._scanner


class _Lexers(dict):
    """The lexer of each parser state, made when the state first lexes."""

    def __init__(self, owner: "_ContextualLexer"):
        super().__init__()
        self.owner = owner

    def __missing__(self, state):
        owner = self.owner
        key = frozenset(owner.accepts[state])
        lexer = owner.by_tokens.get(key)
        if lexer is None:
            conf = copy.copy(owner.conf)
            names = set(key) | set(conf.ignore) | set(owner.always_accept)
            conf.terminals = [owner.conf.terminals_by_name[n] for n in names
                              if n in owner.conf.terminals_by_name]
            conf.skip_validation = True  # every terminal is checked once, by the root lexer
            lexer = owner.by_tokens[key] = _BasicLexer(conf)
        self[state] = lexer
        return lexer


class _ContextualLexer(lark.lexer.ContextualLexer):
    """Lark's contextual lexer, its lexers made on first use (a plugin of Lark's)."""

    def __init__(self, conf, states, always_accept=()):
        self.conf = copy.copy(conf)
        self.conf.terminals = list(conf.terminals)
        self.accepts = states
        self.always_accept = always_accept
        self.by_tokens: dict = {}
        self.lexers = _Lexers(self)
        self._root = None
        if not conf.skip_validation:
            self.root_lexer  # a grammar just built: its terminals are checked now

    @property
    def root_lexer(self):
        """The lexer of every terminal, for Lark's error messages."""
        if self._root is None:
            self._root = _BasicLexer(self.conf)
            self.conf.skip_validation = True
        return self._root


_parser: Lark | None = None
_indenter = _Indenter()


def grammar_text() -> str:
    """The whole grammar: grammar.lark with the vocabulary's alternatives filled in."""
    return fill(_GRAMMAR.read_text(encoding="utf-8"))


def grammar_symbols() -> tuple[dict[str, list[tuple[str, ...]]], dict[str, tuple[str, str]]]:
    """The whole grammar as Lark compiled it, for the tools that read it (the highlighters of
    rulelang.highlight): each rule with its expansions (names of symbols; `x*` and `x+` are
    rules of their own, `__NAME_star_N`), and each terminal with the type of its pattern
    ("str" or "re") and its text."""
    parser = _get_parser()
    rules: dict[str, list[tuple[str, ...]]] = {}
    for r in parser.rules:
        rules.setdefault(r.origin.name, []).append(tuple(s.name for s in r.expansion))
    return rules, {t.name: (t.pattern.type, t.pattern.value) for t in parser.terminals}


def _get_parser() -> Lark:
    global _parser
    if _parser is None:
        _parser = _build_parser()
    return _parser


def _build_parser(lexer: type | None = _ContextualLexer) -> Lark:
    """The parser, unpickled from the cache or built from the grammar (and cached);
    `lexer=None` gives one with Lark's own contextual lexer, never cached (for the tests)."""
    grammar = grammar_text()
    if lexer is None:
        return _new_parser(grammar, {})
    # The cache holds the whole parser, pickled just after it was built: loading it is one
    # unpickling, several times quicker than Lark's own cache, which rebuilds its objects in
    # Python. The name changes with the grammar, Lark, Python and this module's code.
    key = hashlib.sha256(b"\0".join([
        grammar.encode("utf-8"), lark.__version__.encode(), repr(sys.version_info).encode(),
        Path(__file__).read_bytes()])).hexdigest()[:24]
    path = cache.private_file(_PARSER_FILE.format(key=key))
    parser = _load_parser(path) if path is not None else None
    if parser is None:
        parser = _new_parser(grammar, {"ContextualLexer": lexer})
        if path is not None:
            _save_parser(parser, path)
    return parser


# The cached parsers: one per grammar, Lark, Python and parse.py; writing one removes all but
# the PARSER_CACHE_FILES written last (a user's several checkouts or Pythons keep theirs).
_PARSER_FILE = "parser-{key}.pickle"
_PARSER_FILES = re.compile(r"parser-[0-9a-f]{24}\.pickle")
PARSER_CACHE_FILES = 4


def _new_parser(grammar: str, plugins: dict) -> Lark:
    return Lark(grammar, parser="lalr", lexer="contextual", postlex=_indenter,
                propagate_positions=_SkipLayout(), maybe_placeholders=False,
                start=["start", "items"], _plugins=plugins)


# What the pickled parser refers to rather than holds: the module-level objects that Lark and
# this module compare by identity or share.
def _shared() -> dict[str, object]:
    from lark.parsers.lalr_analysis import Reduce, Shift

    return {"re": re, "indenter": _indenter, "shift": Shift, "reduce": Reduce}


class _Pickler(pickle.Pickler):
    def __init__(self, file, shared: dict[str, object]):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.ids = {id(obj): name for name, obj in shared.items()}

    def persistent_id(self, obj):
        return self.ids.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, shared: dict[str, object]):
        super().__init__(file)
        self.shared = shared

    def persistent_load(self, pid):
        return self.shared[pid]


def _load_parser(path: str) -> Lark | None:
    """The parser pickled at `path` (a file of the private cache), or None if there is none or
    it cannot be read: a damaged or stale file is rebuilt, never trusted in part."""
    try:
        with open(path, "rb") as f:
            parser = _Unpickler(f, _shared()).load()
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - whatever a damaged pickle raises, rebuild it
        return None
    if not isinstance(parser, Lark) or not isinstance(
            getattr(getattr(parser.parser, "lexer", None), "lexer", None), _ContextualLexer):
        return None
    return parser


def _save_parser(parser: Lark, path: str) -> None:
    """Pickle a parser just built (no state has lexed yet) into the cache, whole or not at
    all; a cache that cannot be written is left as it is."""
    folder, name = os.path.split(path)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=folder)  # mode 0600
    except OSError:
        return
    try:
        # Without what only building needed (as Lark's own cache leaves it out).
        kept = copy.copy(parser)
        for name in ("grammar", "_parse_tree_builder"):
            kept.__dict__.pop(name, None)
        with os.fdopen(fd, "wb") as f:
            _Pickler(f, _shared()).dump(kept)
        os.replace(temporary, path)
    except Exception:  # noqa: BLE001 - a parser that cannot be cached still parses
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return
    cache.prune(folder, _PARSER_FILES, PARSER_CACHE_FILES)


def parse_file(path: str, shown: str | None = None, cached: bool = False) -> ast.File:
    """Read and parse one rules file (named `shown` in its spans, default: path); `cached`:
    as `parse_text`."""
    shown = str(path) if shown is None else shown
    return parse_text(read_source(path, shown), shown, cached)


def parse_text(text: str, path: str, cached: bool = False) -> ast.File:
    """Parse the text of one rules file; `path` is recorded in every span.

    A syntax error raises RuleError(s) listing every syntax error `recover` can find.
    `cached`: the AST of a text parsed before without errors may come from the private cache
    (`rulelang.source.parse_cached`).
    """
    if cached:
        return source.parse_cached(text, path)
    return _parse_text(_normalize(text), path)


# Tree-building errors after which the AST is whole, a placeholder where the mistake was: a
# checker given it can still look at the rest of the file. The placeholders: a number read as
# 0 or as written (E202, E204, E205, E210); the first of a space attribute given twice (E009);
# a misplaced rent modifier left out (E010); a misplaced cite kept as the rule's when it has
# none, else left out (E013); the faces of a bad range left out (E208); a list cut at its
# limit (E209 of a rent table, a list of multipliers or a die's faces, all on one line the
# reader's limits already bound); a choice of one option kept as written (E308). The reader's
# own limits (E018, E019, and E209 of a line, a block or an item) raise instead: going on
# past them would cost work without bound.
LENIENT_CODES = frozenset({"E009", "E010", "E013", "E202", "E204", "E205", "E208", "E209",
                           "E210", "E308"})


def _parse_text(text: str, path: str) -> ast.File:
    """parse_text of a normalised text."""
    result, errors = _parse_text_lenient(text, path, lenient=False)
    return result


def _parse_text_lenient(text: str, path: str, lenient: bool = True
                        ) -> tuple[ast.File, list]:
    """The AST of a normalised text and its tree-building errors when each is of
    LENIENT_CODES (and `lenient`); any other error raises RuleError(s), as parse_text."""
    try:
        result, errors = _parse_chunks(text, path)
    except RuleError as e:
        errors, failed = recover_items(
            text, e.diagnostic, lambda chunk: _build(_parse(chunk, path), path, 0, chunk)[1])
        stopped = any(d.code in _READER_LIMITS for d in errors)
        partial = _without(text, path, failed) if lenient and failed and not stopped else None
        if partial is not None:
            return partial, errors
        if len(errors) == 1:
            raise e from None
        raise RuleErrors(errors) from None
    if lenient and all(d.code in LENIENT_CODES for d in errors):
        return result, list(errors)
    if len(errors) == 1:
        d = errors[0]
        raise RuleError(d.code, d.message, d.span, d.hint, d.notes)
    if errors:
        raise RuleErrors(errors)
    return result, []


# The reader's own limits: past one, the file is not checked further (see LENIENT_CODES).
_READER_LIMITS = frozenset({"E018", "E019", "E209"})
# The first line of an item the checker can do without: what it is, and the name it declares.
_LEFT_OUT = (
    ("rule", re.compile(r"(?:rule|replace[ \t]+rule|remove[ \t]+rule|(?:before|after)[ \t]+"
                        r"\w+[ \t]+rule)\b[ \t]*(\w*)")),
    ("setting", re.compile(r"(?:set|parameter)\b[ \t]*(\w*)")),
    ("cite", re.compile(r"cite\b()")),
    ("deck", re.compile(r'deck\b[ \t]*"([^"\n]*)"?')),
    ("pot", re.compile(r'pot\b[ \t]*"([^"\n]*)"?')),
    ("option", re.compile(r"option\b[ \t]*(\w*)")),
)


def _left_out(block: list[str]) -> list[tuple[str, str]] | None:
    """What a top-level item that does not parse declares (`block`: its lines), as
    ast.File.left_out has it; None for an item the rest cannot be checked without (the
    board, a die, a token ... or an unknown word)."""
    first = next((line for line in block if line[:1] not in ("", " ", "\t", "\f", "#")), "")
    what = next(((w, m.group(1)) for w, pattern in _LEFT_OUT if (m := pattern.match(first))),
                None)
    if what is None:
        return None
    if what[0] != "option":
        return [what]
    inner = [(w, m.group(1)) for line in block[1:] for w, pattern in _LEFT_OUT[:2]
             if (m := pattern.match(line.lstrip(" \t")))]
    return [what] + inner


def _without(text: str, path: str, failed: list[tuple[int, int]]) -> ast.File | None:
    """The AST of a normalised text without the top-level items on the 0-based line ranges
    `failed` (they do not parse), recording what was left out; None when one of them is the
    header or an item that declares what much of the rest may name (the board, a die, a
    token, a side, a renaming), or the rest does not parse either."""
    lines = text.split("\n")
    left_out = []
    for start, end in failed:
        what = _left_out(lines[start:end])
        if start == 0 or what is None:
            return None
        left_out.extend(what)
        lines[start:end] = [""] * (end - start)
    try:
        result, errors = _parse_chunks("\n".join(lines), path)
    except (RuleError, RuleErrors):
        return None
    if not all(d.code in LENIENT_CODES for d in errors):
        return None
    return attrs.evolve(result, left_out=tuple(left_out))


def _parse_chunks(text: str, path: str) -> tuple[ast.File, list]:
    """The AST of a normalised text and its tree-building errors, parsed a chunk of whole
    top-level items at a time (a short file is one chunk); a syntax error raises RuleError
    at the line of the file, as parsing the whole text at once would."""
    file: ast.File | None = None
    chunks: list[tuple] = []  # the items of each chunk after the first
    errors: list = Diagnostics()
    pos, offset = 0, 0
    while pos < len(text):
        end = _chunk_end(text, pos)
        chunk = text[pos:end]
        start = "start" if file is None else "items"
        try:
            tree = _parse(chunk, path, start, offset)
        except RuleError as e:
            d = e.diagnostic
            if d.code == "E003" and end < len(text):
                # The chunk ran into its end: the next item's first line says what came
                # instead, as when the file is parsed whole.
                try:
                    _parse(text[pos:text.find("\n", end) + 1], path, start, offset)
                except RuleError as again:
                    if again.diagnostic.span.line <= offset + chunk.count("\n") + 1:
                        raise again from None
            raise
        built, more = _build(tree, path, offset, chunk)
        del tree  # the chunk's parse tree, before the next is built
        errors.extend(more)
        if file is None:
            file = built
        else:
            chunks.append(built)
        offset += chunk.count("\n")
        pos = end
    assert file is not None  # a normalised text is never empty
    chunks = [c for c in chunks if c]
    if chunks:
        last = chunks[-1][-1].span
        span = file.span.replace(end_line=last.end_line, end_column=last.end_column)
        # One tuple of every item, built straight from the chunks' (no list of them too).
        chunks.insert(0, file.items)
        file = attrs.evolve(file, items=tuple(itertools.chain.from_iterable(chunks)),
                            span=span)
    return file, errors


def _chunk_end(text: str, pos: int) -> int:
    """Where the chunk starting at `pos` ends: at the first top-level item starting after
    _CHUNK_CHARS characters, or at the end of the text."""
    if len(text) - pos <= _CHUNK_CHARS:
        return len(text)
    m = _TOP_LINE.search(text, pos + _CHUNK_CHARS)
    return m.start() + 1 if m else len(text)


def _parse(text: str, path: str, start: str = "start", offset: int = 0):
    """The Lark tree of a normalised text; a syntax error becomes a RuleError. The text's
    first line is line `offset + 1` of the file."""
    parser = _get_parser()
    _indenter.path, _indenter.offset = path, offset
    try:
        return parser.parse(text, start=start)
    except UnexpectedInput as e:
        return _raise(shift(_syntax_error(e, text, path, parser).diagnostic, offset))
    finally:
        _indenter.offset = 0


class Lexeme(NamedTuple):
    """One token as the parser receives it: its terminal's name (`NAME`, `STRING`, `COLON`,
    `_NL`, `_INDENT`, `_DEDENT` ...), its text, and where it starts and ends in the
    normalised text (offsets; 1-based line and column)."""

    kind: str
    text: str
    start: int
    end: int
    line: int
    column: int


def tokens(text: str, path: str) -> list[Lexeme]:
    """The tokens the parser reads in a text that parses (`parse_text` raised nothing), layout
    tokens included, in order; positions are in `normalize(text)`.

    Comments and the spaces between tokens are not tokens: they are the text between one
    token's end and the next one's start. A text that does not parse raises RuleError.
    """
    text = _normalize(text)
    parser = _get_parser()
    out: list[Lexeme] = []
    pos, offset, start = 0, 0, "start"
    while pos < len(text):
        end = _chunk_end(text, pos)
        chunk = text[pos:end]
        _indenter.path, _indenter.offset = path, offset
        try:
            session = parser.parse_interactive(chunk, start=start)
            last = None
            for last in session.iter_parse():
                out.append(Lexeme(last.type, str(last), pos + (last.start_pos or 0),
                                  pos + (last.end_pos or 0), offset + (last.line or 1),
                                  last.column or 1))
            session.feed_eof(last)
        except UnexpectedInput as e:
            if isinstance(e, UnexpectedToken) and e.interactive_parser is None:
                # as Lark's parse gives it: what the parser accepts where it stopped
                e.interactive_parser = session
            _raise(shift(_syntax_error(e, chunk, path, parser).diagnostic, offset))
        finally:
            _indenter.offset = 0
        offset += chunk.count("\n")
        pos, start = end, "items"
    return out


def _raise(d) -> None:
    raise RuleError(d.code, d.message, d.span, d.hint, d.notes) from None


def _build(tree, path: str, offset: int = 0, text: str = ""):
    """The AST of a tree (a File, or a tuple of items) parsed from `text`, and the typed
    errors found while building it."""
    builder = _Builder(path, offset, text)
    try:
        result = builder.transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, (RuleError, RuleErrors)):
            raise e.orig_exc from None
        raise e.orig_exc from e  # a bug in the builder, not a user mistake
    return result, builder.errors


def parse_override(text: str) -> ast.Set:
    """`NAME=VALUE` from `--set` as a Set, its value written as in a rules file (`$50`, `90`,
    `yes`, `3 to 8`, a word, a "name"); a bad one raises a coded RuleError."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    where = ast.Span(COMMAND_LINE, 0, 0, 0, 0)
    if not sep or not name or not value or "\n" in text:
        raise RuleError("E017", f"'--set {text}' is not NAME=VALUE", where,
                        hint="e.g. --set time_limit=90")
    try:
        file = parse_text(f'rulebook "{COMMAND_LINE}"\nset {name} = {value}\n', COMMAND_LINE)
    except (RuleError, RuleErrors):
        raise RuleError("E017", f"'--set {text}': '{value}' is not a value for '{name}'",
                        where, hint="write it as in a rules file: $50, 90, 10%, yes, 3 to 8, "
                        "a word, or a \"name\"") from None
    (item,) = file.items
    return attrs.evolve(item, span=where, name=attrs.evolve(item.name, span=where),
                        value=attrs.evolve(item.value, span=where))


# ---------------------------------------------------------------- Lark errors -> RuleError

# Slips recognised by the LALR state they leave the parser in (see _example_label); the
# labels are worded in parse_errors.LABELS. "one_word" needs the same token type too.
_EXAMPLES = {
    "header": ["board:\n", 'rule r:\n  set a = 1\n', '"x"\n', "\n\nset a = 1\n"],
    "colon": ['rulebook "t"\nrule r\n  set a = 1\n', 'rulebook "t"\nboard\n',
              'rulebook "t"\ndeck "D"\n', 'rulebook "t"\noption o\n',
              'rulebook "t"\noption o "T"\n', 'rulebook "t"\nreplace rule r\n',
              'rulebook "t"\nbefore a rule r\n', 'rulebook "t"\nafter a rule r\n'],
    "effects_colon": ['rulebook "t"\nrule r:\n  when a turn starts collect $1\n',
                      'rulebook "t"\nrule r:\n  when a player lands on "X" pay rent\n',
                      'rulebook "t"\nrule r:\n  when a player lands on a street pay rent\n',
                      'rulebook "t"\nrule r:\n  when a die shows "X" pay rent\n',
                      'rulebook "t"\nrule r:\n  when a player rolls doubles roll again\n',
                      'rulebook "t"\nrule r:\n  when a turn starts if option o nothing\n',
                      'rulebook "t"\nrule r:\n  when a turn starts if the player is in '
                      'jail nothing\n'],
    "one_word": ['rulebook "t"\nrule my rule:\n  set a = 1\n',
                 'rulebook "t"\nrule my name:\n  set a = 1\n',
                 'rulebook "t"\nreplace rule my name:\n  set a = 1\n',
                 'rulebook "t"\nbefore r rule my name:\n  set a = 1\n',
                 'rulebook "t"\noption my name:\n  set a = 1\n',
                 'rulebook "t"\nreplace rule my rule:\n  set a = 1\n',
                 'rulebook "t"\nbefore r rule my rule:\n  set a = 1\n',
                 'rulebook "t"\nafter my r rule b:\n  set a = 1\n'],
}
_EXACT_ONLY = {"one_word"}
_example_states: dict[tuple[int, str | None], str] | None = None


def _example_label(e: UnexpectedToken, parser: Lark) -> str | None:
    """The label of an example that fails in the same LALR state, same token type first.

    Lark's match_examples compares whole parser stacks, so an example would only match a
    slip at the same nesting depth (with or without `extends`, a leading blank line...);
    keying on the state alone makes one example cover every place the state occurs.
    """
    global _example_states
    if _example_states is None:
        states: dict[tuple[int, str | None], str] = {}
        for label, examples in _EXAMPLES.items():
            for example in examples:
                try:
                    parser.parse(example, start="start")
                except UnexpectedToken as ex:
                    states.setdefault((ex.state.position, ex.token.type), label)
                    if label not in _EXACT_ONLY:
                        states.setdefault((ex.state.position, None), label)
        _example_states = states
    position = getattr(e.state, "position", None)
    return _example_states.get((position, e.token.type)) or _example_states.get((position, None))


def _syntax_error(e: UnexpectedInput, text: str, path: str, parser: Lark) -> RuleError:
    expected = [(name, _literal(parser, name)) for name in _expected(e)]
    if isinstance(e, UnexpectedCharacters):
        line_text = text.split("\n")[e.line - 1] if e.line >= 1 else ""
        span = ast.Span(path, e.line, e.column, e.line, e.column + 1)
        return parse_errors.unexpected_character(
            text[e.pos_in_stream], span, line_text[e.column - 1:], expected,
            line_text[:e.column - 1])
    token = getattr(e, "token", None)
    if not isinstance(e, UnexpectedToken) or token is None or token.type == "$END":
        return parse_errors.unexpected_eof(_end_of_file(text, path), expected,
                                           _opener(text, text.count("\n") + 1))
    if token.type == "_NL":
        span = ast.Span(path, token.line, token.column, token.line, token.column + 1)
    elif token.type in ("_INDENT", "_DEDENT"):
        span = ast.Span(path, token.end_line, token.end_column,
                        token.end_line, token.end_column + 1)
    else:
        span = ast.Span(path, token.line, token.column, token.end_line, token.end_column)
    try:
        label = _example_label(e, parser)
    finally:
        _indenter.path = path  # the examples were parsed with the same indenter
    lines = text.split("\n")
    rest = lines[span.line - 1][span.column - 1:] if 1 <= span.line <= len(lines) else ""
    before = lines[span.line - 1][:span.column - 1] if 1 <= span.line <= len(lines) else ""
    return parse_errors.unexpected_token(token.type, str(token), span, expected, label,
                                         _opener(text, span.line), rest, before,
                                         _keywords(parser))


def _keywords(parser: Lark) -> frozenset[str]:
    """The keywords of the language (the words among the grammar's literals)."""
    return frozenset(t.pattern.value for t in parser.terminals
                     if t.pattern.type == "str" and t.pattern.value.isidentifier())


def _opener(text: str, line: int) -> tuple[int, str] | None:
    """The last non-blank line before `line` (1-based) if it opens a block: (number, text)."""
    lines = text.split("\n")  # as the lexer counts lines: never at U+2028, \f or NEL
    for i in range(min(line, len(lines) + 1) - 2, -1, -1):
        stripped = without_comment(lines[i]).strip()
        if stripped:
            return (i + 1, stripped) if stripped.endswith(":") else None
    return None


def _expected(e: UnexpectedInput) -> list[str]:
    if isinstance(e, UnexpectedToken):
        names = e.accepts or e.expected
    else:
        names = getattr(e, "allowed", None) or getattr(e, "expected", None) or ()
    return sorted(n for n in names if n != "COMMENT")


def _literal(parser: Lark, name: str) -> str | None:
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return None
    return pattern.value if pattern.type == "str" else None


def _end_of_file(text: str, path: str) -> ast.Span:
    lines = text.rstrip("\n\t \f").split("\n")
    line, column = len(lines), len(lines[-1]) + 1
    return ast.Span(path, line, column, line, column + 1)


# ---------------------------------------------------------------- tree -> AST


class _Modifier:
    """A modifier such as `rent x2` / `rent dice x10`, attached by `effects` to the effect
    before it (the primitive's `modifies`)."""

    def __init__(self, primitive: vocab.Primitive, kwargs: dict, value: int, span: ast.Span):
        self.primitive, self.kwargs, self.value, self.span = primitive, kwargs, value, span


_UNITS = {"MONEY": ("money", "${n}"), "INT": ("a count", "{n}"),
          "PERCENT": ("a percentage", "{n}%")}
# Aliases whose node the alias alone determines (built by _Builder.__default__).
_FIXED = {"yes": (ast.Flag, {"value": True}), "no": (ast.Flag, {"value": False})}
_RENAMES = {"rename_space": "space", "rename_group": "group", "rename_deck": "deck"}
_BUILDINGS = {"rename_house": "house", "rename_hotel": "hotel"}
# Space attributes holding one amount: alias -> (SpaceDecl field, what it is).
_AMOUNTS = {"price": ("price", "a price"), "mortgage": ("mortgage", "a mortgage value"),
            "house": ("house_cost", "a house cost"), "hotel": ("hotel_cost", "a hotel cost")}


def _payment(b: "_Builder", item, what: str):
    """One amount paid: money, an expression of money (`10% of worth`), or a bare percentage
    (E205)."""
    if not isinstance(item, Token):
        return _of_unit(b, item, "money", what)
    if item.type == "PERCENT":
        b._error("E205", "expected money or a percentage of worth, found "
                 f"'{item.value}'", b._tspan(item), hint=f"write '{item.value} of worth'")
        return None
    return b._money(item, what)


def _from_pot(effect):
    """`collect the pot "P"` (or `collect N% of the pot "P"`) takes it out of the pot: a
    CollectPot, not money from the bank."""
    if type(effect) is not ast.Collect or effect.source != "bank":
        return effect
    amount = effect.amount
    if type(amount) is ast.PotAmount:
        return ast.CollectPot(amount.pot, effect.span)
    if type(amount) is ast.PercentOf and type(amount.operand) is ast.PotAmount:
        return ast.CollectPot(amount.operand.pot, effect.span, amount.percent)
    return effect


def _count(b: "_Builder", tok: Token, param: vocab.Param, negated: bool):
    hint = None
    if param.negative_hint is not None and not negated:
        hint = param.negative_hint.format(n=tok.value.lstrip("-$"))
    return b._quantity(tok, "INT", param.what, hint)


def _of_unit(b: "_Builder", node, want: str, what: str):
    """An expression's node where `want` ("money", "count") is expected: E205 if its unit
    differs (`pay 4 times the dice total`: hint `$4 times the dice total`)."""
    found = units.unit(node)
    if found != want and id(node) not in b.unit_errors:
        hint = None
        if want == "money" and isinstance(node, ast.Times) and found == "count":
            hint = f"write '${node.factor} times {units.shown(node.operand)}'"
        elif want == "money" and isinstance(node, ast.PerOwned):
            hint = f"write '${node.amount} per {node.thing.name} the {node.subject} owns'"
        b._error("E205", f"{what} is {units.UNIT_NAMES[want]}, found "
                 f"{units.UNIT_NAMES.get(found, 'no value')} '{units.shown(node)}'", node.span,
                 hint=hint)
    return node


def _amount(b: "_Builder", item, param: vocab.Param, negated: bool):
    """An amount of money: `$50` (Money) or an expression of money."""
    if isinstance(item, Token):
        return b._money(item, param.what)
    return _of_unit(b, item, "money", param.what)


def _steps(b: "_Builder", item, param: vocab.Param, negated: bool):
    """A number of spaces: `3` (an int) or an expression of a count."""
    if isinstance(item, Token):
        return _count(b, item, param, negated)
    return _of_unit(b, item, "count", param.what)


# How the builder converts the item of each parameter type: (builder, item or items, param,
# whether the form negates it) -> value. A test holds these keys equal to vocab.TYPES.
_CONVERT: dict[str, Callable] = {
    "money": lambda b, t, p, n: b._money(t, p.what),
    "money_first": lambda b, t, p, n: b._money(t, p.what),
    "amount": _amount,
    "payment": lambda b, t, p, n: _payment(b, t, p.what) or ast.Money(0, b._tspan(t)),
    "amounts": lambda b, ts, p, n: tuple(a for a in (_payment(b, t, p.what) for t in ts)
                                         if a is not None),
    "steps": _steps,
    "value": lambda b, t, p, n: b._literal(t) if isinstance(t, Token) else t,
    "who": lambda b, t, p, n: t,
    "thing": lambda b, t, p, n: b._name(t),
    "comparison": lambda b, t, p, n: t,
    "ordinal": lambda b, t, p, n: t,
    "count": _count,
    "percent": lambda b, t, p, n: b._int(t),
    "multiplier": lambda b, t, p, n: b._int(t),
    **dict.fromkeys(("space", "unique_space", "deck", "pot", "token", "die", "face"),
                    lambda b, t, p, n: b._text(t)),
    **dict.fromkeys(("kind", "option", "building"), lambda b, t, p, n: b._name(t)),
    **dict.fromkeys(("target", "token_ref", "condition"), lambda b, t, p, n: t),
    "negation": lambda b, t, p, n: True,
    "otherwise": lambda b, t, p, n: _otherwise(b, t),
}


def _otherwise(b: "_Builder", effect):
    """The effect after `, else`: an effect node (a rent modifier there is E010)."""
    if isinstance(effect, _Modifier):
        b._error("E010", f"the rent modifier '{effect.primitive.title}{effect.value}' must "
                 "follow 'advance to the nearest ...'", effect.span,
                 hint="after `, else` comes one effect")
        return None
    return effect


@v_args(meta=True)
class _Builder(Transformer):
    """One method per grammar alias; collects typed errors instead of stopping at the first."""

    def __init__(self, path: str, offset: int = 0, text: str = ""):
        super().__init__(visit_tokens=False)  # no method is named after a token type
        self._methods: dict[str, Callable] = {}
        self.path = path
        self.text = text  # the text parsed (a permission keeps its own, quoted by refusals)
        self.offset = offset  # lines of the file before the chunk
        self._lines = text.split("\n") if text else None  # the chunk's lines
        self.errors: list = Diagnostics()
        # One int per line number and one str per name, shared by every span and node that
        # holds them: in a long file of short lines, these copies were a third of the AST.
        self._numbers: dict[int, int] = {}
        self.unit_errors: set[int] = set()  # nodes already reported as E210

    def _call_userfunc(self, tree, new_children=None):
        # Lark's, but each alias's method is looked up once per builder: Lark wraps a
        # v_args method anew at every node, a tenth of the time of a long file.
        children = tree.children if new_children is None else new_children
        data = tree.data
        f = self._methods.get(data)
        if f is None:
            f = self._methods[data] = self._method(data)
        try:
            return f(tree.meta, children)
        except GrammarError:
            raise
        except Exception as e:
            raise VisitError(data, tree, e)

    def _method(self, data: str) -> Callable:
        """The builder of an alias, called with (meta, children)."""
        function = getattr(getattr(type(self), data, None), "base_func", None)
        if function is not None:
            return types.MethodType(function, self)
        expansion = vocab.EXPANSIONS.get(data)
        if expansion is not None:
            return self._primitive(expansion)
        return lambda meta, children: self.__default__(data, children, meta)

    def _primitive(self, e: vocab.Expansion) -> Callable:
        """The builder of one alternative of a declared primitive: each slot's item converted
        by its parameter's type, the form's fixed fields, one node (or a modifier)."""
        p = e.primitive
        negate = e.form.negate
        slots = tuple((s.field, _CONVERT[s.type], p.param(s.field), vocab.TYPES[s.type].rest,
                       s.field == negate) for s in e.slots)
        fixed = e.form.fixed
        node = p.node

        def build(meta, ch):
            kwargs = dict(fixed)
            for i, (field, convert, param, rest, negated) in enumerate(slots):
                value = convert(self, ch[i:] if rest else ch[i], param, negated)
                if negated and not isinstance(value, int):
                    kwargs["back"] = True  # `move back` an expression
                    negated = False
                kwargs[field] = -value if negated else value
            if p.modifies is not None:
                (value,) = [kwargs[s[0]] for s in slots]
                return _Modifier(p, kwargs, value, self._span(meta))
            return node(span=self._span(meta), **kwargs)

        return build

    # -- helpers

    def _span(self, meta) -> ast.Span:
        line = self._line(meta.line)
        end = line if meta.end_line == meta.line else self._line(meta.end_line)
        return ast.Span(self.path, line, meta.column, end, meta.end_column)

    def _line(self, n: int) -> int:
        n += self.offset
        return self._numbers.setdefault(n, n)

    def _tspan(self, tok: Token) -> ast.Span:
        line = self._line(tok.line)
        end = line if tok.end_line == tok.line else self._line(tok.end_line)
        return ast.Span(self.path, line, tok.column, end, tok.end_column)

    def _error(self, code, message, span, hint=None, notes=()):
        self.errors.append(diagnostic(code, message, span, hint, notes))

    def _text(self, tok: Token) -> ast.Text:
        return ast.Text(tok.value[1:-1], self._tspan(tok))

    def _name(self, tok: Token) -> ast.Name:
        return ast.Name(sys.intern(tok.value), self._tspan(tok))

    def _quantity(self, tok: Token, want: str, what: str,
                  negative_hint: str | None = None) -> int:
        """The number in a MONEY/INT/PERCENT token, reporting E205 if its unit is not `want`."""
        number = self._int(tok, negative_hint)
        too_long = len(tok.value.strip("$%x").lstrip("-")) > _MAX_DIGITS  # E202 already
        if tok.type != want and not too_long:
            unit, form = _UNITS[want]
            self._error("E205", f"{what} is {unit}, found {_UNITS[tok.type][0]} '{tok.value}'",
                        self._tspan(tok), hint=f"write '{form.format(n=abs(number))}'")
        return number

    def _int(self, tok: Token, negative_hint: str | None = None) -> int:
        """The number in `3`, `$-5`, `10%` or `x2`; E202 past _MAX_DIGITS digits, E204 for `-3`."""
        digits = tok.value.strip("$%x")
        if len(digits.lstrip("-")) > _MAX_DIGITS:
            self._error("E202", f"the number {tok.value[:_MAX_DIGITS + 2]}... is too large",
                        self._tspan(tok), hint=f"numbers have at most {_MAX_DIGITS} digits")
            return 0
        if tok.type == "INT" and digits.startswith("-"):
            # A negative amount of money is left to the checker (E204 too), which can tell
            # pay from collect; a count is never negative anywhere.
            self._error("E204", f"counts are never negative, found {tok.value}",
                        self._tspan(tok), hint=negative_hint or f"write {digits[1:]}")
            return 0
        n = int(digits)
        return self._numbers.setdefault(n, n)  # an amount repeated on many lines is one int

    def _money(self, tok: Token, what: str) -> ast.Money:
        return ast.Money(self._quantity(tok, "MONEY", what), self._tspan(tok))

    def _count(self, tok: Token, what: str) -> int:
        return self._quantity(tok, "INT", what)

    def __default__(self, data, ch, meta):
        span = self._span(meta)
        if data in _FIXED:
            cls, kwargs = _FIXED[data]
            return cls(span=span, **kwargs)
        if data in _RENAMES:
            return ast.Rename(_RENAMES[data], self._text(ch[0]), self._text(ch[1]), span)
        if data in _BUILDINGS:
            return ast.Rename("building", ast.Text(_BUILDINGS[data], span),
                              self._text(ch[0]), span)
        if data in _AMOUNTS:
            field, what = _AMOUNTS[data]
            return (field, self._money(ch[0], what), span)
        raise AssertionError(f"grammar alias {data!r} has no builder")  # a bug, not a user's

    # -- file

    def items(self, meta, ch):
        return tuple(ch)

    def start(self, meta, ch):
        title, rest = ch[0], ch[1:]
        extends = rest.pop(0) if rest and isinstance(rest[0], ast.Extends) else None
        return ast.File(self.path, title, extends, tuple(rest), self._span(meta))

    def header(self, meta, ch):
        return self._text(ch[0])

    def extends(self, meta, ch):
        return ast.Extends(self._text(ch[0]), self._span(meta))

    # -- board

    def board(self, meta, ch):
        return ast.Board(tuple(ch), self._span(meta))

    def space(self, meta, ch):
        name, kind, attrs_ = self._text(ch[0]), self._name(ch[1]), ch[2:]
        fields: dict = {}
        first: dict = {}
        for key, value, span in attrs_:
            if key in fields:
                self._error("E009", f"the space '{name.value}' has '{key}' twice", span,
                            hint=f"keep one '{key}'", notes=[("first given here", first[key])])
                continue
            fields[key], first[key] = value, span
        return ast.SpaceDecl(name, kind, span=self._span(meta), **fields)

    def group(self, meta, ch):
        return ("group", self._text(ch[0]), self._span(meta))

    def _long(self, listed, what: str, span: ast.Span) -> bool:
        """E209 if a list holds more than MAX_RENTS entries."""
        if len(listed) <= MAX_RENTS:
            return False
        self._error("E209", f"{what} lists {len(listed):,} entries, at most {MAX_RENTS}", span,
                    hint="a rent table has one entry per level of building or lot held")
        return True

    def rents(self, meta, ch):
        if self._long(ch, "this rent table", self._span(meta)):
            ch = ch[:MAX_RENTS]
        return ("rents", tuple(self._money(t, "a rent") for t in ch), self._span(meta))

    def multipliers(self, meta, ch):
        if self._long(ch, "this list of dice multipliers", self._span(meta)):
            ch = ch[:MAX_RENTS]
        return ("multipliers", tuple(ast.Count(self._int(t), self._tspan(t)) for t in ch),
                self._span(meta))

    # -- dice and decks

    def die(self, meta, ch):
        faces: list[int] = []
        names: list[tuple[int, ast.Text]] = []
        symbols: list[tuple[ast.Text, ast.Text | None]] = []
        for part in ch[1:]:
            if part[0] == "names":
                names.append(part[1])
            elif part[0] == "symbol":
                symbols.append(part[1])
            else:
                faces.extend(part[1])
        listed = max(len(faces) + len(symbols), len(names))
        if listed > MAX_FACES:
            self._error("E209", f"die '{ch[0].value[1:-1]}' lists {listed:,} faces, at most "
                        f"{MAX_FACES:,}", self._span(meta),
                        hint="a die of more faces than this is surely a slip")
            faces, names, symbols = faces[:MAX_FACES], names[:MAX_FACES], symbols[:MAX_FACES]
        return ast.Die(self._text(ch[0]), tuple(faces), tuple(names), self._span(meta),
                       tuple(symbols))

    def face_range(self, meta, ch):
        low, high = self._int(ch[0]), self._int(ch[1])
        # After E208 the die keeps faces in place of the range (the checker goes on): the
        # range read lowest first, or its first _MAX_FACES faces.
        if low > high:
            self._error("E208", f"the face range {low}..{high} is empty", self._span(meta),
                        hint=f"write the lowest face first: {high}..{low}")
            low, high = high, low
        elif high - low >= _MAX_FACES:
            self._error("E208", f"a die has at most {_MAX_FACES} faces, "
                        f"{low}..{high} gives {high - low + 1}", self._span(meta))
        high = min(high, low + _MAX_FACES - 1)
        return ("faces", tuple(range(low, high + 1)))

    def face_one(self, meta, ch):
        return ("faces", (self._int(ch[0]),))

    def face_name(self, meta, ch):
        return ("names", (self._int(ch[0]), self._text(ch[1])))

    def face_symbol(self, meta, ch):
        side = self._text(ch[1]) if len(ch) > 1 else None
        return ("symbol", (self._text(ch[0]), side))

    def token_decl(self, meta, ch):
        side = self._text(ch[2]) if len(ch) > 2 else None
        return ast.TokenDecl(self._text(ch[0]), self._text(ch[1]), side, self._span(meta))

    def side_decl(self, meta, ch):
        return ast.SideDecl(self._text(ch[0]), tuple(self._text(t) for t in ch[1:]),
                            self._span(meta))

    def deck(self, meta, ch):
        return ast.Deck(self._text(ch[0]), tuple(ch[1:]), self._span(meta))

    def card(self, meta, ch):
        return ast.Card(self._text(ch[0]), self._text(ch[1]), self._rent_factors(ch[2]),
                        self._span(meta))

    # -- rules

    def _rule(self, meta, name, body, override=None, target=None):
        cite, statements = None, []
        for item in body:
            if isinstance(item, ast.Cite):
                if cite is None and not statements:
                    cite = item
                    continue
                self._error("E013", "a rule has one cite, on its first line", item.span,
                            hint="move the cite to the line after the rule header")
                if cite is None:
                    cite = item  # the rule is cited all the same: no W101 besides
                continue
            statements.append(item)
        return ast.Rule(self._name(name), cite, tuple(statements), override,
                        target, self._span(meta))

    def rule(self, meta, ch):
        return self._rule(meta, ch[0], ch[1:])

    def replace_rule(self, meta, ch):
        return self._rule(meta, ch[0], ch[1:], "replace", self._name(ch[0]))

    def before_rule(self, meta, ch):
        return self._rule(meta, ch[1], ch[2:], "before", self._name(ch[0]))

    def after_rule(self, meta, ch):
        return self._rule(meta, ch[1], ch[2:], "after", self._name(ch[0]))

    def remove(self, meta, ch):
        return ast.Remove(self._name(ch[0]), self._span(meta))

    def cite(self, meta, ch):
        return ast.Cite(ch[0].value[1:-1], ch[1].value[1:-1], self._span(meta))

    def set_stmt(self, meta, ch):
        return ast.Set(self._name(ch[0]), ch[1], self._span(meta))

    def param_stmt(self, meta, ch):
        return ast.Set(self._name(ch[0]), ch[1], self._span(meta), parameter=True)

    def pot(self, meta, ch):
        return ast.Pot(self._text(ch[0]), self._span(meta))

    def money(self, meta, ch):
        return ast.Money(self._int(ch[0]), self._span(meta))

    def count(self, meta, ch):
        return ast.Count(self._int(ch[0]), self._span(meta))

    def percent(self, meta, ch):
        return ast.Percent(self._int(ch[0]), self._span(meta))

    def range(self, meta, ch):
        return ast.Range(self._int(ch[0]), self._int(ch[1]), self._span(meta))

    def word(self, meta, ch):
        return ast.Word(ch[0].value, self._span(meta))

    def text(self, meta, ch):
        return ast.Text(ch[0].value[1:-1], self._span(meta))

    def currency(self, meta, ch):
        return ast.Currency(self._text(ch[0]), self._span(meta))

    def option(self, meta, ch):
        title = self._text(ch[1]) if len(ch) > 1 and isinstance(ch[1], Token) else None
        items = ch[2:] if title is not None else ch[1:]
        return ast.Option(self._name(ch[0]), title, tuple(items), self._span(meta))

    # -- when

    def when(self, meta, ch):
        event, *conditions, effects = ch
        return ast.When(event, tuple(conditions), self._rent_factors(effects, event),
                        self._span(meta))

    def _rent_factors(self, effects, event=None):
        """`rent xN` standing alone multiplies the rent of `when rent is due`; elsewhere
        it must follow `advance to the nearest ...` (E010)."""
        out = []
        for e in effects:
            if isinstance(e, ast.MultiplyRent) and not isinstance(event, ast.RentDue):
                self._error("E010", f"the rent modifier 'rent x{e.factor}' must follow "
                            "'advance to the nearest ...'", e.span,
                            hint="write it right after the advance: "
                            f"advance to the nearest railroad, rent x{e.factor}; or multiply "
                            "a rent with: when rent is due on ...: rent x2")
                continue
            out.append(e)
        return tuple(out)

    def condition(self, meta, ch):
        # `unless` negates the test, and so does its `not`: `unless the player is not in jail`;
        # `unless` before any other condition is `if not (...)`.
        node, unless, span = ch[1], ch[0].type == "UNLESS", self._span(meta)
        if isinstance(node, ast.Condition):
            return attrs.evolve(node, negated=node.negated != unless, span=span)
        if unless:
            return ast.Not(node, span)
        return attrs.evolve(node, span=span)

    def or_(self, meta, ch):
        return ast.Or(tuple(ch), self._span(meta))

    def and_(self, meta, ch):
        return ast.And(tuple(ch), self._span(meta))

    def not_(self, meta, ch):
        return ast.Not(ch[-1], self._span(meta))

    # -- expressions (the operators; the factors are the vocabulary's)

    def plus(self, meta, ch):
        terms = tuple(self._literal(t) if isinstance(t, Token) else t for t in ch)
        first = units.unit(terms[0])
        for t in terms[1:]:
            u = units.unit(t)
            if u != first:
                self._error("E210", f"this sum adds {units.UNIT_NAMES.get(u, u)} "
                            f"'{units.shown(t)}' to {units.UNIT_NAMES.get(first, first)} "
                            f"'{units.shown(terms[0])}'", self._span(meta),
                            hint="add values of one unit: money to money, counts to counts")
                self.unit_errors.add(id(node := ast.Plus(terms, self._span(meta))))
                return node
        return ast.Plus(terms, self._span(meta))

    def times(self, meta, ch):
        tok, operand = ch[0], self._operand(ch[1])
        n = self._int(tok)
        u = units.unit(operand)
        span = self._span(meta)
        bad = (tok.type == "MONEY" and u != "count") or (tok.type == "INT" and u == "percent")
        if tok.type == "MONEY" and u != "count":
            self._error("E210", f"money times a count is money, found {tok.value} times "
                        f"{units.UNIT_NAMES.get(u, u)} '{units.shown(operand)}'", span,
                        hint=f"write '{n} times {units.shown(operand)}'" if u == "money"
                        else "multiply money by a count")
        elif tok.type == "INT" and u == "percent":
            self._error("E210", f"{n} times a percentage is no amount, found "
                        f"'{units.shown(operand)}'", span,
                        hint="a percentage is taken of an amount: N% of ...")
        node = ast.Times(n, "money" if tok.type == "MONEY" else "count", operand, span)
        if bad:
            self.unit_errors.add(id(node))
        return node

    def percent_of(self, meta, ch):
        operand = self._operand(ch[1])
        span = self._span(meta)
        bad = units.unit(operand) == "percent"
        if bad:
            self._error("E210", f"a percentage is taken of money or a count, found a "
                        f"percentage '{units.shown(operand)}'", span,
                        hint="write the percentage of an amount: 10% of the player's cash")
        node = ast.PercentOf(self._int(ch[0]), operand, span)
        if bad:
            self.unit_errors.add(id(node))
        return node

    def per_owned(self, meta, ch):
        tok, thing, who = ch
        return ast.PerOwned(self._int(tok), "money" if tok.type == "MONEY" else "count",
                            self._name(thing), who, self._span(meta))

    def _operand(self, item):
        return self._literal(item) if isinstance(item, Token) else item

    def _literal(self, tok: Token):
        """A MONEY, INT or PERCENT token in an expression, as its value node."""
        cls = {"MONEY": ast.Money, "INT": ast.Count, "PERCENT": ast.Percent}[tok.type]
        return cls(self._int(tok), self._tspan(tok))

    def who_player(self, meta, ch):
        return "player"

    def who_owner(self, meta, ch):
        return "owner"

    def who_partner(self, meta, ch):
        return "partner"

    def cmp_ge(self, meta, ch):
        return "ge"

    def cmp_le(self, meta, ch):
        return "le"

    def cmp_gt(self, meta, ch):
        return "gt"

    def cmp_lt(self, meta, ch):
        return "lt"

    def first(self, meta, ch):
        return 1

    def second(self, meta, ch):
        return 2

    def third(self, meta, ch):
        return 3

    def fourth(self, meta, ch):
        return 4

    def fifth(self, meta, ch):
        return 5

    def sixth(self, meta, ch):
        return 6

    # -- permissions

    def permission(self, meta, ch):
        # ch: NOT, the action, the conditions
        action, conditions = ch[1], tuple(ch[2:])
        start, end = getattr(meta, "start_pos", None), getattr(meta, "end_pos", None)
        text = " ".join(self.text[start:end].split()) if start is not None else ""
        return ast.Permission(action, conditions, self._span(meta), text)

    # -- effects

    def choice(self, meta, ch):
        options = tuple(o for o, _ in ch)
        span = self._span(meta)
        if len(options) < 2:
            self._error("E308", "a choice needs two options or more", span,
                        hint=self._one_option_hint(options[0]))
        return ast.Choice(options, tuple(t for _, t in ch), span)

    def _one_option_hint(self, effects: tuple) -> str:
        """E308's hint: for effects joined by ',' (one option), the choice of them written
        with ';' between options."""
        if len(effects) < 2:
            return "add '; OPTION' (e.g. '; nothing'), or drop 'the player chooses one:'"
        spans = [e.span for e in effects]
        line = spans[0].line
        if self._lines is None or any(s.line != line or s.end_line != line for s in spans):
            written = "collect $50; advance to \"GO\""
        else:
            text = self._lines[line - self.offset - 1]
            written = "; ".join(text[s.column - 1:s.end_column - 1] for s in spans)
        return ("options are separated by ';', and ',' joins the effects of one option: "
                f"the player chooses one: {written}")

    def choice_option(self, meta, ch):
        effects = self.effects(meta, ch)
        text = ""
        if self._lines is not None and meta.line == meta.end_line:
            text = self._lines[meta.line - 1][meta.column - 1:meta.end_column - 1]
        return effects, text

    def dice_move(self, meta, ch):
        return self._dice_decl("move", meta, ch)

    def dice_doubles(self, meta, ch):
        return self._dice_decl("doubles", meta, ch)

    def dice_triples(self, meta, ch):
        return self._dice_decl("triples", meta, ch)

    def _dice_decl(self, role, meta, ch):
        return ast.DiceDecl(role, tuple(self._text(t) for t in ch), self._span(meta))

    def effects(self, meta, ch):
        out: list = []
        for item in ch:
            if not isinstance(item, _Modifier):
                out.append(_from_pot(item))
                continue
            prev = out[-1] if out else None
            modifier = item.primitive
            written = modifier.title
            cls, field = modifier.modifies
            if prev is None and modifier.node is not None:
                out.append(modifier.node(span=item.span, **item.kwargs))  # judged by `when`
                continue
            if not isinstance(prev, cls):
                self._error("E010", f"the rent modifier '{written}{item.value}' must follow "
                            "'advance to the nearest ...'", item.span,
                            hint="write it right after the advance: "
                            f"advance to the nearest railroad, {written}{item.value}")
                continue
            if getattr(prev, field) != attrs.fields_dict(cls)[field].default:
                self._error("E010", f"the rent modifier '{written}...' is given twice", item.span)
                continue
            span = ast.Span(prev.span.file, prev.span.line, prev.span.column,
                            item.span.end_line, item.span.end_column)
            out[-1] = attrs.evolve(prev, span=span, **{field: item.value})
        return tuple(out)
