"""The format of the vocabulary's declarations: primitives, their surface forms, typed parameters
and the checker's facts; and the expansion of a form into grammar alternatives.

Nothing here knows Lark or the engine: `rulelang.parse` turns the expansions into grammar text
and builds nodes from them, `rulelang.check` and `rulelang.check_flow` read the facts.

A form is a template of words, typed slots and optional parts:

    "move token {token} by {die} [onto a {onto}]"

- a word is a keyword; `a/an` is the article (`a` or `an`, the grammar's rule `_a`, as events
  write it); `a|an` is the article written inline in the alternative (every form that is not an
  event: after `_a` the lexer reserves each word that follows `_a` anywhere); `'s` is the
  possessive (`the player's cash`, a typographic apostrophe accepted); `,` is a comma;
- `{field}` is a slot filled by the parameter `field` of the primitive (the AST field it sets),
  converted by its type; `{field:type}` gives the slot a type of its own in this form;
- `[...]` is an optional part: the form stands for each way of writing it, with or without.
"""

from __future__ import annotations

import re
from typing import Iterator

import attrs
from attrs import frozen

__all__ = ["ParamType", "Param", "Facts", "Form", "Primitive", "Expansion", "ROLES",
           "parse_template"]

# What each role of primitive is in the grammar: the nonterminal its forms are alternatives
# of, and the alternatives written by hand in grammar.lark before them (if any).
ROLES = {
    "event": "event",          # when EVENT ...
    "condition": "cond_body",  # ... if|unless CONDITION ...
    "effect": "effect",        # ...: EFFECT, EFFECT
    "amount": "amount_form",   # an amount other than plain money (`10% of worth`)
    "target": "target",        # a space an event happens on
    "token": "token_ref",      # the tokens an event is about
    "factor": "factor_form",   # a value of an expression (`the dice total`, `the player's cash`)
    "action": "action",        # a player may not ACTION ... (a permission)
}


@frozen(eq=False)  # declarations are compared by identity
class ParamType:
    """A type of parameter: the grammar it is written with, how the documentation shows it, and
    which kind of name the checker looks it up in (a key of check.NAME_KINDS), if any.

    The builder's conversion of each type is parse.py's `_CONVERT[name]`; a test holds the two
    equal. `rest` types take every remaining item of the alternative (a list); they come last.
    """

    name: str
    grammar: str  # a terminal, a nonterminal or a fragment of grammar.lark
    shown: str  # in documentation: `$N`, `"Deck"`, `KIND`
    doc: str
    names: str | None = None  # the kind of name it refers to, checked by the checker
    rest: bool = False


@frozen(eq=False)  # declarations are compared by identity
class Param:
    """One parameter of a primitive: the AST field it fills, its type, how messages name it,
    and the bounds the checker holds its value to (E202 with `bound` as the message)."""

    name: str
    type: str  # a key of vocab.types.TYPES
    what: str = ""  # "the amount collected": how a message names it
    low: int | None = None
    high: int | None = None
    nonzero: bool = False
    bound: str = ""  # the message when out of bounds, `{value}` the value found
    negative_hint: str | None = None  # the hint of E204 for a negative count (`{n}`: its size)
    # On the board: (code, message) when the board has no space of the kind named.
    missing: tuple[str, str] | None = None


@frozen(eq=False)  # declarations are compared by identity
class Facts:
    """What the checker and the flow analysis know of an effect without running it.

    money: (payer, payee) of the money it moves: "player" (the player acted on), "others"
    (every other player), "owner" (the owner of the player's space), "bank", "pot"; None if it
    moves no money. purchase: the money buys a deed (not a charge). moves: the pawn moves and
    lands (a chain continues); draws: a card is drawn (a chain continues); ends_turn: nothing
    after it runs. clash: what it does to the turn, when two unordered rules both do it on one
    event (W103). needs_property: the event must be on a property (E303). card_only: only a
    card may say it (E302). alone: it says there is no effect (W106 next to another). events,
    stage, allows: which events an effect may be on, which effects an event allows (E351).
    """

    money: tuple[str, str] | None = None
    purchase: bool = False
    moves: bool = False
    draws: bool = False
    ends_turn: bool = False
    clash: str | None = None
    needs_property: bool = False
    card_only: bool = False
    alone: bool = False
    # An effect that only some events can carry: their names (E351 elsewhere, cards too).
    events: tuple[str, ...] = ()
    # On `the game starts`, the stage the effect runs in (vocab/game_events.SETUP_STAGE).
    stage: int = 2
    # An event that allows only some effects (E351): classes of effects ("money", "still")
    # and names of effects; None: any effect. `nothing` is always allowed.
    allows: tuple[str, ...] | None = None
    # An event whose firing carries the throw of the turn (the dice, their total): False for
    # the events that come before a throw or apart from one (E307 on a test of the dice).
    throw: bool = True


@frozen(eq=False)  # declarations are compared by identity
class Form:
    """One surface alternative of a primitive: its template, the AST fields it fixes, and the
    money it moves if that differs from the primitive's (`collect $N from each player`)."""

    template: str
    fixed: dict = attrs.field(factory=dict)
    money: tuple[str, str] | None = None
    negate: str | None = None  # a field whose value this form negates (`move back N`)
    unit: str | None = None  # a factor's value: "money", "count" or "percent"
    # False for a form the builder makes from another primitive's node, with no grammar
    # alternative of its own (`collect the pot "P"` is `collect` of the pot's amount)
    grammar: bool = True


@frozen(eq=False)  # declarations are compared by identity
class Primitive:
    """One event, condition, effect, amount, target or token reference of the language.

    node is the AST class it builds (None for a modifier that only changes the effect before
    it); modifies names (class, field) of that effect. label is how messages name it.
    """

    name: str
    role: str  # a key of ROLES
    node: type | None
    forms: tuple[Form, ...]
    doc: str
    params: tuple[Param, ...] = ()
    facts: Facts = Facts()
    label: str = ""
    modifies: tuple[type, str] | None = None
    example: str = ""  # a whole `when` line (or card effect) using it, for `explain`

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"primitive {self.name!r} has no parameter {name!r}")

    @property
    def title(self) -> str:
        """How messages name it: 'pay rent'."""
        return self.label or self.name.replace("_", " ")

    @property
    def key(self) -> dict:
        """The fields every form fixes to one value: they tell this primitive's nodes from
        those of another primitive of the same class (the conditions)."""
        common = dict(self.forms[0].fixed)
        for form in self.forms[1:]:
            common = {k: v for k, v in common.items() if form.fixed.get(k, _NONE) == v}
        return common

    def money_of_form(self, form: Form) -> tuple[str, str] | None:
        """Who pays whom when a node of `form` runs."""
        return form.money if form.money is not None else self.facts.money

    def unit_of(self, node) -> str | None:
        """The unit of the value of a factor's node ("money", "count", "percent")."""
        for form in self.forms:
            if form.unit is not None and all(getattr(node, k) == v
                                              for k, v in form.fixed.items()):
                return form.unit
        return None

    def money_of(self, node) -> tuple[str, str] | None:
        """Who pays whom when `node` runs."""
        for form in self.forms:
            if form.money is not None and all(getattr(node, k) == v
                                              for k, v in form.fixed.items()):
                return form.money
        return self.facts.money


_NONE = object()

# ---------------------------------------------------------------- templates

_PIECE = re.compile(r"\{[^}]*\}|\[|\]|,|'s\b|[^\s\[\]{},']+")
# Items of an expansion besides keywords, slots and the article rule (None).
INLINE_ARTICLE = "a|an"
POSSESSIVE = "'s"


class Slot:
    """A slot of an expansion: the parameter it fills and the type it is written with.

    (A plain slotted class: the vocabulary is read at every start of rulelang, and an attrs
    class costs more to create than all of its instances.)"""

    __slots__ = ("field", "type")

    def __init__(self, field: str, type: str) -> None:
        self.field, self.type = field, type

    def __repr__(self) -> str:
        return f"Slot({self.field!r}, {self.type!r})"


class Expansion:
    """One alternative of the grammar: a form with each optional part in or out.

    items are keywords (str), `None` for the article `a`/`an` (the rule `_a`), or Slots, in
    order; the keyword INLINE_ARTICLE is the article written inline, POSSESSIVE the `'s`.
    """

    __slots__ = ("primitive", "form", "alias", "items")

    def __init__(self, primitive: Primitive, form: Form, alias: str, items: tuple) -> None:
        self.primitive, self.form, self.alias, self.items = primitive, form, alias, items

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(i for i in self.items if isinstance(i, Slot))

    def __repr__(self) -> str:
        return f"Expansion({self.alias!r}, {self.items!r})"


def parse_template(template: str, primitive: Primitive) -> list:
    """The template as a tree: keyword str, None (article), Slot, or a list (optional)."""
    stack: list[list] = [[]]
    for piece in _PIECE.findall(template):
        if piece == "[":
            stack.append([])
        elif piece == "]":
            if len(stack) < 2:
                raise ValueError(f"{primitive.name}: unbalanced ']' in {template!r}")
            part = stack.pop()
            stack[-1].append(part)
        elif piece.startswith("{"):
            field, _, type_ = piece[1:-1].partition(":")
            param = primitive.param(field.strip())
            stack[-1].append(Slot(param.name, type_.strip() or param.type))
        elif piece == "a/an":
            stack[-1].append(None)
        else:
            stack[-1].append(piece)
    if len(stack) != 1:
        raise ValueError(f"{primitive.name}: unbalanced '[' in {template!r}")
    return stack[0]


def _ways(tree: list) -> Iterator[tuple]:
    """Every sequence of items the tree stands for, the longest first."""
    if not tree:
        yield ()
        return
    head, rest = tree[0], tree[1:]
    for tail in _ways(rest):
        if isinstance(head, list):
            for inner in _ways(head):
                yield inner + tail
            yield tail
        else:
            yield (head,) + tail


def expansions(primitive: Primitive) -> list[Expansion]:
    """The grammar alternatives of a primitive, each with its own alias: the primitive's name
    for the first, then `name__2`, `name__3` ..."""
    out = []
    for form in primitive.forms:
        if not form.grammar:
            continue
        for items in _ways(parse_template(form.template, primitive)):
            n = len(out) + 1
            alias = primitive.name if n == 1 else f"{primitive.name}__{n}"
            out.append(Expansion(primitive, form, alias, items))
    return out


def shown(form: Form, primitive: Primitive, types: dict) -> str:
    """A form as the documentation writes it: `move token "Name" by "Die" [onto a KIND]`."""
    words = []
    pieces = _PIECE.findall(form.template)
    for i, piece in enumerate(pieces):
        if piece.startswith("{"):
            field, _, type_ = piece[1:-1].partition(":")
            words.append(types[type_.strip() or primitive.param(field.strip()).type].shown)
        elif piece in ("a/an", INLINE_ARTICLE):
            after = pieces[i + 1] if i + 1 < len(pieces) else ""
            words.append("an" if after[:1] in tuple("aeiou") else "a")
        else:
            words.append(piece)
    text = " ".join(words)
    return text.replace("[ ", "[").replace(" ]", "]").replace(" ,", ",").replace(" 's", "'s")
