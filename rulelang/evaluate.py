"""Conditions and expressions bound to the engine: a condition compiles to
`test(game, firing) -> bool`, an expression to `value(game, firing) -> int`.

Both read the game's state and the firing (its player, space, owner, throw and doubles
streak) and change nothing. Names (dice, pots, kinds) become indices here, once; evaluation
has no loop but over the lots of one group or of the board, and no recursion: an `and` or a
sum is one closure over a tuple, nesting is bounded by the parser (E019). The environment
`env` is compile.py's `_Env`: `spaces`, `groups`, `face_names`, `die(name)`, `pot(name)`,
`condition(node)`, the flags `laps` and `turns` (counters kept only when read), and
`direct`, where a closure's direct form is kept: the same test or value as a function of the
firing's fields, `fn(game, player, space, owner, dice, total, rule, rent, streak)`, which the
engine calls on a landing, a passing or doubles without building the firing
(Rulebook.direct); a closure without one makes the engine build the firing.

`and`, `or`, `not`, the literals and the operators are the structure, compiled here; every
atom and value is a primitive's compiled form, found by its name (vocab/compiled.py) and
registered here with `@compiled`, or in compile.py for the atoms whose closures run compiled
with the engine (`in_jail`, `lap`, `holds`, `option_on`).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Callable

from rulelang import ast, units
from rulelang.engine.tables import PROPERTY_KINDS
from rulelang.vocab.compiled import compiled, form_of

if TYPE_CHECKING:
    from rulelang.engine.firing import Firing
    from rulelang.engine.game import Game

__all__ = ["condition", "expression", "Test", "Value"]

Test = Callable[..., bool]
Value = Callable[..., int]

_OPS = {"eq": operator.eq, "ne": operator.ne, "ge": operator.ge, "le": operator.le,
        "gt": operator.gt, "lt": operator.lt}


# ---------------------------------------------------------------- subjects


def _space(g: Game, f: Firing) -> int:
    """The space of the firing: where the event happened (where the player stands if none)."""
    return f.space if f.space >= 0 else g.state.position[f.player]


def _seat(subject: str) -> Callable:
    """The seat a subject names in a firing (-1: none): the player, the owner, or the partner
    of a trade (`other`). An attribute getter, so that reading it costs no Python call."""
    return operator.attrgetter(subject if subject in ("player", "owner") else "other")


def _direct_seat(subject: str) -> int:
    """Which of a direct form's seats a subject names (0: the player, 1: the owner); -1:
    none (the partner, which a firing of a landing, a passing or doubles does not have)."""
    return 0 if subject == "player" else 1 if subject == "owner" else -1


# ---------------------------------------------------------------- expressions


def expression(env, node) -> Value:
    """value(game, firing): the integer an expression has now. The operators and literals
    are the expressions' structure; every other value is a primitive's compiled form."""
    cls = type(node)
    if cls is int:
        return lambda g, f, n=node: n
    if cls is ast.Money:
        return lambda g, f, n=node.amount: n
    if cls is ast.Count or cls is ast.Percent:
        return lambda g, f, n=node.value: n
    if cls is ast.Plus:
        terms = tuple(expression(env, t) for t in node.terms)
        if len(terms) == 2:
            a, b = terms
            return lambda g, f: a(g, f) + b(g, f)
        return lambda g, f: sum(t(g, f) for t in terms)
    if cls is ast.Times:
        n, v = node.factor, expression(env, node.operand)
        return lambda g, f: n * v(g, f)
    if cls is ast.PercentOf:
        p, v = node.percent, expression(env, node.operand)
        return lambda g, f: v(g, f) * p // 100
    if cls is ast.PerOwned:
        n, count = node.amount, _count_owned(env, node.thing, node.subject)
        return lambda g, f: n * count(g, f)
    return form_of(node)(env, node)


@compiled("percent_of_worth")
def _percent_of_worth(env, node: ast.PercentOfWorth) -> Value:
    p = node.percent
    return lambda g, f: g.worth(f.player) * p // 100


@compiled("dice_total")
def _dice_total(env, node: ast.DiceTotal) -> Value:
    return lambda g, f: f.total


@compiled("die_value")
def _die(env, node: ast.DieValue) -> Value:
    i = env.die(node.die) if node.die is not None else node.ordinal - 1
    return lambda g, f: _die_value(f.dice, i)


@compiled("pot_amount")
def _pot_amount(env, node: ast.PotAmount) -> Value:
    pot = env.pot(node.pot)
    return lambda g, f: g.state.cash[g.state.bank + 1 + pot]


@compiled("space_value")
def _space_value(env, node: ast.SpaceValue) -> Value:
    values = tuple(getattr(s, node.prop) for s in env.spaces)
    return lambda g, f: values[_space(g, f)]


@compiled("count_owned")
def _count(env, node: ast.CountOwned) -> Value:
    return _count_owned(env, node.thing, node.subject)


@compiled("bank_count")
def _bank(env, node: ast.BankCount) -> Value:
    return _bank_count(env, node.thing)


@compiled("the_bid")
def _the_bid(env, node: ast.TheBid) -> Value:
    return lambda g, f: f.amount


@compiled("game_count")
def _game_count(env, node: ast.GameCount) -> Value:
    if node.what == "bankruptcies":
        return lambda g, f: g.state.bankruptcies
    return lambda g, f: g.state.bankrupt.count(False)


def _die_value(dice: tuple, i: int) -> int:
    """The value die i shows (0 for a symbol, or before any throw)."""
    if i >= len(dice):
        return 0
    x = dice[i]
    return x if type(x) is int else 0


@compiled("possessive")
def _possessive(env, node: ast.Possessive) -> Value:
    seat, prop = _seat(node.subject), node.prop
    if prop == "doubles":
        return lambda g, f: f.streak
    if prop == "turn_laps":
        env.laps = True

        def turn_laps(g: Game, f: Firing):
            return g.laps_this_turn(seat(f))
        which = _direct_seat(node.subject)
        if which >= 0:
            def turn_laps_direct(g: Game, player: int, space: int, owner: int, dice: tuple,
                                 total: int, rule: str, rent, streak: int):
                return g.laps_this_turn(owner if which else player)
            env.direct[turn_laps] = turn_laps_direct
            env.turn_laps_of[turn_laps] = which
        return turn_laps
    if prop == "laps":
        env.laps = True
    elif prop == "turns":
        env.turns = True
    if prop == "worth":
        def worth(g: Game, f: Firing):
            s = seat(f)
            return g.worth(s) if s >= 0 else 0
        return worth
    if prop == "net_worth":
        def net_worth(g: Game, f: Firing):
            s = seat(f)
            return g.net_worth(s) if s >= 0 else 0
        return net_worth
    if prop == "cash":
        def cash(g: Game, f: Firing):
            s = seat(f)
            return g.state.cash[s] if s >= 0 else 0
        return cash
    # a list of the state, one entry per seat
    field = {"laps": "laps", "turns": "turns_taken"}.get(prop, "jail_turns")

    def read(g: Game, f: Firing):
        s = seat(f)
        return getattr(g.state, field)[s] if s >= 0 else 0
    return read


def _count_owned(env, thing: ast.Name, subject: str) -> Value:
    """How many of a thing (a kind's lots, houses, hotels, buildings) a subject owns."""
    seat, what = _seat(subject), units.thing(thing.name) or thing.name
    if what in units.BUILDINGS:
        streets = tuple(s.index for s in env.spaces if s.kind == "street")
        houses, hotels = what != "hotel", what != "house"

        def buildings(g: Game, f: Firing):
            s = seat(f)
            st = g.state
            owner = st.owner
            n = 0
            for q in streets:
                if owner[q] == s:
                    n += (st.houses[q] if houses else 0) + (st.hotels[q] if hotels else 0)
            return n
        return buildings
    lots = tuple(s.index for s in env.spaces
                 if s.kind == what or (what == "property" and s.kind in PROPERTY_KINDS))

    def count(g: Game, f: Firing):
        s = seat(f)
        owner = g.state.owner
        return sum(1 for q in lots if owner[q] == s) if s >= 0 else 0
    return count


def _bank_count(env, thing: ast.Name) -> Value:
    """How many of a thing the bank holds: buildings of its supply, or unowned lots."""
    what = units.thing(thing.name) or thing.name
    if what == "house":
        return lambda g, f: g.state.bank_houses
    if what == "hotel":
        return lambda g, f: g.state.bank_hotels
    if what == "building":
        return lambda g, f: g.state.bank_houses + g.state.bank_hotels
    lots = tuple(s.index for s in env.spaces
                 if s.kind == what or (what == "property" and s.kind in PROPERTY_KINDS))
    return lambda g, f: sum(1 for q in lots if g.state.owner[q] < 0)


# ---------------------------------------------------------------- conditions


def condition(env, node) -> Test:
    """test(game, firing): whether a condition holds now (`and`/`or` stop early). `and`,
    `or` and `not` are the conditions' structure; every atom is a primitive's compiled form."""
    cls = type(node)
    if cls is ast.And:
        tests = tuple(env.condition(c) for c in node.conds)
        if len(tests) == 2:
            a, b = tests
            return lambda g, f: a(g, f) and b(g, f)

        def every(g: Game, f: Firing):
            for t in tests:
                if not t(g, f):
                    return False
            return True
        return every
    if cls is ast.Or:
        tests = tuple(env.condition(c) for c in node.conds)

        def some(g: Game, f: Firing):
            for t in tests:
                if t(g, f):
                    return True
            return False
        return some
    if cls is ast.Not:
        t = env.condition(node.cond)
        return lambda g, f: not t(g, f)
    return form_of(node)(env, node)


@compiled("compare")
def _compare(env, node: ast.Compare) -> Test:
    op, a = _OPS[node.op], expression(env, node.left)
    n = _literal(node.right)
    if n is not None:  # `the player's laps this turn is 1`: one call fewer
        test = lambda g, f: op(a(g, f), n)  # noqa: E731
        d = env.direct.get(a)
        which = env.turn_laps_of.get(a)
        if which is not None:  # the player's or the owner's laps this turn
            def laps_compared(g: Game, player: int, space: int, owner: int, dice: tuple,
                              total: int, rule: str, rent, streak: int):
                return op(g.laps_this_turn(owner if which else player), n)
            env.direct[test] = laps_compared
        elif d is not None:
            env.direct[test] = lambda g, player, space, owner, dice, total, rule, rent, \
                streak: op(d(g, player, space, owner, dice, total, rule, rent, streak), n)
        return test
    b = expression(env, node.right)
    return lambda g, f: op(a(g, f), b(g, f))


def _literal(node) -> int | None:
    """The value of a literal amount, count or percentage; None for any other expression."""
    cls = type(node)
    if cls is int:
        return node
    if cls is ast.Money:
        return node.amount
    if cls is ast.Count or cls is ast.Percent:
        return node.value
    return None


@compiled("owns_count")
def _owns_count(env, node: ast.OwnsCount) -> Test:
    op, n = _OPS[node.cmp], node.count
    count = _count_owned(env, node.thing, node.subject)
    return lambda g, f: op(count(g, f), n)


@compiled("space_is")
def _space_is(env, node: ast.SpaceIs) -> Test:
    k = node.kind.name
    yes = tuple(s.kind == k or (k == "property" and s.kind in PROPERTY_KINDS)
                or k == "space" for s in env.spaces)
    return lambda g, f: yes[_space(g, f)]


@compiled("die_shows_face")
def _die_shows_face(env, node: ast.DieShowsFace) -> Test:
    want = node.face.value
    die = env.die(node.die) if node.die is not None else -1
    pairs = tuple((i, v) for i, v, name in env.face_names
                  if name == want and (die < 0 or i == die))
    return lambda g, f: any(i < len(f.dice) and f.dice[i] == v for i, v in pairs)


def _negated(c: ast.Condition, test: Test) -> Test:
    """The test of an atom, or its opposite for `unless`, `is not` ..."""
    if c.negated:
        return lambda g, f: not test(g, f)
    return test


def _group_of(env) -> tuple[tuple[int, ...], ...]:
    """The lots of the group of each space (none for a space that is no property)."""
    return tuple(env.groups[s.group] if s.group >= 0 else () for s in env.spaces)


@compiled("dice_alike")
def _dice_alike(env, c: ast.Condition) -> Test:
    test = c.test
    dice = env.doubles_dice if test != "alike" else env.moving_dice
    if test == "triples":
        dice = env.triples_dice
    if not dice or (test != "alike" and len(dice) < (2 if test == "doubles" else 3)):
        return _negated(c, lambda g, f: False)
    first, rest = dice[0], dice[1:]
    top = max(dice)
    if len(rest) == 1:  # doubles: two dice alike
        second = rest[0]

        def pair(g: Game, f: Firing):
            d = f.dice
            return len(d) > top and d[first] == d[second]
        paired = _negated(c, pair)
        neg = c.negated

        def pair_direct(g: Game, player: int, space: int, owner: int, dice: tuple,
                        total: int, rule: str, rent, streak: int):
            return (len(dice) > top and dice[first] == dice[second]) != neg
        env.direct[paired] = pair_direct
        return paired

    def alike(g: Game, f: Firing):
        d = f.dice
        if len(d) <= max(dice):
            return False
        x = d[first]
        return all(d[i] == x for i in rest)
    return _negated(c, alike)


@compiled("no_jail_turn_left")
def _no_jail_turn_left(env, c: ast.Condition) -> Test:
    seat = _seat(c.subject)

    def no_turn_left(g: Game, f: Firing):
        s = seat(f)
        return s >= 0 and g.state.jail_turns[s] >= g.settings.jail_turns
    test = _negated(c, no_turn_left)
    which, neg = _direct_seat(c.subject), c.negated
    if which >= 0:
        def no_turn_left_direct(g: Game, player: int, space: int, owner: int, dice: tuple,
                                total: int, rule: str, rent, streak: int):
            s = owner if which else player
            return (s >= 0 and g.state.jail_turns[s] >= g.settings.jail_turns) != neg
        env.direct[test] = no_turn_left_direct
    return test


@compiled("owns_space")
def _owns_space(env, c: ast.Condition) -> Test:
    seat = _seat(c.subject)

    def owns(g: Game, f: Firing):
        s = seat(f)
        return s >= 0 and g.state.owner[_space(g, f)] == s
    return _negated(c, owns)


@compiled("holds_group")
def _holds_group(env, c: ast.Condition) -> Test:
    seat = _seat(c.subject)
    groups = _group_of(env)
    no = c.negated  # asked on every build: the negation is the test's own answer

    def whole(g: Game, f: Firing):
        s = seat(f)
        pos = f.space
        if pos < 0:
            pos = g.state.position[f.player]
        lots = groups[pos]
        if s < 0 or not lots:
            return no
        owner = g.state.owner
        for q in lots:
            if owner[q] != s:
                return no
        return not no
    which = _direct_seat(c.subject)
    if which >= 0:
        def whole_direct(g: Game, player: int, space: int, owner: int, dice: tuple,
                         total: int, rule: str, rent, streak: int):
            s = owner if which else player
            lots = groups[space if space >= 0 else g.state.position[player]]
            if s < 0 or not lots:
                return no
            deeds = g.state.owner
            for q in lots:
                if deeds[q] != s:
                    return no
            return not no
        env.direct[whole] = whole_direct
    return whole


@compiled("building_level")
def _building_level(env, c: ast.Condition) -> Test:
    groups = _group_of(env)
    fewest = c.test == "fewest"  # else "most"
    no = c.negated  # asked on every build or sale: the negation is the test's own answer

    def extreme(g: Game, f: Firing):
        pos = f.space
        if pos < 0:
            pos = g.state.position[f.player]
        lots = groups[pos]
        if not lots:
            return no
        st = g.state
        houses, hotels = st.houses, st.hotels
        top = g.settings.houses_per_hotel + 1  # a hotel's level (actions.level)
        here = top if hotels[pos] else houses[pos]
        for q in lots:
            there = top if hotels[q] else houses[q]
            if (there < here) if fewest else (there > here):
                return no
        return not no
    return extreme


def _some_lot(node: ast.LotTest, groups, lot) -> Test:
    """`a lot of the group ...`: the two tests the official rulebooks ask on every build,
    mortgage and trade (is mortgaged, has a building) read the state directly."""
    if node.test == "mortgaged" and not node.negated:
        def some_mortgaged(g: Game, f: Firing):
            mortgaged = g.state.mortgaged
            pos = f.space
            for q in groups[pos if pos >= 0 else g.state.position[f.player]]:
                if mortgaged[q]:
                    return True
            return False
        return some_mortgaged
    thing = units.thing(node.thing.name) if node.thing is not None else "building"
    if node.test == "buildings" and node.cmp == "ge" and node.count == 1 and thing == "building":
        def some_built(g: Game, f: Firing):
            st = g.state
            houses, hotels = st.houses, st.hotels
            pos = f.space
            for q in groups[pos if pos >= 0 else st.position[f.player]]:
                if houses[q] or hotels[q]:
                    return True
            return False
        return some_built

    def some(g: Game, f: Firing):
        for q in groups[_space(g, f)]:
            if lot(g, q):
                return True
        return False
    return some


@compiled("lot_test")
def _lot_test(env, node: ast.LotTest) -> Test:
    """A test of the space, or of some / no / every lot of its group."""
    subject = node.subject
    if node.test == "mortgaged":
        negated = node.negated

        def lot(g, q):
            return g.state.mortgaged[q] != negated
        if subject == "space":
            def space_mortgaged(g: Game, f: Firing):
                pos = f.space
                return g.state.mortgaged[pos if pos >= 0 else g.state.position[f.player]] \
                    != negated
            env.direct[space_mortgaged] = lambda g, player, space, owner, dice, total, rule, \
                rent, streak: g.state.mortgaged[space if space >= 0
                                                else g.state.position[player]] != negated
            return space_mortgaged
    else:
        what = units.thing(node.thing.name) if node.thing is not None else "building"
        houses, hotels = what != "hotel", what != "house"
        op, n = _OPS[node.cmp], node.count

        def lot(g, q):
            st = g.state
            return op((st.houses[q] if houses else 0) + (st.hotels[q] if hotels else 0), n)
        if subject == "space" and houses and hotels and node.cmp == "eq" and n == 0:
            def space_unbuilt(g: Game, f: Firing):  # `the space has no building`
                st = g.state
                pos = f.space
                if pos < 0:
                    pos = st.position[f.player]
                return not (st.houses[pos] or st.hotels[pos])

            def space_unbuilt_direct(g: Game, player: int, space: int, owner: int,
                                     dice: tuple, total: int, rule: str, rent, streak: int):
                st = g.state
                pos = space if space >= 0 else st.position[player]
                return not (st.houses[pos] or st.hotels[pos])
            env.direct[space_unbuilt] = space_unbuilt_direct
            return space_unbuilt
        if subject == "space":
            def space_built(g: Game, f: Firing):
                st = g.state
                pos = f.space
                if pos < 0:
                    pos = st.position[f.player]
                return op((st.houses[pos] if houses else 0) + (st.hotels[pos] if hotels else 0), n)
            return space_built
    groups = _group_of(env)
    if subject == "a lot":
        return _some_lot(node, groups, lot)
    if subject == "no lot":
        def none(g: Game, f: Firing):
            lots = groups[_space(g, f)]
            return bool(lots) and not any(lot(g, q) for q in lots)
        return none

    def every(g: Game, f: Firing):
        lots = groups[_space(g, f)]
        return bool(lots) and all(lot(g, q) for q in lots)
    return every
