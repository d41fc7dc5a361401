"""The resolved rulebook as its author needs to see it (`rulelang show`): the rules in force in
their order, each with the file and line it comes from and what it replaced; the rules
removed; the options and parameters; every setting with the `set` line its value comes from;
the board, the decks and the dice.

`describe(path, ...)` gathers it into plain frozen objects (`Description`), which the command
line prints and the language server reads; `Description.to_json()` is the shape of `rulelang
show --json`.
"""

from __future__ import annotations

from typing import Iterable

from attrs import frozen

from rulelang import ast
from rulelang.files import source_text

__all__ = ["Origin", "RuleShown", "RemovedShown", "OptionShown", "SettingShown", "SpaceShown",
           "DeckShown", "DieShown", "Description", "describe", "SECTIONS"]

SECTIONS = ("rules", "options", "settings", "board", "decks", "dice")


@frozen
class Origin:
    """Where something is written: a file and a 1-based line."""

    file: str
    line: int

    @classmethod
    def of(cls, span: ast.Span) -> Origin:
        return cls(span.file, span.line)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line}


@frozen
class RuleShown:
    """A rule in force. `how`: "new", "replace", "before" or "after" (placed against the rule
    `target`); `replaced`: where the rule it replaced was written."""

    name: str
    origin: Origin
    how: str
    target: str | None
    replaced: Origin | None
    cite: tuple[str, str] | None

    def to_json(self) -> dict:
        return {"name": self.name, **self.origin.to_json(), "how": self.how,
                "target": self.target,
                "replaced": self.replaced.to_json() if self.replaced else None,
                "cite": list(self.cite) if self.cite else None}


@frozen
class RemovedShown:
    """A rule of a parent that a `remove rule` took out."""

    name: str
    origin: Origin  # where the rule was written
    removed_by: Origin  # the `remove rule` line

    def to_json(self) -> dict:
        return {"name": self.name, **self.origin.to_json(),
                "removed_by": self.removed_by.to_json()}


@frozen
class OptionShown:
    name: str
    title: str | None
    on: bool
    origin: Origin

    def to_json(self) -> dict:
        return {"name": self.name, "title": self.title, "on": self.on, **self.origin.to_json()}


@frozen
class SettingShown:
    """A setting in force: its value as the rulebook writes it, and the line it comes from
    (None: the engine's default). `rule`: the rule holding that line (None: a top-level
    `set`, a parameter or the command line); `parameter`: agreed before a game."""

    name: str
    value: str
    origin: Origin | None
    rule: str | None
    parameter: bool

    def to_json(self) -> dict:
        return {"name": self.name, "value": self.value,
                "origin": self.origin.to_json() if self.origin else None,
                "rule": self.rule, "parameter": self.parameter}


@frozen
class SpaceShown:
    index: int
    name: str
    kind: str
    group: str | None
    price: int
    rents: tuple[int, ...]

    def to_json(self) -> dict:
        return {"index": self.index, "name": self.name, "kind": self.kind, "group": self.group,
                "price": self.price, "rents": list(self.rents)}


@frozen
class DeckShown:
    name: str
    cards: int

    def to_json(self) -> dict:
        return {"name": self.name, "cards": self.cards}


@frozen
class DieShown:
    name: str
    faces: tuple[int | str, ...]

    def to_json(self) -> dict:
        return {"name": self.name, "faces": list(self.faces)}


@frozen
class Description:
    title: str
    files: tuple[str, ...]  # the played file first, then the files it extends
    currency: str
    rules: tuple[RuleShown, ...]
    removed: tuple[RemovedShown, ...]
    options: tuple[OptionShown, ...]
    settings: tuple[SettingShown, ...]
    spaces: tuple[SpaceShown, ...]
    decks: tuple[DeckShown, ...]
    dice: tuple[DieShown, ...]

    def to_json(self, sections: Iterable[str] = SECTIONS) -> dict:
        """`rulelang show --json`: the title and files, then each section asked for."""
        sections = set(sections)
        out: dict = {"title": self.title, "files": list(self.files), "currency": self.currency}
        if "rules" in sections:
            out["rules"] = [r.to_json() for r in self.rules]
            out["removed"] = [r.to_json() for r in self.removed]
        if "options" in sections:
            out["options"] = [o.to_json() for o in self.options]
        if "settings" in sections:
            out["settings"] = [s.to_json() for s in self.settings]
        if "board" in sections:
            out["board"] = [s.to_json() for s in self.spaces]
        if "decks" in sections:
            out["decks"] = [d.to_json() for d in self.decks]
        if "dice" in sections:
            out["dice"] = [d.to_json() for d in self.dice]
        return out


def describe(path: str, options: Iterable[str] = (), parameters: Iterable[str] = (),
             include_path: Iterable[str] = (), rulebook=None) -> Description:
    """The description of the rules file `path` (and the files it extends) with `options`
    switched on and `parameters` ("NAME=VALUE") agreed; raises RuleErrors as `rulelang.load`
    does when the rulebook has errors. `rulebook`: the same, already loaded."""
    from rulelang import load
    from rulelang.resolve import load_chain, merge

    options, parameters = tuple(options), tuple(parameters)
    if rulebook is None:
        rulebook = load(path, options, parameters, include_path)  # the checks, the board
    overrides = ()
    if parameters:
        from rulelang.parse import parse_override

        overrides = tuple(parse_override(p) for p in parameters)
    chain = load_chain(path, include_path)
    history: list = []
    program, _ = merge(chain, options, overrides, history)
    return Description(
        title=program.title.value,
        files=tuple(f.path for f in chain),
        currency=rulebook.currency,
        rules=_rules(program, history),
        removed=tuple(RemovedShown(old.name.name, Origin.of(old.span), Origin.of(by.span))
                      for verb, old, by in history if verb == "remove"),
        options=_options(chain, set(options)),
        settings=_settings(program, rulebook),
        spaces=tuple(SpaceShown(sp.index, sp.name, sp.kind,
                                rulebook.group_names[sp.group] if sp.group >= 0 else None,
                                sp.price, sp.rents) for sp in rulebook.spaces),
        decks=tuple(DeckShown(d.name, len(d.cards)) for d in rulebook.decks),
        dice=tuple(DieShown(name, tuple(faces))
                   for name, faces in zip(_die_names(rulebook), rulebook.dice)),
    )


def _rules(program: ast.Program, history: list) -> tuple[RuleShown, ...]:
    replaced = {id(new): old for verb, old, new in history if verb == "replace"}
    shown = []
    for rule in program.rules:
        old = replaced.get(id(rule))
        cite = (rule.cite.source, rule.cite.section) if rule.cite else None
        shown.append(RuleShown(rule.name.name, Origin.of(rule.span), rule.override or "new",
                               rule.target.name if rule.target else None,
                               Origin.of(old.span) if old is not None else None, cite))
    return tuple(shown)


def _options(chain: list[ast.File], on: set[str]) -> tuple[OptionShown, ...]:
    found: dict[str, OptionShown] = {}

    def visit(items) -> None:
        for item in items:
            if isinstance(item, ast.Option):
                name = item.name.name
                found[name] = OptionShown(name, item.title.value if item.title else None,
                                          name in on, Origin.of(item.span))
                visit(item.items)

    for file in reversed(chain):  # a child's option of the same name is the one shown
        visit(file.items)
    return tuple(found.values())


def _settings(program: ast.Program, rulebook) -> tuple[SettingShown, ...]:
    """Every setting, in the engine's order, with the `set` line in force (the same order as
    compile.settings_of: the rules' lines in rule order, then the top-level ones, then the
    command line's)."""
    import attrs

    last: dict[str, tuple[ast.Set, str | None]] = {}
    for rule in program.rules:
        for statement in rule.body:
            if isinstance(statement, ast.Set):
                last[statement.name.name] = (statement, rule.name.name)
    for statement in (*program.settings, *program.overrides):
        last[statement.name.name] = (statement, None)
    shown = []
    for field in attrs.fields(type(rulebook.settings)):
        value = getattr(rulebook.settings, field.name)
        found = last.get(field.name)
        if found is None:
            shown.append(SettingShown(field.name, _value(field.name, value, rulebook.currency),
                                      None, None, False))
            continue
        statement, rule = found
        written = _written(statement.value.span) or _value(field.name, value, rulebook.currency)
        shown.append(SettingShown(field.name, written, Origin.of(statement.span), rule,
                                  statement.parameter))
    return tuple(shown)


def _value(name: str, value, currency: str) -> str:
    """A value the engine gives a setting nobody sets, as a rules file would write it."""
    from rulelang.vocab.settings import SETTINGS

    kind = SETTINGS[name].type
    if kind == "money":
        return f"{currency}{value}"
    if kind == "percent":
        return f"{value}%"
    if kind == "flag":
        return "yes" if value else "no"
    if kind == "range":
        return f"{value[0]} to {value[1]}"
    if kind == "pot":
        return f'"{value}"' if value else "the bank"
    return str(value)


def _written(span: ast.Span) -> str | None:
    """The text of a one-line span as its file has it (None if it cannot be read)."""
    text = source_text(span.file)
    if text is None or span.line != span.end_line:
        return None
    lines = text.splitlines()
    if not 0 < span.line <= len(lines):
        return None
    return lines[span.line - 1][span.column - 1:span.end_column - 1] or None


def _die_names(rulebook) -> list[str]:
    names = list(rulebook.die_names)
    return names + [f"die {i + 1}" for i in range(len(names), len(rulebook.dice))]
