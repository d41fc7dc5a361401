"""The actions a permission is about: `a player may not ACTION [if|unless CONDITION] ...`.

Each action is a decision of a player that the engine validates (an agent's action between
rolls, or an answer to one of the engine's questions: buy, bid, how to leave jail). A
permission refuses it, after the engine's own validity checks, when its conditions hold.

Besides its forms, each action declares what a permission's conditions may name (its
context, `SUBJECTS`: the checker reports any other subject, E307) and, for a `KIND` object,
which kinds of space it can take (`KINDS`: any other is E309). The engine's name of the
action (`ENGINE`) keys the compiled rulebook's `permits`.
"""

from __future__ import annotations

from rulelang import ast
from rulelang.vocab.spec import Form, Param, Primitive

__all__ = ["ACTIONS", "SUBJECTS", "KINDS", "ENGINE", "BUILDINGS"]

_KIND = Param("kind", "kind")
_BUILDING = Param("building", "building")
# The lots a KIND object narrows an action to: any property, or properties of one kind.
_PROPERTY_KINDS = ("property", "street", "railroad", "utility")
# What a building object may name: `a building` is any.
BUILDINGS = ("house", "hotel", "building")


def _action(name: str, engine: str, template: str, doc: str, example: str,
            params: tuple[Param, ...] = ()) -> Primitive:
    return Primitive(name, "action", ast.Action, (Form(template, {"action": engine}),), doc,
                     params, example=f"a player may not {example}")


ACTIONS = (
    _action("may_build", "build", "build [a|an {building}]",
            "buy a house or a hotel for one of the player's lots (`a house`, `a hotel`: only "
            "that building)", "build a hotel unless the player has completed a lap",
            (_BUILDING,)),
    _action("may_sell", "sell", "sell a|an {building}",
            "sell one building of a lot back to the bank (`a building`: any)",
            "sell a hotel if the player is in jail", (_BUILDING,)),
    _action("may_sell_group", "sell_group", "sell the group's buildings",
            "sell every building of a lot's group back to the bank at once",
            "sell the group's buildings if the player is in jail"),
    _action("may_mortgage", "mortgage", "mortgage [a|an {kind}]",
            "mortgage one of the player's lots (`a KIND`: lots of that kind)",
            "mortgage a railroad unless the player has completed a lap", (_KIND,)),
    _action("may_lift", "lift", "lift a|an mortgage",
            "lift the mortgage of one of the player's lots", "lift a mortgage if option strict"),
    _action("may_trade", "trade", "trade [a|an {kind}]",
            "give or take a deed in a trade (`a KIND`: deeds of that kind); checked for each "
            "deed, with `the owner` the deed's owner before the trade",
            "trade a street unless the player has completed a lap", (_KIND,)),
    _action("may_trade_card", "trade_card", "trade a|an jail card",
            "give or take a Get Out of Jail Free card in a trade",
            "trade a jail card if the player is in jail"),
    _action("may_buy", "buy", "buy [a|an {kind}]",
            "buy an unowned lot at its price when offered it (`a KIND`: lots of that kind); a "
            "player refused is not asked, and the lot is auctioned if the rule says so",
            "buy a property unless the player has completed a lap", (_KIND,)),
    _action("may_bid", "bid", "bid",
            "bid in an auction (of a deed or of a scarce building)",
            "bid unless the player has completed a lap"),
    _action("may_pay_fine", "pay_fine", "pay the fine before rolling",
            "leave jail by paying the fine before rolling (a way not offered if refused)",
            "pay the fine before rolling if option strict"),
    _action("may_use_card", "use_card", "use a|an jail card",
            "leave jail with a Get Out of Jail Free card (a way not offered if refused)",
            "use a jail card if option strict"),
)

# What the conditions of a permission may name, per action: the player always; the space
# (the lot acted on) and its owner; the building (built or sold); the partner of a trade;
# the bid. A condition on a subject the action lacks is E307.
_LOT = frozenset({"player", "space", "owner"})
SUBJECTS: dict[str, frozenset[str]] = {
    "may_build": _LOT | {"building"},
    "may_sell": _LOT | {"building"},
    "may_sell_group": _LOT,
    "may_mortgage": _LOT,
    "may_lift": _LOT,
    "may_trade": _LOT | {"partner"},
    "may_trade_card": frozenset({"player", "partner"}),
    "may_buy": _LOT,
    "may_bid": frozenset({"player", "space", "bid"}),
    "may_pay_fine": frozenset({"player"}),
    "may_use_card": frozenset({"player"}),
}
# The kinds a KIND object may name, per action that takes one (E309 for any other).
KINDS: dict[str, tuple[str, ...]] = {
    "may_mortgage": _PROPERTY_KINDS,
    "may_trade": _PROPERTY_KINDS,
    "may_buy": _PROPERTY_KINDS,
}
# The engine's name of each action: the key of the compiled rulebook's `permits`.
ENGINE: dict[str, str] = {p.name: p.forms[0].fixed["action"] for p in ACTIONS}
