"""What the permissions of a rulebook guarantee in every state of its games, read once from
their text: `save_check` and the invariants of the tests hold a game to it.

A permission with one guard refuses its action whenever the guard holds; so `a player may not
build unless C` (or `if not C`) lets a player build only where every conjunct of C holds, and
`a player may not trade a property if a lot of the group has a building` lets no deed of a
built group change hands. Only those plain shapes are recognised: a permission with several
guards, narrowed to one building, or worded otherwise guarantees nothing here (the checks
that read a guarantee are then skipped, never wrongly made).
"""

from __future__ import annotations

from . import ast

__all__ = ["guarantees", "exact", "trade_rule", "GUARANTEES"]

# guarantee: (action, the atom that must hold for the action to be allowed)
_WHOLE = ("whole_group", "player")
_FEWEST = ("fewest", "space")
_MOST = ("most", "space")
GUARANTEES = {
    "whole_group": "a player builds only on a group held whole",
    "build_evenly": "a building goes only on a lot with the fewest buildings of its group",
    "build_unmortgaged": "no building goes on a group with a mortgaged lot",
    "sell_evenly": "a building is sold only from a lot with the most buildings of its group",
    "trade_unbuilt": "no deed of a group with a building changes hands in a trade",
    "mortgage_unbuilt": "no lot of a group with a building is mortgaged",
    "bid_in_hand": "no bid is more than the bidder's cash",
}


def _required(guard) -> set[tuple[str, str]]:
    """(test, subject) of each atom that must hold for a permission guarded by `guard` alone
    to allow its action: the conjuncts of C in `unless C` / `if not C`."""
    if isinstance(guard, ast.Condition):
        return {(guard.test, guard.subject)} if guard.negated else set()
    if not isinstance(guard, ast.Not):
        return set()
    inner = guard.cond
    atoms = inner.conds if isinstance(inner, ast.And) else (inner,)
    return {(a.test, a.subject) for a in atoms
            if isinstance(a, ast.Condition) and not a.negated}


def _any_lot(node, test: str) -> bool:
    """`a lot of the group is mortgaged` / `a lot of the group has a building`."""
    if not isinstance(node, ast.LotTest) or node.subject != "a lot" or node.negated:
        return False
    if test == "mortgaged":
        return node.test == "mortgaged"
    return (node.test == "buildings" and node.cmp == "ge" and node.count == 1
            and (node.thing is None or node.thing.name in ("building", "buildings")))


def _whole_action(action: ast.Action, kinds=("property", "street")) -> bool:
    """The permission is about every lot the action could concern (no narrowing that leaves
    some built lot out)."""
    if action.building is not None and action.building.name not in ("building", "buildings"):
        return False
    return action.kind is None or action.kind.name in kinds


def _found(permission: ast.Permission) -> set[str]:
    action, conds = permission.action, permission.conditions
    if len(conds) != 1 or not _whole_action(action):
        return set()
    guard = conds[0]
    out: set[str] = set()
    if action.action == "build":
        required = _required(guard)
        if _WHOLE in required:
            out.add("whole_group")
        if _FEWEST in required:
            out.add("build_evenly")
        if _any_lot(guard, "mortgaged"):
            out.add("build_unmortgaged")
    elif action.action == "sell":
        if _MOST in _required(guard):
            out.add("sell_evenly")
    elif action.action == "trade" and _any_lot(guard, "building"):
        out.add("trade_unbuilt")
    elif action.action == "mortgage" and _any_lot(guard, "building"):
        out.add("mortgage_unbuilt")
    elif action.action == "bid" and _bid_over_cash(guard):
        out.add("bid_in_hand")
    return out


def _bid_over_cash(node) -> bool:
    """`the bid is more than the player's cash`."""
    return (isinstance(node, ast.Compare) and node.op == "gt"
            and isinstance(node.left, ast.TheBid) and node.right == ast.Possessive("player", "cash"))


def exact(permission: ast.Permission) -> frozenset[str]:
    """What the permission guarantees, if it refuses exactly where one of those guarantees
    fails: every atom of its guard is recognised and its action is not narrowed; else
    nothing."""
    found = _found(permission)
    if not found:
        return frozenset()
    guard = permission.conditions[0]
    if isinstance(guard, ast.Not) and isinstance(guard.cond, ast.And):
        if len(_required(guard)) != len(guard.cond.conds):
            return frozenset()  # `unless A and X`: X refuses too
    if not _whole_action(permission.action, ("property",)):
        return frozenset()
    return frozenset(found)


def guarantees(program: ast.Program) -> frozenset[str]:
    """The keys of GUARANTEES that the rulebook's permissions make true."""
    out: set[str] = set()
    for rule in program.rules:
        for stmt in rule.body:
            if isinstance(stmt, ast.Permission):
                out |= _found(stmt)
    return frozenset(out)


def trade_rule(program: ast.Program) -> str:
    """The rule that governs trades, which their log lines and refusals name: the first that
    holds a permission to trade (a deed or a jail card), else the engine's ("engine")."""
    for rule in program.rules:
        for stmt in rule.body:
            if isinstance(stmt, ast.Permission) and stmt.action.action in ("trade", "trade_card"):
                return rule.name.name
    return "engine"
