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

from . import ast, compile_course, compile_permits, evaluate
from .diagnostics import RuleError
from .engine import actions as act
from .engine import moves as mv
from .engine import tokens as tk
from .engine.endings import end_now
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


def compile_program(program: ast.Program, parameters: tuple[str, ...] = ()) -> Rulebook:
    """The engine's Rulebook for a resolved, checked program (`parameters`: the NAME=VALUE
    overrides it was checked with, recorded in the rulebook)."""
    if program.board is None:
        raise RuleError("E404", "the rulebook has no board", program.title.span,
                        hint="extend a rulebook that declares one, or add a `board:` block")
    spaces, group_names = _spaces(program.board)
    groups = tuple(
        tuple(s.index for s in spaces if s.group == g) for g in range(len(group_names))
    )
    settings, origins = settings_of(program)
    env = _Env(program, spaces, settings)
    env.rent_mods = _rent_mods(env, program)
    decks = tuple(env.deck(d) for d in program.decks)
    env.decks = {d.name: i for i, d in enumerate(decks)}
    n = len(spaces)
    land: list[list] = [[] for _ in range(n)]
    passing: list[list] = [[] for _ in range(n)]
    doubles: list[DoublesHook] = []
    triples: list = []
    turn_start: list = []
    faces: list[tuple[int, int | str, Hook]] = []
    after_faces: list[tuple[int, object, Hook]] = []
    start: list = []
    meets: list[MeetHook] = []
    reach: dict[tuple[int, int], list] = {}
    battles: tuple[list, list] = ([], [])
    rolls: list = []
    jail_rolls: list = []
    dice = tuple(tuple(d.faces) + tuple(t.value for t, _ in d.symbols) for d in program.dice)
    face_names = tuple(dict.fromkeys(
        [(i, value, name.value) for i, d in enumerate(program.dice)
         for value, name in d.face_names]
        + [(i, t.value, t.value) for i, d in enumerate(program.dice) for t, _ in d.symbols]))
    permits: dict[str, list[Permit]] = {a: [] for a in ACTIONS}
    for rule in program.rules:
        for stmt in rule.body:
            if isinstance(stmt, ast.Permission):
                permits[stmt.action.action].append(env.permit(rule.name.name, stmt))
                continue
            if not isinstance(stmt, ast.When):
                continue
            name = rule.name.name
            ev = stmt.event
            match ev:
                case ast.Lands(target):
                    for pos in env.matching(target):
                        land[pos].append(env.hook(name, stmt, target))
                case ast.Passes(target):
                    for pos in env.matching(target):
                        passing[pos].append(env.hook(name, stmt, None))
                case ast.RollsDoubles(times):
                    doubles.append(DoublesHook(times, env.hook(name, stmt, None)))
                case ast.RollsTriples():
                    triples.append(env.hook(name, stmt, None))
                case ast.TurnStarts():
                    turn_start.append(env.hook(name, stmt, None))
                case ast.DieShows(face, _, after):
                    hook = env.hook(name, stmt, None)
                    for die, value, fname in face_names:
                        if fname == face.value:
                            (after_faces if after else faces).append((die, value, hook))
                case ast.GameStarts():
                    part = compile_course.setup_part(stmt, 2)  # stages 1, 3: the course's
                    if part is not None:
                        start.append(env.hook(name, part, None))
                case ast.Meets(ref):
                    t = env.token(ref.name) if ref.name is not None else -1
                    mh = MeetHook(t, ref.opposing, env.hook(name, stmt, None))
                    meets.append(mh)
                    on_landing = tk.meet_on_landing(mh)
                    for pos in range(n):
                        land[pos].append(on_landing)
                case ast.BattleOutcome(won):
                    battles[won].append(env.hook(name, stmt, None))
                case ast.Rolls():
                    hook = env.hook(name, stmt, None)
                    jailed = _jailed(stmt.conditions)
                    if jailed is not False:
                        jail_rolls.append(hook)
                    if jailed is not True:
                        rolls.append(hook)
                case ast.TokenReaches(token, target):
                    hook = env.hook(name, stmt, None)
                    for pos in env.matching(target):
                        reach.setdefault((env.token(token), pos), []).append(hook)
    jail = next((s.index for s in spaces if s.kind == "jail"), -1)
    go = next((s.index for s in spaces if s.kind == "go"), 0)
    if env.laps:
        # before the salary: a lap is complete on GO (the engine's own count, logged nowhere)
        passing[go].insert(0, (ANY_OWNER, "turn", _count_lap))
    return Rulebook(
        title=program.title.value,
        files=program.files,
        settings=settings,
        spaces=spaces,
        groups=groups,
        group_names=group_names,
        decks=decks,
        dice=dice,
        land_hooks=tuple(tuple(h) for h in land),
        pass_hooks=tuple(tuple(h) for h in passing),
        doubles_hooks=tuple(doubles),
        turn_start_hooks=tuple(turn_start),
        face_hooks=tuple(faces),
        face_names=face_names,
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
        start_hooks=tuple(start),
        after_face_hooks=tuple(after_faces),
        meet_hooks=tuple(meets),
        battle_hooks=(tuple(battles[0]), tuple(battles[1])),
        reach_hooks={k: tuple(v) for k, v in reach.items()},
        options=tuple(program.options),
        parameters=parameters,
        course=compile_course.course(env, program),
        moving_dice=env.declared("move"),
        doubles_dice=env.declared("doubles"),
        triples_dice=env.declared("triples") or (),
        triples_hooks=tuple(triples),
        permits={a: tuple(p) for a, p in permits.items()},
        origins=origins,
        roll_hooks=tuple(rolls),
        jail_roll_hooks=tuple(jail_rolls),
        count_turns=env.turns,
        guarantees=compile_permits.guarantees(program),
        trade_rule=compile_permits.trade_rule(program),
    )


def _rent_mods(env: "_Env", program: ast.Program):
    """Per space, the (tests, factor) of every `when rent is due on ...: rent xN`."""
    mods: list[list] = [[] for _ in env.spaces]
    for rule in program.rules:
        for stmt in rule.body:
            if isinstance(stmt, ast.When) and isinstance(stmt.event, ast.RentDue):
                tests = tuple(env.condition(c) for c in stmt.conditions)
                factor = 1
                for e in stmt.effects:
                    if isinstance(e, ast.MultiplyRent):
                        factor *= e.factor
                for pos in env.matching(stmt.event.target):
                    mods[pos].append((tests, factor))
    return tuple(tuple(m) for m in mods) if any(mods) else None


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
        # the pawn and make doubles (triples: none until dice are declared to make them)
        groups = {s.group for s in spaces if s.group >= 0}
        self.groups = tuple(tuple(s.index for s in spaces if s.group == g)
                            for g in range(max(groups) + 1 if groups else 0))
        self.face_names = tuple(dict.fromkeys(
            [(i, value, name.value) for i, d in enumerate(program.dice)
             for value, name in d.face_names]
            + [(i, t.value, t.value) for i, d in enumerate(program.dice) for t, _ in d.symbols]))
        self.moving_dice = tuple(i for i, d in enumerate(program.dice) if d.faces)
        self.doubles_dice = self.moving_dice if len(self.moving_dice) > 1 else ()
        self.triples_dice: tuple[int, ...] = ()
        self.turns = False  # a value of turns taken needs them counted

    # -------------------------------------------------------------- names

    def matching(self, target) -> list[int]:
        match target:
            case ast.SpaceByName(name):
                found = [s.index for s in self.spaces if s.name == name.value]
            case ast.SpaceByKind(kind):
                k = kind.name
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
        tests = tuple(self.condition(c) for c in when.conditions)
        owner = target.owner if isinstance(target, ast.SpaceByKind) else None
        owners = ANY_OWNER if owner is None else _OWNERS.get(owner, OWN)
        if len(effects) == 1 and not tests:
            return owners, name, effects[0]

        def hook(g, f):
            for test in tests:
                if not test(g, f):
                    return
            for effect in effects:
                effect(g, f)
                if g.stop:
                    return

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
        """A permission as the test of the action it refuses: True refuses. Its kind or
        building narrows it to lots of that kind or to that building; its conditions must all
        hold (none: always refused)."""
        action = permission.action
        tests = [self.condition(c) for c in permission.conditions]
        per_lot = bool(tests)  # a condition may read the lot: tested per lot
        if action.kind is not None and action.kind.name != "property":
            k = action.kind.name
            of_kind = tuple(s.kind == k for s in self.spaces)
            tests.insert(0, lambda g, f: f.space >= 0 and of_kind[f.space])
            per_lot = True
        if action.building is not None and action.building.name != "building":
            b = act.HOUSE if action.building.name == "house" else act.HOTEL
            tests.insert(0, lambda g, f: f.building == b)
            per_lot = True
        if not tests:
            def test(g, f):
                return True
        elif len(tests) == 1:
            test = tests[0]
        else:
            all_tests = tuple(tests)

            def test(g, f):
                for t in all_tests:
                    if not t(g, f):
                        return False
                return True
        return Permit(rule, permission.text, test, per_lot, compile_permits.exact(permission))

    def condition(self, c):
        """The closure for one condition: called as test(game, firing)."""
        if type(c) is not ast.Condition or c.test in evaluate.TESTS:
            return evaluate.condition(self, c)
        neg = c.negated
        if c.test == "option":
            on = (c.name.name in self.options) != neg  # type: ignore[union-attr]
            return lambda g, f: on
        if c.test == "lap":
            self.laps = True
            if c.subject == "player":
                return lambda g, f: (g.state.laps[f.player] > 0) != neg

            def owner_lapped(g, f):
                o = f.owner
                return (o >= 0 and g.state.laps[o] > 0) != neg
            return owner_lapped
        if c.test == "in_jail" and c.subject == "player":
            return lambda g, f: g.state.in_jail[f.player] != neg
        if c.test == "holds":
            t = self.token(c.token)  # type: ignore[arg-type]
            return lambda g, f: tk.holds(g, f.player, t) != neg
        if c.test == "in_jail" and c.subject == "owner":
            def owner_jailed(g, f):
                o = f.owner  # the owner when the event fired, or of the lot an action is on
                return (o >= 0 and g.state.in_jail[o]) != neg
            return owner_jailed
        raise NotImplementedError(f"condition '{c.subject} {c.test}'")  # a parser/compiler gap

    def effect(self, e):
        """The closure for one effect: called as effect(game, firing), the firing by the
        rule (or card) whose effect it is."""
        factory = compile_course.EFFECTS.get(type(e))
        if factory is not None:
            return factory(self, e)
        match e:
            case ast.Collect(ast.Money(amount), "bank"):
                return lambda g, f: g.transfer(g.state.bank, f.player, amount, f.rule, f.rule)
            case ast.Collect(ast.Money(amount), "each_player"):
                return lambda g, f: g.pay_each(f, amount, True)
            case ast.Pay(ast.Money(amount), "bank"):
                if self.fines_to_pot:
                    return lambda g, f: g.charge(f.player, g.fine_account, amount, f.rule, f.rule)
                return lambda g, f: g.charge(f.player, g.state.bank, amount, f.rule, f.rule)
            case ast.PayInto(ast.Money(amount), pot):
                i = self.pot(pot)
                return lambda g, f: g.charge(f.player, g.state.bank + 1 + i, amount, f.rule,
                                             f.rule)
            case ast.CollectPot(pot, _, 100):
                i = self.pot(pot)
                return lambda g, f: g.collect_pot(f, i)
            case ast.CollectPot(pot, _, percent):
                i = self.pot(pot)
                return lambda g, f: g.collect_pot(f, i, percent)
            case ast.EndGame():
                return lambda g, f: end_now(g, f.rule, f.rule)
            case ast.Pay(ast.Money(amount), "each_player"):
                return lambda g, f: g.pay_each(f, amount, False)
            case ast.PayChoice(options) if all(_fixed_option(o) for o in options):
                opts = tuple(_fixed_option(o) for o in options)
                return lambda g, f: g.pay_choice(f, opts)
            case ast.PayChoice(options):
                # a share of worth is computed after the choice; any other option before it
                later = tuple(_fixed_option(o) if _worth_share(o) else None for o in options)
                now = tuple(evaluate.expression(self, o) for o in options)
                return lambda g, f: g.pay_choice(f, tuple(
                    fixed if fixed is not None else ("money", v(g, f))
                    for fixed, v in zip(later, now)))
            case ast.Collect(expr, "bank"):
                v = evaluate.expression(self, expr)

                def collect(g, f):
                    amount = v(g, f)
                    if amount > 0:
                        g.transfer(g.state.bank, f.player, amount, f.rule, f.rule)
                return collect
            case ast.Collect(expr, "each_player"):
                v = evaluate.expression(self, expr)
                return lambda g, f: g.pay_each(f, v(g, f), True)
            case ast.Pay(expr, "bank"):
                v = evaluate.expression(self, expr)
                if self.fines_to_pot:
                    return lambda g, f: g.charge(f.player, g.fine_account, v(g, f), f.rule,
                                                 f.rule)
                return lambda g, f: g.charge(f.player, g.state.bank, v(g, f), f.rule, f.rule)
            case ast.Pay(expr, "each_player"):
                v = evaluate.expression(self, expr)
                return lambda g, f: g.pay_each(f, v(g, f), False)
            case ast.PayInto(expr, pot):
                i, v = self.pot(pot), evaluate.expression(self, expr)
                return lambda g, f: g.charge(f.player, g.state.bank + 1 + i, v(g, f), f.rule,
                                             f.rule)
            case ast.PayPerBuilding(ast.Money(h), ast.Money(hh)):
                return lambda g, f: g.pay_per_building(f, h, hh)
            case ast.GoToJail():
                return lambda g, f: g.go_to_jail(f.player, f.rule)
            case ast.AdvanceTo(name):
                dest = self.space(name)
                return lambda g, f: g.advance_to(f.player, dest, f)
            case ast.AdvanceToNearest(kind, factor, dice_mult):
                table = self.nearest(kind)
                rent = None if factor == 1 and dice_mult is None else RentContext(factor, dice_mult)
                return lambda g, f: g.advance_to(f.player, table[g.state.position[f.player]], f,
                                                 rent)
            case ast.MoveBy(int(steps)):
                return lambda g, f: g.move_by(f.player, steps, f)
            case ast.MoveBy(expr, _, back):
                v = evaluate.expression(self, expr)
                sign = -1 if back else 1

                def move(g, f):
                    steps = v(g, f)
                    if steps:
                        g.move_by(f.player, sign * steps, f)
                return move
            case ast.Draw(deck):
                if deck.value not in self.decks:
                    raise RuleError("E105", f"unknown deck '{deck.value}'", deck.span)
                index = self.decks[deck.value]
                return lambda g, f: g.draw(f, index)
            case ast.BuyOrAuction(auction):
                return Game.offer_here if auction else Game.offer_here_no_auction
            case ast.PayRent(factor) if self.rent_mods is not None:
                return _modified_rent(self.rent_mods, factor)
            case ast.PayRent(1):
                return Game.pay_rent
            case ast.PayRent(factor):
                return lambda g, f: g.pay_rent(f, factor)
            case ast.RollAgain():
                return _roll_again
            case ast.Nothing():
                return None
            case ast.MoveTokenNext(token, kind):
                t, table = self.token(token), self.nearest(kind)
                return lambda g, f: tk.move_token_next(g, t, table, f)
            case ast.MoveTokenBy(token, die, onto):
                t, d = self.token(token), self.die(die)
                kinds = self.kind_table(onto) if onto is not None else None
                return lambda g, f: tk.move_token_by(g, t, d, kinds, f)
            case ast.PlaceToken(kind):
                spaces = tuple(q for q, yes in enumerate(self.kind_table(kind)[0]) if yes)
                return lambda g, f: tk.place_token(g, f, spaces)
            case ast.Battle(die):
                d = self.die(die)
                return lambda g, f: tk.battle(g, f, d)
            case ast.ClaimFree():
                return tk.claim_free
            case ast.RollDice():
                return _then_rolled(())
            case ast.MultiplyRent():
                return None  # folded into `pay rent` by _rent_mods
            case ast.Choice(options, texts):
                compiled = tuple(tuple(f for f in (self.effect(x) for x in option)
                                       if f is not None) for option in options)
                return mv.choice_effect(compiled, texts, tuple(_gain(o) for o in options))
            case ast.AdvanceNext(kind, owner, where, otherwise):
                is_kind = self.kind_table(kind)[0]
                other = self.effect(otherwise) if otherwise is not None else None
                return mv.advance_next(is_kind, owner, self.where(where), other)
            case ast.ChooseSpace(kind, owner, where, straight):
                is_kind = self.kind_table(kind)[0]
                of_kind = tuple(q for q, yes in enumerate(is_kind) if yes)
                return mv.choose_space(of_kind, owner, self.where(where), straight)
            case ast.KeepJailCard():
                raise RuleError("E302", "only a card can be kept", e.span,
                                hint="use `keep to leave jail free` on a card of a deck")
        raise NotImplementedError(f"effect {type(e).__name__}")  # a parser/compiler gap

    def deck(self, d: ast.Deck) -> Deck:
        """A deck's cards: each card's effects, called by Game.draw with the firing of the
        draw by the card ("card ID")."""
        cards = []
        for c in d.cards:
            keep = any(isinstance(e, ast.KeepJailCard) for e in c.effects)
            effects = self.effects([e for e in c.effects if not isinstance(e, ast.KeepJailCard)])
            cards.append(Card(c.id.value, c.title.value, effects, keep))
        return Deck(d.name.value, tuple(cards))


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


def _modified_rent(mods, factor: int):
    """`pay rent` in a rulebook with `when rent is due` rules: their factors apply too."""

    def pay(g, f):
        pos = g.state.position[f.player]
        times = factor
        for tests, mult in mods[pos]:
            if all(test(g, f) for test in tests):
                times *= mult
        g.pay_rent(f, times)

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


def _roll_again(g, f):
    g.again = True


def _count_lap(g, f):
    g.state.laps[f.player] += 1


def _then_rolled(effects: tuple):
    """`roll the dice`, then the effects after it with the firing of the new throw."""

    def roll(g, f):
        g.roll(f.player, f.rule)
        thrown = f.thrown(g.last_roll, g.dice_total)
        for effect in effects:
            effect(g, thrown)
            if g.stop:
                return

    return roll


# the owner filter of `a property owned by ...`, judged on the owner at the moment of landing
_OWNERS = {"nobody": NOBODY, "other": OTHER, "self": OWN}
