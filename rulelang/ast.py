"""Frozen syntax-tree nodes of a rules file; every node carries the span it was read from.

The parser builds these from one file (`File`); `resolve` folds a file and the files it
`extends` into one `Program`, the effective rulebook that `check` analyses and `compile`
binds to the engine. Nothing here knows about Lark.
"""

from __future__ import annotations

from typing import Union

from attrs.exceptions import FrozenInstanceError

from rulelang.nodes import field, node

# Every node is a `@node` class (rulelang.nodes): frozen and slotted like an attrs class, and
# built without generating code, which keeps `rulelang check`'s start-up short.


# A span's file, columns and the number of lines it covers, packed in one int: equal packings
# are shared, so that a span costs one small object (line, packing) where most lines of a
# file repeat the same few layouts. Files are numbered in the order first seen (a process
# reads few). _BIAS lets the -1 of Lark's end-of-file errors through.
_BITS = 32
_MASK = (1 << _BITS) - 1
_BIAS = 1 << (_BITS - 1)
_POSITION = (1 << 3 * _BITS) - 1  # the columns and line count, without the file
_FILES: list[str] = []
_FILE_NUMBERS: dict[str, int] = {}
_PACKINGS: dict[int, int] = {}
_MAX_PACKINGS = 1 << 16  # then the table starts again: it never grows with the input


class Span:
    """A region of a source file: 1-based line and column, end exclusive.

    Frozen, hashable and ordered by (file, line, column, end_line, end_column), like the
    attrs classes around it; it stores them packed to keep long files small.
    """

    __slots__ = ("line", "_cols")

    line: int

    def __init__(self, file: str, line: int, column: int, end_line: int,
                 end_column: int) -> None:
        fields = (column + _BIAS, end_line - line + _BIAS, end_column + _BIAS)
        if not all(0 <= f <= _MASK for f in fields):
            raise ValueError(f"span position out of range: {line}:{column}-"
                             f"{end_line}:{end_column}")
        number = _FILE_NUMBERS.get(file)
        if number is None:
            number = _FILE_NUMBERS[file] = len(_FILES)
            _FILES.append(file)
        cols = (((((number << _BITS) | fields[0]) << _BITS) | fields[1]) << _BITS) | fields[2]
        shared = _PACKINGS.get(cols)
        if shared is None:
            if len(_PACKINGS) >= _MAX_PACKINGS:
                _PACKINGS.clear()
            shared = _PACKINGS[cols] = cols
        setter = object.__setattr__
        setter(self, "line", line)
        setter(self, "_cols", shared)

    @property
    def file(self) -> str:
        return _FILES[self._cols >> 3 * _BITS]

    @property
    def column(self) -> int:
        return ((self._cols >> 2 * _BITS) & _MASK) - _BIAS

    @property
    def end_line(self) -> int:
        return self.line + ((self._cols >> _BITS) & _MASK) - _BIAS

    @property
    def end_column(self) -> int:
        return (self._cols & _MASK) - _BIAS

    @classmethod
    def point(cls, file: str, line: int = 1, column: int = 1) -> "Span":
        return cls(file, line, column, line, column + 1)

    def replace(self, **changes: int | str) -> "Span":
        """This span with some of its five fields changed (as attrs.evolve would)."""
        fields = dict(file=self.file, line=self.line, column=self.column,
                      end_line=self.end_line, end_column=self.end_column)
        fields.update(changes)
        return Span(**fields)  # type: ignore[arg-type]

    def _key(self) -> tuple[str, int, int]:
        return (self.file, self.line, self._cols & _POSITION)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError()

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError()

    def __reduce__(self) -> tuple:
        return (Span, (self.file, self.line, self.column, self.end_line, self.end_column))

    def __repr__(self) -> str:
        return (f"Span(file={self.file!r}, line={self.line!r}, column={self.column!r}, "
                f"end_line={self.end_line!r}, end_column={self.end_column!r})")

    def __hash__(self) -> int:
        return hash((self.line, self._cols))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return self.line == other.line and self._cols == other._cols  # type: ignore

    def __ne__(self, other: object) -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return self.line != other.line or self._cols != other._cols  # type: ignore

    # The packing orders as (column, end_line, end_column) do within one line.
    def __lt__(self, other: "Span") -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: "Span") -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: "Span") -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: "Span") -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return self._key() >= other._key()


NOWHERE = Span("<builtin>", 0, 0, 0, 0)

# ---------------------------------------------------------------- values


@node
class Money:
    """An amount of the game's currency, written `$200`."""

    amount: int
    span: Span = field(eq=False, default=NOWHERE)


@node
class Count:
    """A plain whole number: houses, turns, players, spaces."""

    value: int
    span: Span = field(eq=False, default=NOWHERE)


@node
class Percent:
    """A percentage, written `10%`."""

    value: int
    span: Span = field(eq=False, default=NOWHERE)


@node
class Flag:
    """`yes` or `no`."""

    value: bool
    span: Span = field(eq=False, default=NOWHERE)


@node
class Word:
    """A bare identifier used as a value, e.g. a setting's choice (`highest_roll`)."""

    name: str
    span: Span = field(eq=False, default=NOWHERE)


@node
class Text:
    """A quoted name or title."""

    value: str
    span: Span = field(eq=False, default=NOWHERE)


@node
class Range:
    """`3 to 8`: an inclusive range of counts."""

    low: int
    high: int
    span: Span = field(eq=False, default=NOWHERE)


Value = Union[Money, Count, Percent, Flag, Word, Text, Range]


@node
class Name:
    """An identifier naming a rule, setting, option or parameter."""

    name: str
    span: Span = field(eq=False, default=NOWHERE)


# ---------------------------------------------------------------- amounts


@node
class PercentOfWorth:
    """`10% of worth`: a share of the player's total worth (cash, printed prices, buildings)."""

    percent: int
    span: Span = field(eq=False, default=NOWHERE)


Amount = Union[Money, PercentOfWorth]

# ---------------------------------------------------------------- expressions
#
# A value read when its effect or condition runs: money, a count or a percentage. Literals are
# Money, Count and Percent; the factors below are declared in rulelang.vocab (role "factor");
# Plus, Times, PercentOf and PerOwned are the operators (grammar.lark's `expr` and `term`).
# The unit of every node is known from its form (rulelang.units).


@node
class DiceTotal:
    """`the dice total`: the moving total of the firing's throw (0 before any throw)."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class DieValue:
    """`die "white"` or `the first die`: the value that die shows in the firing's throw (a
    face of symbols counts 0). ordinal is 1 for `first` ... (0 when the die is named)."""

    die: Text | None = None
    ordinal: int = 0
    span: Span = field(eq=False, default=NOWHERE)


@node
class PotAmount:
    """`the pot "Free Parking jackpot"`: what the pot holds now."""

    pot: Text
    span: Span = field(eq=False, default=NOWHERE)


@node
class Possessive:
    """`the player's cash`: subject "player", "owner" or "partner"; prop one of "cash",
    "worth", "net_worth", "laps", "turn_laps", "turns", "jail_turns", "doubles"."""

    subject: str
    prop: str
    span: Span = field(eq=False, default=NOWHERE)


@node
class SpaceValue:
    """`the space's price` / `the space's mortgage` (0 for a space that is no property)."""

    prop: str
    span: Span = field(eq=False, default=NOWHERE)


@node
class CountOwned:
    """`the number of railroads the player owns`: thing a kind of property, house, hotel or
    building (singular or plural, as written)."""

    thing: Name
    subject: str
    span: Span = field(eq=False, default=NOWHERE)


@node
class GameCount:
    """`the number of bankruptcies` (what "bankruptcies") / `the number of players`
    ("players": the players not bankrupt)."""

    what: str
    span: Span = field(eq=False, default=NOWHERE)


@node
class BankCount:
    """`the number of houses in the bank`: the houses or hotels of the bank's supply (both for
    `buildings`), or the lots of a kind of property that nobody owns (`railroads`)."""

    thing: Name
    span: Span = field(eq=False, default=NOWHERE)


@node
class TheBid:
    """`the bid`: the amount bid, in a permission to bid (its subject "bid")."""

    subject: str = "bid"
    span: Span = field(eq=False, default=NOWHERE)


Factor = Union[DiceTotal, DieValue, PotAmount, Possessive, SpaceValue, CountOwned, GameCount,
               BankCount, TheBid]


@node
class Plus:
    """`X plus Y plus ...`: the sum of terms of one unit."""

    terms: tuple["Expr", ...]
    span: Span = field(eq=False, default=NOWHERE)


@node
class Times:
    """`4 times X` (unit "count": X's unit) or `$4 times X` (unit "money": X a count)."""

    factor: int
    unit: str
    operand: "Expr"
    span: Span = field(eq=False, default=NOWHERE)


@node
class PercentOf:
    """`10% of X`: X·P/100 rounded down, X money or a count."""

    percent: int
    operand: "Expr"
    span: Span = field(eq=False, default=NOWHERE)


@node
class PerOwned:
    """`$25 per house the player owns` (unit "money") / `2 per railroad the owner owns`
    ("count"): amount times the number of things the subject owns."""

    amount: int
    unit: str
    thing: Name
    subject: str
    span: Span = field(eq=False, default=NOWHERE)


Expr = Union[Money, Count, Percent, PercentOfWorth, Plus, Times, PercentOf, PerOwned, Factor]

# ---------------------------------------------------------------- board and equipment


@node
class Cite:
    """`cite "file", "section"`: where a rule comes from."""

    source: str
    section: str
    span: Span = field(eq=False)


@node
class SpaceDecl:
    """One space of the board, in board order.

    kind is one of: go, street, railroad, utility, tax, cards, jail, go_to_jail, plain.
    Properties (street, railroad, utility) have a group, a price and a mortgage value.
    rents: streets list unimproved, 1..N houses, hotel; railroads list one rent per
    number owned in the group; utilities list one dice multiplier per number owned.
    """

    name: Text
    kind: Name
    group: Text | None = None
    price: Money | None = None
    mortgage: Money | None = None
    house_cost: Money | None = None
    hotel_cost: Money | None = None
    rents: tuple[Money, ...] = ()
    multipliers: tuple[Count, ...] = ()
    span: Span = field(eq=False, default=NOWHERE)


@node
class Board:
    """`board:` followed by the spaces in order, the first one being position 0."""

    spaces: tuple[SpaceDecl, ...]
    span: Span = field(eq=False, default=NOWHERE)


@node
class Die:
    """`die "white" faces 1..6` with optional named faces: `face 1 named "Eye of Sauron"`.

    symbols are the faces that have a name and no value (`"carré blanc" for "La Lumière"`),
    each with the side it counts for in a battle, or None; a die of symbols only does not
    move the pawn and takes no part in doubles (the Force die).
    """

    name: Text
    faces: tuple[int, ...]
    face_names: tuple[tuple[int, Text], ...] = ()
    span: Span = field(eq=False, default=NOWHERE)
    symbols: tuple[tuple[Text, Text | None], ...] = ()


@node
class DiceDecl:
    """`dice "white", "black" make doubles`: role "move" (`move the pawn`), "doubles" or
    "triples", and the dice named."""

    role: str
    dice: tuple[Text, ...]
    span: Span = field(eq=False, default=NOWHERE)


@node
class TokenDecl:
    """`token "The One Ring" starts on "Bag End"`, optionally `, side "La Lumière"`.

    A token is a piece that is not a player: it has a position and its own movement.
    """

    name: Text
    start: Text
    side: Text | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class SideDecl:
    """`side "La Lumière": "Obi-Wan Kenobi", ...`: a side and the characters that play it."""

    name: Text
    characters: tuple[Text, ...]
    span: Span = field(eq=False, default=NOWHERE)


@node
class Card:
    """`card "CH01" "Advance to Go": <effects>` inside a deck."""

    id: Text
    title: Text
    effects: tuple["Effect", ...]
    span: Span = field(eq=False, default=NOWHERE)


@node
class Deck:
    """`deck "Chance":` followed by its cards, top of the deck first."""

    name: Text
    cards: tuple[Card, ...]
    span: Span = field(eq=False, default=NOWHERE)


@node
class Rename:
    """`rename space|group|deck "Old" to "New"`; `rename house|hotel to "New"` (what is
    "building", old the building's kind)."""

    what: str
    old: Text
    new: Text
    span: Span = field(eq=False, default=NOWHERE)


@node
class Pot:
    """`pot "Free Parking jackpot"`: an account of its own, empty at the start."""

    name: Text
    span: Span = field(eq=False, default=NOWHERE)


@node
class Currency:
    """`currency "Power"`: the display name of money; amounts are still written `$N`."""

    name: Text
    span: Span = field(eq=False, default=NOWHERE)


# ---------------------------------------------------------------- events


@node
class SpaceByName:
    """A space named in quotes; several spaces may share a name (the three "Chance")."""

    name: Text
    span: Span = field(eq=False, default=NOWHERE)


@node
class SpaceByKind:
    """`a property`, `a street`, `a railroad`, `an unowned property`,
    `a property owned by another player`, `a property owned by the player`.

    kind: property, street, railroad, utility, tax, cards, ...; owner: None (any),
    "nobody", "other" or "self".
    """

    kind: Name
    owner: str | None = None
    span: Span = field(eq=False, default=NOWHERE)


SpaceTarget = Union[SpaceByName, SpaceByKind]


@node
class Lands:
    """`when a player lands on <space>`: the move ends on the space."""

    target: SpaceTarget
    span: Span = field(eq=False, default=NOWHERE)


@node
class Passes:
    """`when a player passes <space>`: a forward move crosses or ends on the space."""

    target: SpaceTarget
    span: Span = field(eq=False, default=NOWHERE)


@node
class RollsDoubles:
    """`when a player rolls doubles` or `... rolls doubles 3 times in a row`."""

    times: int | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class TurnStarts:
    """`when a turn starts`."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class DieShows:
    """`when a die shows "Eye of Sauron"`: a named face comes up (before the pawn moves).

    after is True for `... after moving`: the rule fires once the pawn's move is over.
    """

    face: Text
    span: Span = field(eq=False, default=NOWHERE)
    after: bool = False


@node
class GameStarts:
    """`when the game starts`: once, at setup, before the first player is chosen."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class TokenRef:
    """Which tokens an event is about: `token "X"` (name), `a token` (name None, any), or
    `a token of another side` (opposing True)."""

    name: Text | None = None
    opposing: bool = False
    span: Span = field(eq=False, default=NOWHERE)


@node
class Meets:
    """`when a player meets <token>`: the player's move ends where the token stands, or the
    token's move ends where the player stands."""

    token: TokenRef
    span: Span = field(eq=False, default=NOWHERE)


@node
class BattleOutcome:
    """`when a player wins a battle` (won True) / `when a player loses a battle`."""

    won: bool
    span: Span = field(eq=False, default=NOWHERE)


@node
class TokenReaches:
    """`when token "The One Ring" reaches "Mount Doom"`: a move of the token ends there."""

    token: Text
    target: "SpaceTarget"
    span: Span = field(eq=False, default=NOWHERE)


@node
class RentDue:
    """`when rent is due on <space>`: its only effect, `rent xN`, multiplies the rent."""

    target: "SpaceTarget"
    span: Span = field(eq=False, default=NOWHERE)


@node
class RollsTriples:
    """`when a player rolls triples`: the dice that make triples (`dice ... make triples`) all
    show one face."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class Rolls:
    """`when a player rolls`: each throw of a turn or of a jail turn, before the move (the
    firing carries the dice and the doubles so far in the turn)."""

    span: Span = field(eq=False, default=NOWHERE)


# The events of the game's course (vocab/game_events.py): they log nothing themselves.


@node
class TurnEnds:
    """`when a turn ends`: after the player's actions, if it is still in the game."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class SentToJail:
    """`when a player is sent to jail`: right after the player is put in jail."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class JailTurn:
    """`when a player takes a turn in jail`: a jailed player's turn, before its jail decision."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class LeavesJail:
    """`when a player leaves jail`: right after the player is freed."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class PropertyEvent:
    """`when a street is offered|auctioned|bought` (what: "offered", "auctioned", "bought")."""

    kind: Name
    what: str
    span: Span = field(eq=False, default=NOWHERE)


@node
class BuildingEvent:
    """`when a building|house|hotel is bought|sold` (building: "building", "house", "hotel")."""

    building: str
    what: str
    span: Span = field(eq=False, default=NOWHERE)


@node
class MortgageEvent:
    """`when a mortgage is taken|lifted` (what: "taken", "lifted")."""

    what: str
    span: Span = field(eq=False, default=NOWHERE)


@node
class DeedChangesHands:
    """`when a deed changes hands [by a trade | from a bankrupt player]`: a deed passes to a
    player by a trade or a bankruptcy (how: None, "trade", "bankruptcy")."""

    how: str | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class CardDrawn:
    """`when a card is drawn [from "Deck"]` (deck None: from any deck)."""

    deck: Text | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class CannotPay:
    """`when a player cannot pay`: raising funds failed, before the bankruptcy."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class GoesBankrupt:
    """`when a player goes bankrupt [to the bank | to another player]` (to: None, "bank",
    "player"); its effects are the settlement's instructions."""

    to: str | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class GameEnds:
    """`when the game ends`: a rule or the last player ended it (not the engine's bounds)."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class TimeLimitReached:
    """`when the time limit is reached`: once, when the simulated clock reaches time_limit."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class BuildingsRunShort:
    """`when buildings run short`: a player builds while the bank holds fewer buildings of
    that kind than there are players in the game."""

    span: Span = field(eq=False, default=NOWHERE)


Event = Union[Lands, Passes, RollsDoubles, RollsTriples, TurnStarts, DieShows, GameStarts, Meets,
              BattleOutcome, TokenReaches, RentDue, TurnEnds, SentToJail, JailTurn, LeavesJail,
              PropertyEvent, BuildingEvent, MortgageEvent, DeedChangesHands, CardDrawn,
              CannotPay, GoesBankrupt, GameEnds, TimeLimitReached, BuildingsRunShort, Rolls]

# ---------------------------------------------------------------- conditions


@node
class Condition:
    """An atom of a condition that names its subject and test: `unless the owner is in jail`,
    `if the player is in jail`, `if option one_ring`, `if the player has completed a lap`,
    `if the space holds token "The One Ring"`, `the player holds the whole group` ...

    subject: "player", "owner" or "partner" for the tests "in_jail", "lap", "no_jail_turn",
    "whole_group", "owns_space"; "option" with `name` set for options; "space" with test
    "holds" and `token` set for a token on the space of the event, or with test "fewest" /
    "most" (buildings of the group); "dice" with test "doubles", "triples" or "alike".
    negated is True for `unless` and `is not` / `has not`.
    """

    subject: str
    test: str
    negated: bool = False
    name: Name | None = None
    span: Span = field(eq=False, default=NOWHERE)
    token: Text | None = None


@node
class OwnsCount:
    """`the player owns 3 railroads` (exactly), `the owner owns at least 2 hotels`.

    cmp: "eq", "ge" (at least), "le" (at most), "gt" (more than), "lt" (less than)."""

    subject: str
    count: int
    thing: Name
    cmp: str = "eq"
    span: Span = field(eq=False, default=NOWHERE)


@node
class LotTest:
    """A test of the space of the event (subject "space") or of the lots of its group: some
    ("a lot"), none ("no lot") or all ("every lot") of them pass it.

    test "mortgaged" (negated: `is not mortgaged`) or "buildings": the number of `thing`
    (house, hotel, building) on the lot compares by cmp to count (`has no house`: eq 0,
    `has a hotel`: ge 1)."""

    subject: str
    test: str
    negated: bool = False
    cmp: str = "eq"
    count: int = 0
    thing: Name | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class SpaceIs:
    """`the space is a railroad`: the space of the event is of that kind (`property`: any)."""

    kind: Name
    span: Span = field(eq=False, default=NOWHERE)


@node
class DieShowsFace:
    """`die "speed" shows "bus"` (die None: `a die shows "bus"`, any die) in the firing's
    throw."""

    face: Text
    die: Text | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class Compare:
    """`X is Y`, `X is not Y`, `X is at least Y` ...: op "eq", "ne", "ge", "le", "gt", "lt";
    both sides of one unit."""

    left: Expr
    op: str
    right: Expr
    span: Span = field(eq=False, default=NOWHERE)


Atom = Union[Condition, OwnsCount, LotTest, SpaceIs, DieShowsFace, Compare]


@node
class Not:
    """`not C` (and `unless C` for a condition that is not one atom)."""

    cond: "Cond"
    span: Span = field(eq=False, default=NOWHERE)


@node
class And:
    """`C and C and ...`: every one holds (tested left to right, stopping at the first false)."""

    conds: tuple["Cond", ...]
    span: Span = field(eq=False, default=NOWHERE)


@node
class Or:
    """`C or C or ...`: one holds (tested left to right, stopping at the first true)."""

    conds: tuple["Cond", ...]
    span: Span = field(eq=False, default=NOWHERE)


Cond = Union[Atom, Not, And, Or]

# ---------------------------------------------------------------- effects


@node
class Collect:
    """`collect $200` (from the bank) or `collect $50 from each player`; the amount is an
    expression of money (Money when written as a plain amount)."""

    amount: Expr
    source: str = "bank"  # "bank" | "each_player"
    span: Span = field(eq=False, default=NOWHERE)


@node
class Pay:
    """`pay $75` (to the bank) or `pay each player $50`; the amount is an expression of
    money (Money when written as a plain amount)."""

    amount: Expr
    to: str = "bank"  # "bank" | "each_player"
    span: Span = field(eq=False, default=NOWHERE)


@node
class PayChoice:
    """`pay $200 or 10% of worth`: the player chooses before the worth is computed (an option
    `N% of worth` or `N% of the player's worth` is computed after the choice, any other before
    it)."""

    options: tuple[Expr, ...]
    span: Span = field(eq=False, default=NOWHERE)


@node
class PayPerBuilding:
    """`pay $25 per house, $100 per hotel` (repairs)."""

    per_house: Money
    per_hotel: Money
    span: Span = field(eq=False, default=NOWHERE)


@node
class PayInto:
    """`pay $75 into "Free Parking jackpot"`: the player pays a pot."""

    amount: Expr
    pot: Text
    span: Span = field(eq=False, default=NOWHERE)


@node
class CollectPot:
    """`collect the pot "Free Parking jackpot"`: the player takes everything in the pot;
    `collect 50% of the pot "..."`: that share of it, rounded down (percent)."""

    pot: Text
    span: Span = field(eq=False, default=NOWHERE)
    percent: int = 100


@node
class EndGame:
    """`end the game`: the game ends at once; the richest by the printed valuation wins."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class GoToJail:
    """`go to jail`: straight to jail, passing nothing; the turn ends."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class AdvanceTo:
    """`advance to "Boardwalk"`: move forward to the space, passing what lies between."""

    space: Text
    span: Span = field(eq=False, default=NOWHERE)


@node
class AdvanceToNearest:
    """`advance to the nearest railroad, rent x2` / `... utility, rent dice x10`.

    rent_factor multiplies the rent due; dice_multiplier, when set, replaces a utility's
    multiplier and the dice are thrown anew for the rent.
    """

    kind: Name
    rent_factor: int = 1
    dice_multiplier: int | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class MoveBy:
    """`move back 3` (negative) or `move 3`: passing counts only going forward. spaces is an
    int when written as a plain count, else an expression of a count (`move the dice total`),
    with back True for `move back`."""

    spaces: "int | Expr"
    span: Span = field(eq=False, default=NOWHERE)
    back: bool = False


@node
class AdvanceNext:
    """`advance to the next unowned property [where C][, else E]`: forward to the first space
    ahead of the kind (owner: None any, "nobody", "free" no pawn and no token, "other",
    "self") for which `where` holds; none: `otherwise` runs, or nothing."""

    kind: Name
    owner: str | None = None
    where: Condition | None = None
    otherwise: "Effect | None" = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class ChooseSpace:
    """`advance to a property of the player's choice [where C]` (forward, passing) or, with
    straight, `move to a free street of the player's choice` (passing nothing): the player
    picks one of the spaces that qualify."""

    kind: Name
    owner: str | None = None
    where: Condition | None = None
    straight: bool = False
    span: Span = field(eq=False, default=NOWHERE)


@node
class Draw:
    """`draw from "Chance"`: take the top card, obey it, put it under the deck."""

    deck: Text
    span: Span = field(eq=False, default=NOWHERE)


@node
class KeepJailCard:
    """`keep to leave jail free`: the card is kept until used or sold, then goes back under."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class BuyOrAuction:
    """`buy or auction`: the player may buy at the printed price, else the bank auctions it.

    auction False for plain `buy` (declined lots stay with the bank).
    """

    auction: bool = True
    span: Span = field(eq=False, default=NOWHERE)


@node
class PayRent:
    """`pay rent` or `pay rent x2`: the owner collects the rent the space's scheme gives."""

    factor: int = 1
    span: Span = field(eq=False, default=NOWHERE)


@node
class RollAgain:
    """`roll again`: the player rolls once more after this move."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class Nothing:
    """`nothing`: the rule states that the event has no effect (Free Parking)."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class MoveTokenNext:
    """`move token "The One Ring" to the next street`: on to the next space of the kind,
    skipping every other space."""

    token: Text
    kind: Name
    span: Span = field(eq=False, default=NOWHERE)


@node
class MoveTokenBy:
    """`move token "Force claire" by "white" onto a property`: as many spaces as that die
    shows; with `onto`, a space of another kind sends it on to the next space of the kind."""

    token: Text
    die: Text
    onto: Name | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class PlaceToken:
    """`move the token to a free property`: the player puts the token of the event on any
    space of the kind where no pawn and no other token stands."""

    kind: Name
    span: Span = field(eq=False, default=NOWHERE)


@node
class Battle:
    """`battle with "Force"`: the player throws that die alone; a face of the player's side
    wins the battle, any other face loses it (see the battle events)."""

    die: Text
    span: Span = field(eq=False, default=NOWHERE)


@node
class ClaimFree:
    """`claim it for free`: the player may take the unowned property free of charge."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class RollDice:
    """`roll the dice`: throw every die without moving (for rules that use the dice)."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class MultiplyRent:
    """`rent x2` as the effect of `when rent is due on ...`: the rent due is multiplied."""

    factor: int
    span: Span = field(eq=False, default=NOWHERE)


# The effects of the game's course (vocab/game_events.py).


@node
class ShuffleDecks:
    """`shuffle the decks` (the game starts): every deck, in declaration order."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class HighestRollStarts:
    """`the player with the highest roll starts` (the game starts): throws for the first
    player; without it, seat 0 starts."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class DealDeeds:
    """`deal N title deeds to each player [for free]` (the game starts)."""

    count: int
    free: bool = False
    span: Span = field(eq=False, default=NOWHERE)


@node
class LeaveJail:
    """`leave jail`: the player is freed (on a jail throw, it then moves by the dice)."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class PayFine:
    """`pay the fine`: the player pays jail_fine, raising funds if short."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class LiftOrInterest:
    """`lift the mortgage [at its value] or pay the interest` (a deed changes hands): the new
    owner lifts the mortgaged deed at once (with the interest, or at the mortgage value
    alone) or pays the bank the interest."""

    at_value: bool = False
    span: Span = field(eq=False, default=NOWHERE)


@node
class AuctionBuilding:
    """`auction the building [from its cost]` (buildings run short)."""

    from_cost: bool = False
    span: Span = field(eq=False, default=NOWHERE)


@node
class BankAuctionsLots:
    """`the bank auctions the lots` (a player goes bankrupt): the lots returned to the bank
    are auctioned."""

    span: Span = field(eq=False, default=NOWHERE)


@node
class EverythingToCreditor:
    """`everything goes to the creditor` (a player goes bankrupt): no building is sold to
    the bank first."""

    span: Span = field(eq=False, default=NOWHERE)


Effect = Union[
    Collect,
    Pay,
    PayChoice,
    PayPerBuilding,
    PayInto,
    CollectPot,
    EndGame,
    GoToJail,
    AdvanceTo,
    AdvanceToNearest,
    MoveBy,
    Draw,
    KeepJailCard,
    BuyOrAuction,
    PayRent,
    RollAgain,
    Nothing,
    MoveTokenNext,
    MoveTokenBy,
    PlaceToken,
    Battle,
    ClaimFree,
    RollDice,
    MultiplyRent,
    ShuffleDecks,
    HighestRollStarts,
    DealDeeds,
    LeaveJail,
    PayFine,
    LiftOrInterest,
    AuctionBuilding,
    BankAuctionsLots,
    EverythingToCreditor,
    AdvanceNext,
    ChooseSpace,
]


@node
class Choice:
    """`the player chooses one: A, B; C`: the last item of an effect list; each option is an
    effect list, with its source text (what the agent is shown and the log names)."""

    options: tuple[tuple[Effect, ...], ...]
    texts: tuple[str, ...] = ()
    span: Span = field(eq=False, default=NOWHERE)

# ---------------------------------------------------------------- rules


@node
class Set:
    """`set name = value`: a setting of the engine's vocabulary (see engine.settings).

    parameter is True for `parameter name = value`: a setting agreed before a game, whose
    value here is the default (`rulelang run --set name=value` changes it).
    """

    name: Name
    value: Value
    span: Span = field(eq=False, default=NOWHERE)
    parameter: bool = False


@node
class When:
    """`when <event> [if|unless <condition>]: <effect>, <effect>, ...`."""

    event: Event
    conditions: tuple[Cond, ...]  # the guards: `if C` / `unless C` (a Not), all must hold
    effects: tuple[Effect | Choice, ...]  # a Choice only last
    span: Span = field(eq=False, default=NOWHERE)


# ---------------------------------------------------------------- permissions


@node
class Action:
    """What a permission is about: `build a hotel`, `mortgage a railroad`, `bid`.

    action: the engine's name of the action ("build", "sell", "sell_group", "mortgage",
    "lift", "trade", "trade_card", "buy", "bid", "pay_fine", "use_card"); kind narrows it to
    lots of that kind (`mortgage a railroad`), building to that building (`build a hotel`;
    `a building` is any).
    """

    action: str
    kind: Name | None = None
    building: Name | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class Permission:
    """`a player may not <action> [if|unless <condition>] ...`: the action is refused when
    every condition holds (always, without one). text is the statement as written, which a
    refusal quotes."""

    action: Action
    conditions: tuple[Condition, ...]
    span: Span = field(eq=False, default=NOWHERE)
    text: str = field(eq=False, default="")


Statement = Union[Set, When, Permission]


@node
class Rule:
    """`rule name:` with an optional cite, then settings and triggered effects.

    override: None for a new rule, or "replace", "before", "after" (target names the
    parent's rule that is replaced or placed against).
    """

    name: Name
    cite: Cite | None
    body: tuple[Statement, ...]
    override: str | None = None
    target: Name | None = None
    span: Span = field(eq=False, default=NOWHERE)


@node
class Remove:
    """`remove rule name`: drop a rule the parent rulebook defines."""

    name: Name
    span: Span = field(eq=False, default=NOWHERE)


@node
class Option:
    """`option name "Title":` a block of items in force only when switched on."""

    name: Name
    title: Text | None
    items: tuple["Item", ...]
    span: Span = field(eq=False, default=NOWHERE)


Item = Union[Board, Deck, Die, Rule, Remove, Set, Rename, Currency, Pot, Option, Cite,
             TokenDecl, SideDecl, DiceDecl]


@node
class Extends:
    """`extends "file.rules"`, relative to the extending file."""

    path: Text
    span: Span = field(eq=False, default=NOWHERE)


@node
class File:
    """One parsed rules file: its header and its items in order.

    left_out: what the top-level items of a file with syntax errors that were not read
    declare, each as (what, name): what is "rule", "setting", "cite", "deck", "pot" or
    "option" (whose rules and settings follow it); the checker says nothing that could follow
    from their absence. Empty for a file that parses."""

    path: str
    title: Text
    extends: Extends | None
    items: tuple[Item, ...]
    span: Span = field(eq=False, default=NOWHERE)
    left_out: tuple[tuple[str, str], ...] = field(eq=False, default=())


# ---------------------------------------------------------------- the resolved rulebook


@node
class Program:
    """The effective rulebook after `extends`, overrides, options and renames.

    files lists every file read, the played one first. Board, decks and dice come from the
    nearest file that declares them (a child's `board:` replaces the parent's). rules are in
    force order; settings holds the top-level `set` items, later ones winning. options are
    the options switched on; declared_options names every `option` block of the files, on
    or off, where it is declared (for checking `if option NAME`).
    """

    title: Text
    files: tuple[str, ...]
    board: Board | None
    decks: tuple[Deck, ...]
    dice: tuple[Die, ...]
    rules: tuple[Rule, ...]
    settings: tuple[Set, ...]
    currency: Currency | None = None
    options: tuple[str, ...] = ()
    declared_options: tuple[Name, ...] = ()
    tokens: tuple[TokenDecl, ...] = ()
    sides: tuple[SideDecl, ...] = ()
    pots: tuple[Pot, ...] = ()
    buildings: tuple[tuple[str, Text], ...] = ()  # ("house" | "hotel", its name)
    overrides: tuple[Set, ...] = ()  # `--set NAME=VALUE` from the command line
    dice_decls: tuple[DiceDecl, ...] = ()  # one per role at most, the latest in force
