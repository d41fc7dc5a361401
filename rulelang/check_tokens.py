"""Checks of the themed editions' constructs: tokens, sides, dice of symbols and battles.

Part of the checker (`rulelang.check` runs it with its `_Checker`, whose `error`, `known`,
`on_property` and `space_name` it uses): names of sides and of the tokens' starting spaces,
the events an effect needs, and a battle that some side can win. The names a rule's events,
conditions and effects refer to (tokens, dice, kinds) are checked with every other parameter,
from their declarations (`_Checker.primitive`).
"""

from __future__ import annotations

from rulelang import ast
from rulelang.check_board import join
from rulelang.vocab import facts_of

__all__ = ["check_themed"]

# Effects that make sense when nobody in particular acts (`when the game starts`).
_NO_PLAYER = (ast.MoveTokenNext, ast.MoveTokenBy, ast.RollDice, ast.Nothing)
# Events that are about one token, which `move the token` then means.
_TOKEN_EVENTS = (ast.Meets, ast.BattleOutcome, ast.TokenReaches)


def check_themed(checker) -> None:
    """Report every mistake in the program's tokens, sides, symbol dice and their rules."""
    _Themed(checker).run()


class _Themed:
    def __init__(self, checker):
        self.c = checker
        program = checker.program
        self.program = program
        self.tokens = {t.name.value: t for t in program.tokens}
        self.sides = {s.name.value: s for s in program.sides}
        self.dice = {d.name.value: d for d in program.dice}
        self.error = checker.error

    def run(self) -> None:
        for token in self.program.tokens:
            self.c.space_name(token.start, unique=True)
            self.side(token.side)
        characters: dict[str, ast.Text] = {}
        for side in self.program.sides:
            for c in side.characters:
                if c.value in characters:
                    self.error("E154", f"the character '{c.value}' is on two sides", c.span,
                               notes=[("the first is here", characters[c.value].span)])
                characters.setdefault(c.value, c)
        for die in self.program.dice:
            sides: dict[str, ast.Text | None] = {}
            for face, side in die.symbols:
                self.side(side)
                first = sides.setdefault(face.value, side)
                if (first and first.value) != (side and side.value):
                    self.error("E208", f"the face '{face.value}' of die '{die.name.value}' "
                               "counts for two sides", face.span)
        self.players(characters)
        battles = False
        for rule in self.program.rules:
            for stmt in rule.body:
                if isinstance(stmt, ast.When):
                    self.when(stmt)
                    battles = battles or any(isinstance(e, ast.Battle) for e in stmt.effects)
        for deck in self.program.decks:
            for card in deck.cards:
                self.effects(card.effects, None)
        if not battles:
            for rule in self.program.rules:
                for stmt in rule.body:
                    if isinstance(stmt, ast.When) and isinstance(stmt.event, ast.BattleOutcome):
                        self.error("W104", "this rule can never fire: no rule starts a battle",
                                   stmt.event.span, hint='e.g. when a player meets a token of '
                                   'another side: battle with "Force"')

    # ------------------------------------------------------------ names

    # Unknown names go through the checker's NAME_KINDS table, with "did you mean".

    def side(self, name: ast.Text | None) -> None:
        if name is not None:
            self.c.known("side", name.value, name.span, hint=(
                f"sides: {join(self.sides)}" if self.sides else
                'declare it: side "Name": "Character", ...'))

    def players(self, characters: dict) -> None:
        if not characters:
            return
        value, where = self.c.values["players"]
        high = value[1] if isinstance(value, tuple) else value
        if high > len(characters):
            span = where.span if where is not None else self.program.sides[0].span
            n = len(characters)
            self.error("E450", f"up to {high} players, but only {n} character{'s' * (n != 1)} "
                       "to choose from", span,
                       hint=f"set players = 2 to {n}, or add characters" if n >= 2 else
                       "add characters: each player needs one")

    # ------------------------------------------------------------ rules

    def when(self, when: ast.When) -> None:
        event = when.event
        if isinstance(event, ast.Meets):
            ref = event.token
            if ref.opposing and not any(t.side for t in self.program.tokens):
                self.error("W104", "this rule can never fire: no token has a side",
                           event.span, hint='give a token a side: token "X" starts on "GO", '
                           'side "Name"')
            elif not self.program.tokens:
                self.error("W104", "this rule can never fire: there are no tokens", event.span)
        elif isinstance(event, ast.RentDue):
            if not self.c.on_property(event):
                self.error("W104", "this rule can never fire: rent is due only on properties",
                           event.target.span)
            for e in when.effects:
                if not isinstance(e, ast.MultiplyRent):
                    self.error("E351", "the only effect of 'when rent is due' is 'rent xN'", e.span,
                               hint="write: when rent is due on ...: rent x2")
        elif isinstance(event, ast.GameStarts):
            for e in when.effects:
                if not isinstance(e, _NO_PLAYER) and "game_starts" not in facts_of(e).events:
                    self.error("E351", "when the game starts, no player acts: only tokens "
                               "move and the dice are thrown", e.span)
        self.effects(when.effects, event)

    def effects(self, effects, event) -> None:
        for e in effects:
            if isinstance(e, ast.MoveTokenBy):
                die = self.dice.get(e.die.value)
                if die is not None and not die.faces:
                    self.error("E250", f"the die '{e.die.value}' has no faces with a value to "
                               "move by", e.die.span, hint="move by a die with numbers")
            elif isinstance(e, ast.PlaceToken):
                if not isinstance(event, _TOKEN_EVENTS):
                    self.error("E350", "the effect 'move the token' needs a rule about a token",
                               e.span, hint="use it when a player meets a token or wins a "
                               "battle")
            elif isinstance(e, ast.Battle):
                die = self.dice.get(e.die.value)
                if die is not None and not any(side for _, side in die.symbols):
                    self.error("E352", f"no face of the die '{e.die.value}' counts for a side: "
                               "nobody could win the battle", e.span,
                               hint='give faces a side: "carré blanc" for "La Lumière"')
                if not self.program.sides:
                    self.error("E352", "a battle needs sides, and no side is declared",
                               e.span, hint='declare them: side "Name": "Character", ...')
            elif isinstance(e, ast.ClaimFree) and event is not None \
                    and not self.c.on_property(event):
                self.error("E303", "the effect 'claim it for free' needs an event on a property",
                           e.span, hint="e.g. when a player lands on an unowned street: "
                           "claim it for free")
            elif isinstance(e, ast.ClaimFree) and event is None:
                self.error("E303", "a card cannot claim a property for free", e.span)
