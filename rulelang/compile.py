"""Bind a checked `Program` to the engine: settings, tables, and rules as closures.

Each `when` becomes one hook placed in the tuple of the event it waits for (per space for
landing and passing), with its conditions and effects bound in; names become indices here,
once, so the game loop never looks anything up. A hook is `(owners, rule, fn)`: the engine
calls `fn(game, firing)` with the event's Firing (engine/firing.py) by the rule, and fn tests
the rule's conditions on it, then calls each effect as `effect(game, firing)`.
`compile_program` assumes the program has passed `check`; what check cannot see still raises
a coded RuleError.
"""

from __future__ import annotations

from typing import Callable

from . import ast, compile_course, compile_permits, evaluate
from .vocab.compiled import compiled, form_of
from .diagnostics import RuleError
from .engine import actions as act
from .engine import moves as mv
from .engine import tokens as tk
from .engine.endings import end_now
from .engine.firing import Firing
from .engine.game import Game
from .engine.settings import SETTINGS, Settings
from .engine.tables import (
    ACTIONS,
    ANY_OWNER,
    NOBODY,
    OTHER,
    OWN,
    PROPERTY_KINDS,
    Card,
    Deck,
    DoublesHook,
    Hook,
    MeetHook,
    Permit,
    RentContext,
    Rulebook,
    Space,
    Token,
)


def compile_program(program: ast.Program, parameters: tuple[str, ...] = (),
                    observe: bool = False) -> Rulebook:
    """The engine's Rulebook for a resolved, checked program (`parameters`: the NAME=VALUE
    overrides it was checked with, recorded in the rulebook). `observe`: every rule's hook
    also counts its firings in the game's tally, if the game has one (engine/tally.py); the
    games are the same."""
    if program.board is None:
        raise RuleError("E404", "the rulebook has no board", program.title.span,
                        hint="extend a rulebook that declares one, or add a `board:` block")
    spaces, group_names = _spaces(program.board)
    groups = tuple(
        tuple(s.index for s in spaces if s.group == g) for g in range(len(group_names))
    )
    settings, origins = settings_of(program)
    env = _Env(program, spaces, settings)
    env.observe = observe
    whens = [(rule.name.name, stmt) for rule in program.rules for stmt in rule.body
             if isinstance(stmt, ast.When)]
    # `pay rent` reads the multipliers of the `rent is due` rules: they are placed first
    for name, when in whens:
        if type(when.event) is ast.RentDue:
            form_of(when.event)(env, name, when)
    mods = env.tables.get(ast.RentDue)
    env.rent_mods = tuple(tuple(m) for m in mods) if mods else None
    decks = tuple(env.deck(d) for d in program.decks)
    env.decks = {d.name: i for i, d in enumerate(decks)}
    dice = tuple(tuple(d.faces) + tuple(t.value for t, _ in d.symbols) for d in program.dice)
    permits: dict[str, list[Permit]] = {a: [] for a in ACTIONS}
    for rule in program.rules:
        for stmt in rule.body:
            if isinstance(stmt, ast.Permission):
                permits[stmt.action.action].append(env.permit(rule.name.name, stmt))
    for name, when in whens:
        if type(when.event) is not ast.RentDue:
            form_of(when.event)(env, name, when)  # places the rule's hook (vocab/compiled.py)
    jail = next((s.index for s in spaces if s.kind == "jail"), -1)
    go = next((s.index for s in spaces if s.kind == "go"), 0)
    passing = env.space_hooks("pass")
    if env.laps:
        # before the salary: a lap is complete on GO (the engine's own count, logged nowhere)
        passing[go].insert(0, (ANY_OWNER, "turn", _count_lap))
        env.direct[_count_lap] = _count_lap_direct
    battles = (env.hooks("battle_lost"), env.hooks("battle_won"))
    course = compile_course.course(env)
    return Rulebook(
        title=program.title.value,
        files=program.files,
        settings=settings,
        spaces=spaces,
        groups=groups,
        group_names=group_names,
        decks=decks,
        dice=dice,
        land_hooks=tuple(tuple(h) for h in env.space_hooks("land")),
        pass_hooks=tuple(tuple(h) for h in passing),
        doubles_hooks=tuple(env.hooks(ast.RollsDoubles)),
        turn_start_hooks=tuple(env.hooks(ast.TurnStarts)),
        face_hooks=tuple(env.hooks("faces")),
        face_names=env.face_names,
        rule_names=tuple(r.name.name for r in program.rules),
        currency=program.currency.name.value if program.currency else "$",
        pots=env.pots,
        building_names=tuple(dict(program.buildings).get(k, ast.Text(k)).value
                             for k in ("house", "hotel")),
        go=go,
        jail=jail,
        die_names=tuple(d.name.value for d in program.dice),
        face_sides=tuple(
            tuple(-1 for _ in d.faces) + tuple(env.side(s) for _, s in d.symbols)
            for d in program.dice),
        tokens=tuple(Token(t.name.value, env.space(t.start), env.side(t.side))
                     for t in program.tokens),
        sides=tuple(s.name.value for s in program.sides),
        characters=tuple((c.value, i) for i, s in enumerate(program.sides)
                         for c in s.characters),
        start_hooks=tuple(env.hooks("setup")),
        after_face_hooks=tuple(env.hooks("after_faces")),
        meet_hooks=tuple(env.hooks(ast.Meets)),
        battle_hooks=(tuple(battles[0]), tuple(battles[1])),
        reach_hooks={k: tuple(v) for k, v in env.keyed_hooks(ast.TokenReaches).items()},
        options=tuple(program.options),
        parameters=parameters,
        course=course,
        moving_dice=env.declared("move"),
        doubles_dice=env.declared("doubles"),
        triples_dice=env.declared("triples") or (),
        triples_hooks=tuple(env.hooks(ast.RollsTriples)),
        permits={a: tuple(p) for a, p in permits.items()},
        origins=origins,
        roll_hooks=tuple(env.hooks("rolls")),
        jail_roll_hooks=tuple(env.hooks("jail_rolls")),
        count_turns=env.turns,
        guarantees=compile_permits.guarantees(program),
        trade_rule=compile_permits.trade_rule(program),
        observed=observe,
        direct=env.direct,
        guards=env.guards,
        acting_rules=tuple(dict.fromkeys(
            r.name.name for r in program.rules
            if any(isinstance(x, (ast.When, ast.Permission)) for x in r.body))),
    )


def settings_of(program: ast.Program) -> tuple[Settings, dict[str, str]]:
    """The settings in force: each rule's `set` lines in rule order, then top-level ones,
    then the parameters; and, per setting, the provenance of its value, the label the engine
    names it by: the rule whose `set` line is in force, "set NAME" for a top-level `set` or a
    parameter, "default NAME" for a setting nobody sets."""
    values = {}
    origins = {name: f"default {name}" for name in SETTINGS}
    sets = [(r.name.name, s) for r in program.rules for s in r.body if isinstance(s, ast.Set)]
    for rule, item in sets + [(None, s) for s in (*program.settings, *program.overrides)]:
        spec = SETTINGS.get(item.name.name)
        if spec is None:
            raise RuleError("E101", f"unknown setting '{item.name.name}'", item.name.span)
        values[spec.name] = _value(spec, item.value)
        origins[spec.name] = rule if rule is not None else f"set {spec.name}"
    return Settings(**values), origins


def _value(spec, value):
    match spec.type, value:
        case "money", ast.Money(amount):
            return amount
        case "count", ast.Count(v):
            return v
        case "percent", ast.Percent(v):
            return v
        case "flag", ast.Flag(v):
            return v
        case "range", ast.Range(low, high):
            return (low, high)
        case "range", ast.Count(v):
            return (v, v)
        case "choice", ast.Word(name) if name in spec.choices:
            return name
        case "pot", ast.Text(name):
            return name
    raise RuleError("E201", f"setting '{spec.name}' expects a {spec.type}", value.span)


def _spaces(board: ast.Board):
    group_names: list[str] = []
    out = []
    for i, d in enumerate(board.spaces):
        g = -1
        if d.group is not None:
            if d.group.value not in group_names:
                group_names.append(d.group.value)
            g = group_names.index(d.group.value)
        house = d.house_cost.amount if d.house_cost else 0
        out.append(Space(
            index=i,
            name=d.name.value,
            kind=d.kind.name,
            group=g,
            price=d.price.amount if d.price else 0,
            mortgage=d.mortgage.amount if d.mortgage else 0,
            house_cost=house,
            hotel_cost=d.hotel_cost.amount if d.hotel_cost else house,
            rents=tuple(m.amount for m in d.rents),
            multipliers=tuple(c.value for c in d.multipliers),
        ))
    return tuple(out), tuple(group_names)


class _Env:
    """Name resolution for one program, and the factories of hooks and effects."""

    def __init__(self, program: ast.Program, spaces: tuple[Space, ...], settings: Settings):
        self.program = program
        self.spaces = spaces
        self.pots = tuple(dict.fromkeys(p.name.value for p in program.pots))
        self.fines_to_pot = bool(settings.fines_to)
        self.laps = False  # a condition on laps needs them counted
        self.decks: dict[str, int] = {d.name.value: i for i, d in enumerate(program.decks)}
        self.options = set(program.options)
        self.tokens = {t.name.value: i for i, t in enumerate(program.tokens)}
        self.sides = {s.name.value: i for i, s in enumerate(program.sides)}
        self.dice = {d.name.value: i for i, d in enumerate(program.dice)}
        self.rent_mods: tuple | None = None
        # for rulelang.evaluate: the lots of each group, the named faces, the dice that move
        # the pawn and make doubles or triples
        groups = {s.group for s in spaces if s.group >= 0}
        self.groups = tuple(tuple(s.index for s in spaces if s.group == g)
                            for g in range(max(groups) + 1 if groups else 0))
        self.face_names = tuple(dict.fromkeys(
            [(i, value, name.value) for i, d in enumerate(program.dice)
             for value, name in d.face_names]
            + [(i, t.value, t.value) for i, d in enumerate(program.dice) for t, _ in d.symbols]))
        # as the dice tables read them (engine/tables.py): the declarations, else the dice
        # with values move the pawn and, two or more, make doubles
        moving, doubles = self.declared("move"), self.declared("doubles")
        if moving is None:
            moving = tuple(i for i, d in enumerate(program.dice) if d.faces)
        self.moving_dice = moving
        self.doubles_dice = doubles if doubles is not None else moving if len(moving) > 1 else ()
        self.triples_dice: tuple[int, ...] = self.declared("triples") or ()
        self.turns = False  # a value of turns taken needs them counted
        # the hooks the events' compiled forms place, by table (vocab/compiled.py)
        self.tables: dict = {}
        self.observe = False  # hooks count their firings (compile_program)
        # closure -> its direct form, fn(game, player, space, owner, dice, total, rule, rent,
        # streak): what the closure does with the firing of those fields (Rulebook.direct)
        self.direct: dict = {}
        # `the player's laps this turn` (or the owner's) -> 0 (the player) or 1 (the owner):
        # a comparison of it with a literal is one direct form, the laps read in line
        self.turn_laps_of: dict = {}
        # hook -> the direct form of its conditions, when they all have one (Rulebook.guards)
        self.guards: dict = {}

    # -------------------------------------------------------------- tables

    def hooks(self, key) -> list:
        """The hooks of one table, in rule order (made empty on first use)."""
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = []
        return table

    def space_hooks(self, key) -> list[list]:
        """The hooks of one table, one list per space of the board."""
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = [[] for _ in self.spaces]
        return table

    def keyed_hooks(self, key) -> dict:
        """The hooks of one table, a list per key of the event's own (a token and a space)."""
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = {}
        return table

    # -------------------------------------------------------------- names

    def matching(self, target) -> list[int]:
        """The spaces of an event's target: those of its name, or of its kind (a target has
        no compiled form of its own; the owner filter is the hook's)."""
        if isinstance(target, ast.SpaceByName):
            found = [s.index for s in self.spaces if s.name == target.name.value]
        else:
            k = target.kind.name
            found = [
                s.index for s in self.spaces
                if s.kind == k or (k == "property" and s.kind in PROPERTY_KINDS)
                or k == "space"
            ]
        if not found:
            raise RuleError("E104", "no space matches this rule's event", target.span)
        return found

    def space(self, name: ast.Text) -> int:
        for s in self.spaces:
            if s.name == name.value:
                return s.index
        raise RuleError("E104", f"unknown space '{name.value}'", name.span)

    def token(self, name: ast.Text) -> int:
        if name.value not in self.tokens:
            raise RuleError("E150", f"unknown token '{name.value}'", name.span)
        return self.tokens[name.value]

    def side(self, name: ast.Text | None) -> int:
        if name is None:
            return -1
        if name.value not in self.sides:
            raise RuleError("E151", f"unknown side '{name.value}'", name.span)
        return self.sides[name.value]

    def die(self, name: ast.Text) -> int:
        if name.value not in self.dice:
            raise RuleError("E152", f"unknown die '{name.value}'", name.span)
        return self.dice[name.value]

    def declared(self, role: str) -> tuple[int, ...] | None:
        """The dice of a declaration (`dice ... make doubles`), or None without one."""
        for decl in self.program.dice_decls:
            if decl.role == role:
                return tuple(self.die(t) for t in decl.dice)
        return None

    def where(self, c: ast.Condition | None):
        """A `where` condition as a test of a candidate space: the condition itself, tested
        as cond(game, firing.at(q, owner of q)): `the space` and `the owner` are the candidate
        and its owner (engine/moves.py)."""
        return None if c is None else self.condition(c)

    def kind_table(self, kind: ast.Name):
        """(is of the kind, next space of the kind) for every position."""
        k = kind.name
        is_kind = tuple(s.kind == k or (k == "property" and s.kind in PROPERTY_KINDS)
                        or k == "space" for s in self.spaces)
        return is_kind, self.nearest(kind)
    def pot(self, name: ast.Text) -> int:
        if name.value not in self.pots:
            raise RuleError("E116", f"unknown pot '{name.value}'", name.span)
        return self.pots.index(name.value)

    def nearest(self, kind: ast.Name) -> tuple[int, ...]:
        k = kind.name
        targets = [s.index for s in self.spaces
                   if s.kind == k or (k == "property" and s.kind in PROPERTY_KINDS)
                   or k == "space"]
        if not targets:
            raise RuleError("E413", f"no space of kind '{k}' to advance to", kind.span)
        n = len(self.spaces)
        return tuple(_first_ahead(targets, pos, n) for pos in range(n))

    # -------------------------------------------------------------- hooks

    def hook(self, name: str, when: ast.When, target) -> Hook:
        """The hook of a `when` of rule `name`: (owners, name, fn), fn testing the
        conditions on the firing, then running the effects with it. A landing's owner
        filter is the engine's to test (`owners`); one effect alone is fn itself."""
        effects = self.effects(when.effects)
        tests = self.tests(when.conditions)
        owner = target.owner if isinstance(target, ast.SpaceByKind) else None
        owners = ANY_OWNER if owner is None else _OWNERS.get(owner, OWN)
        if self.observe:
            return owners, name, _observed(name, tests, effects)
        if len(effects) == 1 and not tests:
            return owners, name, effects[0]  # its direct form, if any, is the effect's
        direct = self.direct
        if len(effects) == 1 and len(tests) == 1:  # one guard, one effect: no loops
            test, effect = tests[0], effects[0]

            def guarded(g: Game, f: Firing):
                if test(g, f):
                    effect(g, f)

            d_test, d_effect = direct.get(test), direct.get(effect)
            if d_test is not None and d_effect is not None:
                def guarded_direct(g: Game, player: int, space: int, owner: int, dice: tuple,
                                   total: int, rule: str, rent, streak: int):
                    if d_test(g, player, space, owner, dice, total, rule, rent, streak):
                        d_effect(g, player, space, owner, dice, total, rule, rent, streak)
                direct[guarded] = guarded_direct
            if d_test is not None:
                self.guards[guarded] = d_test
            return owners, name, guarded

        def hook(g: Game, f: Firing):
            for test in tests:
                if not test(g, f):
                    return
            for effect in effects:
                effect(g, f)
                if g.stop:
                    return

        d_tests: tuple = tuple(direct.get(t) for t in tests)
        d_effects: tuple = tuple(direct.get(e) for e in effects)
        if d_tests and None not in d_tests:
            if len(d_tests) == 1:
                self.guards[hook] = d_tests[0]
            else:
                def guard(g: Game, player: int, space: int, owner: int, dice: tuple,
                          total: int, rule: str, rent, streak: int):
                    for test in d_tests:
                        if not test(g, player, space, owner, dice, total, rule, rent, streak):
                            return False
                    return True
                self.guards[hook] = guard
        if None not in d_tests and None not in d_effects:
            def hook_direct(g: Game, player: int, space: int, owner: int, dice: tuple,
                            total: int, rule: str, rent, streak: int):
                for test in d_tests:
                    if not test(g, player, space, owner, dice, total, rule, rent, streak):
                        return
                for effect in d_effects:
                    effect(g, player, space, owner, dice, total, rule, rent, streak)
                    if g.stop:
                        return
            direct[hook] = hook_direct
        return owners, name, hook

    def effects(self, nodes) -> tuple:
        """The closures of a list of effects, in order; a `roll the dice` runs the effects
        after it with the firing of its new throw."""
        out: list = []
        for i, e in enumerate(nodes):
            if isinstance(e, ast.RollDice):
                out.append(_then_rolled(self.effects(nodes[i + 1:])))
                break
            fn = self.effect(e)
            if fn is not None:
                out.append(fn)
        return tuple(out)

    def permit(self, rule: str, permission: ast.Permission) -> Permit:
        """A permission as the test of the action it refuses: True refuses. The action's
        compiled form narrows it to lots of a kind or to a building; its conditions must all
        hold (none: always refused)."""
        action = permission.action
        tests = list(self.tests(permission.conditions))
        per_lot = bool(tests)  # a condition may read the lot: tested per lot
        narrow = form_of(action)(self, action)
        if narrow is not None:
            tests.insert(0, narrow)
            per_lot = True
        if not tests:
            def test(g: Game, f: Firing):
                return True
        elif len(tests) == 1:
            test = tests[0]
        else:
            all_tests = tuple(tests)

            def test(g: Game, f: Firing):
                for t in all_tests:
                    if not t(g, f):
                        return False
                return True
        return Permit(rule, permission.text, test, per_lot, compile_permits.exact(permission))

    def condition(self, c):
        """The closure for one condition: called as test(game, firing)."""
        return evaluate.condition(self, c)

    def tests(self, conditions) -> tuple:
        """The closures of guards that must all hold, tested in turn: an `and` among them is
        its conjuncts, so that a guard costs no call of its own."""
        out: list = []
        for c in conditions:
            if type(c) is ast.And:
                out.extend(self.tests(c.conds))
            else:
                out.append(self.condition(c))
        return tuple(out)

    def effect(self, e):
        """The closure for one effect, or None for an effect that runs nothing: called as
        effect(game, firing), the firing by the rule (or card) whose effect it is."""
        if type(e) is ast.Choice:  # `the player chooses one: ...`: structure, not a primitive
            compiled = tuple(tuple(f for f in (self.effect(x) for x in option)
                                   if f is not None) for option in e.options)
            return mv.choice_effect(compiled, e.texts, tuple(_gain(o) for o in e.options))
        return form_of(e)(self, e)

    def deck(self, d: ast.Deck) -> Deck:
        """A deck's cards: each card's effects, called by Game.draw with the firing of the
        draw by the card ("card ID")."""
        cards = []
        for c in d.cards:
            keep = any(isinstance(e, ast.KeepJailCard) for e in c.effects)
            effects = self.effects([e for e in c.effects if not isinstance(e, ast.KeepJailCard)])
            cards.append(Card(c.id.value, c.title.value, effects, keep))
        return Deck(d.name.value, tuple(cards))


# ---------------------------------------------------------------- events
# An event's compiled form places the rule's hook in the rulebook's table the engine fires it
# from: (env, rule, when) -> None. Those of the game's course are compile_course.py's.


@compiled("lands")
def _lands(env: _Env, rule: str, when) -> None:
    target = when.event.target
    table = env.space_hooks("land")
    for pos in env.matching(target):
        table[pos].append(env.hook(rule, when, target))


@compiled("passes")
def _passes(env: _Env, rule: str, when) -> None:
    table = env.space_hooks("pass")
    for pos in env.matching(when.event.target):
        table[pos].append(env.hook(rule, when, None))


@compiled("rolls_doubles")
def _rolls_doubles(env: _Env, rule: str, when) -> None:
    env.hooks(ast.RollsDoubles).append(DoublesHook(when.event.times,
                                                   env.hook(rule, when, None)))


@compiled("rolls_triples", "turn_starts")
def _one_table(env: _Env, rule: str, when) -> None:
    env.hooks(type(when.event)).append(env.hook(rule, when, None))


@compiled("die_shows")
def _die_shows(env: _Env, rule: str, when) -> None:
    hook = env.hook(rule, when, None)
    face = when.event.face.value
    table = env.hooks("after_faces" if when.event.after else "faces")
    for die, value, name in env.face_names:
        if name == face:
            table.append((die, value, hook))


@compiled("meets")
def _meets(env: _Env, rule: str, when) -> None:
    ref = when.event.token
    t = env.token(ref.name) if ref.name is not None else -1
    mh = MeetHook(t, ref.opposing, env.hook(rule, when, None))
    env.hooks(ast.Meets).append(mh)
    on_landing = tk.meet_on_landing(mh)
    for hooks in env.space_hooks("land"):
        hooks.append(on_landing)


@compiled("battle_outcome")
def _battle_outcome(env: _Env, rule: str, when) -> None:
    env.hooks("battle_won" if when.event.won else "battle_lost").append(
        env.hook(rule, when, None))


@compiled("rolls")
def _rolls(env: _Env, rule: str, when) -> None:
    """Only with the throws it can hold on: in jail, out of it, or both."""
    hook = env.hook(rule, when, None)
    jailed = _jailed(when.conditions)
    if jailed is not False:
        env.hooks("jail_rolls").append(hook)
    if jailed is not True:
        env.hooks("rolls").append(hook)


@compiled("token_reaches")
def _token_reaches(env: _Env, rule: str, when) -> None:
    hook = env.hook(rule, when, None)
    table = env.keyed_hooks(ast.TokenReaches)
    t = env.token(when.event.token)
    for pos in env.matching(when.event.target):
        table.setdefault((t, pos), []).append(hook)


@compiled("rent_due")
def _rent_due(env: _Env, rule: str, when) -> None:
    """Per space, the (tests, factor, rule) of a `when rent is due on ...: rent xN`, which
    `pay rent` reads (compile_program places these rules first)."""
    tests = env.tests(when.conditions)
    factor = 1
    for e in when.effects:
        if isinstance(e, ast.MultiplyRent):
            factor *= e.factor
    table = env.space_hooks(ast.RentDue)
    for pos in env.matching(when.event.target):
        table[pos].append((tests, factor, rule))


# ---------------------------------------------------------------- conditions
# test(game, firing) -> bool, negation included; the others are evaluate.py's.


@compiled("option_on")
def _option_on(env: _Env, c):
    on = (c.name.name in env.options) != c.negated
    return lambda g, f: on


@compiled("lap")
def _lap(env: _Env, c):
    env.laps = True
    neg = c.negated
    if c.subject == "player":
        return lambda g, f: (g.state.laps[f.player] > 0) != neg
    if c.subject == "partner":
        def partner_lapped(g: Game, f: Firing):
            o = f.other  # the partner of a trade (only a permission to trade has one)
            return (o >= 0 and g.state.laps[o] > 0) != neg
        return partner_lapped

    def owner_lapped(g: Game, f: Firing):
        o = f.owner
        return (o >= 0 and g.state.laps[o] > 0) != neg
    return owner_lapped


@compiled("players_turn")
def _players_turn(env: _Env, c):
    """Its turn: the seat whose turn is being played, outside the window between turns."""
    neg = c.negated
    if c.subject == "player":
        return lambda g, f: (not g.between and f.player == g.state.current) != neg
    if c.subject == "partner":
        return lambda g, f: (not g.between and f.other == g.state.current) != neg
    return lambda g, f: (not g.between and f.owner == g.state.current) != neg


@compiled("in_jail")
def _in_jail(env: _Env, c):
    neg = c.negated
    if c.subject == "player":
        fn = lambda g, f: g.state.in_jail[f.player] != neg  # noqa: E731
        env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
            g.state.in_jail[player] != neg
        return fn
    if c.subject == "partner":
        def partner_jailed(g: Game, f: Firing):
            o = f.other  # the partner of a trade (only a permission to trade has one)
            return (o >= 0 and g.state.in_jail[o]) != neg
        return partner_jailed

    def owner_jailed(g: Game, f: Firing):
        o = f.owner  # the owner when the event fired, or of the lot an action is on
        return (o >= 0 and g.state.in_jail[o]) != neg
    env.direct[owner_jailed] = lambda g, player, space, owner, dice, total, rule, rent, \
        streak: (owner >= 0 and g.state.in_jail[owner]) != neg
    return owner_jailed


@compiled("holds")
def _holds(env: _Env, c):
    """The space of the firing (where the player stands if none) holds the token: the lot
    acted on in a permission, the candidate of a `where`."""
    t = env.token(c.token)
    neg = c.negated

    def space_holds(g: Game, f: Firing):
        st = g.state
        q = f.space if f.space >= 0 else st.position[f.player]
        return (st.tokens[t] == q) != neg
    return space_holds


# ---------------------------------------------------------------- actions
# The test that narrows a permission to lots of a kind or to a building (None: every one).


@compiled("may_mortgage", "may_trade", "may_buy")
def _on_lots_of_a_kind(env: _Env, action: ast.Action):
    if action.kind is None or action.kind.name == "property":
        return None
    k = action.kind.name
    of_kind = tuple(s.kind == k for s in env.spaces)
    return lambda g, f: f.space >= 0 and of_kind[f.space]


@compiled("may_build", "may_sell")
def _of_a_building(env: _Env, action: ast.Action):
    if action.building is None or action.building.name == "building":
        return None
    b = act.HOUSE if action.building.name == "house" else act.HOTEL
    return lambda g, f: f.building == b


@compiled("may_sell_group", "may_lift", "may_trade_card", "may_bid", "may_pay_fine",
          "may_use_card")
def _every_time(env: _Env, action: ast.Action):
    return None


# ---------------------------------------------------------------- effects
# effect(game, firing) -> None, or None for an effect that runs nothing.


@compiled("collect")
def _collect(env: _Env, e):
    if isinstance(e.amount, ast.Money):
        amount = e.amount.amount
        if e.source == "bank":
            def fn(g: Game, f: Firing):
                g.transfer(g.state.bank, f.player, amount, f.rule, f.rule)
            env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
                g.transfer(g.state.bank, player, amount, rule, rule)
            return fn
        fn = lambda g, f: g.pay_each(f, amount, True)  # noqa: E731
        env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
            g.pay_each_at(player, amount, True, rule)
        return fn
    v = evaluate.expression(env, e.amount)
    if e.source == "bank":
        def collect(g: Game, f: Firing):
            amount = v(g, f)
            if amount > 0:
                g.transfer(g.state.bank, f.player, amount, f.rule, f.rule)
        return collect
    return lambda g, f: g.pay_each(f, v(g, f), True)


@compiled("pay")
def _pay(env: _Env, e):
    """To the bank (or to the pot of `fines_to`), or to each other player."""
    amount = e.amount
    if isinstance(amount, ast.Money):
        n = amount.amount
        if e.to != "bank":
            fn = lambda g, f: g.pay_each(f, n, False)  # noqa: E731
            env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, \
                streak: g.pay_each_at(player, n, False, rule)
            return fn
        if env.fines_to_pot:
            fn = lambda g, f: g.charge(f.player, g.fine_account, n, f.rule, f.rule)  # noqa: E731
            env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
                g.charge(player, g.fine_account, n, rule, rule)
            return fn
        fn = lambda g, f: g.charge(f.player, g.state.bank, n, f.rule, f.rule)  # noqa: E731
        env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
            g.charge(player, g.state.bank, n, rule, rule)
        return fn
    v = evaluate.expression(env, amount)
    if e.to != "bank":
        return lambda g, f: g.pay_each(f, v(g, f), False)
    if env.fines_to_pot:
        return lambda g, f: g.charge(f.player, g.fine_account, v(g, f), f.rule, f.rule)
    return lambda g, f: g.charge(f.player, g.state.bank, v(g, f), f.rule, f.rule)


@compiled("pay_into")
def _pay_into(env: _Env, e):
    i = env.pot(e.pot)
    amount = e.amount
    if isinstance(amount, ast.Money):
        n = amount.amount
        return lambda g, f: g.charge(f.player, g.state.bank + 1 + i, n, f.rule, f.rule)
    v = evaluate.expression(env, amount)
    return lambda g, f: g.charge(f.player, g.state.bank + 1 + i, v(g, f), f.rule, f.rule)


@compiled("collect_pot")
def _collect_pot(env: _Env, e):
    i = env.pot(e.pot)
    percent = e.percent
    if percent == 100:
        return lambda g, f: g.collect_pot(f, i)
    return lambda g, f: g.collect_pot(f, i, percent)


@compiled("end_game")
def _end_game(env: _Env, e):
    return lambda g, f: end_now(g, f.rule, f.rule)


@compiled("pay_choice")
def _pay_choice(env: _Env, e):
    options = e.options
    if all(_fixed_option(o) for o in options):
        opts = tuple(_fixed_option(o) for o in options)
        fn = lambda g, f: g.pay_choice(f, opts)  # noqa: E731
        env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
            g.pay_choice_at(player, rule, opts)
        return fn
    # a share of worth is computed after the choice; any other option before it
    later = tuple(_fixed_option(o) if _worth_share(o) else None for o in options)
    now = tuple(evaluate.expression(env, o) for o in options)
    return lambda g, f: g.pay_choice(f, tuple(
        fixed if fixed is not None else ("money", v(g, f))
        for fixed, v in zip(later, now)))


@compiled("pay_per_building")
def _pay_per_building(env: _Env, e):
    h, hh = e.per_house.amount, e.per_hotel.amount
    fn = lambda g, f: g.pay_per_building(f, h, hh)  # noqa: E731
    env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
        g.pay_per_building_at(player, h, hh, rule)
    return fn


@compiled("go_to_jail")
def _go_to_jail(env: _Env, e):
    fn = lambda g, f: g.go_to_jail(f.player, f.rule)  # noqa: E731
    env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
        g.go_to_jail(player, rule)
    return fn


@compiled("advance_to")
def _advance_to(env: _Env, e):
    dest = env.space(e.space)
    fn = lambda g, f: g.advance_to(f.player, dest, f)  # noqa: E731
    env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
        g.advance_at(player, dest, rule, dice, total, None, streak)
    return fn


@compiled("advance_to_nearest")
def _advance_to_nearest(env: _Env, e):
    """`rent xN` and `rent dice xN` after it are fields of its node."""
    table = env.nearest(e.kind)
    factor, dice_mult = e.rent_factor, e.dice_multiplier
    ctx = None if factor == 1 and dice_mult is None else RentContext(factor, dice_mult)
    fn = lambda g, f: g.advance_to(f.player, table[g.state.position[f.player]], f, ctx)  # noqa
    env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
        g.advance_at(player, table[g.state.position[player]], rule, dice, total, ctx, streak)
    return fn


@compiled("rent_factor")
def _rent_factor(env: _Env, e):
    return None  # alone, the effect of `rent is due`: read by its compiled form (_rent_due)


@compiled("move")
def _move(env: _Env, e):
    if isinstance(e.spaces, int):
        steps = e.spaces
        fn = lambda g, f: g.move_by(f.player, steps, f)  # noqa: E731
        env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
            g.move_at(player, steps, rule, dice, total, streak)
        return fn
    v = evaluate.expression(env, e.spaces)
    sign = -1 if e.back else 1

    def move(g: Game, f: Firing):
        steps = v(g, f)
        if steps:
            g.move_by(f.player, sign * steps, f)
    return move


@compiled("draw")
def _draw(env: _Env, e):
    deck = e.deck
    if deck.value not in env.decks:
        raise RuleError("E105", f"unknown deck '{deck.value}'", deck.span)
    index = env.decks[deck.value]
    fn = lambda g, f: g.draw(f, index)  # noqa: E731
    env.direct[fn] = lambda g, player, space, owner, dice, total, rule, rent, streak: \
        g.draw_at(player, space, owner, dice, total, rule, streak, index)
    return fn


@compiled("keep_jail_card")
def _keep_jail_card(env: _Env, e):
    # a card's is read by _Env.deck, never compiled
    raise RuleError("E302", "only a card can be kept", e.span,
                    hint="use `keep to leave jail free` on a card of a deck")


@compiled("buy")
def _buy(env: _Env, e):
    auction = bool(e.auction)
    fn = Game.offer_here if auction else Game.offer_here_no_auction

    def offer_direct(g: Game, player: int, space: int, owner: int, dice: tuple, total: int,
                     rule: str, rent, streak: int):
        g.offer(player, g.state.position[player], auction, rule)
    env.direct[fn] = offer_direct
    return fn


@compiled("pay_rent")
def _pay_rent(env: _Env, e):
    factor = e.factor
    if env.rent_mods is not None:
        return _modified_rent(env, env.rent_mods, factor)
    fn = Game.pay_rent if factor == 1 else lambda g, f: g.pay_rent(f, factor)

    def pay_direct(g: Game, player: int, space: int, owner: int, dice: tuple, total: int,
                   rule: str, rent, streak: int):
        g.pay_rent_at(player, owner, total, rule, rent, factor)
    env.direct[fn] = pay_direct
    return fn


@compiled("roll_again")
def _roll_again_form(env: _Env, e):
    env.direct[_roll_again] = _roll_again_direct
    return _roll_again


@compiled("nothing")
def _nothing(env: _Env, e):
    return None


@compiled("move_token_next")
def _move_token_next(env: _Env, e):
    t, table = env.token(e.token), env.nearest(e.kind)
    return lambda g, f: tk.move_token_next(g, t, table, f)


@compiled("move_token_by")
def _move_token_by(env: _Env, e):
    t, d = env.token(e.token), env.die(e.die)
    kinds = env.kind_table(e.onto) if e.onto is not None else None
    return lambda g, f: tk.move_token_by(g, t, d, kinds, f)


@compiled("place_token")
def _place_token(env: _Env, e):
    spaces = tuple(q for q, yes in enumerate(env.kind_table(e.kind)[0]) if yes)
    return lambda g, f: tk.place_token(g, f, spaces)


@compiled("battle")
def _battle(env: _Env, e):
    d = env.die(e.die)
    return lambda g, f: tk.battle(g, f, d)


@compiled("claim_free")
def _claim_free(env: _Env, e):
    return tk.claim_free


@compiled("roll_dice")
def _roll_dice(env: _Env, e):
    return _then_rolled(())  # in a list of effects, _Env.effects runs the rest after it


def _gain(effects) -> int:
    """The cash an option brings at once by its effects' declared money (for agents)."""
    total = 0
    for e in effects:
        amount = getattr(e, "amount", None)
        if isinstance(e, ast.Collect) and isinstance(amount, ast.Money):
            total += amount.amount
        elif isinstance(e, (ast.Pay, ast.PayInto)) and isinstance(amount, ast.Money):
            total -= amount.amount
    return total


def _observed(name: str, tests: tuple, effects: tuple):
    """A hook that counts its firing in the game's tally once its conditions hold."""

    def hook(g: Game, f: Firing):
        for test in tests:
            if not test(g, f):
                return
        tally = g.tally
        if tally is not None:
            tally.fire(name)
        for effect in effects:
            effect(g, f)
            if g.stop:
                return

    return hook


def _modified_rent(env: _Env, mods, factor: int):
    """`pay rent` in a rulebook with `when rent is due` rules: their factors apply too."""
    found: tuple = tuple(tuple((tuple(env.direct.get(t) for t in tests), mult, rule)
                               for tests, mult, rule in here) for here in mods)
    # typed for the compiler, which then reads them without the generic protocol (used only
    # when no test is None)
    d_mods: tuple[tuple[tuple[tuple[Callable[..., object], ...], int, str], ...], ...] = found

    def pay_direct(g: Game, player: int, space: int, owner: int, dice: tuple, total: int,
                   rule: str, rent, streak: int):
        times = factor
        by = None  # (rule, factor) of the rules that multiplied it, for the log
        for tests, mult, by_rule in d_mods[g.state.position[player]]:
            for test in tests:
                if not test(g, player, space, owner, dice, total, rule, rent, streak):
                    break
            else:
                times *= mult
                if g.tally is not None:
                    g.tally.fire(by_rule)
                if g._log:
                    by = (by or []) + [(by_rule, mult)]
        g.pay_rent_at(player, owner, total, rule, rent, times, by)

    def pay(g: Game, f: Firing):  # its direct form is pay_direct when every test has one
        times = factor
        by = None  # (rule, factor) of the rules that multiplied it, for the log
        for tests, mult, rule in mods[g.state.position[f.player]]:
            for test in tests:
                if not test(g, f):
                    break
            else:
                times *= mult
                if g.tally is not None:
                    g.tally.fire(rule)
                if g._log:
                    by = (by or []) + [(rule, mult)]
        g.pay_rent(f, times, by)

    if all(None not in tests for here in d_mods for tests, _, _ in here):
        env.direct[pay] = pay_direct
    return pay


def _jailed(conditions) -> bool | None:
    """Whether a `when a player rolls` holds only in jail (True: a conjunct `the player is
    in jail`) or only out of it (False: `is not in jail`), else None: its hook goes only
    with the throws it can hold on."""
    for c in conditions:
        for part in (c.conds if type(c) is ast.And else (c,)):
            negated = False
            if type(part) is ast.Not:
                part, negated = part.cond, True
            if type(part) is ast.Condition and part.test == "in_jail" \
                    and part.subject == "player":
                return part.negated == negated
    return None


def _worth_share(option) -> bool:
    """`N% of worth` or `N% of the player's worth`: an option computed after the choice."""
    return type(option) is ast.PercentOfWorth or (
        type(option) is ast.PercentOf and option.operand == ast.Possessive("player", "worth"))


def _fixed_option(option):
    """An option of a tax choice as the agent is shown it, if known before the game: money
    ("money", N) or a share of worth ("worth", P); None for an expression read at the time."""
    if type(option) is ast.Money:
        return ("money", option.amount)
    if type(option) is ast.PercentOfWorth:
        return ("worth", option.percent)
    if type(option) is ast.PercentOf and _worth_share(option):
        return ("worth", option.percent)
    return None


def _first_ahead(targets: list[int], pos: int, n: int) -> int:
    """The first of the targets ahead of `pos` on a board of n spaces."""
    return min(targets, key=lambda t: (t - pos - 1) % n)


def _roll_again(g: Game, f: Firing):
    g.again = True


def _roll_again_direct(g: Game, player: int, space: int, owner: int, dice: tuple, total: int,
                       rule: str, rent, streak: int):
    g.again = True


def _count_lap(g: Game, f: Firing):
    g.count_lap(f.player)


def _count_lap_direct(g: Game, player: int, space: int, owner: int, dice: tuple, total: int,
                      rule: str, rent, streak: int):
    g.count_lap(player)


def _then_rolled(effects: tuple):
    """`roll the dice`, then the effects after it with the firing of the new throw; a card's
    `rent dice xN` on the firing takes that throw instead of another."""

    def roll(g: Game, f: Firing):
        g.roll(f.player, f.rule)
        thrown = f.thrown(g.last_roll, g.dice_total)
        rent = f.rent
        if rent is not None and rent.dice_multiplier is not None and not rent.thrown:
            thrown = thrown.with_rent(RentContext(rent.factor, rent.dice_multiplier, True))
        for effect in effects:
            effect(g, thrown)
            if g.stop:
                return

    return roll


# the owner filter of `a property owned by ...`, judged on the owner at the moment of landing
_OWNERS = {"nobody": NOBODY, "other": OTHER, "self": OWN}
