"""One firing of an event: who, where, whose, which token and throw, and the rule acting.

The engine builds a `Firing` for every event it fires (a throw, doubles, a move passing or
ending on a space, a turn starting, a token moving or met, a battle, the game starting) and
fires each rule's hook with it as `fn(game, firing)`, the firing by that rule: the hook of
rule R hands its effects a Firing whose rule is R; a card's effects get one whose rule is
"card ID". A Firing never changes: a new context is a new Firing, built by the engine or
derived by one of the methods below. Nothing about a firing is kept on the `Game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

# the engine's own causes (setup, turn, agent, the bounds): declared with the vocabulary, since
# no rule may take their names (E118)
from rulelang.vocab.types import ENGINE_CAUSES

__all__ = ["ENGINE_CAUSES", "FIELDS", "Firing", "fire"]

if TYPE_CHECKING:
    from .game import Game
    from .tables import RentContext

FIELDS = ("player", "space", "owner", "token", "dice", "total", "rule", "rent", "streak",
          "other", "amount", "building", "card")

# The building an action builds or sells (Firing.building): none, a house, a hotel.
NO_BUILDING: Final = 0
HOUSE: Final = 1
HOTEL: Final = 2


class Firing:
    """The context of one firing; -1 where a seat, space, owner or token does not apply.

    A player's action that a permission may refuse is a firing too (`for_action`): its
    `other` (the partner of a trade), `amount` (a bid) and `building` (built or sold) are
    read by permissions, and by the events of the game's course that have them (the creditor
    and the debt of a player who cannot pay, the building bought or sold, and `card`, the card
    drawn); every other event's firing keeps their defaults."""

    # a plain slotted class with no setters: built on every move, so it must be cheap
    __slots__ = ("player", "space", "owner", "token", "dice", "total", "rule", "rent", "streak",
                 "other", "amount", "building", "card")

    def __init__(self, player: int = -1, space: int = -1, owner: int = -1, token: int = -1,
                 dice: tuple = (), total: int = 0, rule: str = "",
                 rent: RentContext | None = None, streak: int = 0, other: int = -1,
                 amount: int = 0, building: int = NO_BUILDING, card: int = -1) -> None:
        self.player = player  # the seat the event is about
        self.space = space  # the space it happened on
        self.owner = owner  # who owned that space when the event fired (-1: nobody)
        self.token = token  # the token the event is about (engine/tokens.py)
        self.dice = dice  # the faces of the throw the event belongs to
        self.total = total  # the moving total of that throw
        self.rule = rule  # the rule firing: a rule's name, "card ID", or the engine's "turn"
        self.rent = rent  # how a card changes the rent due on the space it moves to
        self.streak = streak  # doubles in a row this turn, ending with this throw (0: none)
        # an action's, or an event's of the game's course (engine/course.py):
        self.other = other  # the partner of a trade, the creditor's account (-1: none)
        self.amount = amount  # the bid, the debt a player cannot pay (0: none)
        self.building = building  # the building built, bought or sold (NO_BUILDING, HOUSE, HOTEL)
        self.card = card  # the index of the card drawn in its deck (-1: none)

    @staticmethod
    def for_action(player: int, space: int = -1, owner: int = -1, other: int = -1,
                   amount: int = 0, building: int = NO_BUILDING, rule: str = "agent") -> Firing:
        """A player's action as a permission reads it (rulelang.engine.actions.permitted): who
        acts, on which lot and whose, with whom, for how much, which building; its cause is
        the agent's answer ("agent")."""
        return Firing(player, space, owner, -1, (), 0, rule, None, 0, other, amount, building)

    def by_rule(self, rule: str) -> Firing:
        """The same event, acted on by `rule` (what a rule's hook hands its effects)."""
        return Firing(self.player, self.space, self.owner, self.token, self.dice, self.total,
                      rule, self.rent, self.streak, self.other, self.amount, self.building,
                      self.card)

    def by_card(self, rule: str) -> Firing:
        """The same event, acted on by a card: a card's rent is its own, not its deck's."""
        return Firing(self.player, self.space, self.owner, self.token, self.dice, self.total,
                      rule, None, self.streak, self.other, self.amount, self.building,
                      self.card)

    def at(self, space: int, owner: int) -> Firing:
        """The same player, throw and cause, on another space (of that owner)."""
        return Firing(self.player, space, owner, -1, self.dice, self.total, self.rule, None,
                      self.streak, self.other, self.amount, self.building, self.card)

    def with_token(self, token: int) -> Firing:
        """The same event, about a token (a player meeting it, a battle for it)."""
        return Firing(self.player, self.space, self.owner, token, self.dice, self.total,
                      self.rule, self.rent, self.streak, self.other, self.amount, self.building,
                      self.card)

    def thrown(self, dice: tuple, total: int) -> Firing:
        """The same event after a new throw of the dice (`roll the dice`)."""
        return Firing(self.player, self.space, self.owner, self.token, dice, total, self.rule,
                      self.rent, self.streak, self.other, self.amount, self.building, self.card)

    def with_rent(self, rent: RentContext | None) -> Firing:
        """The same event, the rent due changed as a card says."""
        return Firing(self.player, self.space, self.owner, self.token, self.dice, self.total,
                      self.rule, rent, self.streak, self.other, self.amount, self.building,
                      self.card)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Firing):
            return NotImplemented
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def fields(self) -> tuple:
        """(player, space, owner, token, dice, total, rule, rent, streak, other, amount,
        building, card)."""
        return (self.player, self.space, self.owner, self.token, self.dice, self.total,
                self.rule, self.rent, self.streak, self.other, self.amount, self.building,
                self.card)

    def __repr__(self) -> str:
        return ("Firing(" + ", ".join(f"{name}={value!r}" for name, value
                                      in zip(FIELDS, self.fields())) + ")")


def fire(game: Game, hooks: tuple, seat: int, space: int = -1, other: int = -1,
         amount: int = 0, building: int = 0, card: int = -1) -> None:
    """Run the hooks of one firing of an event of the game's course (engine/course.py) for
    the player `seat` (-1: none) on `space` (-1: where the player stands), each
    `fn(game, firing)` with the firing by its rule: they log nothing of their own; the turn's
    `stop` is put back after them (a bankruptcy keeps it). A hook whose conditions fail on
    the firing's fields (Game.guards) is passed over without building its firing. A firing
    without `other`, `amount`, `building` and `card` (a deed changing hands) calls a hook's
    direct form (Game.direct) with its fields instead: what the hook would hand on (a card's
    firing built by a direct `draw from`) has none of them either."""
    st = game.state
    if space < 0 and seat >= 0:
        space = st.position[seat]
    owner = st.owner[space] if space >= 0 else -1
    stop = game.stop
    game.stop = False
    guards = game.guards
    # the direct forms, for a firing of the fields they take
    direct = game.direct if other < 0 and not amount and not building and card < 0 else {}
    try:
        for _, rule, hook in hooks:
            if game.over or (seat >= 0 and st.bankrupt[seat]):
                break
            d = direct.get(hook)
            if d is not None:  # it tests the hook's conditions itself
                d(game, seat, space, owner, (), 0, rule, None, 0)
            else:
                # conditions that fail on the firing's fields: the hook would do nothing
                guard = guards.get(hook)
                if guard is not None and \
                        not guard(game, seat, space, owner, (), 0, rule, None, 0):
                    continue
                hook(game, Firing(seat, space, owner, -1, (), 0, rule, None, 0, other, amount,
                                  building, card))
            if game.stop:
                break
    finally:
        game.stop = stop or game.stop
