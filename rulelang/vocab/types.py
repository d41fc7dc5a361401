"""The types of the primitives' parameters: how each is written, shown and checked.

Quantities are written with any unit (`qty`) so that the builder reports a wrong one as a
typed error (E205) rather than a bare syntax error; names are quoted (STRING) or bare (NAME).
"""

from __future__ import annotations

from rulelang.vocab.spec import ParamType

__all__ = ["TYPES", "ENGINE_CAUSES"]

# The causes that are the engine's own, never a rule of the rulebook: the game's setup, the
# turn's throws and dice moves, an agent's answer that is no action, the engine's bounds, and
# what it does or refuses when no rule says (a check no setting or rule decides, the estate of
# a bankrupt player without a bankruptcy rule). The event log names them where it names a
# rule, so no rule may take one of these names (E118).
ENGINE_CAUSES = ("setup", "turn", "agent", "turn_cap", "roll_limit", "chain_limit", "engine")

TYPES: dict[str, ParamType] = {t.name: t for t in (
    ParamType("money", "qty", "$N", "an amount of money, written `$200`"),
    ParamType("money_first", "(MONEY | INT | PERCENT)", "$N", "an amount of money, written "
              "`$200`, that an expression cannot continue (`pay $25 per house, ...`)"),
    ParamType("amount", "expr", "AMOUNT", "money: `$200`, or an [expression](#expressions) of "
              "money (`$25 per house the player owns`, `10% of the player's cash`)"),
    ParamType("payment", "expr", "AMOUNT", "an amount of money paid (an [expression]"
              "(#expressions)); a bare percentage is taken for a share of worth and asks for "
              "`of worth`"),
    ParamType("amounts", "_amount_choice", "AMOUNT or AMOUNT",
              "amounts to choose from, separated by `or`: money, a percentage of worth, any "
              "expression of money", rest=True),
    ParamType("steps", "expr", "N", "a number of spaces: `3`, or an [expression](#expressions) "
              "of a count (`the dice total`)"),
    ParamType("value", "expr", "X", "an [expression](#expressions): money, a count or a "
              "percentage"),
    ParamType("who", "who", "WHO", "`player` (the player of the event), `owner` (the owner of "
              "its space) or `partner` (the other player of a trade)"),
    ParamType("thing", "_thing", "THING", "what a player owns or a space has: a kind of "
              "property (lots of that kind), `house`, `hotel` or `building` (houses and hotels); "
              "singular or plural", names="thing"),
    ParamType("comparison", "cmp", "CMP", "`at least`, `at most`, `more than` or `less than`"),
    ParamType("ordinal", "ordinal", "Nth", "`first` ... `sixth`: a die by its place among the "
              "dice declared"),
    ParamType("count", "qty", "N", "a whole number of things (spaces, doubles), written `3`"),
    ParamType("percent", "PERCENT", "N%", "a percentage, written `10%`"),
    ParamType("multiplier", "MULT", "xN", "a multiplier, written `x2`"),
    ParamType("space", "STRING", '"Name"', "a space of the board, by its name in quotes",
              names="space"),
    ParamType("unique_space", "STRING", '"Name"',
              "a space of the board that no other space shares its name with", names="space"),
    ParamType("kind", "NAME", "KIND", "a kind of space (`street`, `railroad` ...), `property` "
              "(any street, railroad or utility) or `space` (any)", names="kind"),
    ParamType("building", "NAME", "BUILDING", "a kind of building: `house`, `hotel`, or "
              "`building` (either)", names="building"),
    ParamType("deck", "STRING", '"Deck"', "a deck of cards, by its name in quotes",
              names="deck"),
    ParamType("pot", "STRING", '"Pot"', "a pot declared with `pot \"Name\"`", names="pot"),
    ParamType("token", "STRING", '"Name"', "a token declared with `token \"Name\" starts on ...`",
              names="token"),
    ParamType("die", "STRING", '"Die"', "a die, by its name in quotes", names="die"),
    ParamType("face", "STRING", '"Face"', "a named face of a die", names="face"),
    ParamType("option", "NAME", "NAME", "an option declared with `option NAME:`",
              names="option"),
    ParamType("target", "target", "TARGET", "a space named in quotes, or a kind of space after "
              "`a`/`an`, which may say who owns it (see the targets)"),
    ParamType("token_ref", "token_ref", "TOKEN", "`token \"Name\"`, `a token` or `a token of "
              "another side`"),
    ParamType("negation", "NOT", "not", "`not`: the opposite"),
    ParamType("condition", "cond", "CONDITION", "a condition, as after `if`; the space "
              "it tests is the candidate space"),
    ParamType("otherwise", "_ELSE effect", ", else EFFECT",
              "`, else` and one effect: what happens when no space qualifies"),
)}
