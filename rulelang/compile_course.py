"""The compiled forms of the events of the game's course and of their effects
(vocab/game_events.py), registered by their declared names (vocab/compiled.py): each
event's places its rule's hook or instruction in a table of the compiler's environment, each
effect's returns its closure.

`compile.compile_program` places every rule's event, then calls `course(env)` once for the
rulebook's `Course`; `setup_part` splits a `when the game starts` by stages.
"""

from __future__ import annotations

import attrs

from . import ast, vocab
from .vocab.compiled import compiled
from .engine import actions as act
from .engine import course as co
from .engine.game import MAX_TIES
from .engine.setup import deal_deeds
from .engine.tables import PROPERTY_KINDS

__all__ = ["course", "setup_part"]


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


# ------------------------------------------------------------------ events
# Each places the rule's hook, or its instruction, in a table of env (vocab/compiled.py).


@compiled("turn_ends", "sent_to_jail", "jail_turn", "leaves_jail", "cannot_pay", "game_ends")
def _for_the_player(env, rule: str, when: ast.When) -> None:
    """One tuple of hooks per event, fired for the player."""
    env.hooks(type(when.event)).append(env.hook(rule, when, None))


@compiled("deed_changes_hands")
def _deed_changes_hands(env, rule: str, when: ast.When) -> None:
    """The hooks of a deed received by a trade, and of one from a bankrupt player."""
    hook = env.hook(rule, when, None)
    for how in ("trade", "bankruptcy"):
        if when.event.how in (None, how):
            env.hooks((ast.DeedChangesHands, how)).append(hook)


@compiled("property_event")
def _property_event(env, rule: str, when: ast.When) -> None:
    """Per space of the kind: offered, auctioned or bought."""
    table = env.space_hooks(when.event.what)
    hook = env.hook(rule, when, None)
    for pos in _positions(env, when.event.kind):
        table[pos].append(hook)


@compiled("building_event")
def _building_event(env, rule: str, when: ast.When) -> None:
    """A house's hooks and a hotel's, bought or sold."""
    ev = when.event
    hook = env.hook(rule, when, None)
    for kind in ("house", "hotel"):
        if ev.building in ("building", kind):
            env.hooks((ev.what, kind)).append(hook)


@compiled("mortgage_event")
def _mortgage_event(env, rule: str, when: ast.When) -> None:
    env.hooks(("mortgage", when.event.what)).append(env.hook(rule, when, None))


@compiled("card_drawn")
def _card_drawn(env, rule: str, when: ast.When) -> None:
    """Per deck: a rule on any deck is in every deck's hooks."""
    deck = when.event.deck
    drawn = env.tables.get(ast.CardDrawn)
    if drawn is None:
        drawn = env.tables[ast.CardDrawn] = [[] for _ in env.decks]
    hook = env.hook(rule, when, None)
    for i, hooks in enumerate(drawn):
        if deck is None or env.decks.get(deck.value) == i:
            hooks.append(hook)


@compiled("goes_bankrupt")
def _goes_bankrupt(env, rule: str, when: ast.When) -> None:
    env.hooks(ast.GoesBankrupt).append(_instruction(env, rule, when, when.event.to))


@compiled("time_limit_reached", "buildings_run_short")
def _instructed(env, rule: str, when: ast.When) -> None:
    env.hooks(type(when.event)).append(_instruction(env, rule, when))


@compiled("game_starts")
def _game_starts(env, rule: str, when: ast.When) -> None:
    """By stages: the decks (1), then the rules' effects after the starting cash (2), then
    the first player (3)."""
    for stage, key in ((1, "setup_first"), (2, "setup"), (3, "setup_last")):
        part = setup_part(when, stage)
        if part is not None:
            env.hooks(key).append(env.hook(rule, part, None))


def course(env) -> co.Course:
    """The hooks and instructions the rules waiting for the game's course placed in env."""

    def spaces(what: str) -> tuple:
        table = env.tables.get(what)
        return tuple(tuple(h) for h in table) if table else ()

    def hooks(key) -> tuple:
        return tuple(env.tables.get(key, ()))

    drawn = env.tables.get(ast.CardDrawn)
    return co.Course(
        turn_end=hooks(ast.TurnEnds),
        sent_to_jail=hooks(ast.SentToJail),
        jail_turn=hooks(ast.JailTurn),
        leaves_jail=hooks(ast.LeavesJail),
        offered=spaces("offered"),
        auctioned=spaces("auctioned"),
        bought=spaces("bought"),
        built=(hooks(("bought", "house")), hooks(("bought", "hotel"))),
        sold=(hooks(("sold", "house")), hooks(("sold", "hotel"))),
        mortgage_taken=hooks(("mortgage", "taken")),
        mortgage_lifted=hooks(("mortgage", "lifted")),
        deed_changes_hands=hooks((ast.DeedChangesHands, "trade")),
        deed_from_bankrupt=hooks((ast.DeedChangesHands, "bankruptcy")),
        card_drawn=tuple(tuple(d) for d in drawn) if drawn else (),
        cannot_pay=hooks(ast.CannotPay),
        game_ends=hooks(ast.GameEnds),
        bankrupt=hooks(ast.GoesBankrupt),
        time_limit=hooks(ast.TimeLimitReached),
        shortage=hooks(ast.BuildingsRunShort),
        setup_first=hooks("setup_first"),
        setup_last=hooks("setup_last"),
    )


# ------------------------------------------------------------------ effects


@compiled("shuffle_the_decks")
def _shuffle(env, e):
    return lambda g, f: co.shuffle_decks(g, f.rule)


@compiled("highest_roll_starts")
def _highest_roll(env, e):
    def first_player(g, f):
        tie = co.highest_roll(g, MAX_TIES, f.rule)
        g._first = (f.rule, tie)  # the setup logs who starts, by this rule
    return first_player


@compiled("deal_title_deeds")
def _deal(env, e: ast.DealDeeds):
    count, paid = e.count, not e.free
    return lambda g, f: deal_deeds(g, count, paid, f.rule)


@compiled("leave_jail")
def _leave_jail(env, e):
    return co.leave_jail


@compiled("pay_fine")
def _pay_fine(env, e):
    return co.pay_fine


@compiled("lift_or_interest")
def _lift_or_interest(env, e):
    if e.at_value:
        env.direct[act.lift_at_value_or_interest] = act.lift_at_value_or_interest_direct
        return act.lift_at_value_or_interest
    env.direct[act.lift_or_interest] = act.lift_or_interest_direct
    return act.lift_or_interest


@compiled("auction_building", "bank_auctions_lots", "everything_to_creditor")
def _instruction_only(env, e):
    return None  # read by the engine as an instruction (`course`), never run
