"""The compiled forms of the events of the game's course and of their effects
(vocab/game_events.py): the rulebook's `Course` of hooks and instructions, and one factory
`(env, node) -> closure` per effect.

`compile.compile_program` calls `course(env, program)` once and `EFFECTS[type(node)]` for
each effect of these kinds; `setup_part` splits a `when the game starts` by stages.
"""

from __future__ import annotations

import attrs

from . import ast, vocab
from .engine import course as co
from .engine.game import MAX_TIES
from .engine.setup import deal_deeds
from .engine.tables import PROPERTY_KINDS

__all__ = ["course", "EFFECTS", "setup_part"]


def _stage(effect) -> int:
    return vocab.facts_of(effect).stage


def setup_part(when: ast.When, stage: int) -> ast.When | None:
    """The part of a `when the game starts` that runs in one stage (None if it has none)."""
    effects = tuple(e for e in when.effects if _stage(e) == stage)
    if not effects:
        return None
    return attrs.evolve(when, effects=effects)


def _positions(env, kind: ast.Name) -> list[int]:
    k = kind.name
    return [s.index for s in env.spaces
            if s.kind == k or (k == "property" and s.kind in PROPERTY_KINDS)]


def _instruction(env, name: str, when: ast.When, to: str | None = None) -> co.Instruction:
    effects = when.effects
    return co.Instruction(
        rule=name,
        tests=tuple(env.condition(c) for c in when.conditions),
        to=to,
        auction=any(isinstance(e, (ast.BankAuctionsLots, ast.AuctionBuilding))
                    for e in effects),
        everything=any(isinstance(e, ast.EverythingToCreditor) for e in effects),
        end=any(isinstance(e, ast.EndGame) for e in effects),
        from_cost=any(isinstance(e, ast.AuctionBuilding) and e.from_cost for e in effects))


def course(env, program: ast.Program) -> co.Course:
    """The hooks and instructions of every rule waiting for an event of the game's course."""
    n = len(env.spaces)
    simple: dict[type, list] = {t: [] for t in _SIMPLE}
    per_space: dict[str, list[list]] = {}
    built: tuple[list, list] = ([], [])
    sold: tuple[list, list] = ([], [])
    mortgages: dict[str, list] = {"taken": [], "lifted": []}
    drawn: list[list] | None = None
    lists: dict[str, list] = {"bankrupt": [], "time_limit": [], "shortage": [], "first": [],
                              "last": []}
    for rule in program.rules:
        name = rule.name.name
        for when in rule.body:
            if not isinstance(when, ast.When):
                continue
            ev = when.event
            if type(ev) in simple:
                simple[type(ev)].append(env.hook(name, when, None))
            elif isinstance(ev, ast.PropertyEvent):
                table = per_space.setdefault(ev.what, [[] for _ in range(n)])
                hook = env.hook(name, when, None)
                for pos in _positions(env, ev.kind):
                    table[pos].append(hook)
            elif isinstance(ev, ast.BuildingEvent):
                hook = env.hook(name, when, None)
                target = built if ev.what == "bought" else sold
                for i, kind in enumerate(("house", "hotel")):
                    if ev.building in ("building", kind):
                        target[i].append(hook)
            elif isinstance(ev, ast.MortgageEvent):
                mortgages[ev.what].append(env.hook(name, when, None))
            elif isinstance(ev, ast.CardDrawn):
                if drawn is None:
                    drawn = [[] for _ in env.decks]
                hook = env.hook(name, when, None)
                for i, deck in enumerate(drawn):
                    if ev.deck is None or env.decks.get(ev.deck.value) == i:
                        deck.append(hook)
            elif isinstance(ev, ast.GoesBankrupt):
                lists["bankrupt"].append(_instruction(env, name, when, ev.to))
            elif isinstance(ev, ast.TimeLimitReached):
                lists["time_limit"].append(_instruction(env, name, when))
            elif isinstance(ev, ast.BuildingsRunShort):
                lists["shortage"].append(_instruction(env, name, when))
            elif isinstance(ev, ast.GameStarts):
                for stage, key in ((1, "first"), (3, "last")):
                    part = setup_part(when, stage)
                    if part is not None:
                        lists[key].append(env.hook(name, part, None))

    def spaces(what: str) -> tuple:
        table = per_space.get(what)
        return tuple(tuple(h) for h in table) if table else ()

    return co.Course(
        turn_end=tuple(simple[ast.TurnEnds]),
        sent_to_jail=tuple(simple[ast.SentToJail]),
        jail_turn=tuple(simple[ast.JailTurn]),
        leaves_jail=tuple(simple[ast.LeavesJail]),
        offered=spaces("offered"),
        auctioned=spaces("auctioned"),
        bought=spaces("bought"),
        built=(tuple(built[0]), tuple(built[1])),
        sold=(tuple(sold[0]), tuple(sold[1])),
        mortgage_taken=tuple(mortgages["taken"]),
        mortgage_lifted=tuple(mortgages["lifted"]),
        deed_changes_hands=tuple(simple[ast.DeedChangesHands]),
        card_drawn=tuple(tuple(d) for d in drawn) if drawn else (),
        cannot_pay=tuple(simple[ast.CannotPay]),
        game_ends=tuple(simple[ast.GameEnds]),
        bankrupt=tuple(lists["bankrupt"]),
        time_limit=tuple(lists["time_limit"]),
        shortage=tuple(lists["shortage"]),
        setup_first=tuple(lists["first"]),
        setup_last=tuple(lists["last"]),
    )


# Events whose hooks are one tuple, fired for the player.
_SIMPLE = (ast.TurnEnds, ast.SentToJail, ast.JailTurn, ast.LeavesJail, ast.DeedChangesHands,
           ast.CannotPay, ast.GameEnds)


# ------------------------------------------------------------------ effects


def _highest_roll(env, e):
    def first_player(g, f):
        tie = co.highest_roll(g, MAX_TIES, f.rule)
        g._first = (f.rule, tie)  # the setup logs who starts, by this rule
    return first_player


def _deal(env, e: ast.DealDeeds):
    count, paid = e.count, not e.free
    return lambda g, f: deal_deeds(g, count, paid, f.rule)


def _instruction_only(env, e):
    return None  # read by the engine as an instruction (`course`), never run


# One factory (env, node) -> closure(game, firing) per effect of vocab/game_events.py.
EFFECTS = {
    ast.ShuffleDecks: lambda env, e: lambda g, f: co.shuffle_decks(g, f.rule),
    ast.HighestRollStarts: _highest_roll,
    ast.DealDeeds: _deal,
    ast.LeaveJail: lambda env, e: co.leave_jail,
    ast.PayFine: lambda env, e: co.pay_fine,
    ast.LiftOrInterest: lambda env, e: co.lift_or_interest,
    ast.AuctionBuilding: _instruction_only,
    ast.BankAuctionsLots: _instruction_only,
    ast.EverythingToCreditor: _instruction_only,
}
