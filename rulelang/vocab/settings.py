"""The settings a rules file may `set`: each one's type, default, bounds or choices, and what
it controls (its documentation line).

The checker reads SETTINGS to type-check `set` statements; `compile` folds them into the
engine's frozen `engine.settings.Settings`, whose fields a test holds equal to these. A default
is what the engine does when no rule in force sets the value.
"""

from __future__ import annotations

from attrs import frozen

__all__ = ["SettingSpec", "SETTINGS"]


@frozen
class SettingSpec:
    """One setting: its value type, default, bounds or choices, and what it controls."""

    name: str
    type: str  # "money" | "count" | "percent" | "flag" | "range" | "choice" | "pot"
    default: object
    doc: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()


def _s(name, type, default, doc, low=None, high=None, choices=()):
    return SettingSpec(name, type, default, doc, low, high, tuple(choices))


SETTINGS: dict[str, SettingSpec] = {
    s.name: s
    for s in (
        _s("players", "range", (2, 8), "how many players may sit at the table", 1, 12),
        _s("starting_cash", "money", 1500, "cash each player receives from the bank", 0),
        _s("houses", "count", 32, "houses in the bank's supply", 0, 1000),
        _s("hotels", "count", 12, "hotels in the bank's supply", 0, 1000),
        _s("auction_min_bid", "money", 1, "the lowest opening bid of an auction", 0),
        _s("rent_claim_window", "count", 2,
           "rent is lost if not claimed before this many following players roll", 1, 12),
        _s("building_sale", "percent", 50, "share of the price the bank pays for a building", 0, 100),
        _s("jail_fine", "money", 50, "the fine that frees a player from jail", 0),
        _s("jail_turns", "count", 3,
           "turns a player may stay in jail; after the last failed roll, pay and move", 1, 20),
        _s("max_houses", "count", 4, "houses a lot may hold", 0, 20),
        _s("houses_per_hotel", "count", 4,
           "houses every lot of the group needs before a hotel (at most `max_houses`)", 1, 20),
        _s("mortgage_interest", "percent", 10, "interest paid when lifting a mortgage", 0, 100),
        _s("time_limit", "count", 0,
           "minutes of simulated clock after which the game ends, at the end of a turn (0: no "
           "limit); the richest wins", 0, 100000),
        _s("seconds_per_turn", "count", 60,
           "the simulated clock's pace: one player-turn, all its rolls and decisions, takes this "
           "many seconds", 1, 3600),
        _s("fines_to", "pot", "",
           "the pot that receives taxes, fines and card penalties: every `pay` to the bank in a "
           "rule or a card, and the jail fine"),
    )
}
