"""What an editor asks of a rules file being written: `analyse` checks its text (unsaved, as
the editor has it) and keeps its names; `reference_at` says what the word at a position
names and `definition` where it is declared (rulelang.hover documents it).

No editor protocol here (rulelang.lsp speaks it): positions are 1-based lines and columns
counted in characters, as in `ast.Span`, in the text as the editor has it. A text that does
not parse still gets its diagnostics; its names are then those of its last text that parsed,
or at least those of the files it extends.
"""

from __future__ import annotations

import re
from typing import Iterator

import attrs
from attrs import frozen

from rulelang import ast
from rulelang.check import check_chain
from rulelang.diagnostics import Diagnostic, RuleError, RuleErrors, by_position, limited
from rulelang.recover import without_comment
from rulelang.resolve import load_chain, merge

__all__ = ["Analysis", "Reference", "analyse", "reference_at", "definition", "names_in_scope",
           "items_of", "word_at", "code_of", "KEYWORDS"]

# The words of the language's structure (the vocabulary's words are documented by their
# declarations, rulelang.vocab): what each one opens, and the section of docs/language.md.
KEYWORDS = {
    "rulebook": ('rulebook "Title"', "the first line of every rules file: its title",
                 "The header"),
    "extends": ('extends "file.rules"', "the rulebook this one starts from: its rules, "
                "board, decks and settings, which this file then changes; a path relative "
                "to this file, or an installed rulebook's name", "Extending a rulebook"),
    "rule": ("rule NAME:", "a rule: an optional `cite`, then its `set`, `when` and `a player "
             "may not` lines, indented", "Rules"),
    "replace": ("replace rule NAME:", "a rule that takes the place of the inherited rule "
                "NAME, where it stood", "Extending a rulebook"),
    "remove": ("remove rule NAME", "drops the inherited rule NAME", "Extending a rulebook"),
    "before": ("before TARGET rule NAME:", "a new rule placed just before the rule TARGET",
               "Extending a rulebook"),
    "after": ("after TARGET rule NAME:", "a new rule placed just after the rule TARGET",
              "Extending a rulebook"),
    "cite": ('cite "source", "section"', "where the rule comes from: the first line of a rule",
             "Rules"),
    "set": ("set NAME = VALUE", "gives a setting its value (rulelang explain NAME)",
            "Settings"),
    "parameter": ("parameter NAME = VALUE", "a setting the players agree on before a game: "
                  "the value is the default, `rulelang run --set NAME=VALUE` changes it",
                  "Parameters"),
    "when": ("when EVENT [if CONDITION]: EFFECT, EFFECT", "what happens on an event, when "
             "the conditions hold", "Events"),
    "option": ('option NAME "Title":', "items in force only when the option is switched on "
               "(`--option NAME`)", "Options"),
    "board": ("board:", 'the spaces in order from the start, one a line: `"Name": KIND in '
              '"Group", price $N, ...`', "The board"),
    "deck": ('deck "Name":', 'a deck of cards, one a line: `card "ID" "Title": EFFECTS`',
             "Decks and cards"),
    "card": ('card "ID" "Title": EFFECT, ...', "one card of a deck and what it does",
             "Decks and cards"),
    "die": ('die "Name" faces 1..6', "a die and its faces (a face may be named)", "Dice"),
    "dice": ('dice "A", "B" move the pawn', "which dice move the pawn, make doubles or "
             "triples", "Dice"),
    "token": ('token "Name" starts on "Space"', "a token that is not a player's pawn",
              "Tokens, sides and battles"),
    "side": ('side "Name": "Character", ...', "a side the players' characters belong to",
             "Tokens, sides and battles"),
    "pot": ('pot "Name"', "an account of its own that money moves into and out of", "Pots"),
    "rename": ('rename space "Old" to "New"', "renames an inherited space, group, deck, house "
               "or hotel", "Extending a rulebook"),
    "currency": ('currency "Name"', "the name of the money", "The header"),
}


@frozen
class Analysis:
    """One text of a rules file: its diagnostics, and the ASTs its names come from.

    file is the AST of this text, or of the last text of the file that parsed (`stale`),
    or None; parents are the files it extends, nearest first; program is the rulebook they
    make (options off), None if it cannot be resolved."""

    path: str
    text: str
    diagnostics: tuple[Diagnostic, ...]
    file: ast.File | None = None
    parents: tuple[ast.File, ...] = ()
    program: ast.Program | None = None
    stale: bool = False

    @property
    def chain(self) -> tuple[ast.File, ...]:
        return ((self.file,) if self.file is not None else ()) + self.parents


@frozen
class Reference:
    """What a word of the text names: its kind ("space", "deck", "rule", "setting",
    "option", "token", "pot", "die", "face", "file", "primitive", "keyword"), the name, the
    span of the word, and the node it was read from (None when read from the text alone)."""

    kind: str
    name: str
    span: ast.Span
    node: object = None
    primitive: object = None  # the vocabulary's declaration of a "primitive"
    inherited: bool = False  # a rule named as the target of replace/before/after/remove


_EXTENDS = re.compile(r'^extends\s+"([^"\n]*)"', re.M)


def analyse(path: str, text: str, previous: Analysis | None = None,
            include_path=()) -> Analysis:
    """Check `text` as the content of `path`; if it does not parse, navigation goes on with
    the ASTs of `previous` (or of the files its `extends` line names)."""
    data = text.encode("utf-8", "surrogatepass")
    typed: list[Diagnostic] = []  # the AST builder's mistakes: the AST is whole all the same
    try:
        chain = load_chain(path, include_path, data, typed)
    except (RuleError, RuleErrors) as e:
        diags = tuple(limited(by_position(typed + e.diagnostics)))
        if previous is not None and previous.file is not None:
            return attrs.evolve(previous, text=text, diagnostics=diags, stale=True)
        parents, program = _parents_of(path, text, include_path)
        return Analysis(path, text, diags, None, parents, program, stale=True)
    _, diags = check_chain(chain, typed=typed)
    try:
        program, _ = merge(chain)
    except (RuleError, RuleErrors):
        program = None
    return Analysis(path, text, tuple(diags), chain[0], tuple(chain[1:]), program)


def _parents_of(path: str, text: str, include_path) -> tuple[tuple[ast.File, ...],
                                                              ast.Program | None]:
    """The files the `extends` line of an unparsable text names, and their rulebook."""
    m = _EXTENDS.search(text)
    if m is None:
        return (), None
    stub = f'rulebook "stub"\nextends "{m.group(1)}"\n'.encode()
    try:
        chain = load_chain(path, include_path, stub)[1:]
        return tuple(chain), merge(chain)[0] if chain else None
    except (RuleError, RuleErrors):
        return (), None


# ---------------------------------------------------------------- the word at a position


def _children(node) -> Iterator[tuple[object, str]]:
    """The nodes directly inside `node`, with the name of the field holding each."""
    for f in attrs.fields(type(node)):
        if f.name == "span":
            continue
        value = getattr(node, f.name)
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, tuple):
                stack.extend(reversed(v))
            elif attrs.has(type(v)):
                yield v, f.name


def _contains(span: ast.Span, line: int, column: int) -> bool:
    if span.line <= 0:
        return False
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


def _path_at(file: ast.File, line: int, column: int) -> list[tuple[object, str]]:
    """The nodes from the file down to the innermost one whose span holds the position,
    each with the field of its parent that holds it."""
    path: list[tuple[object, str]] = [(file, "")]
    node = file
    while True:
        inner = [(c, f) for c, f in _children(node)
                 if _contains(c.span, line, column)] if attrs.has(type(node)) else []
        if not inner:
            return path
        # the narrowest first: a rule's name inside the rule
        child = min(inner, key=lambda cf: (cf[0].span.end_line - cf[0].span.line,
                                           cf[0].span.end_column - cf[0].span.column))
        path.append(child)
        node = child[0]


# Names in fields of nodes outside the vocabulary's primitives: (class, field) -> kind.
_FIELDS = {
    (ast.SpaceByName, "name"): "space", (ast.SpaceDecl, "name"): "space",
    (ast.TokenDecl, "start"): "space", (ast.TokenDecl, "name"): "token",
    (ast.TokenRef, "name"): "token", (ast.Deck, "name"): "deck", (ast.Die, "name"): "die",
    (ast.Pot, "name"): "pot", (ast.Set, "name"): "setting", (ast.Rule, "name"): "rule",
    (ast.Rule, "target"): "rule", (ast.Remove, "name"): "rule",
    (ast.Option, "name"): "option", (ast.Extends, "path"): "file",
    (ast.DiceDecl, "dice"): "die",
}
_RENAMED = {"space": "space", "deck": "deck"}


def reference_at(analysis: Analysis, line: int, column: int) -> Reference | None:
    """What the word at (line, column) of the analysed text names, or None."""
    if analysis.file is not None and not analysis.stale:
        found = _reference_of_node(analysis, line, column)
        if found is not None:
            return found
    return _reference_of_text(analysis, line, column)


def _reference_of_node(analysis: Analysis, line: int, column: int) -> Reference | None:
    from rulelang import vocab

    path = _path_at(analysis.file, line, column)
    node, field = path[-1]
    parent = path[-2][0] if len(path) > 1 else None
    if isinstance(node, (ast.Text, ast.Name)) and parent is not None:
        name = node.value if isinstance(node, ast.Text) else node.name
        kind = _FIELDS.get((type(parent), field))
        if isinstance(parent, ast.Rename):
            kind = _RENAMED.get(parent.what)
        p = vocab.primitive_of(parent)
        if kind is None and p is not None:
            param = next((q for q in p.params if q.name == field), None)
            if param is not None:
                kind = vocab.TYPES[param.type].names
        if kind in ("space", "deck", "token", "pot", "die", "face", "setting", "rule",
                    "option", "file"):
            inherited = isinstance(parent, ast.Remove) or (
                isinstance(parent, ast.Rule) and (field == "target" or (
                    parent.override == "replace")))
            return Reference(kind, name, node.span, node, inherited=inherited)
    for node, _ in reversed(path):
        p = vocab.primitive_of(node)
        if p is not None:
            return Reference("primitive", p.name, node.span, node, p)
    return None


_STRING = re.compile(r'"[^"\n]*"')
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _line(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""


def word_at(text: str, line: int, column: int) -> tuple[str, str, int, int] | None:
    """("string", its value, start, end) or ("word", ...) at a position; columns 1-based,
    end exclusive, the quotes inside a string's columns."""
    code = code_of(_line(text, line).rstrip("\r"))
    for m in _STRING.finditer(code):
        if m.start() < column <= m.end() + 1:
            return "string", m.group()[1:-1], m.start() + 1, m.end() + 1
    for m in _WORD.finditer(code):
        if m.start() < column <= m.end() + 1:
            return "word", m.group(), m.start() + 1, m.end() + 1
    return None


def code_of(line: str) -> str:
    """A line without its comment (a `#` outside quotes starts one)."""
    return without_comment(line)


def _reference_of_text(analysis: Analysis, line: int, column: int) -> Reference | None:
    found = word_at(analysis.text, line, column)
    if found is None:
        return None
    what, name, start, end = found
    span = ast.Span(analysis.path, line, start, line, end)
    src = _line(analysis.text, line).lstrip()
    if what == "string":
        if src.startswith("extends"):
            return Reference("file", name, span)
        for kind in ("space", "deck", "token", "pot", "die", "face"):
            if name in names_in_scope(analysis, kind):
                return Reference(kind, name, span)
        return None
    words = code_of(src).replace(":", " ").split()
    if (words[:2] in (["replace", "rule"], ["remove", "rule"]) and words[2:3] == [name]) or (
            words[:1] in (["before"], ["after"]) and words[1:2] == [name]):
        return Reference("rule", name, span, inherited=True)
    for kind in ("rule", "setting", "option"):
        if name in names_in_scope(analysis, kind):
            return Reference(kind, name, span)
    if name in KEYWORDS:
        return Reference("keyword", name, span)
    return None


# ---------------------------------------------------------------- names in scope


def names_in_scope(analysis: Analysis, kind: str) -> dict[str, ast.Span]:
    """Each name of `kind` the text may use, with the span of its declaration (the first
    one: three spaces are named "Chance")."""
    from rulelang.vocab import SETTINGS

    out: dict[str, ast.Span] = {}
    program = analysis.program
    if kind == "setting":
        return {name: ast.NOWHERE for name in SETTINGS}
    if kind == "rule":
        for file in reversed(analysis.chain):
            for rule in items_of(file.items, ast.Rule):
                out.setdefault(rule.name.name, rule.name.span)
        return out
    if kind == "option":
        for file in reversed(analysis.chain):
            for option in items_of(file.items, ast.Option):
                out.setdefault(option.name.name, option.name.span)
        return out
    if program is None:
        return out
    if kind == "space" and program.board is not None:
        for space in program.board.spaces:
            out.setdefault(space.name.value, space.name.span)
    declared = {"deck": program.decks, "token": program.tokens, "pot": program.pots,
                "die": program.dice}
    for decl in declared.get(kind, ()):
        out.setdefault(decl.name.value, decl.name.span)
    if kind == "face":
        for die in program.dice:
            for _, text in die.face_names:
                out.setdefault(text.value, text.span)
            for text, _ in die.symbols:
                out.setdefault(text.value, text.span)
    return out


def items_of(items, cls) -> Iterator:
    """The items of class `cls` among `items`, those inside options too."""
    for item in items:
        if isinstance(item, cls):
            yield item
        if isinstance(item, ast.Option):
            yield from items_of(item.items, cls)


# ---------------------------------------------------------------- definition


def definition(analysis: Analysis, ref: Reference) -> list[ast.Span]:
    """Where the name `ref` refers to is declared: a space's line of the board (every space
    of that name), a deck, an inherited rule, a setting's inherited `set`, a parent file
    (its first line)."""
    if ref.kind == "file":
        parent = analysis.parents[0] if analysis.parents else None
        return [ast.Span(parent.path, 1, 1, 1, 1)] if parent is not None else []
    if ref.kind == "rule":
        # an inherited rule: the nearest parent's; a rule placed against one of this file
        # (`after my_rule rule ...`) is found here last
        files = analysis.parents + analysis.chain[:1] if ref.inherited else analysis.chain
        for file in files:
            for rule in reversed(list(items_of(file.items, ast.Rule))):
                if rule.name.name == ref.name and rule.name.span != ref.span:
                    return [rule.span]
        return []
    if ref.kind == "setting":
        found = _inherited_set(analysis, ref.name)
        return [found.span] if found is not None else []
    if ref.kind == "space" and analysis.program is not None \
            and analysis.program.board is not None:
        return [s.span for s in analysis.program.board.spaces if s.name.value == ref.name]
    if ref.kind == "deck" and analysis.program is not None:
        return [d.span for d in analysis.program.decks if d.name.value == ref.name]
    span = names_in_scope(analysis, ref.kind).get(ref.name)
    return [span] if span is not None and span.line > 0 else []


def _inherited_set(analysis: Analysis, name: str) -> ast.Set | None:
    """The last `set NAME` of the parents in force (a rule's, else a top-level one)."""
    program = analysis.program
    here = analysis.path
    if program is None:
        return None
    found = None
    for rule in program.rules:
        for statement in rule.body:
            if isinstance(statement, ast.Set) and statement.name.name == name \
                    and statement.span.file != here:
                found = statement
    for statement in program.settings:
        if statement.name.name == name and statement.span.file != here:
            found = statement
    return found
