"""Deeds and mortgages changing hands, and the views of them the game keeps up to date.

`Game` inherits this: `give_deed` and `set_mortgaged` are the only places an owner or a
mortgage flag changes, and they keep, for agents, each seat's deeds and mortgaged deeds, the
owner of each whole group, each seat's whole street groups and the street groups two seats
share, so that no agent rescans the board (docs/engine.md, "Writing an agent").
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Callable, Final

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from .state import State
    from .tables import Rulebook

_insort: Final = bisect.insort  # Final: the compiler reads it without a lookup


@mypyc_attr(allow_interpreted_subclasses=True)
class Holdings:
    """Who holds what, for a Game (whose slots hold the attributes used here)."""

    # the attributes used here (Game's other attributes are in its own slots)
    __slots__ = ("state", "rulebook", "seat_version", "version", "_log", "_holdings", "_whole",
                 "_pairs", "_streets", "_shared", "_mortgaged", "_groups", "_group_of",
                 "_is_street", "_street_groups")

    state: State
    rulebook: Rulebook
    seat_version: list[int]
    version: int
    _log: Callable[[str], None] | None
    _holdings: list[list[int]] | None
    _whole: list[int]
    _pairs: list[tuple[int, int] | None]
    _streets: list[tuple[int, ...]]
    _shared: list[tuple[tuple[int, int], ...]] | None
    _mortgaged: list[list[int]]
    # the rulebook's tables read here (Rulebook.groups, group_of, is_street, street_groups),
    # held as typed fields: the compiled engine reads them without an attribute lookup
    _groups: tuple[tuple[int, ...], ...]
    _group_of: tuple[int, ...]
    _is_street: tuple[bool, ...]
    _street_groups: tuple[int, ...]

    def read_tables(self, rulebook: Rulebook) -> None:
        """Hold the rulebook's tables read here (the Game does, when it is built)."""
        self.rulebook = rulebook
        self._groups = rulebook.groups
        self._group_of = rulebook.group_of
        self._is_street = rulebook.is_street
        self._street_groups = rulebook.street_groups

    def emit(self, event: str, rule: str, **fields: object) -> None: ...

    def account_name(self, account: int) -> object: ...

    def set_mortgaged(self, pos: int, pledged: bool) -> None:
        """Mortgage the lot or lift its mortgage (the money moves apart: see actions)."""
        st = self.state
        if st.mortgaged[pos] == pledged:
            return
        st.mortgaged[pos] = pledged
        owner = st.owner[pos]
        if owner >= 0:
            self.seat_version[owner] += 1
            if self._holdings is not None:
                if pledged:
                    _insort(self._mortgaged[owner], pos)
                else:
                    self._mortgaged[owner].remove(pos)

    def give_deed(self, pos: int, seat: int, rule: str) -> None:
        """The deed of `pos` goes to `seat` (-1: the bank), by `rule`."""
        owner = self.state.owner
        held = self._holdings
        old = owner[pos]
        pledged = self.state.mortgaged[pos]
        if old >= 0:
            self.seat_version[old] += 1
            if held is not None:
                held[old].remove(pos)
                if pledged:
                    self._mortgaged[old].remove(pos)
        if seat >= 0:
            self.seat_version[seat] += 1
            if held is not None:
                _insort(held[seat], pos)
                if pledged:
                    _insort(self._mortgaged[seat], pos)
        owner[pos] = seat
        if held is not None:
            group = self._group_of[pos]
            if group >= 0:
                self._group_changed(group)
        self.version += 1
        if self._log:
            self.emit("deed", rule, space=self.rulebook.spaces[pos].name,
                      to=self.account_name(seat if seat >= 0 else self.state.bank))

    def holdings(self) -> list[list[int]]:
        """For each seat, the deeds it holds in board order (kept up to date; do not modify)."""
        held = self._holdings
        if held is None:
            held = self._track_ownership()
        return held

    def whole_groups(self) -> list[int]:
        """For each group, the seat that owns all of it, or -1 (kept up to date)."""
        if self._holdings is None:
            self._track_ownership()
        return self._whole

    def shared_streets(self) -> list[tuple[tuple[int, int], ...]]:
        """For each seat, (group, other seat) for each street group that it and one other
        player own whole between them: the groups a trade between the two could complete."""
        if self._holdings is None:
            self._track_ownership()
        if self._shared is None:
            shared: list[list[tuple[int, int]]] = [[] for _ in range(self.state.players)]
            pairs = self._pairs
            for g in self.rulebook.street_groups:
                pair = pairs[g]
                if pair is not None:
                    a, b = pair
                    shared[a].append((g, b))
                    shared[b].append((g, a))
            self._shared = result = [tuple(x) for x in shared]
            return result
        return self._shared

    def whole_streets(self) -> list[tuple[int, ...]]:
        """For each seat, the street groups (those that take buildings) it owns whole."""
        if self._holdings is None:
            self._track_ownership()
        return self._streets

    def refresh_views(self) -> None:
        """Rebuild the views from the state, after it was changed other than by the game."""
        self._holdings = None
        self._shared = None

    def mortgaged_lots(self) -> list[list[int]]:
        """For each seat, its mortgaged deeds in board order (kept up to date; do not modify)."""
        if self._holdings is None:
            self._track_ownership()
        return self._mortgaged

    def _track_ownership(self) -> list[list[int]]:
        owner, mortgaged = self.state.owner, self.state.mortgaged
        lots: list[list[int]] = [[] for _ in range(self.state.players)]
        self._mortgaged = [[] for _ in range(self.state.players)]
        for q in self.rulebook.properties:
            if owner[q] >= 0:
                lots[owner[q]].append(q)
                if mortgaged[q]:
                    self._mortgaged[owner[q]].append(q)
        self._holdings = lots
        groups = self.rulebook.groups
        self._whole = [-1] * len(groups)
        self._pairs = [None] * len(groups)
        self._streets = [() for _ in range(self.state.players)]
        for g in range(len(groups)):
            self._group_changed(g)
        return lots

    def _group_changed(self, g: int) -> None:
        owner = self.state.owner
        a = b = -1
        for q in self._groups[g]:
            o = owner[q]
            if o < 0:
                a = b = -2
                break
            if o != a and o != b:
                if a < 0:
                    a = o
                elif b < 0:
                    b = o
                else:
                    a = b = -2
                    break
        whole = a if a >= 0 and b < 0 else -1
        pair = None if b < 0 else (a, b) if a < b else (b, a)
        before = self._whole[g]
        street = self._is_street[self._groups[g][0]]
        if pair != self._pairs[g]:
            self._pairs[g] = pair
            if street:
                self._shared = None  # rebuilt when next asked for
        if whole != before:
            self._whole[g] = whole
            if street:
                held = self._whole
                for p in (before, whole):
                    if p >= 0:
                        groups = []  # a loop, not a generator: run on every deed
                        for h in self._street_groups:
                            if held[h] == p:
                                groups.append(h)
                        self._streets[p] = tuple(groups)
