"""The effects of a rule or a card, and the amounts they pay."""

from __future__ import annotations

from rulelang import ast
from rulelang.vocab.spec import Facts, Form, Param, Primitive

__all__ = ["EFFECTS", "AMOUNTS"]

_MULTIPLIER = "a rent multiplier is at least x1"
_MOVES = "moves the player"

EFFECTS = (
    Primitive(
        "collect", "effect", ast.Collect,
        (Form("collect {amount}", {"source": "bank"}),
         Form("collect {amount} from each player", {"source": "each_player"},
              money=("others", "player"))),
        "the bank pays the player; `from each player`: every other player does",
        (Param("amount", "amount", "the amount collected"),),
        Facts(money=("bank", "player")),
        example='when a player passes "GO": collect $200'),
    Primitive(
        "pay", "effect", ast.Pay,
        (Form("pay {amount:payment}", {"to": "bank"}),
         Form("pay each player {amount}", {"to": "each_player"},
              money=("player", "others"))),
        "the player pays the bank; `each player`: pays every other player",
        (Param("amount", "amount", "the amount paid"),),
        Facts(money=("player", "bank")),
        example='when a player lands on "Luxury Tax": pay $75'),
    Primitive(
        "pay_choice", "effect", ast.PayChoice,
        (Form("pay {options}"),),
        "the player chooses one amount, before worth is computed",
        (Param("options", "amounts", "the amount paid"),),
        Facts(money=("player", "bank")),
        label="pay",
        example='when a player lands on "Income Tax": pay $200 or 10% of worth'),
    Primitive(
        "pay_per_building", "effect", ast.PayPerBuilding,
        (Form("pay {per_house} per house, {per_hotel} per hotel"),),
        "repairs on every building the player owns",
        (Param("per_house", "money_first", "the amount per house"),
         Param("per_hotel", "money", "the amount per hotel")),
        Facts(money=("player", "bank")),
        example='card "CC14" "Street repairs": pay $40 per house, $115 per hotel'),
    Primitive(
        "go_to_jail", "effect", ast.GoToJail,
        (Form("go to jail"),),
        "straight to jail, passing nothing; the turn ends",
        facts=Facts(ends_turn=True, clash=_MOVES),
        example='when a player lands on "Go To Jail": go to jail'),
    Primitive(
        "advance_to", "effect", ast.AdvanceTo,
        (Form("advance to {space}"),),
        "forward to the space, passing what lies between",
        (Param("space", "unique_space"),),
        Facts(moves=True, clash=_MOVES),
        example='card "CH01" "Advance to Go": advance to "GO"'),
    Primitive(
        "advance_to_nearest", "effect", ast.AdvanceToNearest,
        (Form("advance to the nearest {kind}"),),
        "forward to the next space of that kind (`rent xN` / `rent dice xN` may follow)",
        (Param("kind", "kind",
               missing=("E413", "there is no nearest {value}: the board has none")),
         Param("rent_factor", "multiplier", low=1, bound=_MULTIPLIER),
         Param("dice_multiplier", "multiplier", low=1, bound=_MULTIPLIER)),
        Facts(moves=True, clash=_MOVES),
        example='card "CH05" "Nearest railroad": advance to the nearest railroad, rent x2'),
    Primitive(
        "rent_factor", "effect", ast.MultiplyRent,
        (Form("rent {factor}"),),
        "right after the nearest advance: the rent is multiplied by N; alone, as the effect "
        "of `when rent is due`: the rent due is multiplied by N",
        (Param("factor", "multiplier", low=1, bound=_MULTIPLIER),),
        label="rent x", modifies=(ast.AdvanceToNearest, "rent_factor"),
        example='when rent is due on a street if the space holds token "The One Ring": '
        'rent x2'),
    Primitive(
        "rent_dice", "effect", None,
        (Form("rent dice {factor}"),),
        "right after the nearest advance: the dice are thrown anew and the rent is N times "
        "their total",
        (Param("factor", "multiplier"),),
        label="rent dice x", modifies=(ast.AdvanceToNearest, "dice_multiplier"),
        example='card "CH06" "Nearest utility": advance to the nearest utility, rent dice x10'),
    Primitive(
        "move", "effect", ast.MoveBy,
        (Form("move {spaces}"), Form("move by {spaces}"),
         Form("move back {spaces}", negate="spaces")),
        "N spaces forward / backward (passing counts forward only)",
        (Param("spaces", "steps", "the number of spaces", nonzero=True,
               bound="a move of 0 spaces does nothing",
               negative_hint="to go backwards, write 'move back {n}'"),),
        Facts(moves=True, clash=_MOVES),
        example='card "CH09" "Go back three spaces": move back 3'),
    Primitive(
        "draw", "effect", ast.Draw,
        (Form("draw from {deck}"),),
        "take the top card, obey it, put it under the deck",
        (Param("deck", "deck"),),
        Facts(draws=True, clash="draws a card"),
        example='when a player lands on "Chance": draw from "Chance"'),
    Primitive(
        "keep_jail_card", "effect", ast.KeepJailCard,
        (Form("keep to leave jail free"),),
        "(cards only) the card is kept until used or sold",
        facts=Facts(card_only=True),
        example='card "CH08" "Get out of jail free": keep to leave jail free'),
    Primitive(
        "buy", "effect", ast.BuyOrAuction,
        (Form("buy or auction", {"auction": True}), Form("buy", {"auction": False})),
        "buy at the printed price, else the bank auctions it (`buy`: else nothing happens)",
        facts=Facts(money=("player", "bank"), purchase=True, clash="sells the space",
                    needs_property=True),
        example="when a player lands on an unowned property: buy or auction"),
    Primitive(
        "pay_rent", "effect", ast.PayRent,
        (Form("pay rent [{factor}]"),),
        "pay the owner the rent of the space (times N)",
        (Param("factor", "multiplier", low=1, bound=_MULTIPLIER),),
        Facts(money=("player", "owner"), clash="charges rent", needs_property=True),
        example="when a player lands on a property owned by another player: pay rent"),
    Primitive(
        "roll_again", "effect", ast.RollAgain,
        (Form("roll again"),),
        "the player rolls once more after this move",
        example="when a player rolls doubles: roll again"),
    Primitive(
        "nothing", "effect", ast.Nothing,
        (Form("nothing"),),
        "says the event has no effect",
        facts=Facts(alone=True),
        example='when a player lands on "Free Parking": nothing'),
    Primitive(
        "pay_into", "effect", ast.PayInto,
        (Form("pay {amount} into {pot}"),),
        "the player pays the [pot](#pots)",
        (Param("amount", "amount", "the amount paid"), Param("pot", "pot")),
        Facts(money=("player", "pot")),
        example='when a player lands on "Income Tax": pay $200 into "Free Parking jackpot"'),
    Primitive(
        "collect_pot", "effect", ast.CollectPot,
        (Form("collect the pot {pot}", grammar=False),
         Form("collect {percent} of the pot {pot}", grammar=False)),
        "the player takes everything in the pot (or that share of it, rounded down): `collect` "
        "of the pot's amount",
        (Param("pot", "pot"), Param("percent", "percent", low=0, high=100,
                                    bound="a pot holds no more than 100% of itself")),
        Facts(money=("pot", "player")),
        example='when a player lands on "Free Parking": collect the pot "Free Parking jackpot"'),
    Primitive(
        "end_game", "effect", ast.EndGame,
        (Form("end the game"),),
        "the game ends at once, named after the rule; the richest "
        "[wins](#setup-and-the-end-of-a-game)",
        example='when token "The One Ring" reaches "Mount Doom": end the game'),
    Primitive(
        "move_token_next", "effect", ast.MoveTokenNext,
        (Form("move token {token} to the next {kind}"),),
        "the token goes on to the next space of that kind, skipping every other space",
        (Param("token", "token"),
         Param("kind", "kind",
               missing=("E413", "there is no {value} to move to: the board has none"))),
        example='when a die shows "Eye of Sauron": move token "The One Ring" to the next '
        'street'),
    Primitive(
        "move_token_by", "effect", ast.MoveTokenBy,
        (Form("move token {token} by {die} [onto a/an {onto}]"),),
        "the token moves as many spaces as that die showed in the last throw; `onto`: a count "
        "that ends on another kind goes on to the next space of the kind",
        (Param("token", "token"), Param("die", "die"),
         Param("onto", "kind",
               missing=("E413", "there is no {value} to move to: the board has none"))),
        example='when a die shows "sword" after moving: move token "Black Knight" by "second" '
        'onto a street'),
    Primitive(
        "place_token", "effect", ast.PlaceToken,
        (Form("move the token to a/an free {kind}"),),
        "(about a token) the player puts it on a space of the kind with no pawn and no token",
        (Param("kind", "kind",
               missing=("E413", "there is no {value} to move to: the board has none")),),
        label="move the token",
        example="when a player wins a battle: move the token to a free street"),
    Primitive(
        "battle", "effect", ast.Battle,
        (Form("battle with {die}"),),
        "throw that die alone: a face of the player's side wins, any other loses",
        (Param("die", "die"),),
        example='when a player meets a token of another side: battle with "Force"'),
    Primitive(
        "claim_free", "effect", ast.ClaimFree,
        (Form("claim it for free"),),
        "the player may take the unowned property without paying",
        example='when a player lands on an unowned street if the space holds token '
        '"The One Ring": claim it for free'),
    Primitive(
        "roll_dice", "effect", ast.RollDice,
        (Form("roll the dice"),),
        "throw every die, moving nothing (for `move token ... by`)",
        example="when the game starts: roll the dice"),
)

AMOUNTS = (
    Primitive(
        "percent_of_worth", "amount", ast.PercentOfWorth,
        (Form("{percent} of worth"),),
        "a share of the player's total worth: cash, printed prices, buildings",
        (Param("percent", "percent", high=100,
               bound="paying {value}% of worth is more than the player has"),),
        example='when a player lands on "Income Tax": pay $200 or 10% of worth'),
)
