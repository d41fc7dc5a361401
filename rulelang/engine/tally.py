"""What the engine counts while it plays, for `rulelang stats`: a game with a `Tally` (its
`tally` attribute, None by default) counts where every throw ends, which rule fired how often,
and the money each rule moved, as plain integers that add up across games (rulelang.stats).

A game without one pays a test of `tally is None` at a few points (the end of a throw, a
transfer, a rule's firing in a rulebook compiled to be observed), nothing else.
"""

from __future__ import annotations

JAIL = -1  # where a throw ends when it leaves the player in jail: apart from Just Visiting


class Tally:
    """The counts of one game. `landings[i]`: throws that ended on space i (the last slot:
    In Jail); `throws`: every throw of the dice a turn made; `fired`: each rule's firings
    (its conditions held and its effects ran; a permission's refusals); `flows`: per
    (rule, from, to) the money moved and how many transfers moved it, where from and to are
    "player", "bank" or a pot's name."""

    __slots__ = ("landings", "throws", "fired", "flows", "_pending")

    def __init__(self, size: int) -> None:
        self.landings: list[int] = [0] * (size + 1)
        self.throws = 0
        self.fired: dict[str, int] = {}
        self.flows: dict[tuple[str, str, str], list[int]] = {}
        self._pending = False  # a throw was made whose end is not yet counted

    def thrown(self) -> None:
        """The dice were thrown: the throw's end is counted by `ended`."""
        self.throws += 1
        self._pending = True

    def ended(self, position: int, in_jail: bool) -> None:
        """The throw made last is over (its move and everything it set off): count where the
        player is, once."""
        if self._pending:
            self._pending = False
            self.landings[JAIL if in_jail else position] += 1

    def dropped(self) -> None:
        """The throw made last ends nowhere (its player went bankrupt, the game ended)."""
        if self._pending:
            self._pending = False
            self.throws -= 1

    def fire(self, rule: str) -> None:
        """Rule `rule` fired once."""
        fired = self.fired
        fired[rule] = fired.get(rule, 0) + 1

    def flow(self, rule: str, source: str, to: str, amount: int) -> None:
        """`rule` moved `amount` from `source` to `to`."""
        key = (rule, source, to)
        row = self.flows.get(key)
        if row is None:
            self.flows[key] = [amount, 1]
        else:
            row[0] += amount
            row[1] += 1
