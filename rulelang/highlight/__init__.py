"""The colours of a rules file, derived from the grammar and the vocabulary: the regions of a
line (a `when` line's event, its conditions, its effects ...) and what each word, phrase, name,
quantity and mark is in each, as regular expressions that Python's `re` and Oniguruma (the
engine of TextMate grammars) read alike.

`rulelang.highlight.lexer` (the Pygments lexer) and `rulelang.highlight.textmate` (the TextMate
grammar of editors/) are both built from `regions()`, so they colour a file alike.

A line is read the way the grammar reads it: a statement opens with its keywords (`rule NAME`,
`set NAME`, `when`, `a player may not`, `card "id" "title":` ...) and its region lasts to the
end of the line; in a `when` line, the event's region gives way to a condition's at `if` or
`unless` and to the effects' at the colon. Each region matches the phrases of its role,
longest first: the runs of keywords of the vocabulary's forms (`a player lands on`, `pay rent`,
`the player's cash`), with the small closed lists of the grammar (`player|owner|partner`,
`at least` ...) written inline. A character that no terminal of the grammar accepts is
"illegal" (the parser's E001), and so is a quote left open.
"""

from __future__ import annotations

import re
from functools import cache

from attrs import frozen

__all__ = ["Match", "Region", "CATEGORIES", "STATEMENTS", "RULE_WORDS", "regions",
           "grammar", "vocabulary_phrases", "phrase_regex"]

# What a piece of text is. The lexer and the TextMate grammar each map every category to a
# token type or a scope.
CATEGORIES = (
    "text",         # spaces and tabs
    "comment",      # `# ...`
    "string",       # "a quoted name"
    "money",        # $200
    "percent",      # 10%
    "number",       # 3, and the `..` of a range of faces
    "multiplier",   # x2
    "keyword",      # rulebook, board, deck, card, rule, when, option ...
    "declaration",  # set, parameter
    "constant",     # yes, no, and a bare word as a setting's value
    "permission",   # a player may not
    "operator",     # if, unless, and, or, not, plus, times, of, per
    "cite",         # cite
    "rule",         # the name of a rule
    "option",       # the name of an option
    "setting",      # the name of a setting or parameter
    "event",        # a player lands on, a turn starts ...
    "condition",    # the player is in jail, the space is mortgaged ...
    "effect",       # pay, collect, go to jail, advance to the nearest ...
    "action",       # build, mortgage, trade ... (after `may not`)
    "value",        # the dice total, the player's cash, of worth ...
    "kind",         # a bare word in a phrase or on a board line: street, railroad, house
    "attribute",    # price, mortgage, house, hotel, rent, in (a space of the board)
    "punctuation",  # : , ; = ( ) 's
    "name",         # any other bare word
    "illegal",      # a character no terminal accepts; an unclosed quote
)


@frozen
class Match:
    """A regular expression and what its text is: one category for the whole match, or one
    per group when the expression is a sequence of groups that covers all of its text (a group
    that takes no part in a match is skipped). `enter` names the region that follows it."""

    regex: str
    categories: tuple[str, ...]
    enter: str | None = None


@frozen
class Region:
    """A part of a line and the matches tried in it, in order; it ends at the end of the line
    or just before one of the characters `until`."""

    name: str
    matches: tuple[Match, ...]
    until: str = ""


# The statements (Lark rules of grammar.lark whose expansion opens a line), with the category
# of their keywords, of the NAMEs among their opening items, and the region that follows.
STATEMENTS: dict[str, tuple[str, str | None, str]] = {
    "header": ("keyword", None, "tail"),
    "extends": ("keyword", None, "tail"),
    "board": ("keyword", None, "tail"),
    "space": ("keyword", "kind", "space"),
    "die": ("keyword", None, "tail"),
    "dice_decl": ("keyword", None, "tail"),
    "token_decl": ("keyword", None, "tail"),
    "side_decl": ("keyword", None, "tail"),
    "deck": ("keyword", None, "tail"),
    "card": ("keyword", None, "effects"),
    "rule": ("keyword", "rule", "tail"),
    "remove": ("keyword", "rule", "tail"),
    "cite": ("cite", None, "tail"),
    "set_stmt": ("declaration", "setting", "value"),
    "param_stmt": ("declaration", "setting", "value"),
    "rename": ("keyword", None, "tail"),
    "currency": ("keyword", None, "tail"),
    "pot": ("keyword", None, "tail"),
    "option": ("keyword", "option", "tail"),
    "when": ("keyword", None, "event"),
    "permission": ("permission", None, "action"),
}

# The other rules of grammar.lark that hold keywords: the category of their words and the
# regions they are in (None: a closed list of words, written inline in the phrases that use it:
# `the player`, `at least`). A test holds this table and STATEMENTS to every rule of the
# grammar that has a keyword.
RULE_WORDS: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "space_attr": ("attribute", ("space",)),
    "group": ("attribute", ("space",)),
    "face": ("keyword", ("tail",)),
    "value": ("constant", ("value",)),
    "condition": ("operator", ("condition",)),  # a second guard: `if A unless B`
    "cond": ("operator", ("condition",)),
    "cond_and": ("operator", ("condition",)),
    "cond_not": ("operator", ("condition",)),
    "expr": ("operator", ("effects", "condition")),
    "term": ("operator", ("effects", "condition")),
    "_amount_choice": ("operator", ("effects",)),
    "choice": ("effect", ("effects",)),
    "_thing": ("kind", ("condition", "effects")),
    "who": (None, ()),
    "cmp": (None, ()),
    "ordinal": (None, ()),
    "_a": (None, ()),
}

# The vocabulary's roles (rulelang.vocab.ROLES): the regions their phrases are in, and their
# category. Values are in effects (`pay 10% of the player's cash`) and in conditions (`if the
# bid is more than the player's cash`).
ROLE_PHRASES: dict[str, tuple[tuple[str, ...], str]] = {
    "event": (("event",), "event"),
    "target": (("event",), "event"),
    "token": (("event",), "event"),
    "condition": (("condition",), "condition"),
    "effect": (("effects",), "effect"),
    "amount": (("effects", "condition"), "value"),
    "factor": (("effects", "condition"), "value"),
    "action": (("action",), "action"),
}

_WORD = re.compile(r"[a-z]+")


@cache
def grammar() -> tuple[dict[str, list[tuple[str, ...]]], dict[str, tuple[str, str]]]:
    """The rules and terminals of the whole grammar (grammar.lark with the vocabulary filled
    in), as the parser reads them."""
    from rulelang.parse import grammar_symbols

    return grammar_symbols()


def _terminals() -> dict[str, tuple[str, str]]:
    """Each terminal: (pattern type "str" or "re", value)."""
    return grammar()[1]


@cache
def _word_terminals() -> dict[str, str]:
    """The keywords: each terminal that is a literal word, with its word."""
    return {name: value for name, (kind, value) in _terminals().items()
            if kind == "str" and _WORD.fullmatch(value)}


@cache
def _rules() -> dict[str, list[tuple[str, ...]]]:
    """Each rule of the grammar with its expansions (symbol names); Lark's rules for `(...)*`
    and `(...)+` count as expansions of the rule they are in."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for name, expansions in grammar()[0].items():
        if _REPEAT.search(name):
            name = _REPEAT.sub("", name[2:])
        out.setdefault(name, []).extend(expansions)
    return out


_REPEAT = re.compile(r"_(?:star|plus)_\d+$")


@cache
def _inline() -> dict[str, str]:
    """The closed lists of words (rules whose every expansion is keywords only), each as a
    regular expression: `who` is `(?:player|owner|partner)`."""
    words = _word_terminals()
    out = {}
    for name, exps in _rules().items():
        if RULE_WORDS.get(name, ("",))[0] is None:
            ways = sorted((r"[ \t]+".join(words[s] for s in e) for e in exps),
                          key=lambda w: (-len(w), w))
            out[name] = "(?:" + "|".join(ways) + ")"
    return out


def _slot_regex(grammar_text: str) -> str | None:
    """The regex a parameter's grammar is written inline with, or None if it breaks a phrase
    (a name, a quantity, a nested phrase)."""
    words, inline = _word_terminals(), _inline()
    if grammar_text in words:  # NOT: `is not in jail` is one phrase
        return words[grammar_text]
    return inline.get(grammar_text.lstrip("?"))


def _runs(items: list) -> list[list[str]]:
    """The runs of a sequence of regex pieces and breaks (None): the phrases it holds."""
    runs, run = [], []
    for item in items + [None]:
        if item is None:
            if run:
                runs.append(run)
            run = []
        else:
            run.append(item)
    return runs


def phrase_regex(pieces: list[str]) -> str:
    r"""The pieces of a phrase as one regex: words apart by blanks (a possessive not
    necessarily); a phrase never goes on to the next line."""
    out = pieces[0]
    for p in pieces[1:]:
        out += (r"[ \t]*" if p.startswith("['") else r"[ \t]+") + p
    return out


_POSSESSIVE = "['’]s"


def vocabulary_phrases(role: str) -> list[str]:
    """The phrases of a role of the vocabulary (the keyword runs of its forms), as regexes."""
    from rulelang.vocab import EXPANSIONS, TYPES, Slot
    from rulelang.vocab.spec import INLINE_ARTICLE, POSSESSIVE

    out = []
    opens_condition = _words_before_condition()
    for e in EXPANSIONS.values():
        if e.primitive.role != role:
            continue
        items: list[str | None] = []
        for item, after in zip(e.items, e.items[1:] + (None,)):
            if item in opens_condition and isinstance(after, Slot) and after.type == "condition":
                items.append(None)  # a match of its own opens the condition's region
            elif item is None or item == INLINE_ARTICLE:
                items.append(_inline()["_a"])
            elif item == POSSESSIVE:
                items.append(_POSSESSIVE)
            elif isinstance(item, Slot):
                items.append(_slot_regex(TYPES[item.type].grammar))
            elif _WORD.fullmatch(item):
                items.append(re.escape(item))
            else:  # a comma: marks are matched by themselves
                items.append(None)
        out += [phrase_regex(run) for run in _runs(items)]
    return out


def _rule_phrases(rule: str) -> list[str]:
    """The keyword runs of a hand-written rule of grammar.lark, as regexes."""
    words, inline = _word_terminals(), _inline()
    out = []
    for exp in _rules().get(rule, ()):
        items: list[str | None] = []
        for s in exp:
            if s in words:
                items.append(re.escape(words[s]))
            elif s in inline:
                items.append(inline[s])
            elif s == "_POSS":
                items.append(_POSSESSIVE)
            else:
                items.append(None)
        out += [phrase_regex(run) for run in _runs(items)]
    return out


def _alternation(phrases: list[tuple[str, str]]) -> Match:
    """One match for many phrases of several categories: the longest phrase first, each run of
    phrases of one category a group of its own."""
    first: dict[str, str] = {}
    for regex, category in phrases:  # a phrase of two categories has the first one's: the
        first.setdefault(regex, category)  # vocabulary's rather than an expression's
    ordered = sorted(first.items(), key=lambda pc: _longest_first(pc[0]))
    groups: list[tuple[str, list[str]]] = []
    for regex, category in ordered:
        if groups and groups[-1][0] == category:
            groups[-1][1].append(regex)
        else:
            groups.append((category, [regex]))
    body = "|".join(f"({'|'.join(rs)})" for _, rs in groups)
    return Match(rf"\b(?:{body})\b", tuple(c for c, _ in groups))


def _words_of(phrases: list[str]) -> set[str]:
    """The keywords of phrases (regexes)."""
    return {w for p in phrases
            for w in _WORD.findall(p.replace(r"\t", " ").replace(_POSSESSIVE, " "))}


def _longest_first(regex: str) -> tuple:
    """The order of phrases in an alternation: more words first (a phrase before any phrase
    it begins with), then the longer."""
    return (-regex.count("[ \\t]"), -len(regex), regex)


# Terminals, as grammar.lark writes them; the lexer and the grammar of editors use these.
def _terminal(name: str) -> str:
    kind, value = _terminals()[name]
    value = value.replace("\n", r"\n").replace("\t", r"\t")  # as a JSON file shows them
    return value if kind == "re" else re.escape(value)


def _lexical(fallback: str) -> tuple[Match, ...]:
    """What every region accepts besides its phrases: comments, quoted names, quantities,
    marks, bare words (of category `fallback`), and nothing else."""
    return (
        Match(r"[ \t]+", ("text",)),
        # The grammar's comment, less its refusal of control characters (E001) that
        # Oniguruma would need written otherwise: the checker reports those.
        Match(r"#.*", ("comment",)),
        Match(_terminal("STRING"), ("string",)),
        Match(r'"[^"\n]*', ("illegal",)),  # a quote left open
        Match(_terminal("MONEY"), ("money",)),
        Match(_terminal("PERCENT"), ("percent",)),
        Match(rf"\b{_terminal('MULT')}\b", ("multiplier",)),
        Match(_terminal("INT"), ("number",)),
        Match(r"\.\.", ("number",)),
        Match(_terminal("_POSS"), ("punctuation",)),
        Match(r"[:,;=()]", ("punctuation",)),
        Match(_terminal("NAME"), (fallback,)),
        Match(r"[^ \t\n]", ("illegal",)),
    )


_NAME = "NAME"


def _opening(rule: str, expansion: tuple[str, ...]) -> Match | None:
    """The opening of a statement as one match: its keywords, names, quoted names and colons
    up to the first item of another sort (None if it opens with none of these)."""
    word_cat, name_cat, region = STATEMENTS[rule]
    words = _word_terminals()
    parts: list[tuple[str, str]] = []
    for s in expansion:
        if s in words:
            if parts and parts[-1][1] == word_cat:
                regex, _ = parts.pop()
                parts.append((rf"{regex}[ \t]+{re.escape(words[s])}\b", word_cat))
            else:
                parts.append((re.escape(words[s]) + r"\b", word_cat))
        elif s == _NAME and name_cat:
            parts.append((_terminal(_NAME), name_cat))
        elif s == "STRING":
            parts.append((_terminal("STRING"), "string"))
        elif s == "COLON":
            parts.append((":", "punctuation"))
        else:
            break
    if not parts:
        return None
    words_cats = {"keyword", "declaration", "permission", "cite", "rule", "option", "setting",
                  "kind"}
    regex, cats = "", []
    for i, (r, c) in enumerate(parts):
        if i:
            apart = c in words_cats and parts[i - 1][1] in words_cats
            regex += r"([ \t]+)" if apart else r"([ \t]*)"
            cats.append("text")
        regex += f"({r})"
        cats.append(c)
    if parts[0][1] in words_cats:
        regex = r"\b" + regex
    return Match(regex, tuple(cats), region)


@cache
def regions() -> dict[str, Region]:
    """Every region of a line, by name; "root" is the start of a line."""
    from rulelang.vocab import ROLES

    assert set(ROLE_PHRASES) == set(ROLES), "a role of the vocabulary has no colour"
    words = _word_terminals()
    by_region: dict[str, list[tuple[str, str]]] = {}
    for role, (where, category) in ROLE_PHRASES.items():
        for region in where:
            by_region.setdefault(region, []).extend((p, category)
                                                    for p in vocabulary_phrases(role))
    for rule, (category, where) in RULE_WORDS.items():
        for region in where:
            by_region.setdefault(region, []).extend((p, category)
                                                    for p in _rule_phrases(rule))
    for rule, (category, _, _) in STATEMENTS.items():
        if category == "keyword":
            by_region.setdefault("tail", []).extend((p, category)
                                                    for p in _rule_phrases(rule))

    # What opens a condition: `if`/`unless` (grammar rule `condition`), and in an effect the
    # word before its condition (`advance to the next railroad where ...`).
    opens = sorted({words[e[0]] for e in _rules()["condition"]})
    opening = Match(rf"\b({'|'.join(opens)})\b", ("operator",), "condition")
    where = sorted(_words_before_condition())
    where_opens = Match(rf"\b({'|'.join(where)})\b", ("effect",), "condition")
    else_ = Match(_terminal("_ELSE"), ("effect",))
    colon = Match(":", ("punctuation",), "effects")

    def phrase_region(name: str, extra_before=(), until="", fallback="kind") -> Region:
        phrases = by_region.get(name, [])
        # A keyword of the region outside a whole phrase (a line being written, a mistake)
        # keeps the colour of the first phrase it is in.
        loose = {}
        for p, c in phrases:
            for w in _words_of([p]):
                loose.setdefault(w, c)
        loose_matches = tuple(
            Match(rf"\b(?:{'|'.join(sorted(ws, key=lambda w: (-len(w), w)))})\b", (c,))
            for c in sorted(set(loose.values()))
            for ws in [[w for w, cc in loose.items() if cc == c]])
        return Region(name, (*extra_before, _alternation(phrases), *loose_matches,
                             *_lexical(fallback)), until)

    openings = []
    for rule in STATEMENTS:
        for exp in _rules()[rule]:
            m = _opening(rule, exp)
            if m is not None:
                openings.append(m)
    # The longest opening first (`replace rule NAME:` before `rule`), by its number of parts.
    openings.sort(key=lambda m: (-len(m.categories), -len(m.regex), m.regex))
    unique = list(dict.fromkeys(openings))
    # The rest of a statement (`dice "A", "B" move the pawn`), and its keywords anywhere else.
    tail_words = sorted(_words_of([p for p, _ in by_region["tail"]]), key=lambda w: (-len(w), w))
    root = Region("root", (Match(r"[ \t]+", ("text",)), *unique,
                           Match(rf"\b(?:{'|'.join(tail_words)})\b", ("keyword",)),
                           *_lexical("name")))
    tail = Region("tail", (Match(rf"\b(?:{'|'.join(tail_words)})\b", ("keyword",)),
                           *_lexical("name")))
    return {r.name: r for r in (
        root, tail,
        phrase_region("space"),
        phrase_region("value", fallback="constant"),
        phrase_region("event", extra_before=(opening, colon)),
        phrase_region("condition", until=":,;"),
        phrase_region("effects", extra_before=(else_, where_opens)),
        phrase_region("action", extra_before=(opening,)),
    )}


def _words_before_condition() -> set[str]:
    """The keywords that stand just before a condition in an effect's form (`where`)."""
    from rulelang.vocab import EXPANSIONS, Slot

    out = set()
    for e in EXPANSIONS.values():
        for before, item in zip(e.items, e.items[1:]):
            if isinstance(item, Slot) and item.type == "condition" and isinstance(before, str):
                out.add(before)
    return out
