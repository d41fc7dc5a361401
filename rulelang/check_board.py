"""Well-formedness of the equipment: the board's spaces, groups and rent tables, and the dice.

Part of the checker (`rulelang.check` runs it); it reports through the checker's `error`.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from typing import Callable, Iterable

from rulelang import ast
from rulelang.resolve import did_you_mean
from rulelang.vocab import SETTINGS

__all__ = ["SPACE_KINDS", "PROPERTY_KINDS", "Equipment", "head_span", "join"]

SPACE_KINDS = ("go", "street", "railroad", "utility", "tax", "cards", "jail", "go_to_jail",
               "plain")
PROPERTY_KINDS = ("street", "railroad", "utility")
MAX_OUTCOMES = 100_000  # rolls of all the dice together; the engine tables each one


def join(words: Iterable[str]) -> str:
    """'a', 'b', 'c': names quoted for a message."""
    return ", ".join(f"'{w}'" for w in words)


class Equipment:
    """Checks the board and the dice of a program; `error` receives each diagnostic."""

    def __init__(self, program: ast.Program, max_houses: int, error: Callable[..., None],
                 max_houses_set: ast.Set | None = None):
        self.board_node = program.board
        self.spaces = program.board.spaces if program.board else ()
        self.kinds = {s.kind.name for s in self.spaces}
        self.title = program.title
        self.dice_list = program.dice
        self.dice_decls = program.dice_decls
        self.max_houses = max_houses
        # the `set max_houses` in force: when it is in another file than a street, the
        # street's rent table is not the mistake, the setting is (`rent_tables`)
        self.max_houses_set = max_houses_set
        self.files = program.files  # the played file first, then the files it extends
        self.short: list[ast.SpaceDecl] = []  # streets a later file's max_houses miscounts
        self.error = error

    def board(self) -> None:
        """The spaces, their kinds and attributes, GO and the jail, the groups."""
        if self.board_node is None:
            self.error("E404", "this rulebook has no board", self.title.span,
                       hint="declare one with 'board:' or extend a rulebook that has one, "
                       "e.g. extends \"classic_board.rules\"")
            return
        first_named: dict[str, ast.SpaceDecl] = {}
        for space in self.spaces:
            kind = space.kind.name
            if kind not in SPACE_KINDS:
                self.error("E102", f"unknown space kind '{kind}'", space.kind.span,
                           hint=did_you_mean(kind, SPACE_KINDS) or f"kinds: {join(SPACE_KINDS)}")
                continue
            if kind in PROPERTY_KINDS:
                self.property(space)
            else:
                self.not_applicable(space, ("group", "price", "mortgage", "house_cost",
                                            "hotel_cost", "rents", "multipliers"))
            name = space.name.value
            first = first_named.setdefault(name, space)
            if first is not space and (kind in PROPERTY_KINDS
                                       or first.kind.name in PROPERTY_KINDS):
                self.error("E111", f"two spaces are named '{name}' and one is a property",
                           space.name.span, hint="a property's name is its deed: make it unique",
                           notes=[("the first is here", first.span)])
        for kind in ("go", "jail"):
            found = [s for s in self.spaces if s.kind.name == kind]
            for extra in found[1:]:
                self.error("E407" if kind == "go" else "E408",
                           f"the board has more than one '{kind}' space", extra.span,
                           notes=[("the first is here", found[0].span)])
        if "go" not in self.kinds:
            self.error("E407", "the board has no 'go' space", head_span(self.board_node),
                       hint="add one, usually first: \"GO\": go")
        self.groups()
        self.rent_tables()

    def set_later(self, space: ast.SpaceDecl) -> bool:
        """Whether `set max_houses` is in a file that extends the one declaring `space` (or
        on the command line): the file an author changed to this value."""
        setting = self.max_houses_set
        if setting is None or setting.span.file == space.span.file:
            return False
        order = {f: i for i, f in enumerate(self.files)}
        return order.get(setting.span.file, -1) < order.get(space.span.file, len(order))

    def rent_tables(self) -> None:
        """One E409 at the `set max_houses` of a file whose value the streets of another
        file's board do not fit (a house rule's `set max_houses = 3` under an inherited board
        of six rents a street), with a note at those streets: the setting is what changed."""
        setting = self.max_houses_set
        by_file: dict[str, list[ast.SpaceDecl]] = defaultdict(list)
        for space in self.short:
            by_file[space.span.file].append(space)
        want = self.max_houses + 2
        for path, streets in by_file.items():
            file = os.path.basename(path)  # the note gives the whole path
            counts = Counter(len(s.rents) for s in streets)
            listed = " or ".join(str(n) for n in sorted(counts))
            lines = sorted({s.span.line for s in streets})
            where = f"line {lines[0]}" if len(lines) == 1 else \
                f"lines {lines[0]} to {lines[-1]}"
            n = len(streets)
            some = f"{n} street{'s' * (n != 1)}"
            verb = "lists" if n == 1 else "list"
            printed = counts.most_common(1)[0][0] - 2  # the houses the board is printed for
            hint = f"declare a board whose streets list {want} rents"
            if 0 <= printed <= SETTINGS["max_houses"].high:
                hint = f"the board of '{file}' is printed for {printed} houses a lot: set " \
                    f"max_houses = {printed}, or {hint}"
            self.error("E409", f"the setting 'max_houses' is {self.max_houses} here, so a "
                       f"street lists {want} rents (unimproved, 1 to {self.max_houses} houses, "
                       f"hotel), but {some} of '{file}' {verb} {listed}", setting.span,
                       hint=hint, notes=[(f"{some} {verb} {listed} rents here, on {where}",
                                          _rents_span(streets[0]))])

    def property(self, space: ast.SpaceDecl) -> None:
        kind = space.kind.name
        needed = ["group", "price", "mortgage"] + (["house_cost"] if kind == "street" else [])
        missing = [f for f in needed if getattr(space, f) is None]
        if missing:
            words = [m.replace("_cost", " cost").replace("group", "group ('in \"Group\"')")
                     for m in missing]
            self.error("E410", f"{kind} '{space.name.value}' has no {', '.join(words)}",
                       space.name.span, hint="e.g. street in \"Purple\", price $60, mortgage $30, "
                       "house $50, rent $2 $10 $30 $90 $160 $250")
        if space.price and space.mortgage and space.mortgage.amount > space.price.amount:
            self.error("E411", f"the mortgage of '{space.name.value}' (${space.mortgage.amount})"
                       f" is more than its price (${space.price.amount})", space.mortgage.span,
                       hint="a mortgage lends at most the printed price (usually half)")
        if kind == "street":
            self.not_applicable(space, ("multipliers",))
            want = self.max_houses + 2
            if len(space.rents) != want and self.set_later(space):
                self.short.append(space)
            elif len(space.rents) != want:
                self.error("E409", f"street '{space.name.value}' lists {len(space.rents)} "
                           f"rent{'s' * (len(space.rents) != 1)}, expected {want}: unimproved, "
                           f"1 to {want - 2} houses, hotel", _rents_span(space))
        elif kind == "railroad":
            self.not_applicable(space, ("house_cost", "hotel_cost", "multipliers"))
        else:
            self.not_applicable(space, ("house_cost", "hotel_cost", "rents"))
        self.rising(space)

    def rising(self, space: ast.SpaceDecl) -> None:
        """Rents rise with buildings (streets) or with the lots of the group held."""
        listed = space.rents or space.multipliers
        values = [getattr(v, "amount", getattr(v, "value", 0)) for v in listed]
        for i in range(1, len(values)):
            if values[i] < values[i - 1]:
                steps = "as buildings rise" if space.kind.name == "street" else \
                    "as its owner holds more of the group"
                shown = [f"${v}" for v in values] if space.rents else [f"x{v}" for v in values]
                self.error("W107", f"the rent of '{space.name.value}' falls {steps}: "
                           f"{shown[i - 1]} then {shown[i]}", listed[i].span,
                           hint="list the rents from the lowest (unimproved) to the highest "
                           "(hotel)" if space.kind.name == "street" else None)
                return

    def not_applicable(self, space: ast.SpaceDecl, fields: tuple[str, ...]) -> None:
        for field in fields:
            value = getattr(space, field)
            if value:
                node = value[0] if isinstance(value, tuple) else value
                word = {"house_cost": "house cost", "hotel_cost": "hotel cost",
                        "multipliers": "dice multiplier", "rents": "rent"}.get(field, field)
                hint = "a utility's rent is written 'rent dice x4 x10'" \
                    if space.kind.name == "utility" and field == "rents" else None
                self.error("E414", f"a '{space.kind.name}' space has no {word}", node.span,
                           hint=hint)

    def groups(self) -> None:
        groups: dict[str, list[ast.SpaceDecl]] = defaultdict(list)
        for s in self.spaces:
            if s.group is not None and s.kind.name in PROPERTY_KINDS:
                groups[s.group.value].append(s)
        for name, lots in groups.items():
            head = lots[0]
            for lot in lots[1:]:
                if lot.kind.name != head.kind.name:
                    self.error("E412", f"group '{name}' mixes a {lot.kind.name} with "
                               f"{head.kind.name}s", lot.kind.span,
                               notes=[(f"'{head.name.value}' is a {head.kind.name}", head.span)])
                elif lot.house_cost and head.house_cost and \
                        lot.house_cost.amount != head.house_cost.amount:
                    self.error("E412", f"houses in group '{name}' cost "
                               f"${head.house_cost.amount} on '{head.name.value}' but "
                               f"${lot.house_cost.amount} here", lot.house_cost.span,
                               notes=[("the first house cost is here", head.house_cost.span)])
            of_kind = Counter(lot.kind.name for lot in lots)
            for lot in lots:
                kind = lot.kind.name
                n = of_kind[kind]
                listed = lot.rents if kind == "railroad" else lot.multipliers
                if kind in ("railroad", "utility") and len(listed) != n and (
                        kind == "railroad" or listed):
                    what = "rents" if kind == "railroad" else "dice multipliers"
                    self.error("E409", f"{kind} '{lot.name.value}' lists {len(listed)} {what}, "
                               f"expected {n}: one per {kind} of group '{name}' its owner holds",
                               _rents_span(lot))
                elif kind == "utility" and not listed:
                    self.error("E409", f"utility '{lot.name.value}' has no rent", lot.name.span,
                               hint="e.g. rent dice " + " ".join(f"x{4 + 6 * i}" for i in
                                                                 range(n)))

    def dice(self) -> None:
        """At least one die, distinct names and faces, named faces that exist."""
        if not self.dice_list:
            self.error("E405", "this rulebook has no dice", self.title.span,
                       hint='declare them, e.g. die "first" faces 1..6')
        elif not any(die.faces for die in self.dice_list):
            self.error("E405", "no die has a face with a value, so the pawns never move",
                       self.dice_list[0].span,
                       hint='declare the dice that move the pawns, e.g. die "first" faces '
                       '1..6 (a die of symbols is thrown beside them)')
        seen: dict[str, ast.Die] = {}
        outcomes = 1
        for die in self.dice_list:
            name = die.name.value
            if name in seen:
                self.error("E114", f"duplicate die '{name}'", die.name.span,
                           notes=[("the first is here", seen[name].span)])
            seen.setdefault(name, die)
            counts = Counter(die.faces)
            repeated = sorted(f for f, n in counts.items() if n > 1)
            if repeated:
                self.error("E208", f"die '{name}' lists face {repeated[0]} more than once",
                           die.span)
            named: set[int] = set()
            outcomes *= max(1, len(die.faces) + len(die.symbols))
            for face, text in die.face_names:
                if face not in counts:
                    self.error("E207", f"die '{name}' has no face {face} to name", text.span,
                               hint=f"its faces: {', '.join(map(str, die.faces))}")
                elif face in named:
                    self.error("E208", f"face {face} of die '{name}' is named twice", text.span)
                named.add(face)
        if outcomes > MAX_OUTCOMES:
            first = self.dice_list[0].span
            self.error("E208", f"the dice together have {outcomes:,} outcomes; the engine "
                       f"tables every outcome, at most {MAX_OUTCOMES:,}", first,
                       hint="use fewer dice or fewer faces")
        self.declarations(seen)

    def declarations(self, dice: dict[str, ast.Die]) -> None:
        """`dice ... move the pawn / make doubles / make triples`: known dice, each once,
        enough of them, and values on the dice that move the pawn."""
        least = {"move": 1, "doubles": 2, "triples": 3}
        for decl in self.dice_decls:
            names = [t.value for t in decl.dice]
            for t in decl.dice:
                if t.value not in dice:
                    self.error("E152", f"unknown die '{t.value}'", t.span,
                               hint=f"dice: {join(list(dice))}" if dice else None)
            twice = next((t for i, t in enumerate(decl.dice) if t.value in names[:i]), None)
            if twice is not None:
                self.error("E212", f"the die '{twice.value}' is listed twice", twice.span,
                           hint="name each die once")
            elif len(names) < least[decl.role]:
                what = {"doubles": "doubles need two dice", "triples": "triples need three dice",
                        "move": "name the dice that move the pawn"}[decl.role]
                self.error("E212", f"{what}, found {len(names)}", decl.span,
                           hint=f"name {least[decl.role]} dice or more, each once")
            if decl.role == "move":
                for t in decl.dice:
                    die = dice.get(t.value)
                    if die is not None and not die.faces:
                        self.error("E250", f"the die '{t.value}' has no face with a value to "
                                   "move the pawn by", t.span,
                                   hint="a die of symbols only is thrown beside the others")


def head_span(node) -> ast.Span:
    """The span of a block's first word (`board`), for problems with the whole block."""
    s = node.span
    return ast.Span(s.file, s.line, s.column, s.line, s.column + len("board"))


def _rents_span(space: ast.SpaceDecl) -> ast.Span:
    listed = space.rents or space.multipliers
    if not listed:
        return space.span
    a, b = listed[0].span, listed[-1].span
    return ast.Span(a.file, a.line, a.column, b.end_line, b.end_column)
