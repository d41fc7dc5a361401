"""The compiled, immutable form of a rulebook that the engine plays: tables and hooks.

`compile` builds a `Rulebook` once; every game of a batch shares it. Nothing here refers to
the syntax tree, and nothing in the game loop looks a name up: spaces, groups and decks are
indices, and rules are closures in per-space and per-event tuples.
"""

from __future__ import annotations

from typing import Callable, Final

import attrs
from attrs import frozen

from .course import NO_COURSE, Course
from .settings import SETTINGS, Settings

PROPERTY_KINDS = ("street", "railroad", "utility")
# land -> card -> move -> land ..., a `passes` rule that moves the player on, or a token sent
# on by its own `reaches` rules: deeper than this ends the game as `chain_limit` (the checker
# reports the chains that never end: check_flow, E417)
MAX_CHAIN: Final = 32
SPACE_KINDS = ("go", "street", "railroad", "utility", "tax", "cards", "jail", "go_to_jail", "plain")

# An effect, and the function of a hook, is called as fn(game, firing) with a Firing
# (engine/firing.py) whose rule is the rule (or the card, "card ID") acting.
Effect = Callable[..., None]
# A rule's hook on an event: (owners, rule, fn). The engine fires it as fn(game, firing) with
# the event's Firing by that rule, which fn hands its effects; `owners` filters a landing
# by who owned the space on landing (a mask of the bits below; every other event ignores it),
# tested before any firing is built.
Hook = tuple[int, str, Effect]
# the space was unowned, another player's, the player's own (Final: constants to the compiler)
NOBODY: Final = 1
OTHER: Final = 2
OWN: Final = 4
ANY_OWNER: Final = NOBODY | OTHER | OWN


@frozen
class RentContext:
    """How a card changes the rent due on the space it moves the player to."""

    factor: int = 1
    dice_multiplier: int | None = None
    # the firing's throw is already the new one `rent dice xN` asks for (a `roll the dice`
    # of the landing rule made it): no second throw
    thrown: bool = False


@frozen
class Choice:
    """What the player is asked: the rule (or "card ID") whose effect asks, the options' texts
    (or the candidate spaces' names), the candidate positions of a target choice, and the
    cash each option brings at once by its declared money (collect +, pay -; for agents)."""

    rule: str
    options: tuple[str, ...]
    spaces: tuple[int, ...] = ()
    gains: tuple[int, ...] = ()


@frozen
class Space:
    """One space: its kind, and for properties its group, prices and rent table."""

    index: int
    name: str
    kind: str
    group: int = -1
    price: int = 0
    mortgage: int = 0
    house_cost: int = 0
    hotel_cost: int = 0
    rents: tuple[int, ...] = ()
    multipliers: tuple[int, ...] = ()
    is_property: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "is_property", self.kind in PROPERTY_KINDS)


@frozen
class Card:
    """A compiled card: its effects as hooks, or a card the player keeps (jail card)."""

    id: str
    title: str
    effects: tuple[Effect, ...]
    keep: bool = False
    rule: str = attrs.field(init=False, eq=False, repr=False)  # its label: "card ID"

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "rule", f"card {self.id}")


@frozen
class Deck:
    name: str
    cards: tuple[Card, ...]


@frozen
class DoublesHook:
    """A rule on doubles; times None fires on every double, else on the n-th in a row."""

    times: int | None
    hook: Hook


@frozen
class Token:
    """A piece that is not a player: where it starts, and its side (-1: none)."""

    name: str
    start: int
    side: int = -1


@frozen
class MeetHook:
    """A rule on a player meeting a token: which tokens (index, or -1 any) and whether only
    a token of another side than the player's counts."""

    token: int
    opposing: bool
    hook: Hook


# The actions a permission can refuse (rulelang.vocab.permissions declares their surface
# forms): the keys of Rulebook.permits.
ACTIONS = ("build", "sell", "sell_group", "mortgage", "lift", "trade", "trade_card", "buy",
           "bid", "pay_fine", "use_card")


# The guarantees (compile_permits.GUARANTEES) that the engine reads on the state itself, one
# bit each: a permission that says exactly some of them (Permit.exact) is tested without a
# firing (engine/actions.py, `_breaks`), as the hot path of every build, sale and mortgage.
WHOLE_GROUP: Final = 1
BUILD_EVENLY: Final = 2
BUILD_UNMORTGAGED: Final = 4
SELL_EVENLY: Final = 8
GROUP_UNBUILT: Final = 16
GUARANTEE_BITS = {"whole_group": WHOLE_GROUP, "build_evenly": BUILD_EVENLY,
                  "build_unmortgaged": BUILD_UNMORTGAGED, "sell_evenly": SELL_EVENLY,
                  "trade_unbuilt": GROUP_UNBUILT, "mortgage_unbuilt": GROUP_UNBUILT}


def _mask(exact: frozenset) -> int:
    """The bits of an exact permission's guarantees; 0 if one of them has none."""
    if not exact or not exact <= GUARANTEE_BITS.keys():
        return 0
    mask = 0
    for name in exact:
        mask |= GUARANTEE_BITS[name]
    return mask


@frozen
class Permit:
    """One compiled permission: `test(game, firing)` is True when it refuses the action asked
    (its firing: Firing.for_action); text is the permission as written, which the refusal
    quotes. per_lot is False when the test reads nothing of the lot (its space, owner, building), the partner or
    the bid: then it says the same for every lot of one player at one moment."""

    rule: str
    text: str
    test: Callable[..., bool]
    per_lot: bool = True
    # what it guarantees (compile_permits.GUARANTEES' keys) when it refuses exactly where one
    # of them fails, and nowhere else; empty when it says more: an agent that knows its
    # candidate keeps those guarantees need not ask it
    exact: frozenset = frozenset()
    # the bits of `exact` (GUARANTEE_BITS), when the engine can read them all on the state:
    # then `test` on a lot is the same as `_breaks` with them (tests/test_permissions.py)
    mask: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "mask", _mask(self.exact))


def _no_permits() -> dict:
    return dict.fromkeys(ACTIONS, ())


@frozen
class Rulebook:
    """Everything a game needs from a rulebook, precomputed."""

    title: str
    files: tuple[str, ...]
    settings: Settings
    spaces: tuple[Space, ...]
    groups: tuple[tuple[int, ...], ...]
    group_names: tuple[str, ...]
    decks: tuple[Deck, ...]
    dice: tuple[tuple[int | str, ...], ...]  # a face is its value, or a symbol's name
    land_hooks: tuple[tuple[Hook, ...], ...]
    pass_hooks: tuple[tuple[Hook, ...], ...]
    doubles_hooks: tuple[DoublesHook, ...]
    turn_start_hooks: tuple[Hook, ...]
    face_hooks: tuple[tuple[int, int | str, Hook], ...]  # (die index, face, hook)
    face_names: tuple[tuple[int, int | str, str], ...] = ()
    rule_names: tuple[str, ...] = ()
    currency: str = "$"
    pots: tuple[str, ...] = ()  # accounts after the bank's, in this order
    building_names: tuple[str, ...] = ("house", "hotel")
    go: int = 0
    jail: int = -1
    # themed equipment (engine/tokens.py); empty for a rulebook that uses none of it
    die_names: tuple[str, ...] = ()
    face_sides: tuple[tuple[int, ...], ...] = ()  # per die, per face: a side index or -1
    tokens: tuple[Token, ...] = ()
    sides: tuple[str, ...] = ()
    characters: tuple[tuple[str, int], ...] = ()  # (name, side index)
    start_hooks: tuple[Hook, ...] = ()
    after_face_hooks: tuple[tuple[int, object, Hook], ...] = ()
    meet_hooks: tuple[MeetHook, ...] = ()
    battle_hooks: tuple[tuple[Hook, ...], tuple[Hook, ...]] = ((), ())  # (lost, won)
    reach_hooks: dict = attrs.field(factory=dict)  # (token, space) -> hooks
    options: tuple[str, ...] = ()  # the options switched on when the rulebook was loaded
    parameters: tuple[str, ...] = ()  # the NAME=VALUE parameters it was loaded with
    course: Course = NO_COURSE  # the events of the game's course (engine/course.py)
    # the dice declarations (`dice ... move the pawn / make doubles / make triples`), as die
    # indices; None: as without a declaration
    moving_dice: tuple[int, ...] | None = None
    doubles_dice: tuple[int, ...] | None = None
    triples_dice: tuple[int, ...] = ()
    triples_hooks: tuple[Hook, ...] = ()
    # per action (ACTIONS), the permissions that may refuse it, in rule order; () costs nothing
    permits: dict = attrs.field(factory=_no_permits)
    # per setting, the label of the `set` line in force (compile.settings_of): the rule's
    # name, "set NAME" for a top-level `set` or a parameter, "default NAME" if never set;
    # complete once built (the engine reads origins[NAME])
    origins: dict = attrs.field(factory=dict)
    # `when a player rolls`: on a throw of the turn, on the throw of a turn in jail
    roll_hooks: tuple[Hook, ...] = ()
    jail_roll_hooks: tuple[Hook, ...] = ()
    count_turns: bool = False  # a rule reads the turns taken (State.turns_taken)
    # what the permissions guarantee in every state (compile_permits.GUARANTEES' keys), and
    # the rule that governs trades (their log lines and refusals name it)
    guarantees: frozenset = frozenset()
    trade_rule: str = "engine"
    # compiled to count each rule's firings in a game's tally (compile_program's `observe`)
    observed: bool = False
    # the rules that can fire (a `when` or a permission), in rule order; the others only set
    acting_rules: tuple[str, ...] = ()
    # per hook of the landing, passing and doubles tables that has one, its direct form:
    # fn(game, player, space, owner, dice, total, rule, rent, streak), what the hook does
    # with the Firing of those fields, called by the engine without building the firing
    direct: dict = attrs.field(factory=dict, eq=False, repr=False)
    # per hook whose conditions all have direct forms, their conjunction as one: called with
    # the fields of a firing, False when the hook would do nothing with it, so that the
    # engine need not build the firing (the hooks of the game's course and of a throw)
    guards: dict = attrs.field(factory=dict, eq=False, repr=False)
    # derived tables
    size: int = attrs.field(init=False)
    pass_positions: tuple[int, ...] = attrs.field(init=False)
    properties: tuple[int, ...] = attrs.field(init=False)
    nearest: dict = attrs.field(init=False)
    rolls: tuple[tuple[int | str, ...], ...] = attrs.field(init=False)
    crossings: tuple[tuple[tuple[int, ...], ...], ...] = attrs.field(init=False)
    doubles: tuple[bool, ...] = attrs.field(init=False)
    totals: tuple[int, ...] = attrs.field(init=False)
    triples: tuple[bool, ...] = attrs.field(init=False)
    group_of: tuple[int, ...] = attrs.field(init=False)  # per space, its group or -1
    group_lots: tuple[tuple[int, ...], ...] = attrs.field(init=False)  # per space, () if none
    # per action, the bits of its permissions when every one is read on the state
    # (Permit.mask), else 0: no bit broken, none refuses
    permit_masks: dict = attrs.field(init=False)
    street_groups: tuple[int, ...] = attrs.field(init=False)  # groups that take buildings
    is_street: tuple[bool, ...] = attrs.field(init=False)  # per space
    # what the engine and agents derive from the rulebook once and share between games, by
    # their own keys
    memo: dict = attrs.field(init=False, factory=dict, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        n = len(self.spaces)
        object.__setattr__(self, "size", n)
        object.__setattr__(self, "origins", {
            **{name: f"default {name}" for name in SETTINGS}, **self.origins})
        object.__setattr__(
            self, "pass_positions", tuple(i for i, h in enumerate(self.pass_hooks) if h)
        )
        object.__setattr__(
            self, "properties", tuple(s.index for s in self.spaces if s.is_property)
        )
        object.__setattr__(self, "group_of", tuple(s.group for s in self.spaces))
        object.__setattr__(self, "group_lots", tuple(
            self.groups[s.group] if s.group >= 0 else () for s in self.spaces))
        masks = {}
        for action, permits in self.permits.items():
            union = 0
            for p in permits:
                if not p.mask:
                    union = 0
                    break
                union |= p.mask
            masks[action] = union
        object.__setattr__(self, "permit_masks", masks)
        object.__setattr__(self, "is_street", tuple(s.kind == "street" for s in self.spaces))
        object.__setattr__(self, "street_groups", tuple(
            g for g, members in enumerate(self.groups) if self.spaces[members[0]].kind == "street"
        ))
        nearest = {}
        for kind in set(s.kind for s in self.spaces) | {"property"}:
            targets = [
                s.index
                for s in self.spaces
                if s.kind == kind or (kind == "property" and s.is_property)
            ]
            row = []
            for pos in range(n):
                ahead = [(t - pos - 1) % n for t in targets]
                row.append(targets[ahead.index(min(ahead))] if targets else -1)
            nearest[kind] = tuple(row)
        object.__setattr__(self, "nearest", nearest)
        # Every outcome of the dice, equally likely, so one random draw picks a whole roll.
        # A face is its value, or its name when it has none (a symbol); without declarations
        # only the dice with values move the pawn and make doubles (a die of symbols is thrown
        # beside them), and nothing makes triples. Declarations change these tables only, so
        # the draws are the same.
        rolls: list[tuple[int | str, ...]] = [()]
        for faces in self.dice:
            rolls = [r + (f,) for r in rolls for f in faces]
        moving = list(self.moving_dice) if self.moving_dice is not None else [
            i for i, faces in enumerate(self.dice) if any(isinstance(f, int) for f in faces)]
        pair = list(self.doubles_dice) if self.doubles_dice is not None else moving
        three = list(self.triples_dice)
        object.__setattr__(self, "rolls", tuple(rolls))
        object.__setattr__(self, "totals", tuple(
            sum(r[i] for i in moving if isinstance(r[i], int)) for r in rolls))
        object.__setattr__(self, "doubles", tuple(
            len(pair) > 1 and len({r[i] for i in pair}) == 1 for r in rolls))
        object.__setattr__(self, "triples", tuple(
            len(three) > 2 and len({r[i] for i in three}) == 1 for r in rolls))
        # crossings[start][steps]: the spaces with pass rules a forward move goes over or onto
        object.__setattr__(self, "crossings", tuple(
            tuple(
                tuple(q for q in self.pass_positions if (q - start - 1) % n < steps)
                for steps in range(n + 1)
            )
            for start in range(n)
        ))

    @property
    def whole_group_to_build(self) -> bool:
        """A build permission requires the player to hold the whole group."""
        return "whole_group" in self.guarantees

    def origin(self, setting: str) -> str:
        """The label of what decides a setting: the rule whose `set` line is in force."""
        return self.origins[setting]

    def space(self, name: str) -> Space:
        """The space of that name (the first, if several share it)."""
        for s in self.spaces:
            if s.name == name:
                return s
        raise KeyError(name)
