"""Analysis of a resolved rulebook: `check` returns every diagnostic it finds, by position.

It never stops at the first problem and never changes the program. The vocabulary it checks
against is declared in `rulelang.vocab`: the settings, and the parameters of every event,
condition and effect (the names each one refers to, the bounds of its numbers, and the facts
that say where it may stand), besides the space kinds of `check_board`, the board's spaces,
decks and dice faces. `check_path` runs the earlier stages too and turns
their errors into diagnostics, so a caller always gets a list.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Iterator

import attrs

from rulelang import ast, units, vocab
from rulelang.check_board import PROPERTY_KINDS, SPACE_KINDS, Equipment, head_span, join
from rulelang.check_flow import Flow, doubles_dice, triples_dice
from rulelang.check_holes import Holes
from rulelang.check_tokens import check_themed
from rulelang.diagnostics import (
    Diagnostic, Diagnostics, RuleError, RuleErrors, by_position, diagnostic, limited,
)
from rulelang.vocab import SETTINGS, TYPES
from rulelang.vocab.types import ENGINE_CAUSES
from rulelang.vocab.game_events import MONEY, STILL
from rulelang.vocab.permissions import BUILDINGS, KINDS, SUBJECTS
from rulelang.resolve import did_you_mean, load_chain, merge

__all__ = ["check", "check_path", "check_chain", "SPACE_KINDS", "PROPERTY_KINDS",
           "TARGET_KINDS"]

# What `a KIND` and `the nearest KIND` may name: a space kind, any property, any space.
TARGET_KINDS = ("property", "space") + SPACE_KINDS
_OWNABLE = ("property",) + PROPERTY_KINDS
_UNITS = {
    "money": (ast.Money, "money like $50"),
    "count": (ast.Count, "a count like 3"),
    "percent": (ast.Percent, "a percentage like 10%"),
    "flag": (ast.Flag, "yes or no"),
    "range": (ast.Range, "a range like 2 to 8"),
    "choice": (ast.Word, "a choice"),
    "pot": (ast.Text, 'a pot\'s name in quotes, like "Free Parking jackpot"'),
}
_FORMS = {"money": "${}", "count": "{}", "percent": "{}%"}
_DECK_SIZES = (10, 32)  # cards in an ordinary deck: the editions have 16 or a few more
# Settings that contradict each other: (names, test on their values, message).
_CONSISTENT = (
    (("houses_per_hotel", "max_houses"), lambda per, most: per > most,
     "the setting 'houses_per_hotel' ({0}) is more than 'max_houses' ({1}): no lot could "
     "ever get a hotel"),
    (("hotels", "houses"), lambda hotels, houses: hotels > 0 and houses == 0,
     "the bank has {0} hotels but no houses ({1}): a hotel is built on houses, so none could "
     "ever be built"),
    (("auction_min_bid", "starting_cash"), lambda bid, cash: bid > cash,
     "the lowest bid, ${0}, is more than the starting cash, ${1}: no one could bid at the "
     "first auctions"),
)
# Every kind of name a rule can refer to: its code when unknown, and how the message says it.
# A new construct that names things adds a row and a `names` entry in _Checker.__init__,
# and gets "unknown ..." with "did you mean" like every other name. (Cards and characters
# are declared but never named by a rule, so they have no row.)
NAME_KINDS: dict[str, tuple[str, str]] = {
    "setting": ("E101", "unknown setting '{}'"),
    "kind": ("E103", "unknown kind of space '{}'"),
    "space": ("E104", "unknown space '{}'"),
    "deck": ("E105", "unknown deck '{}'"),
    "face": ("E106", "no die has a face named '{}'"),
    "option": ("E107", "unknown option '{}'"),
    "pot": ("E116", "unknown pot '{}'"),
    "token": ("E150", "unknown token '{}'"),
    "side": ("E151", "unknown side '{}'"),
    "die": ("E152", "unknown die '{}'"),
    "building": ("E103", "unknown kind of building '{}'"),
    "parameter": ("E418", "'{}' is not a parameter of this rulebook: it is not agreed "
                  "before a game"),
    "thing": ("E103", "unknown thing to count '{}': neither a kind of property nor a "
              "building"),
}
_VALUE_NAMES = {ast.Money: "money", ast.Count: "the count", ast.Percent: "the percentage",
                ast.Flag: "the flag", ast.Range: "the range", ast.Word: "the word",
                ast.Text: "the text"}


def check_path(path: str, options: Iterable[str] = (), overrides: Iterable[ast.Set] = (),
               include_path: Iterable[str] = (), data: bytes | None = None,
               ) -> tuple[ast.Program | None, list[Diagnostic]]:
    """Parse, resolve and check `path`; any stage's errors come back as diagnostics.

    overrides are the `--set NAME=VALUE` of a command line (parse.parse_override);
    include_path the directories an `extends` may also name files in (files.Library); data
    the played file's bytes when they are not read from `path` (resolve.load_chain).
    The items of an option that is off are checked too, by checking the rulebook again with
    that option on; what only shows then carries a note naming the option. The program is
    None when the rulebook (as switched) cannot be resolved or has errors of resolution.
    """
    typed: list[Diagnostic] = []  # errors the AST builder found while reading the files
    try:
        chain = load_chain(str(path), include_path, data, typed)
    except (RuleError, RuleErrors) as e:
        # a file read before the one that failed (the played file, before its parent) may
        # have had mistakes of its own, on lines before or after the one that failed
        return None, limited(by_position(typed + e.diagnostics))
    return check_chain(chain, options, overrides, typed)


def check_chain(chain: list[ast.File], options: Iterable[str] = (),
                overrides: Iterable[ast.Set] = (), typed: Iterable[Diagnostic] = (),
                ) -> tuple[ast.Program | None, list[Diagnostic]]:
    """`check_path` of a chain of parsed files (`resolve.load_chain`; typed: the errors its
    AST builder found): the language server checks the text being edited, read once
    for its diagnostics and its names."""
    typed = list(typed)
    try:
        overrides = tuple(overrides)
        history: list = []  # the rules later files replaced or removed
        program, errors = merge(chain, options, overrides, history)
    except RuleError as e:
        return None, [e.diagnostic]
    except RuleErrors as e:
        return None, limited(by_position(e.diagnostics, (f.path for f in chain)))
    # Where the parser reported a mistake the AST holds a placeholder: what the checker says
    # of a span overlapping it would repeat the mistake or follow from it.
    reported = [d.span for d in typed]
    holes = Holes(chain)
    errors = list(typed) + holes.keep(errors)
    diags = errors + [d for d in holes.keep(check(program, history))
                      if not _overlaps(d.span, reported)]
    seen = {_identity(d) for d in diags}
    off = [n for n in dict.fromkeys(n.name for n in program.declared_options)
           if n not in program.options]
    # One variant per option; past _MAX_VARIANTS options, one variant with all of them on.
    variants = [(n,) for n in off] if len(off) <= _MAX_VARIANTS else [tuple(off)]
    for names in variants:
        variant_history: list = []
        variant, more = merge(chain, program.options + names, overrides, variant_history)
        which = f"option '{names[0]}'" if len(names) == 1 else "every option"
        for d in holes.keep(more + check(variant, variant_history)):
            if _identity(d) not in seen and not _overlaps(d.span, reported):
                seen.add(_identity(d))
                note = (f"found with {which} switched on", None)
                diags.append(attrs.evolve(d, notes=d.notes + (note,)))
    failed = any(d.is_error for d in errors)
    return (None if failed else program), limited(_sorted(program, diags))


_MAX_VARIANTS = 8  # options checked one by one; more are checked all switched on at once


def _overlaps(span: ast.Span, spans: list[ast.Span]) -> bool:
    """Whether `span` shares a character with one of `spans` (of the same file)."""
    start, end = (span.line, span.column), (span.end_line, span.end_column)
    return any(s.file == span.file and start < (s.end_line, s.end_column)
               and (s.line, s.column) < end for s in spans)


def _identity(d: Diagnostic) -> tuple:
    return (d.code, d.span, d.message)


def check(program: ast.Program, history: list | None = None) -> list[Diagnostic]:
    """Every error and warning about a resolved rulebook, sorted by file and position.
    history: the rules a later file replaced or removed (resolve.merge's), so that a warning
    a removal causes is told at the author's line."""
    checker = _Checker(program)
    checker.history_of_rules = history or []
    checker.run()
    return _sorted(program, checker.diags)


def _sorted(program: ast.Program, diags: list[Diagnostic]) -> list[Diagnostic]:
    return by_position(diags, program.files)


_LEAVES = (ast.Span, ast.Text, ast.Name, ast.Count, ast.Percent, ast.Flag, ast.Word)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _walk(node) -> Iterator:
    """Every AST node inside `node`, itself included (leaves without money are skipped)."""
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(reversed(node))
            continue
        kind = type(node)
        names = _FIELDS.get(kind)
        if names is None:
            names = _FIELDS[kind] = tuple(f.name for f in attrs.fields(kind)) \
                if attrs.has(kind) and not issubclass(kind, _LEAVES) else ()
            if not names and not attrs.has(kind):
                continue
        if not isinstance(node, _LEAVES):
            yield node
        stack.extend(getattr(node, n) for n in reversed(names))


class _Checker:
    """One pass over a program: settings, equipment, decks, rules, then cross-cutting facts."""

    def __init__(self, program: ast.Program):
        self.program = program
        self.diags: list[Diagnostic] = Diagnostics()
        self.spaces = program.board.spaces if program.board else ()
        self.by_name: dict[str, list[ast.SpaceDecl]] = defaultdict(list)
        for space in self.spaces:
            self.by_name[space.name.value].append(space)
        self.kinds = {s.kind.name for s in self.spaces}
        self.faces = {t.value for die in program.dice for _, t in die.face_names}
        self.faces.update(t.value for die in program.dice for t, _ in die.symbols)
        self.deck_names = {d.name.value for d in program.decks}
        self.pot_names = {p.name.value for p in program.pots}
        self.sets = [s for r in program.rules for s in r.body if isinstance(s, ast.Set)]
        self.rule_of = {id(s): r.name.name for r in program.rules for s in r.body
                        if isinstance(s, ast.Set)}  # the rule each of those `set`s is in
        self.sets += program.settings
        self.values: dict[str, tuple[object, ast.Set | None]] = {
            n: (s.default, None) for n, s in SETTINGS.items()}
        self.history: dict[str, list[ast.Set]] = defaultdict(list)  # each valid `set`, in order

        self.names: dict[str, Iterable[str]] = {
            "setting": SETTINGS, "kind": TARGET_KINDS, "space": self.by_name,
            "deck": self.deck_names, "face": self.faces,
            # in declaration order (dicts): hints list them, and must read the same every run
            "option": dict.fromkeys(n.name for n in program.declared_options),
            "pot": self.pot_names, "token": dict.fromkeys(t.name.value for t in program.tokens),
            "side": dict.fromkeys(s.name.value for s in program.sides),
            "die": dict.fromkeys(d.name.value for d in program.dice),
            "building": BUILDINGS,
            "parameter": {s.name.name for s in self.sets if s.parameter},
            "thing": units.BUILDINGS + units.THING_KINDS,
        }

    def error(self, code: str, message: str, span: ast.Span, hint: str | None = None,
              notes=()) -> None:
        self.diags.append(diagnostic(code, message, span, hint, notes))

    def known(self, kind: str, name: str, span: ast.Span, hint: str | None = None) -> bool:
        """Whether `name` is a known name of `kind`; if not, report it with a suggestion."""
        names = self.names[kind]
        if name in names:
            return True
        code, message = NAME_KINDS[kind]
        self.error(code, message.format(name), span, hint=did_you_mean(name, names) or hint)
        return False

    def run(self) -> None:
        self.settings()
        equipment = Equipment(self.program, self.values["max_houses"][0], self.error,
                              self.values["max_houses"][1])
        equipment.board()
        equipment.dice()
        self.decks()
        self.rules()
        check_themed(self)
        self.whole()
        Flow(self.program, {n: v for n, (v, _) in self.values.items()}, self.error,
             getattr(self, "history_of_rules", [])).run()

    # ------------------------------------------------------------ settings

    def settings(self) -> None:
        for item in self.program.overrides:  # `--set`: only a declared parameter
            if item.name.name in SETTINGS:
                listed = join(sorted(self.names["parameter"])) or "none"
                self.known("parameter", item.name.name, item.span,
                           hint=f"its parameters: {listed}")
        first_in_file: dict[tuple[str, str], ast.Set] = {}
        for item in self.sets + list(self.program.overrides):
            name = item.name.name
            if not self.known("setting", name, item.name.span):
                continue
            spec = SETTINGS[name]
            key = (name, item.span.file)
            if key in first_in_file and item.span.line > 0:
                self.error("W102", f"the setting '{name}' is set twice in this file; the "
                           "later value wins", item.span,
                           notes=[("first set here", first_in_file[key].span)])
            first_in_file.setdefault(key, item)
            value = self.setting_value(spec, item.value)
            if value is not None:
                self.values[name] = (value, item)
                self.history[name].append(item)
        self.consistency()

    def setting_value(self, spec, value: ast.Value):
        node_type, expected = _UNITS[spec.type]
        if spec.type == "pot" and isinstance(value, ast.Text):
            self.pot_name(value)
            return value.value
        shown = value.name if isinstance(value, ast.Word) else None
        if not isinstance(value, node_type):
            if spec.type == "choice":
                expected = f"one of {join(spec.choices)}"
            self.error("E201", f"expected {expected} for '{spec.name}', found "
                       f"{_VALUE_NAMES[type(value)]} {_shown(value)}", value.span,
                       hint=_type_hint(spec, value))
            return None
        if spec.type == "choice":
            if shown not in spec.choices:
                self.error("E203", f"the setting '{spec.name}' is one of "
                           f"{join(spec.choices)}, found '{shown}'", value.span,
                           hint=did_you_mean(shown, spec.choices))
                return None
            return shown
        if spec.type == "flag":
            return value.value
        if spec.type == "range":
            low, high = value.low, value.high
            if low > high:
                self.error("E206", f"the range {low} to {high} is empty", value.span,
                           hint=f"write the smaller number first: {high} to {low}")
                return None
            numbers = (low, high)
        else:
            numbers = (value.amount if spec.type == "money" else value.value,)
            if spec.type == "money" and numbers[0] < 0:
                return None  # E204, reported with every other amount
        for n in numbers:
            if (spec.low is not None and n < spec.low) or (spec.high is not None
                                                             and n > spec.high):
                form = _FORMS.get(spec.type, "{}")
                bounds = (f"between {form.format(spec.low)} and {form.format(spec.high)}"
                          if spec.high is not None else f"at least {form.format(spec.low)}")
                self.error("E202", f"the setting '{spec.name}' must be {bounds}, found "
                           f"{_shown(value)}",
                           value.span)
                return None
        return numbers if spec.type == "range" else numbers[0]

    def pot_name(self, name: ast.Text) -> None:
        self.known("pot", name.value, name.span, hint=f'declare it: pot "{name.value}"')

    def consistency(self) -> None:
        values = self.values
        for names, broken, why in _CONSISTENT:
            pairs = [values[n] for n in names]
            if not broken(*(v for v, _ in pairs)):
                continue
            explicit = [item for _, item in pairs if item is not None]
            # Point at the played file's line if it has one: that is where the change is.
            where = next((i for i in explicit if i.span.file == self.program.files[0]),
                         explicit[0])
            notes: list[tuple[str, ast.Span | None]] = []
            for name, (value, item) in zip(names, pairs):
                notes += self.setting_notes(name, value, item, where)
            self.error("E301", why.format(*(v for v, _ in pairs)), where.span, notes=notes)

    def setting_notes(self, name: str, value, item: ast.Set | None, where: ast.Set
                      ) -> list[tuple[str, ast.Span | None]]:
        """Where a setting of an E301 got its value: its default, or the `set` in force,
        and the played file's earlier `set`s of it that a later one replaced."""
        if item is None:
            return [(f"'{name}' is not set: its default is {value}", None)]
        rule = self.rule_of.get(id(item))
        later = f"the later rule '{rule}'" if rule else "a later `set`"
        replaced = [(f"'{name}' is set to {_shown(i.value)} here, but {later} sets it to "
                     f"{_shown(item.value)}", i.span) for i in self.history[name]
                    if i is not item and i.span.file == self.program.files[0]]
        if item is where:
            return replaced
        by = f", by rule '{rule}'" if rule else ""
        return replaced + [(f"'{name}' is set to {_shown(item.value)} here{by}", item.span)]

    # ------------------------------------------------------------ decks and rules

    def decks(self) -> None:
        decks: dict[str, ast.Deck] = {}
        cards: dict[str, ast.Card] = {}
        for deck in self.program.decks:
            name = deck.name.value
            if name in decks:
                self.error("E113", f"duplicate deck '{name}'", deck.name.span,
                           notes=[("the first is here", decks[name].name.span)])
            decks.setdefault(name, deck)
            if not _DECK_SIZES[0] <= len(deck.cards) <= _DECK_SIZES[1]:
                self.error("W108", f"deck '{name}' has {len(deck.cards)} "
                           f"card{'s' * (len(deck.cards) != 1)}; decks usually have "
                           f"{_DECK_SIZES[0]} to {_DECK_SIZES[1]} (16 in the classic game)",
                           deck.name.span, hint="check that no card is missing or repeated")
            for card in deck.cards:
                cid = card.id.value
                if cid in cards:
                    self.error("E112", f"duplicate card id '{cid}'", card.id.span,
                               notes=[("the first is here", cards[cid].id.span)])
                cards.setdefault(cid, card)
                self.effects(card.effects, None)

    # ------------------------------------------------------------ rules

    def rules(self) -> None:
        first: dict[str, ast.Rule] = {}
        for rule in self.program.rules:
            name = rule.name.name
            if name in first:
                inherited = first[name].span.file != rule.span.file
                self.error("E110", f"duplicate rule '{name}'", rule.name.span,
                           hint=f"write 'replace rule {name}:' to change the inherited rule"
                           if inherited else "give each rule its own name",
                           notes=[("the first is here", first[name].name.span)])
            first.setdefault(name, rule)
            if name in ENGINE_CAUSES:
                self.error("E118", f"rule name '{name}' is one of the engine's causes",
                           rule.name.span,
                           hint=f"the event log names the engine's own causes by "
                           f"{', '.join(ENGINE_CAUSES)}; rename the rule (e.g. '{name}_bonus')")
            if rule.cite is None:
                self.error("W101", f"rule '{name}' has no cite", rule.name.span,
                           hint='add a first line naming where it comes from: cite "our house '
                           'rules", "Free Parking jackpot" (or a printed rulebook and '
                           'its section)')
            for stmt in rule.body:
                if isinstance(stmt, ast.When):
                    self.when(stmt)
                elif isinstance(stmt, ast.Permission):
                    self.permission(stmt)

    def when(self, when: ast.When) -> None:
        event = when.event
        self.primitive(event)
        if isinstance(event, ast.RollsDoubles) and len(doubles_dice(self.program)) < 2:
            self.error("W104", "this rule can never fire: doubles need two dice", event.span)
        if isinstance(event, ast.RollsTriples) and len(triples_dice(self.program)) < 3:
            self.error("W104", "this rule can never fire: no dice make triples", event.span,
                       hint='declare them: dice "first", "second", "third" make triples')
        for cond in when.conditions:
            self.value(cond)
            if isinstance(cond, ast.Condition) and cond.subject == "owner" \
                    and not self.on_property(event):
                self.error("E304", "the condition on 'the owner' needs an event on a property",
                           cond.span,
                           hint="e.g. when a player lands on a property owned by another "
                           "player unless the owner is in jail: pay rent")
        self.effects(when.effects, event)
        if when.conditions or any(type(e) is not ast.Nothing for e in when.effects):
            self.subjects(when)

    def permission(self, permission: ast.Permission) -> None:
        """The action's names, the kind it narrows to (E309), and what its conditions name:
        only subjects the action has (E307)."""
        action = permission.action
        self.primitive(action)
        p = vocab.primitive_of(action)
        if p is None:
            return
        kinds = KINDS.get(p.name)
        if kinds is not None and action.kind is not None \
                and action.kind.name in TARGET_KINDS and action.kind.name not in kinds:
            self.error("E309", f"the action '{_action_words(p)}' never takes a "
                       f"'{action.kind.name}' space", action.kind.span,
                       hint=f"name a kind of property: {join(kinds)}")
        for cond in permission.conditions:
            self.primitive(cond)
        has = SUBJECTS[p.name]
        reported: set[str] = set()
        for node in _walk(permission.conditions):
            subject = "dice" if _reads_dice(node) else getattr(node, "subject", None)
            if subject == "dice" and subject not in reported:
                reported.add(subject)
                self.error("E307", f"the condition names 'the dice', which the action "
                           f"'{_action_words(p)}' does not have", node.span,
                           hint="a permission is checked when the player acts, apart from any "
                           "throw: test the dice in a `when a player rolls` rule")
            elif subject in _SUBJECTS and subject not in has and subject not in reported:
                reported.add(subject)
                listed = join([f"the {s}" for s in _SUBJECTS if s in has])
                self.error("E307", f"the condition names 'the {subject}', which the "
                           f"action '{_action_words(p)}' does not have", node.span,
                           hint=f"its conditions may name {listed}")

    def primitive(self, node) -> None:
        """The names and numbers of a declared node's parameters (vocab), then the nodes
        inside it, then what its kind of node needs besides (`_AFTER`) if its names are known."""
        p = vocab.primitive_of(node)
        if p is None:
            return
        known = True
        reported: set[str] = set()  # one E202 per message and node
        for param in p.params:
            value = getattr(node, param.name)
            if value is None or value is False:
                continue
            names = TYPES[param.type].names
            if names is not None:
                known = self.name(names, param, value) and known
            elif isinstance(value, tuple):
                for item in value:
                    self.value(item)
            elif isinstance(value, int):
                if ((param.low is not None and value < param.low)
                        or (param.high is not None and value > param.high)
                        or (param.nonzero and value == 0)) and param.bound not in reported:
                    reported.add(param.bound)
                    self.error("E202", param.bound.format(value=value), node.span)
            elif not isinstance(value, str):
                self.value(value)
        after = _AFTER.get(type(node))
        if known and after is not None:
            after(self, node)

    def value(self, node) -> None:
        """A condition or an expression: the operators' parts (iteratively: `and` chains and
        sums are flat, nesting is bounded by E019), then each primitive's parameters."""
        stack = [node]
        while stack:
            node = stack.pop()
            cls = type(node)
            if cls is ast.And or cls is ast.Or:
                stack.extend(reversed(node.conds))
            elif cls is ast.Not:
                stack.append(node.cond)
            elif cls is ast.Plus:
                stack.extend(reversed(node.terms))
            elif cls is ast.Times or cls is ast.PercentOf:
                stack.append(node.operand)
            elif cls is ast.PerOwned:
                self.name("thing", _THING, node.thing)
            else:
                self.primitive(node)

    def compare(self, node: ast.Compare) -> None:
        """E211: both sides of a comparison have one unit."""
        left, right = units.unit(node.left), units.unit(node.right)
        if left != right and left is not None and right is not None:
            hint = None
            if isinstance(node.right, ast.Count) and left == "money":
                hint = f"write ${node.right.value}"
            elif isinstance(node.left, ast.Count) and right == "money":
                hint = f"write ${node.left.value}"
            elif isinstance(node.right, ast.Money) and left == "count":
                hint = (f"'{units.shown(node.left)}' is a count: write "
                        f"{node.right.amount}")
            elif isinstance(node.left, ast.Money) and right == "count":
                hint = (f"'{units.shown(node.right)}' is a count: write "
                        f"{node.left.amount}")
            self.error("E211", f"this comparison sets {units.UNIT_NAMES[left]} "
                       f"'{units.shown(node.left)}' against {units.UNIT_NAMES[right]} "
                       f"'{units.shown(node.right)}'", node.span,
                       hint=hint or "compare money with money and counts with counts")

    def subjects(self, when: ast.When) -> None:
        """E304, E307, E310: what the conditions and expressions of a `when` read (the owner,
        the partner, the player, the group and buildings of the space) the event has."""
        event = when.event
        target = getattr(event, "target", None)
        kinds = self.target_kinds(target) if target is not None else None
        # inside a `where`, `the space` and `the owner` are the candidate space and its owner
        scope: dict[int, set[str]] = {}
        for node in _walk(when.effects):
            if type(node) in (ast.AdvanceNext, ast.ChooseSpace) and node.where is not None:
                pick = self.kind_set(node.kind.name)
                scope.update((id(inner), pick) for inner in _walk(node.where))
        reported: set[tuple] = set()
        event_decl = vocab.primitive_of(event)
        throw = event_decl is None or event_decl.facts.throw
        for node in _walk((when.conditions, when.effects)):
            subject = getattr(node, "subject", None)
            what = None
            has_owner = (scope[id(node)] <= set(PROPERTY_KINDS)) if id(node) in scope \
                else self.on_property(event)
            if subject == "owner" and not has_owner and type(node) is not ast.Condition:
                self.error("E304", "the value of 'the owner' needs an event on a property",
                           node.span,
                           hint="e.g. when a player lands on a property owned by another "
                           "player: ...")
            elif subject == "partner":
                what = ("the partner", "only a permission to trade has a partner")
            elif subject == "bid":
                what = ("the bid", "only a permission to bid has a bid")
            elif subject == "player" and isinstance(event, ast.GameStarts):
                what = ("the player", "no player acts when the game starts")
            elif _reads_dice(node) and not throw:
                what = ("the dice", "it comes with no throw")
            if what is not None and what not in reported:
                reported.add(what)
                self.error("E307", f"this event has no subject '{what[0]}': {what[1]}",
                           node.span, hint="test the dice when a player rolls, rolls doubles, "
                           "lands on or passes a space" if what[0] == "the dice"
                           else "use an event that has it, or another subject")
            space_kinds = scope.get(id(node), kinds)
            if space_kinds is None or type(node) not in _SPACE_TESTS:
                continue
            group, buildings = _SPACE_TESTS[type(node)](node)
            where = "this event happens on" if id(node) not in scope else "the spaces picked are"
            if buildings and not space_kinds <= {"street"}:
                self.error("E310", f"only a street has buildings: {where} "
                           f"{join(sorted(space_kinds))}", node.span,
                           hint="test buildings on an event on a street, or pick streets")
            elif group and not space_kinds <= set(PROPERTY_KINDS):
                self.error("E310", f"only a property has a group: {where} "
                           f"{join(sorted(space_kinds))}", node.span,
                           hint="test the group on an event on a property, or pick properties")

    def target_kinds(self, target) -> set[str]:
        """The kinds of space a target can name."""
        if isinstance(target, ast.SpaceByKind):
            return self.kind_set(target.kind.name)
        found = self.by_name.get(target.name.value, [])
        return {s.kind.name for s in found} or set(PROPERTY_KINDS)  # unknown: E104 says so

    @staticmethod
    def kind_set(k: str) -> set[str]:
        """The kinds of space a kind's name covers (`property`, `space`: several)."""
        if k == "property":
            return set(PROPERTY_KINDS)
        return set(SPACE_KINDS) if k == "space" else {k}

    def name(self, kind: str, param: vocab.Param, value) -> bool:
        """Whether the name a parameter holds is known (if not, it is reported)."""
        if kind == "space":
            self.space_name(value, unique=param.type == "unique_space")
            return True
        if kind == "pot":
            self.pot_name(value)
            return True
        text = value.name if isinstance(value, ast.Name) else value.value
        if kind == "thing":
            text = units.thing(text) or text
        if not self.known(kind, text, value.span, hint=self.name_hint(kind)):
            return False
        if param.missing is not None and self.spaces and not self.has_kind(text):
            code, message = param.missing
            self.error(code, message.format(value=text), value.span)
        return True

    def name_hint(self, kind: str) -> str | None:
        """What to say of an unknown name of `kind` when no known name is close."""
        if kind == "kind":
            return f"kinds: {join(TARGET_KINDS)}"
        if kind == "thing":
            return f"count {join(units.THING_KINDS + units.BUILDINGS)} (or their plurals)"
        if kind == "face":
            return ('name a face on a die: die "white" faces 1..6, face 1 named "..."'
                    if not self.faces else f"named faces: {join(sorted(self.faces))}")
        if kind == "token":
            tokens = self.names["token"]
            return f"tokens: {join(tokens)}" if tokens else \
                'declare it: token "Name" starts on "Space"'
        if kind == "die":
            return f"dice: {join(self.names['die'])}"
        return None

    def property_kind(self, event: ast.PropertyEvent) -> None:
        """`when a KIND is bought`: only a property kind is offered, auctioned or bought."""
        if event.kind.name not in _OWNABLE:
            self.error("E309", f"a {event.kind.name} is never {event.what}: only properties "
                       "are", event.kind.span,
                       hint="name a property kind: " + ", ".join(_OWNABLE))

    def deal(self, effect: ast.DealDeeds) -> None:
        """`deal N title deeds to each player`: the board must hold N for every player."""
        players = self.values["players"][0][1]
        lots = sum(s.kind.name in PROPERTY_KINDS for s in self.spaces)
        if self.spaces and effect.count * players > lots:
            self.error("E312", f"dealing {effect.count} deeds to each of up to {players} "
                       f"players needs {effect.count * players} properties, the board has "
                       f"{lots}", effect.span,
                       hint=f"deal at most {lots // players} deeds to each player")

    def kind_target(self, target: ast.SpaceByKind) -> None:
        kind = target.kind.name
        if target.owner is not None and kind not in _OWNABLE:
            self.error("E305", f"a '{kind}' space has no owner", target.span,
                       hint="only properties (streets, railroads, utilities) are owned")
        elif self.spaces and not self.has_kind(kind):
            self.error("W104", f"this rule can never fire: the board has no '{kind}' space",
                       target.span)

    def pick(self, node) -> None:
        """A kind selector of `advance to the next ...` or of the player's choice: only a
        property is owned; an `else` after a pick that always finds a space never runs."""
        kind = node.kind.name
        if node.owner in ("nobody", "other", "self") and kind not in _OWNABLE:
            self.error("E305", f"a '{kind}' space has no owner", node.span,
                       hint="only properties (streets, railroads, utilities) are owned")
        if isinstance(node, ast.AdvanceNext) and node.otherwise is not None \
                and node.owner is None and node.where is None and self.spaces \
                and self.has_kind(kind):
            self.error("W112", f"the 'else' never runs: there is always a next {kind}",
                       node.otherwise.span,
                       hint="drop the 'else', or narrow the pick (unowned, where ...)")

    def has_kind(self, kind: str) -> bool:
        if kind == "property":
            return bool(self.kinds & set(PROPERTY_KINDS))
        return kind == "space" or kind in self.kinds

    def space_name(self, name: ast.Text, unique: bool = False) -> None:
        if not self.spaces:
            return  # E404 already says there is no board
        found = self.by_name.get(name.value, [])
        if self.known("space", name.value, name.span) and unique \
                and len(found) > 1:
            self.error("E109", f"the name '{name.value}' is shared by {len(found)} spaces: "
                       "which one?", name.span,
                       hint="rename one of them, or advance to the nearest kind",
                       notes=[(f"'{name.value}' is space {i}", s.span)
                              for i, s in enumerate(self.spaces) if s.name.value == name.value])

    def on_property(self, event: ast.Event) -> bool:
        target = getattr(event, "target", None)
        if isinstance(target, ast.SpaceByKind):
            return target.kind.name in _OWNABLE
        if isinstance(target, ast.SpaceByName):
            found = self.by_name.get(target.name.value, [])
            # An unknown space is reported once, as E104, not again as "not a property".
            return all(s.kind.name in PROPERTY_KINDS for s in found)
        return False

    def effects(self, effects: tuple[ast.Effect, ...], event: ast.Event | None) -> None:
        """Effects of a rule (`event` set) or of a card (`event` None)."""
        for effect in effects:
            if isinstance(effect, ast.Choice):
                for option in effect.options:
                    self.effects(option, event)
                continue
            self.primitive(effect)
            p = vocab.primitive_of(effect)
            if p is None:
                continue
            facts = p.facts
            if facts.card_only and event is not None:
                self.error("E302", f"only a card can say '{vocab.shown_forms(p)[0]}'",
                           effect.span, hint="put it on a card of a deck")
            elif not _allowed(p, event):
                self.error("E351", _not_allowed(p, event), effect.span,
                           hint=_allowed_hint(p, event))
            elif facts.needs_property and event is not None and not self.on_property(event):
                self.error("E303", f"the effect '{p.title}' needs an event on a property",
                           effect.span,
                           hint="e.g. when a player lands on an unowned property: buy or auction")
            elif facts.alone and len(effects) > 1:
                self.error("W106", f"the effect '{p.title}' is next to other effects",
                           effect.span, hint=f"remove '{p.title}'")

    # ------------------------------------------------------------ the whole rulebook

    def whole(self) -> None:
        declared: dict[tuple[str, str], ast.Name] = {}
        for name in self.program.declared_options:
            first = declared.setdefault((name.name, name.span.file), name)
            if first is not name:
                self.error("E115", f"duplicate option '{name.name}'", name.span,
                           notes=[("the first is here", first.span)])
        pots: dict[str, ast.Pot] = {}
        for pot in self.program.pots:
            first = pots.setdefault(pot.name.value, pot)
            if first is not pot:
                self.error("E117", f"duplicate pot '{pot.name.value}'", pot.name.span,
                           notes=[("the first is here", first.name.span)])
        everything = (self.program.board, self.program.decks, self.program.rules,
                      self.program.settings)
        drawn: set[str] = set()
        to_jail: ast.Span | None = None
        for node in _walk(everything):
            if isinstance(node, ast.Money) and node.amount < 0:
                self.error("E204", f"amounts are never negative, found ${node.amount}",
                           node.span, hint="'pay' and 'collect' give the direction: "
                           f"write ${-node.amount}")
            elif isinstance(node, ast.Draw):
                drawn.add(node.deck.value)
            elif isinstance(node, ast.GoToJail) or (
                    isinstance(node, ast.SpaceDecl) and node.kind.name == "go_to_jail"):
                to_jail = to_jail or node.span
        if to_jail is not None and self.spaces and "jail" not in self.kinds:
            self.error("E408", "the board has no 'jail' space, but players can be sent there",
                       head_span(self.program.board), hint="add one: \"Jail\": jail",
                       notes=[("a player is sent to jail here", to_jail)])
        if self.program.rules:
            for deck in self.program.decks:
                if deck.name.value not in drawn:
                    self.error("W105", f"no rule draws from deck '{deck.name.value}'",
                               deck.name.span, hint=f'e.g. when a player lands on '
                               f'"{deck.name.value}": draw from "{deck.name.value}"')


# The subjects a condition may name, in the order messages list them.
_SUBJECTS = ("player", "space", "owner", "building", "partner", "bid")


def _reads_dice(node) -> bool:
    """Whether the node reads the throw of its firing (the dice, a die, their total)."""
    kind = type(node)
    return kind in (ast.DiceTotal, ast.DieValue, ast.DieShowsFace) \
        or (kind is ast.Condition and node.subject == "dice")


def _action_words(p: vocab.Primitive) -> str:
    """An action as written, without its optional parts: `pay the fine before rolling`."""
    return vocab.shown_forms(p)[0].split(" [")[0]


def _type_hint(spec, value: ast.Value) -> str | None:
    number = getattr(value, "amount", getattr(value, "value", None))
    if spec.type == "money" and isinstance(value, ast.Percent):
        # a share of what? `starting_cash = 20%` is not read as $20
        return (f"a percentage is not an amount of money: write an amount, e.g. "
                f"${spec.default}")
    if spec.type in _FORMS and isinstance(number, int) and not isinstance(number, bool):
        return f"write {_FORMS[spec.type].format(number)}"
    if spec.type == "flag":
        return "write yes or no"
    if spec.type == "range" and isinstance(value, ast.Count):
        low = min(2, number)
        return (f"write {number} to {number} for exactly {number}, or a range such as "
                f"{low} to {number}" if low < number else f"write {number} to {number}")
    if spec.type == "choice" and isinstance(value, ast.Text) and value.value in spec.choices:
        return f"write it without quotes: {value.value}"
    return None


def _shown(value: ast.Value) -> str:
    if isinstance(value, ast.Money):
        return f"${value.amount}"
    if isinstance(value, ast.Percent):
        return f"{value.value}%"
    if isinstance(value, ast.Flag):
        return "yes" if value.value else "no"
    if isinstance(value, ast.Range):
        return f"{value.low} to {value.high}"
    if isinstance(value, ast.Word):
        return f"'{value.name}'"
    if isinstance(value, ast.Text):
        return f'"{value.value}"'
    return str(value.value)


# What a kind of node needs besides the names and numbers of its parameters, checked once
# its names are known.
_AFTER = {ast.SpaceByKind: _Checker.kind_target, ast.PropertyEvent: _Checker.property_kind,
          ast.DealDeeds: _Checker.deal, ast.Compare: _Checker.compare,
          ast.AdvanceNext: _Checker.pick, ast.ChooseSpace: _Checker.pick}


def _allowed(effect: vocab.Primitive, event) -> bool:
    """Whether the event (None: a card) may carry the effect (E351): the effect's own list of
    events, and the event's list of effects (vocab Facts.events, Facts.allows)."""
    facts = effect.facts
    ev = vocab.primitive_of(event) if event is not None else None
    if facts.events and (ev is None or ev.name not in facts.events):
        return False
    allows = ev.facts.allows if ev is not None else None
    if allows is None or facts.alone or effect.name in allows:
        return True
    if MONEY in allows and facts.money is not None and not facts.purchase \
            and not facts.needs_property:
        return True
    return STILL in allows and not facts.moves and not facts.ends_turn \
        and effect.name != "roll_again"


def _not_allowed(effect: vocab.Primitive, event) -> str:
    shown = vocab.shown_forms(effect)[0]
    if event is None:
        return f"a card cannot say '{shown}'"
    return f"the effect '{shown}' is not allowed on '{vocab.shown_forms(vocab.primitive_of(event))[0]}'"


def _allowed_hint(effect: vocab.Primitive, event) -> str:
    """What the event allows, or where the effect goes."""
    facts = effect.facts
    ev = vocab.primitive_of(event) if event is not None else None
    if facts.events and (ev is None or ev.name not in facts.events):
        return "it goes on " + " or ".join(
            f"'when {vocab.shown_forms(vocab.BY_NAME[e])[0]}'" for e in facts.events)
    allows = ev.facts.allows if ev is not None else ()
    words = {MONEY: "effects that only move money", STILL: "effects that do not move the pawn"}
    said = [words.get(a) or f"'{vocab.shown_forms(vocab.BY_NAME[a])[0]}'" for a in allows or ()]
    return "this event allows " + (", ".join(said) + " and " if said else "only ") + "'nothing'"


_THING = vocab.Param("thing", "thing")
# The conditions and values about the space's group or buildings: (group, buildings).
_SPACE_TESTS = {
    ast.Condition: lambda c: (c.test in ("whole_group", "fewest", "most"),
                              c.test in ("fewest", "most")),
    ast.LotTest: lambda c: (c.subject != "space", c.test == "buildings"),
}
