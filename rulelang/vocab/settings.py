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
        _s("shuffle_decks", "flag", True, "shuffle every deck before the game"),
        _s("first_player", "choice", "highest_roll", "who starts",
           choices=("highest_roll", "first_seat")),
        _s("auction_min_bid", "money", 1, "the lowest opening bid of an auction", 0),
        _s("rent_claim_window", "count", 2,
           "rent is lost if not claimed before this many following players roll", 1, 12),
        _s("full_group_rent", "percent", 100,
           "rent of an unimproved lot whose owner holds the whole group", 0, 1000),
        _s("full_group_counts_mortgaged", "flag", True,
           "a mortgaged lot still counts toward the whole group for full_group_rent"),
        _s("building_sale", "percent", 50, "share of the price the bank pays for a building", 0, 100),
        _s("jail_fine", "money", 50, "the fine that frees a player from jail", 0),
        _s("jail_turns", "count", 3,
           "turns a player may stay in jail; after the last failed roll, pay and move", 1, 20),
        _s("jail_exit_doubles", "flag", True, "doubles rolled in jail free the player"),
        _s("max_houses", "count", 4, "houses a lot may hold", 0, 20),
        _s("houses_per_hotel", "count", 4,
           "houses every lot of the group needs before a hotel (at most `max_houses`)", 1, 20),
        _s("building_shortage_auction", "flag", False,
           "buildings are auctioned when players want more than the bank has"),
        _s("building_auction_from_cost", "flag", False,
           "the auction of a scarce building opens at its printed cost (the cheapest lot it may "
           "go on), not at $1"),
        _s("mortgage_interest", "percent", 10, "interest paid when lifting a mortgage", 0, 100),
        _s("transfer_interest", "flag", True,
           "a new owner of a mortgaged lot pays the interest at once"),
        _s("bankruptcy_to_bank", "choice", "auction",
           "what the bank does with a bankrupt player's lots",
           choices=("auction", "keep")),
        _s("winner", "choice", "last_player", "who wins when the game ends",
           choices=("last_player", "richest")),
        _s("loans", "flag", False, "players may lend to each other (never in the seeds)"),
        _s("deal_deeds", "count", 0, "title deeds dealt to each player at setup, one at a time around the table, from the "
           "shuffled deeds", 0, 10),
        _s("deal_deeds_paid", "flag", True,
           "players pay the printed price of the deeds dealt to them (a deed a player cannot pay "
           "in cash stays with the bank)"),
        _s("end_at_bankruptcy", "count", 0,
           "the game ends at this bankruptcy (0: only when one player is left); the richest wins", 0, 11),
        _s("final_bankruptcy", "choice", "regular",
           "at the bankruptcy that ends the game: as any other, or everything, buildings too, "
           "goes to the creditor", choices=("regular", "everything_to_creditor")),
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
