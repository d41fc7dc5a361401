"""The mutable state of one game: plain attrs data, every list indexed by seat or by space.

Money sits in `cash`, one account per player followed by the bank's (which may go negative:
the bank never goes broke), then one per pot of the rulebook (a Free Parking jackpot). Deeds are `owner` (-1: the bank); buildings are `houses` and
`hotels` per space plus the bank's supply; cards are the decks' orders plus the jail cards
players hold. Tokens that are not players (the One Ring, the Force symbols) are `tokens`, one
position each; a player's character and side are `character` and `side` (-1: none). Nothing
else in the engine holds game state.
"""

from __future__ import annotations

import attr


# eq and repr are written out below: mypyc (rulelang native build) compiles the fields of an
# attrs class, not the methods attrs would add
@attr.s(auto_attribs=True, slots=True, eq=False, repr=False)
class State:
    cash: list[int]
    position: list[int]
    in_jail: list[bool]
    jail_turns: list[int]
    bankrupt: list[bool]
    jail_cards: list[list[tuple[int, int]]]
    owner: list[int]
    houses: list[int]
    hotels: list[int]
    mortgaged: list[bool]
    bank_houses: int
    bank_hotels: int
    decks: list[list[int]]
    laps: list[int]  # times each player passed GO (kept only when a rule asks for laps)
    current: int = 0
    turn: int = 0
    round: int = 0
    bankruptcies: int = 0
    players: int = 0
    bank: int = 0  # the bank's account index in `cash`: right after the players'
    tokens: list[int] = attr.ib(factory=list)
    character: list[int] = attr.ib(factory=list)
    side: list[int] = attr.ib(factory=list)
    # turns each player began (kept only when a rule reads them; empty in older saves)
    turns_taken: list[int] = attr.ib(factory=list)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in FIELDS)

    def __repr__(self) -> str:
        return "State(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in FIELDS) + ")"


FIELDS = tuple(f.name for f in attr.fields(State))
