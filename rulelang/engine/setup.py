"""What the rulebook does before the first roll beyond cash and decks: dealing title deeds.

The short and time-limit games deal N deeds to each player, one at a time around the table,
from the shuffled title deeds; paid at the printed price or free, as the rulebook says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def deal_deeds(game: Game, count: int, paid: bool, rule: str) -> None:
    """Deal `count` deeds to each player, paid at the printed price or free, as `rule` says; a
    deed a player cannot pay in cash stays with the bank (the seeds never get there: two deeds
    cost at most $800 of the $1500)."""
    st, rb = game.state, game.rulebook
    deeds = list(rb.properties)
    game.rng.shuffle(deeds)
    for _ in range(count):
        for seat in range(st.players):
            if not deeds:
                return
            pos = deeds.pop(0)
            if paid:
                price = rb.spaces[pos].price
                if st.cash[seat] < price:
                    continue
                game.transfer(seat, st.bank, price, "dealt deed", rule)
            game.give_deed(pos, seat, rule)
