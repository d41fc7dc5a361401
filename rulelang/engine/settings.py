"""The settings in force for one game, as the engine reads them.

The settings are declared, with their types, defaults and documentation, in
`rulelang.vocab.settings.SETTINGS` (re-exported here); `compile` folds a rulebook's `set`
lines into one frozen `Settings`.
"""

from __future__ import annotations

import attrs
from attrs import frozen

from rulelang.vocab.settings import SETTINGS, SettingSpec

__all__ = ["SETTINGS", "SettingSpec", "Settings"]


@frozen
class Settings:
    """The settings in force for one game, typed and complete."""

    players: tuple[int, int] = (2, 8)
    starting_cash: int = 1500
    houses: int = 32
    hotels: int = 12
    auction_min_bid: int = 1
    rent_claim_window: int = 2
    building_sale: int = 50
    jail_fine: int = 50
    jail_turns: int = 3
    max_houses: int = 4
    houses_per_hotel: int = 4
    mortgage_interest: int = 10
    time_limit: int = 0
    seconds_per_turn: int = 60
    fines_to: str = ""


assert set(attrs.fields_dict(Settings)) == set(SETTINGS), "Settings and SETTINGS disagree"
assert all(getattr(Settings(), n) == s.default for n, s in SETTINGS.items())
