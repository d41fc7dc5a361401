"""The events of the game's course (a turn ending, jail, purchases, buildings, mortgages, deeds,
cards, debts, bankruptcy, the end, the clock, the building shortage) and the effects that only
they or the game's start can carry (the setup, the jail exits, the settlement of a
bankruptcy).

These events log nothing themselves; they never fire for a player bankrupt at that moment,
nor once the game is over. Each declares the effects it allows (`Facts.allows`, E351).
"""

from __future__ import annotations

from rulelang import ast
from rulelang.vocab.spec import Facts, Form, Param, Primitive

__all__ = ["GAME_EVENTS", "GAME_EFFECTS", "SETUP_STAGE", "MONEY", "STILL"]

# The classes of effects an event may allow (Facts.allows), besides effects named one by one:
MONEY = "money"  # effects that only move money (no purchase, no rent), and `nothing`
STILL = "still"  # every effect that neither moves the pawn nor sends it to jail

# the events of the game's course come with no throw: their firing has no dice
_MONEY = Facts(allows=(MONEY,), throw=False)
_STILL = Facts(allows=(STILL,), throw=False)
_KIND = Param("kind", "kind")

GAME_EVENTS = (
    Primitive(
        "turn_ends", "event", ast.TurnEnds,
        (Form("a/an turn ends"),),
        "at the end of the player's turn, after its actions, if it is still in the game; "
        "no effect may move the pawn",
        facts=_STILL,
        example="when a turn ends if the player is in jail: pay $10"),
    Primitive(
        "sent_to_jail", "event", ast.SentToJail,
        (Form("a/an player is sent to jail"),),
        "the player has just been put in jail (by a space, a card or doubles); no effect may "
        "move the pawn",
        facts=_STILL,
        example="when a player is sent to jail: pay $50 into \"Free Parking\""),
    Primitive(
        "jail_turn", "event", ast.JailTurn,
        (Form("a/an player takes a turn in jail"),),
        "a jailed player's turn begins, before it chooses how to try to leave; a player "
        "freed here plays a free turn",
        facts=_STILL,
        example="when a player takes a turn in jail: collect $10"),
    Primitive(
        "leaves_jail", "event", ast.LeavesJail,
        (Form("a/an player leaves jail"),),
        "the player has just been freed (doubles, the fine, a card or a rule)",
        facts=_STILL,
        example="when a player leaves jail: pay $10"),
    Primitive(
        "property_event", "event", ast.PropertyEvent,
        (Form("a/an {kind} is offered", {"what": "offered"}),
         Form("a/an {kind} is auctioned", {"what": "auctioned"}),
         Form("a/an {kind} is bought", {"what": "bought"})),
        "an unowned property is offered to the player who landed on it (before the decision), "
        "put up for auction (before the bids), or bought (by a purchase or an auction won, "
        "after the deed is handed over); only money effects",
        (_KIND,),
        _MONEY,
        label="a property is offered, auctioned or bought",
        example="when a railroad is bought: collect $10"),
    Primitive(
        "building_event", "event", ast.BuildingEvent,
        tuple(Form(f"a/an {b} is {w}", {"building": b, "what": w})
              for b in ("building", "house", "hotel") for w in ("bought", "sold")),
        "the player has just built (`bought`) or sold back a building of that kind; only "
        "money effects",
        facts=_MONEY,
        label="a building is bought or sold",
        example="when a hotel is bought: pay $25"),
    Primitive(
        "mortgage_event", "event", ast.MortgageEvent,
        (Form("a/an mortgage is taken", {"what": "taken"}),
         Form("a/an mortgage is lifted", {"what": "lifted"})),
        "the player has just mortgaged a lot or lifted its mortgage; only money effects",
        facts=_MONEY,
        label="a mortgage is taken or lifted",
        example="when a mortgage is taken: pay $5"),
    Primitive(
        "deed_changes_hands", "event", ast.DeedChangesHands,
        (Form("a/an deed changes hands"),
         Form("a/an deed changes hands by a trade", {"how": "trade"}),
         Form("a/an deed changes hands from a bankrupt player", {"how": "bankruptcy"})),
        "once per deed a player receives by a trade or from a bankrupt player (`by a trade`, "
        "`from a bankrupt player`: only those), after the whole trade or transfer; the player "
        "is the new owner",
        facts=Facts(allows=(MONEY, "lift_or_interest"), throw=False),
        example="when a deed changes hands: lift the mortgage or pay the interest"),
    Primitive(
        "card_drawn", "event", ast.CardDrawn,
        (Form("a/an card is drawn [from {deck}]"),),
        "the player has drawn a card (of that deck), before it is obeyed or kept; only money "
        "effects",
        (Param("deck", "deck"),),
        _MONEY,
        example='when a card is drawn from "Chance": collect $5'),
    Primitive(
        "cannot_pay", "event", ast.CannotPay,
        (Form("a/an player cannot pay"),),
        "the player could not raise what it owes; if it holds the amount after the rule, it "
        "pays, else it goes bankrupt; only money effects",
        facts=_MONEY,
        example="when a player cannot pay: collect $100"),
    Primitive(
        "goes_bankrupt", "event", ast.GoesBankrupt,
        (Form("a/an player goes bankrupt"),
         Form("a/an player goes bankrupt to the bank", {"to": "bank"}),
         Form("a/an player goes bankrupt to another player", {"to": "player"})),
        "the player cannot pay (the bank or a pot, another player): its effects say how the "
        "engine settles the bankruptcy; `the number of bankruptcies` counts this one",
        facts=Facts(allows=("bank_auctions_lots", "everything_to_creditor", "end_game"), throw=False),
        example="when a player goes bankrupt to the bank: the bank auctions the lots"),
    Primitive(
        "game_ends", "event", ast.GameEnds,
        (Form("the game ends"),),
        "a rule or the last player standing has ended the game, the winner known; an "
        "observer: only `nothing`",
        facts=Facts(allows=(), throw=False),
        example="when the game ends: nothing"),
    Primitive(
        "time_limit_reached", "event", ast.TimeLimitReached,
        (Form("the time limit is reached"),),
        "once, at the end of the player-turn that reaches `time_limit` minutes on the "
        "simulated clock (`seconds_per_turn` a turn); no player acts",
        facts=Facts(allows=("end_game",), throw=False),
        example="when the time limit is reached: end the game"),
    Primitive(
        "buildings_run_short", "event", ast.BuildingsRunShort,
        (Form("buildings run short"),),
        "a player builds while the bank holds fewer buildings of that kind than there are "
        "players in the game",
        facts=Facts(allows=("auction_building",), throw=False),
        example="when buildings run short: auction the building"),
)

# Stages of `when the game starts` (Facts.stage): the decks are shuffled first, then the
# engine pays the starting cash and seats the characters, then the other effects run in rule
# order, then the first player is chosen.
SETUP_STAGE = {"shuffle": 1, "rules": 2, "first_player": 3}
_SETUP = ("game_starts",)

GAME_EFFECTS = (
    Primitive(
        "shuffle_the_decks", "effect", ast.ShuffleDecks,
        (Form("shuffle the decks"),),
        "(when the game starts) every deck is shuffled, before the starting cash",
        facts=Facts(events=_SETUP, stage=1),
        example="when the game starts: shuffle the decks"),
    Primitive(
        "highest_roll_starts", "effect", ast.HighestRollStarts,
        (Form("the player with the highest roll starts"),),
        "(when the game starts) each player throws the dice, ties throw again; without it "
        "the first seat starts",
        facts=Facts(events=_SETUP, stage=3),
        example="when the game starts: the player with the highest roll starts"),
    Primitive(
        "deal_title_deeds", "effect", ast.DealDeeds,
        (Form("deal {count} title deeds to each player"),
         Form("deal {count} title deeds to each player for free", {"free": True})),
        "(when the game starts) the shuffled deeds, one at a time round the table, at the "
        "printed price (a deed a player cannot pay stays with the bank) or free",
        (Param("count", "count", "the number of deeds", low=1,
               bound="dealing {value} deeds deals nothing"),),
        Facts(events=_SETUP),
        example="when the game starts: deal 2 title deeds to each player"),
    Primitive(
        "leave_jail", "effect", ast.LeaveJail,
        (Form("leave jail"),),
        "the player is freed; on a jail throw it then moves by the dice",
        example="when a player rolls doubles: leave jail"),
    Primitive(
        "pay_fine", "effect", ast.PayFine,
        (Form("pay the fine"),),
        "the player pays `jail_fine`, raising funds if short",
        facts=Facts(money=("player", "bank")),
        example="when a player takes a turn in jail: pay the fine, leave jail"),
    Primitive(
        "lift_or_interest", "effect", ast.LiftOrInterest,
        (Form("lift the mortgage or pay the interest"),
         Form("lift the mortgage at its value or pay the interest", {"at_value": True})),
        "(a deed changes hands) on a mortgaged deed, the new owner lifts the mortgage at once "
        "if it can and wishes, paying its value and `mortgage_interest` of it (`at its "
        "value`: the value alone), else pays the bank `mortgage_interest` of it",
        facts=Facts(money=("player", "bank"), events=("deed_changes_hands",)),
        example="when a deed changes hands: lift the mortgage or pay the interest"),
    Primitive(
        "auction_building", "effect", ast.AuctionBuilding,
        (Form("auction the building"),
         Form("auction the building from its cost", {"from_cost": True})),
        "(buildings run short) if more players want the bank's last buildings than there "
        "are, one is auctioned, from $1 or from its cost",
        facts=Facts(events=("buildings_run_short",)),
        example="when buildings run short: auction the building"),
    Primitive(
        "bank_auctions_lots", "effect", ast.BankAuctionsLots,
        (Form("the bank auctions the lots"),),
        "(a player goes bankrupt) the lots the bank takes back are auctioned in board order",
        facts=Facts(events=("goes_bankrupt",)),
        example="when a player goes bankrupt to the bank: the bank auctions the lots"),
    Primitive(
        "everything_to_creditor", "effect", ast.EverythingToCreditor,
        (Form("everything goes to the creditor"),),
        "(a player goes bankrupt) the buildings go to the creditor too, none sold to the "
        "bank first",
        facts=Facts(events=("goes_bankrupt",)),
        label="everything goes to the creditor",
        example="when a player goes bankrupt: everything goes to the creditor, end the game"),
)
