"""The compiled form of every primitive, by its declared name: one table, filled next to the
compiled code by `@compiled("name")`, and read by the compiler at compile time only.

A factory takes the compiler's environment (compile.py's `_Env`: names resolved to indices)
and a node of the primitive, and returns what the engine runs:

- an effect: the closure `effect(game, firing)`, or None for an effect that runs nothing
  (`nothing`, an instruction the engine reads, a multiplier folded into `pay rent`);
- a condition: the test `test(game, firing) -> bool`, its negation included;
- an amount or a value of an expression: `value(game, firing) -> int`;
- an action: the test that narrows a permission to some lots or buildings, or None;
- an event: `(env, rule, when) -> None` places the rule's hook (or instruction) in the
  tables of the rulebook that the engine fires it from.

The factories are registered by rulelang.compile, rulelang.evaluate, rulelang.compile_course
and rulelang.engine.moves; compile.py imports them all before it looks anything up.
tests/test_vocab.py holds the table's names equal to the declared primitives that have a
compiled form. Targets and token references have none (an event's factory resolves them),
nor a modifier without a node of its own (`rent dice xN` is a field of the nearest advance),
nor the settings (folded into engine/settings.py's `Settings`).
"""

from __future__ import annotations

from typing import Callable

from rulelang.vocab import primitive_of

__all__ = ["COMPILED", "compiled", "form_of", "ROLES"]

# The roles of primitive that have compiled forms.
ROLES = ("event", "condition", "effect", "amount", "factor", "action")

COMPILED: dict[str, Callable] = {}


def compiled(*names: str) -> Callable:
    """Register the decorated factory as the compiled form of the primitives `names`."""

    def register(factory: Callable) -> Callable:
        for name in names:
            if name in COMPILED:
                raise ValueError(f"the primitive {name!r} has two compiled forms: "
                                 f"{COMPILED[name].__qualname__} and {factory.__qualname__}")
            COMPILED[name] = factory
        return factory

    return register


def form_of(node) -> Callable:
    """The factory of the primitive a node was built from."""
    p = primitive_of(node)
    factory = COMPILED.get(p.name) if p is not None else None
    if factory is None:  # a parser/compiler gap
        raise NotImplementedError(f"no compiled form of {type(node).__name__}"
                                  + (f" (the primitive {p.name!r})" if p is not None else ""))
    return factory
