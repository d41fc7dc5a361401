"""The values of expressions (factors), the atoms of conditions that test ownership,
buildings, the dice and quantities, and the event `a player rolls`.

The operators around them are grammar.lark's skeleton: `X plus Y`, `N times X`, `$N times X`,
`P% of X`, `$N per THING the WHO owns` (expressions) and `and`, `or`, `not`, parentheses
(conditions); their nodes are ast.Plus, Times, PercentOf, PerOwned, And, Or and Not.
"""

from __future__ import annotations

from rulelang import ast
from rulelang.vocab.spec import Form, Param, Primitive

__all__ = ["FACTORS", "ATOMS", "ROLL_EVENTS"]

_WHO = Param("subject", "who")
_NOT = Param("negated", "negation")
_THING = Param("thing", "thing")
_CMP = Param("cmp", "comparison")
_COUNT = Param("count", "count", "the number compared", low=0,
               bound="a count is never negative")

_PROPS = (("cash", "cash", "money"), ("worth", "worth", "money"),
          ("net worth", "net_worth", "money"), ("laps this turn", "turn_laps", "count"),
          ("laps", "laps", "count"),
          ("turns in jail", "jail_turns", "count"), ("turns", "turns", "count"),
          ("doubles in a row", "doubles", "count"))

FACTORS = (
    Primitive(
        "dice_total", "factor", ast.DiceTotal,
        (Form("the dice total", unit="count"),),
        "(a count) the total of the throw of the event: the dice that move the pawn; 0 before "
        "the first throw of the turn",
        example="when a player rolls if the dice total is 12: collect $100"),
    Primitive(
        "die_value", "factor", ast.DieValue,
        (Form("die {die}", unit="count"), Form("the {ordinal} die", unit="count")),
        "(a count) the value that die shows in the throw of the event (`the first die`: the "
        "first die declared); a face of symbols counts 0",
        (Param("die", "die"), Param("ordinal", "ordinal")),
        example='when a player rolls if the first die is 6: move the second die'),
    Primitive(
        "pot_amount", "factor", ast.PotAmount,
        (Form("the pot {pot}", unit="money"),),
        "(money) what the [pot](#pots) holds now; `collect` it (or a share of it) and it "
        "comes out of the pot",
        (Param("pot", "pot"),),
        example='when a player lands on "Free Parking" if the pot "Jackpot" is at least $500: '
        'collect 50% of the pot "Jackpot"'),
    Primitive(
        "possessive", "factor", ast.Possessive,
        tuple(Form(f"the {{subject}}'s {words}", {"prop": prop}, unit=unit)
              for words, prop, unit in _PROPS),
        "the WHO's `cash`, `worth` (cash, printed prices, buildings: as income tax counts it) "
        "or `net worth` (the printed valuation: mortgaged deeds at their mortgage value) are "
        "money; `laps` (GO passed), `laps this turn` (GO passed since the current turn "
        "began, the pass of the event included), "
        "`turns` (turns begun, this one included), `turns in jail` "
        "(of this stay) and `doubles in a row` (thrown this turn, ending with the throw of the "
        "event: 0 after a throw that is no double) are counts",
        (_WHO,),
        example="when a player passes \"GO\" if the player's laps is at least 10: nothing"),
    Primitive(
        "space_value", "factor", ast.SpaceValue,
        (Form("the space's price", {"prop": "price"}, unit="money"),
         Form("the space's mortgage", {"prop": "mortgage"}, unit="money")),
        "(money) the printed price or mortgage value of the space of the event (0 for a space "
        "that is no property)",
        example="when a player lands on a property owned by the player: collect 10% of the "
        "space's price"),
    Primitive(
        "count_owned", "factor", ast.CountOwned,
        (Form("the number of {thing} the {subject} owns", unit="count"),),
        "(a count) the lots of a kind (`railroads`), or the houses, hotels or buildings, that "
        "WHO owns",
        (_THING, _WHO),
        example="when a player passes \"GO\": collect $10 times the number of railroads the "
        "player owns"),
    Primitive(
        "bank_count", "factor", ast.BankCount,
        (Form("the number of {thing} in the bank", unit="count"),),
        "(a count) the houses or hotels of the bank's supply (`buildings`: both), or the lots "
        "of a kind that nobody owns (`railroads`)",
        (_THING,),
        example="when a player passes \"GO\" if the number of houses in the bank is less than "
        "4: collect $50"),
    Primitive(
        "game_count", "factor", ast.GameCount,
        (Form("the number of bankruptcies", {"what": "bankruptcies"}, unit="count"),
         Form("the number of players", {"what": "players"}, unit="count")),
        "(a count) the bankruptcies so far; the players still in the game",
        example="when a player passes \"GO\" if the number of players is 2: collect $100"),
    Primitive(
        "the_bid", "factor", ast.TheBid,
        (Form("the bid", {"subject": "bid"}, unit="money"),),
        "(money) the amount of the bid asked, in a permission to bid",
        example="a player may not bid if the bid is more than the player's cash"),
)


def _lot_forms(head: str, subject: str) -> tuple[Form, ...]:
    return (Form(f"{head} is [{{negated}}] mortgaged", {"subject": subject, "test": "mortgaged"}),
            Form(f"{head} has no {{thing}}", {"subject": subject, "test": "buildings",
                                              "cmp": "eq", "count": 0}),
            Form(f"{head} has a|an {{thing}}", {"subject": subject, "test": "buildings",
                                                "cmp": "ge", "count": 1}),
            Form(f"{head} has [{{cmp}}] {{count}} {{thing}}",
                 {"subject": subject, "test": "buildings"}))


ATOMS = (
    Primitive(
        "no_jail_turn_left", "condition", ast.Condition,
        (Form("the {subject} has no jail turn left", {"test": "no_jail_turn"}),),
        "WHO, in jail, has taken every turn in jail the rules allow (`jail_turns`)",
        (_WHO,),
        example="when a turn starts if the player has no jail turn left: nothing"),
    Primitive(
        "holds_group", "condition", ast.Condition,
        (Form("the {subject} holds the whole group", {"test": "whole_group"}),),
        "WHO owns every lot of the group of the space (mortgaged or not)",
        (_WHO,),
        example="when rent is due on a street if the space has no building and the owner holds "
        "the whole group: rent x2"),
    Primitive(
        "owns_space", "condition", ast.Condition,
        (Form("the {subject} owns the space", {"test": "owns_space"}),),
        "WHO owns the space of the event",
        (_WHO,),
        example="when a player lands on a street if the player owns the space: collect $10"),
    Primitive(
        "owns_count", "condition", ast.OwnsCount,
        (Form("the {subject} owns [{cmp}] {count} {thing}"),),
        "WHO owns exactly N (or at least, at most, more than, less than N) lots of the kind, "
        "houses, hotels or buildings",
        (_WHO, _CMP, _COUNT, _THING),
        example="when a player passes \"GO\" if the player owns at least 2 railroads: collect "
        "$50"),
    Primitive(
        "lot_test", "condition", ast.LotTest,
        _lot_forms("the space", "space") + _lot_forms("a|an lot of the group", "a lot")
        + _lot_forms("no lot of the group", "no lot")
        + _lot_forms("every lot of the group", "every lot"),
        "the space of the event (or some, no, every lot of its group) is mortgaged, or has "
        "no / a / N (at least N ...) houses, hotels or buildings",
        (_NOT, _CMP, _COUNT, _THING),
        example="when rent is due on a street if no lot of the group is mortgaged: rent x2"),
    Primitive(
        "space_is", "condition", ast.SpaceIs,
        (Form("the space is a|an {kind}"),),
        "the space of the event is of the kind (`property`: any property)",
        (Param("kind", "kind"),),
        example="when a player rolls if the space is a railroad: collect $10"),
    Primitive(
        "building_level", "condition", ast.Condition,
        (Form("the space has the fewest buildings of the group",
              {"subject": "space", "test": "fewest"}),
         Form("the space has the most buildings of the group",
              {"subject": "space", "test": "most"})),
        "no lot of the group has fewer (more) buildings than the space: a hotel counts as "
        "one more than the houses it takes",
        example="when a player lands on a street if the space has the most buildings of the "
        "group: collect $10"),
    Primitive(
        "dice_alike", "condition", ast.Condition,
        (Form("the dice show doubles", {"subject": "dice", "test": "doubles"}),
         Form("the dice show triples", {"subject": "dice", "test": "triples"}),
         Form("all dice alike", {"subject": "dice", "test": "alike"})),
        "the dice that make doubles (triples) show one face; `all dice alike`: every die "
        "that moves the pawn does",
        example="when a player rolls if the player is in jail and the dice show doubles: "
        "collect $10"),
    Primitive(
        "die_shows_face", "condition", ast.DieShowsFace,
        (Form("die {die} shows {face}"), Form("a|an die shows {face}")),
        "that die (`a die`: any die) shows the named face in the throw of the event",
        (Param("die", "die"), Param("face", "face")),
        example='when a player rolls if a die shows "Eye of Sauron": pay $10'),
    Primitive(
        "compare", "condition", ast.Compare,
        (Form("{left} is {right}", {"op": "eq"}), Form("{left} are {right}", {"op": "eq"}),
         Form("{left} is not {right}", {"op": "ne"}),
         Form("{left} are not {right}", {"op": "ne"}),
         Form("{left} is {op} {right}"), Form("{left} are {op} {right}")),
        "two expressions of one unit are equal, not equal, or compare: `is at least`, `is at "
        "most`, `is more than`, `is less than`",
        (Param("left", "value"), Param("op", "comparison"), Param("right", "value")),
        example="when a player rolls if the dice total is 12: collect $100"),
)

ROLL_EVENTS = (
    Primitive(
        "rolls", "event", ast.Rolls,
        (Form("a/an player rolls"),),
        "each throw of the dice in a turn, and in jail, before the pawn moves (after the "
        "`a die shows` rules, before the doubles rules); not the first player's throw nor a "
        "utility's",
        example="when a player rolls if the dice total is 12: collect $100"),
)
