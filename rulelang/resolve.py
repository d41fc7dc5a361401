"""Files to one rulebook: `resolve` follows `extends`, switches options, applies overrides and
renames, and returns the effective `ast.Program` (or raises RuleErrors).

Merging goes from the oldest ancestor to the played file. Board, decks and dice come from
the nearest file declaring them (a child's `board:` replaces the parent's, a child's `deck
"X":` replaces deck X in place, a child's `die` lines replace all the dice). Rules keep the
parent's order: new rules are appended, `replace rule` swaps in place, `before`/`after`
insert, `remove rule` drops. A file's renames apply, after its own items, to everything
merged so far, so a child can rename its parent's spaces, groups and decks. Every element
keeps the span of the file and line that defined it.
"""

from __future__ import annotations

import difflib
import os
from typing import Iterable, Iterator

import attrs

from rulelang import ast, files
from rulelang.diagnostics import Diagnostic, Diagnostics, RuleError, RuleErrors, diagnostic
from rulelang.files import Library
from rulelang.source import (
    decode_source, normalize, parse_cached, parse_cached_lenient, read_source,
)

__all__ = ["resolve", "resolve_with_errors", "load_chain", "merge", "played_file",
           "did_you_mean", "closest"]


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """`did you mean 'x'?` for the closest candidate, or None.

    Case is ignored, and a word that begins a candidate ('rail' for 'railroad') wins over
    a mere resemblance ('jail').
    """
    best = closest(word, candidates)
    return f"did you mean '{best}'?" if best is not None else None


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate `did_you_mean` proposes, or None."""
    by_lower: dict[str, str] = {}
    for c in candidates:
        by_lower.setdefault(c.lower(), c)
    low = word.lower()
    prefixed = sorted((c for c in by_lower if c.startswith(low)), key=len)
    if low in by_lower:
        best = by_lower[low]
    elif prefixed and len(low) >= 3:
        best = by_lower[prefixed[0]]
    else:
        close = difflib.get_close_matches(low, list(by_lower), n=1, cutoff=0.6)
        best = by_lower[close[0]] if close else None
    return best


def resolve(path: str, options: Iterable[str] = (), overrides: Iterable[ast.Set] = (),
            include_path: Iterable[str] = ()) -> ast.Program:
    """The effective rulebook of `path` with the named options switched on."""
    program, diagnostics = resolve_with_errors(path, options, overrides, include_path)
    errors = [d for d in diagnostics if d.is_error]
    if errors:
        raise RuleErrors(errors)
    return program


def resolve_with_errors(path: str, options: Iterable[str] = (),
                        overrides: Iterable[ast.Set] = (),
                        include_path: Iterable[str] = ()) -> tuple[ast.Program,
                                                                   list[Diagnostic]]:
    """Like `resolve`, but the mistakes it can step over come back as diagnostics.

    An override or a rename that targets nothing, an unknown option and a second board are
    skipped, so the checker can still look at the rest (warnings about overrides that change
    nothing come back too); an unreadable, unparsable or
    cyclic chain of files still raises RuleError(s).
    """
    return merge(load_chain(str(path), include_path), options, overrides)


def merge(chain: list[ast.File], options: Iterable[str] = (),
          overrides: Iterable[ast.Set] = (),
          history: list | None = None) -> tuple[ast.Program, list[Diagnostic]]:
    """The Program of a chain from `load_chain`, and the mistakes stepped over.

    overrides are the `--set NAME=VALUE` of a command line (parse.parse_override): values
    for the rulebook's parameters, applied after every `set` of the files (check verifies
    that each names a declared parameter). history, if given, receives `(verb, rule, by)`
    for each rule a later file replaced or removed: the rule as it was and the `replace rule`
    (an ast.Rule) or `remove rule` (an ast.Remove) that did it (`rulelang show`).
    """
    options = tuple(dict.fromkeys(options))
    declared = [opt.name for f in chain for opt in _options(f.items)]
    names = {n.name for n in declared}
    errors: list[Diagnostic] = Diagnostics()
    for name in options:
        if name not in names:
            listed = ", ".join(sorted(names)) or "none"
            errors.append(diagnostic(
                "E406", f"there is no option '{name}' in this rulebook",
                chain[0].title.span,
                hint=did_you_mean(name, names) or f"its options: {listed}"))
    merger = _Merger(set(options), errors)
    merger.history = history
    for file in reversed(chain):
        merger.add(file)
    return ast.Program(
        title=chain[0].title,
        files=tuple(f.path for f in chain),
        board=merger.board,
        decks=tuple(merger.decks),
        dice=tuple(merger.dice),
        dice_decls=tuple(merger.dice_decls.values()),
        rules=tuple(merger.rules),
        settings=tuple(merger.settings),
        currency=merger.currency,
        options=options,
        declared_options=tuple(declared),
        tokens=tuple(merger.tokens.values()),
        sides=tuple(merger.sides.values()),
        pots=tuple(merger.pots),
        buildings=tuple(merger.buildings.items()),
        overrides=tuple(overrides),
    ), errors


def load_chain(path: str, include_path: Iterable[str] = (),
               data: bytes | None = None,
               typed: list[Diagnostic] | None = None) -> list[ast.File]:
    """The played file (`played_file`: an installed rulebook if no file is at `path`) and
    the files it extends, played first; E401/E402 on a broken chain, E419 for a played file
    that links out of the allowed directories or an `extends` outside them (`files.Library`),
    E420/E421 for a file that is not a regular file or is too large.

    data: the played file's bytes when they come from elsewhere than a file (`rulelang
    check -` reads standard input, the language server an editor's unsaved text): `path`
    then only names it, and its `extends` are looked up from its directory (the current
    directory for a bare name such as `<stdin>`). Such a text changes from one reading to
    the next: its AST is not kept in the cache.

    typed: if given, a file whose only errors are those its AST builder found
    (`parse.LENIENT_CODES`) is loaded all the same, and its errors appended to `typed`
    (`rulelang check` reports them with the checker's)."""
    def parsed(text: str, shown: str, cached: bool = True) -> ast.File:
        if not cached:
            from rulelang.parse import _parse_text_lenient

            file, errors = _parse_text_lenient(normalize(text), shown, typed is not None)
        elif typed is None:
            return parse_cached(text, shown)
        else:
            file, errors = parse_cached_lenient(text, shown)
        if typed is not None:
            typed.extend(errors)
        return file

    if data is None:
        path = played_file(path)
        library = Library.of(path, include_path)
        library.admit(path)
        file = parsed(read_source(path), path)
    else:
        library = Library.of(path, include_path)
        file = parsed(decode_source(data, path), path, cached=False)
    chain = [file]
    seen = {os.path.realpath(path): file}
    while file.extends is not None:
        ext = file.extends
        target = library.find(ext, file.path)
        real = os.path.realpath(target)
        if real in seen:
            loop = chain[chain.index(seen[real]):]
            cycle = " -> ".join([f.path for f in loop] + [loop[0].path])
            hint = "a rulebook cannot extend itself, directly or not"
            if len(loop) == 1 and files.installed_rulebook(ext.path.value) is not None:
                hint = (f"a path is looked up beside the file first, so this file hides the "
                        f"installed rulebook '{ext.path.value}': give it another name")
            raise RuleError("E402", f"the rulebooks extend each other in a cycle: {cycle}",
                            ext.span, hint=hint,
                            notes=[(f"'{f.path}' extends '{f.extends.path.value}' here",
                                    f.extends.span) for f in loop[:-1]])
        try:
            # The real path is read (the one found inside an allowed directory), shown as found
            parent = parsed(read_source(real, target), target)
        except RuleError as e:
            code = e.diagnostic.code
            if code not in ("E401", "E420", "E421"):
                raise
            hint = _extends_hint(ext.path.value, target) if code == "E401" \
                else e.diagnostic.hint
            raise RuleError(code, f"cannot read '{ext.path.value}' "
                            f"({e.diagnostic.message})", ext.path.span, hint=hint) from None
        seen[real] = parent
        chain.append(parent)
        file = parent
    return chain


def played_file(path: str) -> str:
    """The file to play for `path`: itself if it exists, else the installed rulebook at that
    relative path, `.rules` optional (`classic_1961.rules` or `classic_1961`,
    `house/no_auctions`); E401 if neither exists, with a hint naming a close installed
    rulebook or file of the folder."""
    if not files.missing(path):
        return path
    found = files.installed_rulebook(path)
    if found is not None:
        return found
    name = _closest_rulebook(path, files.installed_names())
    if name is not None:
        hint = f"did you mean the installed rulebook '{name}'?"
    else:
        hint = _nearby_rules(path, default=None)
    raise RuleError("E401", f"no such file '{path}'", ast.Span(path, 0, 0, 0, 0), hint=hint)


def _extends_hint(written: str, target: str) -> str:
    """The hint of an `extends` that names no file: a file of the folder close to it, else
    an installed rulebook close to it (written with `.rules`), else where paths start. (An
    installed rulebook of the very name, `.rules` optional, was found: `files.Library`.)"""
    near = _nearby_rules(target, default=None)
    if near is not None:
        return near
    above = _above(written, target)
    if above is not None:
        return above
    name = _closest_rulebook(written, files.installed_names())
    if name is not None:
        return f'did you mean the installed rulebook: extends "{name}"?'
    return "the path is relative to the file that extends it"


def _closest_rulebook(word: str, names: Iterable[str]) -> str | None:
    """The name of `names` closest to `word`, compared without their `.rules` ending (which
    every name shares, and which would make 'nothere.rules' resemble 'lotr.rules')."""
    stems = {n.removesuffix(".rules"): n for n in names}
    best = closest(word.removesuffix(".rules"), stems)
    return stems[best] if best is not None else None


def _nearby_rules(target: str, default: str | None = "the path is relative to the file "
                  "that extends it") -> str | None:
    folder = os.path.dirname(target) or "."
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".rules")]
    except OSError:
        names = []
    best = _closest_rulebook(os.path.basename(target), names)
    return f"did you mean '{best}'?" if best is not None else default


def _above(written: str, target: str, levels: int = 3) -> str | None:
    """A hint at a file of the name written in a folder above the one it was looked for in
    (`extends "ours.rules"` from sub/, when ours.rules is beside sub/): the relative path."""
    folder = os.path.dirname(target) or "."
    name = os.path.basename(target)
    for up in range(1, levels + 1):
        folder = os.path.dirname(os.path.abspath(folder))
        if os.path.isfile(os.path.join(folder, name)):
            path = "../" * up + written
            return (f'did you mean extends "{path}"? (paths are relative to the file that '
                    f"extends; a path out of the played file's folder needs "
                    f"--include-path)")
    return None


def _options(items: Iterable[ast.Item]) -> Iterator[ast.Option]:
    for item in items:
        if isinstance(item, ast.Option):
            yield item
            yield from _options(item.items)


# Which Text field of which node names a space, a group or a deck (for `rename`).
_RENAMED_FIELDS = {
    "space": {ast.SpaceDecl: "name", ast.SpaceByName: "name", ast.AdvanceTo: "space",
              ast.TokenDecl: "start"},
    "group": {ast.SpaceDecl: "group"},
    "deck": {ast.Deck: "name", ast.Draw: "deck"},
}


def _rewrite(node, fn):
    """`node` with `fn` applied to it and, recursively, to every node and tuple inside it."""
    if isinstance(node, tuple):
        new = tuple(_rewrite(n, fn) for n in node)
        return new if any(a is not b for a, b in zip(new, node)) else node
    if isinstance(node, ast.Span) or not attrs.has(type(node)):
        return node
    node = fn(node)
    changes = {}
    for field in attrs.fields(type(node)):
        value = getattr(node, field.name)
        new = _rewrite(value, fn)
        if new is not value:
            changes[field.name] = new
    return attrs.evolve(node, **changes) if changes else node


class _Merger:
    """The rulebook built so far, one file at a time from the oldest ancestor."""

    def __init__(self, options: set[str], errors: list[Diagnostic]):
        self.options = options
        self.errors = errors
        self.board: ast.Board | None = None
        self.decks: list[ast.Deck] = []
        self.dice: list[ast.Die] = []
        # which dice move the pawn, make doubles, make triples: by role, the latest in force
        self.dice_decls: dict[str, ast.DiceDecl] = {}
        self.rules: list[ast.Rule] = []
        self.settings: list[ast.Set] = []
        self.currency: ast.Currency | None = None
        # tokens and sides by name: a child's declaration of the same name replaces it
        self.tokens: dict[str, ast.TokenDecl] = {}
        self.sides: dict[str, ast.SideDecl] = {}
        self.pots: list[ast.Pot] = []
        self.buildings: dict[str, ast.Text] = {}
        self.has_parent = False
        self.history: list | None = None  # see merge

    def _error(self, code: str, message: str, span: ast.Span, hint: str | None = None,
               notes=()) -> None:
        self.errors.append(diagnostic(code, message, span, hint, notes))

    def _in_force(self, items: Iterable[ast.Item]) -> Iterator[ast.Item]:
        for item in items:
            if isinstance(item, ast.Option):
                if item.name.name in self.options:
                    yield from self._in_force(item.items)
            else:
                yield item

    def add(self, file: ast.File) -> None:
        items = list(self._in_force(file.items))
        if self.has_parent:
            self._unchanged_settings(items)
        inherited_decks = {d.name.value for d in self.decks}
        replaced: set[str] = set()
        dice: list[ast.Die] = []
        decls: dict[str, ast.DiceDecl] = {}
        board: ast.Board | None = None
        for item in items:
            if isinstance(item, ast.Board):
                if board is not None:
                    self._error("E415", "this file already has a board", item.span,
                                hint="a file declares one board; a child's board replaces "
                                "the parent's", notes=[("the first board is here", board.span)])
                    continue
                board = self.board = item
            elif isinstance(item, ast.Deck):
                self._add_deck(item, inherited_decks, replaced)
            elif isinstance(item, ast.Die):
                dice.append(item)
            elif isinstance(item, ast.DiceDecl):
                decls[item.role] = item  # the last of a role is in force
            elif isinstance(item, ast.Rule):
                self._add_rule(item)
            elif isinstance(item, ast.Remove):
                index = self._find_rule(item.name, "remove")
                if index is not None:
                    if self.history is not None:
                        self.history.append(("remove", self.rules[index], item))
                    del self.rules[index]
            elif isinstance(item, ast.Set):
                self.settings.append(item)
            elif isinstance(item, ast.Currency):
                self.currency = item
            elif isinstance(item, (ast.TokenDecl, ast.SideDecl)):
                self._add_named(item, file.path)
            elif isinstance(item, ast.Pot):
                self.pots.append(item)  # a duplicate is left to the checker
        if dice:
            self.dice = dice
            self.dice_decls = {}  # new dice: the parent's declarations name other dice
        self.dice_decls.update(decls)
        self._rename([item for item in items if isinstance(item, ast.Rename)])
        self.has_parent = True

    def _unchanged_settings(self, items: list[ast.Item]) -> None:
        """W109 for a `set` giving the value the parent rulebook already sets."""
        inherited: dict[str, ast.Set] = {}
        for stmt in [s for r in self.rules for s in r.body] + self.settings:
            if isinstance(stmt, ast.Set):
                inherited[stmt.name.name] = stmt
        sets = [s for item in items if isinstance(item, ast.Rule) and item.override != "replace"
                for s in item.body if isinstance(s, ast.Set)]
        for item in sets + [i for i in items if isinstance(i, ast.Set)]:
            before = inherited.get(item.name.name)
            # `parameter` where the parent has `set` makes the setting agreeable: a change
            if before is not None and before.value == item.value \
                    and (before.parameter or not item.parameter):
                self._error("W109", f"the setting '{item.name.name}' already has this value "
                            "in the rulebook this one extends", item.span,
                            hint="drop this line", notes=[("set here", before.span)])

    def _add_named(self, item, path: str) -> None:
        """A token or a side: a child's one replaces the parent's; twice in a file is E153/E154."""
        table = self.tokens if isinstance(item, ast.TokenDecl) else self.sides
        name = item.name.value
        first = table.get(name)
        if first is not None and first.span.file == path:
            what, code = (("token", "E153") if isinstance(item, ast.TokenDecl)
                          else ("side", "E154"))
            self._error(code, f"duplicate {what} '{name}'", item.name.span,
                        notes=[("the first is here", first.name.span)])
            return
        table[name] = item

    def _add_deck(self, deck: ast.Deck, inherited: set[str], replaced: set[str]) -> None:
        name = deck.name.value
        if name in inherited and name not in replaced:
            replaced.add(name)
            index = next(i for i, d in enumerate(self.decks) if d.name.value == name)
            self.decks[index] = deck
        else:
            self.decks.append(deck)  # a duplicate within one file is left to the checker

    def _add_rule(self, rule: ast.Rule) -> None:
        if rule.override is None:
            self.rules.append(rule)
            return
        index = self._find_rule(rule.target, rule.override)
        if index is None:
            self.rules.append(rule)  # E403 is reported; its body is still worth checking
            return
        if rule.override == "replace":
            # The same body under another cite restates the rule from its own source: a change
            old = self.rules[index]
            if (old.cite, old.body) == (rule.cite, rule.body):
                self._error("W109", f"this rule says what the rule '{rule.target.name}' it "
                            "replaces already says", rule.name.span,
                            hint="drop the replacement, or change what it says",
                            notes=[("the replaced rule is here", old.name.span)])
            if self.history is not None:
                self.history.append(("replace", old, rule))
            self.rules[index] = rule
        else:
            self.rules.insert(index + (rule.override == "after"), rule)

    def _find_rule(self, target: ast.Name, verb: str) -> int | None:
        for i, rule in enumerate(self.rules):
            if rule.name.name == target.name:
                return i
        names = [r.name.name for r in self.rules]
        verb = {"before": "place a rule before", "after": "place a rule after"}.get(verb, verb)
        hint = did_you_mean(target.name, names)
        if hint is None:
            hint = ("this rulebook extends nothing, so only its own earlier rules can be "
                    "targeted" if not self.has_parent else
                    "an override targets a rule of the rulebooks this one extends")
        self._error("E403", f"there is no rule '{target.name}' to {verb}", target.span,
                    hint=hint)
        return None

    def _rename(self, renames: list[ast.Rename]) -> None:
        """A file's renames, in their order, applied to everything merged so far in one pass:
        each renamed field's value goes through the renames in turn, as one pass per rename
        would take it (a themed rulebook renames dozens of spaces)."""
        known = {what: self._names(what) for what in _RENAMED_FIELDS}
        steps: list[tuple[dict, str, str]] = []
        for item in renames:
            old, new = item.old.value, item.new.value
            if old == new:
                self._error("W109", f"this renames the {item.what} '{old}' to its own name",
                            item.new.span, hint="drop this line")
                continue
            if item.what == "building":
                self.buildings[old] = item.new
                continue
            if old not in known[item.what]:
                self._apply_renames(steps)  # the hint reads the names as they now stand
                steps = []
                code = {"space": "E104", "group": "E108", "deck": "E105"}[item.what]
                self._error(code, f"unknown {item.what} '{old}'", item.old.span,
                            hint=did_you_mean(old, self._names(item.what)))
                continue
            known[item.what].discard(old)
            known[item.what].add(new)
            steps.append((_RENAMED_FIELDS[item.what], old, new))
        self._apply_renames(steps)

    def _apply_renames(self, steps: list[tuple[dict, str, str]]) -> None:
        if not steps:
            return

        def rename(node):
            changes = {}
            for fields, old, new in steps:
                field = fields.get(type(node))
                if field is None:
                    continue
                text = changes.get(field, getattr(node, field))
                if text is not None and text.value == old:
                    changes[field] = attrs.evolve(text, value=new)
            return attrs.evolve(node, **changes) if changes else node

        self.board = _rewrite(self.board, rename)
        self.decks = list(_rewrite(tuple(self.decks), rename))
        self.rules = list(_rewrite(tuple(self.rules), rename))
        self.tokens = {k: _rewrite(t, rename) for k, t in self.tokens.items()}

    def _names(self, what: str) -> set[str]:
        if what == "deck":
            return {d.name.value for d in self.decks}
        spaces = self.board.spaces if self.board else ()
        if what == "space":
            return {s.name.value for s in spaces}
        return {s.group.value for s in spaces if s.group is not None}
