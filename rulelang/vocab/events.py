"""The events a `when` waits for, the spaces they happen on (targets) and the tokens they are
about (token references)."""

from __future__ import annotations

from rulelang import ast
from rulelang.vocab.spec import Facts, Form, Param, Primitive

__all__ = ["EVENTS", "TARGETS", "TOKEN_REFS"]

EVENTS = (
    Primitive(
        "lands", "event", ast.Lands,
        (Form("a/an player lands on {target}"),),
        "a move ends on the space",
        (Param("target", "target"),),
        example='when a player lands on "Go To Jail": go to jail'),
    Primitive(
        "passes", "event", ast.Passes,
        (Form("a/an player passes {target}"),),
        "a forward move crosses or ends on the space",
        (Param("target", "target"),),
        example='when a player passes "GO": collect $200'),
    Primitive(
        "rolls_doubles", "event", ast.RollsDoubles,
        (Form("a/an player rolls doubles [{times} times in a row]"),),
        "both dice show the same face; with N, the Nth double of one turn",
        (Param("times", "count", "the number of doubles", low=1,
               bound="doubles {value} times in a row can never happen"),),
        example="when a player rolls doubles 3 times in a row: go to jail"),
    Primitive(
        "turn_starts", "event", ast.TurnStarts,
        (Form("a/an turn starts"),),
        "before the player rolls",
        facts=Facts(throw=False),
        example="when a turn starts if the player is in jail: nothing"),
    Primitive(
        "die_shows", "event", ast.DieShows,
        (Form("a/an die shows {face}"), Form("a/an die shows {face} after moving",
                                              {"after": True})),
        "a named face comes up, before the pawn moves; `after moving`: once the pawn's move "
        "is over (even a move that sent it to jail)",
        (Param("face", "face"),),
        example='when a die shows "Eye of Sauron": move token "The One Ring" to the next '
        'street'),
    Primitive(
        "game_starts", "event", ast.GameStarts,
        (Form("the game starts"),),
        "once at setup, before the first player is chosen; no player acts: only token moves, "
        "`roll the dice` and the setup's effects (by stages: the decks, the deal, the first "
        "player)",
        facts=Facts(throw=False),
        example='when the game starts: roll the dice'),
    Primitive(
        "meets", "event", ast.Meets,
        (Form("a/an player meets {token}"),),
        "the player's move ends on the token's space, or the token's move ends on the "
        "player's",
        (Param("token", "token_ref"),),
        example='when a player meets a token of another side: battle with "Force"'),
    Primitive(
        "battle_outcome", "event", ast.BattleOutcome,
        (Form("a/an player wins a battle", {"won": True}),
         Form("a/an player loses a battle", {"won": False})),
        "after `battle with`; `the token` is the token met",
        example="when a player loses a battle: pay $200"),
    Primitive(
        "token_reaches", "event", ast.TokenReaches,
        (Form("token {token} reaches {target}"),),
        "a move of the token ends on the space",
        (Param("token", "token"), Param("target", "target")),
        example='when token "The One Ring" reaches "Mount Doom": end the game'),
    Primitive(
        "rent_due", "event", ast.RentDue,
        (Form("rent is due on {target}"),),
        "the player owes the rent of the space: its only effect is `rent xN`, which "
        "multiplies it",
        (Param("target", "target"),),
        example='when rent is due on a street if the space holds token "The One Ring": '
        'rent x2'),
)

TARGETS = (
    Primitive(
        "space_by_name", "target", ast.SpaceByName,
        (Form("{name}"),),
        "the space of that name (several spaces may share one: the three \"Chance\")",
        (Param("name", "space"),),
        example='when a player lands on "Free Parking": nothing'),
    Primitive(
        "space_by_kind", "target", ast.SpaceByKind,
        (Form("a/an {kind}"),
         Form("a/an unowned {kind}", {"owner": "nobody"}),
         Form("a/an {kind} owned by another player", {"owner": "other"}),
         Form("a/an {kind} owned by the player", {"owner": "self"})),
        "any space of the kind; a property kind may say who owns it",
        (Param("kind", "kind"),),
        example="when a player lands on a property owned by another player: pay rent"),
)

TOKEN_REFS = (
    Primitive(
        "which_token", "token", ast.TokenRef,
        (Form("token {name}"), Form("a/an token"),
         Form("a/an token of another side", {"opposing": True})),
        "the token of that name; any token; a token whose side is not the player's",
        (Param("name", "token"),),
        example="when a player meets a token of another side: battle with \"Force\""),
)
