"""The wording of syntax errors: plain facts about a parse failure in, a coded RuleError out.

parse.py (the only module that sees Lark) extracts what was found, where, and which tokens
the parser would have accepted; this module chooses the code, the message in plain words and
the hint (a close keyword, the missing colon, the missing quotes). It never imports Lark.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Sequence

from rulelang.ast import Span
from rulelang.diagnostics import RuleError, printable

# How the parser's token classes read in a message.
_DESCRIPTIONS = {
    "STRING": "a name in double quotes",
    "MONEY": "an amount like $50",
    "INT": "a number",
    "PERCENT": "a percentage like 10%",
    "MULT": "a multiplier like x2",
    "NAME": "a name",
    "_NL": "the end of the line",
    "_ELSE": "', else'",
    "_POSS": "'s",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "$END": "the end of the file",
}
_FOUND = {
    "_NL": "the end of the line",
    "_INDENT": "an indented line",
    "_DEDENT": "the end of the block",
    "$END": "the end of the file",
}
_MAX_LISTED = 10
# Values found where a name (of a rule, setting, option, kind) was expected.
_VALUES = {"STRING": "the quoted text", "INT": "the number", "MONEY": "the amount",
           "PERCENT": "the percentage", "MULT": "the multiplier"}

# Labels of parse.py's match_examples: (code, message, hint); {found} is the found token.
LABELS = {
    "header": ("E008", "a rules file starts with 'rulebook \"Title\"', found {found}",
               "put the header line first, e.g. rulebook \"My house rules\""),
    "one_word": ("E014", "a name is one word, found {found} after it",
                 "join the words with underscores, e.g. free_parking_jackpot"),
    "colon": ("E005", "expected ':' at the end of the header, found {found}",
              "a header that opens a block ends with ':' and its lines are indented below it"),
    "effects_colon": ("E005", "expected ':' before the effects, found {found}",
                      "write the event, any conditions, then ':' and the effects: "
                      "when a player lands on \"Boardwalk\": pay rent"),
}

Expected = Sequence[tuple[str, "str | None"]]  # (terminal name, its literal if a keyword)


def _describe(expected: Expected) -> str:
    keywords = sorted({f"'{lit}'" for _, lit in expected if lit is not None})
    others = sorted({_DESCRIPTIONS.get(n, n.lower()) for n, lit in expected if lit is None})
    words = keywords + others
    if len(words) > _MAX_LISTED:
        words = words[: _MAX_LISTED - 1] + [f"{len(words) - _MAX_LISTED + 1} more"]
    if len(words) <= 1:
        return "".join(words) or "nothing more"
    return ", ".join(words[:-1]) + " or " + words[-1]


def _found(kind: str, value: str) -> str:
    if kind in _FOUND:
        return _FOUND[kind]
    if kind == "STRING":
        return value
    return f"'{value}'"


# `-$60`: a sign before the amount (`$-60` is read as an amount, and the checker reports it)
_NEGATIVE_AMOUNT = re.compile(r"-[ \t]*\$[ \t]*([0-9]+)")
# The verb that gives the other direction of money.
_OPPOSITE = {"collect": "pay", "pay": "collect", "receive": "pay"}


def _negative_hint(digits: str, before: str) -> str:
    """What to write instead of a negative amount after the words `before` it."""
    words = re.findall(r"[A-Za-z_]+", before)
    verb = words[-1] if words else ""
    if verb in _OPPOSITE:
        return (f"'pay' and 'collect' give the direction: write '{_OPPOSITE[verb]} "
                f"${digits}' instead of '{verb} -${digits}'")
    return f"'pay' and 'collect' give the direction: write ${digits}"


_QUOTES = "'\u201c\u201d\u2018\u2019\u00ab\u00bb"
# A name in other quotes: the opening one, the name, the closing one (any of _QUOTES).
_OTHER_QUOTED = re.compile(f"[{_QUOTES}]\\s*([^{_QUOTES}\"]+?)\\s*[{_QUOTES}]")


def _straight(rest_of_line: str) -> str:
    """The name in other quotes at the start of `rest_of_line`, in straight double quotes
    (`“Boardwalk”`: "Boardwalk"); an example name if it is not closed on the line."""
    m = _OTHER_QUOTED.match(rest_of_line)
    return f'"{m.group(1)}"' if m and m.group(1).strip() else '"Boardwalk"'


def unexpected_character(char: str, span: Span, rest_of_line: str,
                         expected: Expected, before: str = "") -> RuleError:
    """A character no token can start with; `rest_of_line`: the line from it on, `before`:
    the line before it."""
    if char == '"':
        whole = Span(span.file, span.line, span.column, span.line,
                     span.column + max(1, len(rest_of_line)))
        return RuleError("E007", "this name in double quotes is not closed", whole,
                         hint="close it with '\"' on the same line")
    if char in _QUOTES:
        return RuleError("E012", f"names are written in straight double quotes, found '{char}'",
                         span, hint=f"write the name as {_straight(rest_of_line)}")
    if char == "$":
        return RuleError("E001", "expected a whole amount after '$', like $50", span,
                         hint="amounts are whole numbers without separators: $1500")
    negative = _NEGATIVE_AMOUNT.match(rest_of_line)
    if char == "-" and negative:
        amount = negative.group()
        whole = Span(span.file, span.line, span.column, span.line, span.column + len(amount))
        return RuleError("E204", f"amounts are never negative, found {amount}", whole,
                         hint=_negative_hint(negative.group(1), before))
    shown = printable(char)
    if shown == char and not char.isprintable():
        shown = f"U+{ord(char):04X}"
    if char == "\r":
        hint = ("a line ends with a newline (LF or CR LF); a carriage return alone is not a "
                "line break: remove it, or save the file with LF or CR LF line endings")
    elif unicodedata.category(char) in ("Cc", "Zl", "Zp"):
        hint = ("remove the control character: outside names in double quotes only spaces, "
                "tabs and newlines separate words, even in a comment")
    else:
        hint = f"expected {_describe(expected)}" if expected else None
    return RuleError("E001", f"unexpected character '{shown}'", span, hint=hint)


def _quoted_words(value: str, rest: str) -> str:
    """The words a name in quotes probably spans: from the token to the next ':' or ','
    (`Free Parking: collect $100`: "Free Parking"), or the token alone."""
    words = re.split(r"[:,#]", rest, maxsplit=1)[0].strip() if rest.startswith(value) else ""
    return words if words and all(w.replace("'", "").replace(".", "").isalnum()
                                  for w in words.split()) else value


Opener = "tuple[int, str] | None"  # (line, text) of the line ending in ':' just above


def unexpected_token(kind: str, value: str, span: Span, expected: Expected,
                     label: str | None, opener: Opener = None, rest: str = "",
                     before: str = "", all_keywords: frozenset[str] = frozenset()) -> RuleError:
    """A token the grammar does not allow here; `label` names a matched example, if any;
    `rest`: the line from the token on, `before`: the line before it; `all_keywords`: every
    keyword of the language (one found out of place is no misspelling)."""
    found = _found(kind, value)
    literals = {lit for _, lit in expected if lit is not None}
    if label in LABELS:
        code, message, hint = LABELS[label]
        hint = _condition_word_hint(value, before, rest, literals) or hint
        return RuleError(code, message.format(found=found), span, hint=hint)
    names = {n for n, _ in expected}
    if names == {"_INDENT"} and opener is not None:
        return RuleError("E015", f"expected the indented lines of the block opened by "
                         f"'{opener[1]}', found {found}", span,
                         hint="indent the lines of a block under its header, by the same "
                         "amount each", notes=[_opened_here(opener, span)])
    if names == {"NAME"} and kind in _VALUES:
        bare = value[1:-1] if kind == "STRING" else value
        hint = f"write {bare} without quotes" if kind == "STRING" and bare.isidentifier() \
            else "a name is one word of letters, digits and '_', starting with a letter"
        return RuleError("E016", f"expected a name, found {_VALUES[kind]} {found}", span,
                         hint=hint)
    keywords = [lit for _, lit in expected if lit is not None and lit.isidentifier()]
    is_word = value.isidentifier() and kind not in _FOUND
    if is_word and "STRING" in names:
        return RuleError("E012", f"expected a name in double quotes, found {found}", span,
                         hint=f'write "{_quoted_words(value, rest)}"' if kind == "NAME"
                         else None)
    if is_word and keywords and value not in all_keywords:
        close = difflib.get_close_matches(value, keywords, n=1, cutoff=0.6)
        if close:
            listed = f", expected {_describe(expected)}" if len(expected) <= 5 else ""
            # `double sixes` is no misspelled `doubles`, which is any double
            return RuleError("E006", f"unknown keyword {found}{listed}", span,
                             hint=_one_roll_hint(before, rest) or f"did you mean '{close[0]}'?")
    if kind == "_NL" and ":" in {lit for _, lit in expected}:
        code, message, hint = LABELS["colon"]
        return RuleError(code, message.format(found=found), span, hint=hint)
    if kind == "_INDENT":
        return RuleError("E002", "unexpected indentation", span,
                         hint="only the lines of a block (after a line ending in ':') are "
                         "indented, all by the same amount")
    if "is" in literals and literals <= _AFTER_VALUE:
        # `if the dice total is 7 or 11`: a number after `or` starts a new comparison.
        return RuleError("E002", f"expected {_describe(expected)}, found {found}", span,
                         hint="a comparison is one test: repeat it, e.g. the dice total is 7 "
                         "or the dice total is 11")
    return RuleError("E002", f"expected {_describe(expected)}, found {found}", span,
                     hint=_phrasing_hint(kind, value, before, rest, literals))


# Phrasings of a beginner the grammar does not have, and the language's way to say each.
_ROLLS = re.compile(r"\brolls[ \t]*$")
_HAS = re.compile(r"\bthe[ \t]+(player|owner|partner)[ \t]+has[ \t]*$")
_MAY_NOT = re.compile(r"\bmay[ \t]+not[ \t]+(\w+)\b")
_SPACE_IS = re.compile(r"\bthe[ \t]+space[ \t]+is[ \t]*(not[ \t]+)?$")
_CITE_ONE = re.compile(r'^[ \t]*cite[ \t]+("[^"]*")[ \t]*$')
_SEPARATED = re.compile(r"\$[0-9]{1,3}(?:,[0-9]{3})+")
_ONE_SPACE = ("a condition cannot name one space: test its kind, its price or its group "
              "instead, e.g. the space's price is at least $400 (see the cookbook)")


def _phrasing_hint(kind: str, value: str, before: str, rest: str,
                   literals: set) -> str | None:
    """How the language says what a beginner's phrasing means, if it is one (E002)."""
    line = before + rest
    for m in _SEPARATED.finditer(line):
        if m.start() <= len(before) <= m.end():
            return f"write amounts without separators: ${m.group()[1:].replace(',', '')}"
    hint = (_one_roll_hint(before, rest) or _laps_hint(before, rest)
            or _condition_word_hint(value, before, rest, literals))
    if hint is not None:
        return hint
    if kind in ("INT", "MONEY") and _ROLLS.search(before):
        total = value.lstrip("$")
        return (f"the dice total is a condition of the throw: when a player rolls if the "
                f"dice total is {total}: ...")
    if kind == "NAME" and value == "get" and "collect" in literals:
        amount = re.match(r"get[ \t]+(\$[0-9]+)", rest)
        return ("a player receives money with 'collect': collect "
                f"{amount.group(1) if amount else '$60'}")
    has = _HAS.search(before)
    if has and kind in ("MONEY", "INT"):
        amount = value if kind == "MONEY" else f"${value}"
        return (f"compare the {has.group(1)}'s cash: the {has.group(1)}'s cash is at least "
                f"{amount}")
    if kind == "_NL" and literals == {","} and (cite := _CITE_ONE.match(before)):
        return (f"a cite takes two names in quotes, the source and the section in it: "
                f"cite {cite.group(1)}, \"Free Parking\"")
    if kind == "STRING" and _SPACE_IS.search(before):
        return _ONE_SPACE
    may_not = _MAY_NOT.search(before)
    if kind == "STRING" and may_not and " if " not in before and " unless " not in before:
        verb = may_not.group(1)
        what = f"{verb} a street" if verb in _OF_A_KIND else verb
        example = (f": a player may not {what} if the space's price is at least $400"
                   if verb in _OF_A_KIND or verb == "build" else "")
        return ("a permission names a kind of property, not one space; for one space, test "
                f"its kind, its price or its group (see the cookbook){example}")
    return None


def _at(pattern: re.Pattern, before: str, rest: str) -> re.Match | None:
    """The match of `pattern` in the line that holds the error's position (the end of
    `before`), if any."""
    line = before + rest
    return next((m for m in pattern.finditer(line) if m.start() <= len(before) <= m.end()),
                None)


# Words of time that start a condition in English, and the keyword that says it here:
# `may not build before the player has completed a lap` is `unless` it has.
_CONDITION_WORDS = {"before": "unless", "until": "unless", "till": "unless",
                    "after": "if", "once": "if", "when": "if", "while": "if"}
_LAP = re.compile(r"^the[ \t]+(?:player|owner|partner)[ \t]+has[ \t]+(?:not[ \t]+)?completed"
                  r"[ \t]+a[ \t]+lap$")


def _condition_word_hint(value: str, before: str, rest: str, literals: set) -> str | None:
    """`before the player has completed a lap` where a condition may start: the keyword that
    says it (`unless`), with the condition written if it is the laps one, else an example."""
    if not {"if", "unless"} <= literals:
        return None
    word, after = value.lower(), rest[len(value):]
    if word not in _CONDITION_WORDS:
        return None
    keyword = _CONDITION_WORDS[word]
    condition = " ".join(re.split(r"[:#]", after, maxsplit=1)[0].split())
    if _LAP.match(condition):
        return (f"a condition starts with 'if' or 'unless': write '{keyword} {condition}'")
    return (f"a condition starts with 'if' or 'unless' ('{word} ...' is '{keyword} ...'), "
            f"e.g. {before.strip()} {keyword} the player has completed a lap")


_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10}
# `the player has completed 2 laps` (at least 2, at most 2 ...): a count of laps.
_LAPS = re.compile(r"\bthe[ \t]+(player|owner|partner)[ \t]+has[ \t]+(not[ \t]+)?completed[ \t]+"
                   r"(?:(at[ \t]+least|at[ \t]+most|more[ \t]+than|less[ \t]+than|exactly)"
                   r"[ \t]+)?([0-9]+|" + "|".join(_NUMBERS) + r")[ \t]+laps?\b", re.I)
# A comparison of the words, and its opposite (`has not completed 2 laps`: less than 2).
_LAP_COMPARISONS = {None: ("is at least", "is less than"), "at least": ("is at least",
                    "is less than"), "at most": ("is at most", "is more than"),
                    "more than": ("is more than", "is at most"),
                    "less than": ("is less than", "is at least"), "exactly": ("is", "is not")}


def _laps_hint(before: str, rest: str) -> str | None:
    """`the player has completed 2 laps`: the count of laps compared, `the player's laps is
    at least 2` (one lap: `has completed a lap`)."""
    m = _at(_LAPS, before, rest)
    if m is None:
        return None
    who, negated, compared, number = m.groups()
    n = int(number) if number.isdigit() else _NUMBERS[number.lower()]
    compared = " ".join(compared.lower().split()) if compared else None
    if n == 1 and compared is None:
        return (f"one lap is written 'a lap': the {who} has {'not ' if negated else ''}"
                "completed a lap")
    comparison = _LAP_COMPARISONS[compared][1 if negated else 0]
    return f"a number of laps is compared as a count: the {who}'s laps {comparison} {n}"


_FACES = {"ones": 1, "aces": 1, "twos": 2, "deuces": 2, "threes": 3, "treys": 3,
          "fours": 4, "fives": 5, "sixes": 6}
_FACES.update({"ace": 1, "one": 1, "deuce": 2, "three": 3, "trey": 3, "four": 4, "five": 5,
               "six": 6})
_FACE = "|".join(_FACES) + r"|[1-6](?:'?s)?"
# The throws an English speaker names: two values (`the dice show 6 and 5`), a particular
# double (by its face, in words or digits; `doubles 3 times in a row` is a count), snake
# eyes, boxcars.
_ONE_ROLL = re.compile(
    rf"\b(?:show|shows|rolls)[ \t]+(?P<pair>(?P<a>[1-6])[ \t]+and[ \t]+(?P<b>[1-6]))(?![\w$%])"
    rf"|\b(?P<double>(?:a[ \t]+)?(?:doubles?|two|pair[ \t]+of)[ \t]+(?P<face>{_FACE}))"
    r"(?![\w$%])(?![ \t]+times?\b)"
    rf"|\b(?:show|shows|rolls)[ \t]+(?P<many>{_FACE})(?![\w$%])"
    r"|\b(?P<snake>snake[ \t-]*eyes)\b|\b(?P<boxcars>box[ \t-]*cars)\b", re.I)


def _face(word: str) -> int:
    word = word.lower()
    return int(word[0]) if word[0].isdigit() else _FACES[word]


def _one_roll_hint(before: str, rest: str) -> str | None:
    """A particular throw (`double sixes`, `snake eyes`, `6 and 5`): the test of the value
    each die shows; `doubles` is any double."""
    m = _at(_ONE_ROLL, before, rest)
    if m is None:
        return None
    if m.group("pair"):
        a, b, phrase = int(m.group("a")), int(m.group("b")), m.group("pair")
    elif m.group("snake") or m.group("boxcars"):
        phrase = m.group("snake") or m.group("boxcars")
        a = b = 1 if m.group("snake") else 6
    elif m.group("double"):
        phrase = " ".join(m.group("double").split())
        a = b = _face(m.group("face"))
    elif m.group("many") and m.group("many").lower().endswith("s"):  # `sixes`, not `six`
        phrase = m.group("many")
        a = b = _face(phrase)
    else:
        return None  # `rolls 7`: a total, hinted as one
    what = f"the throw {phrase}" if m.group("pair") else f"{phrase} ({a} and {b})"
    any_double = "'doubles' is any double; " if "double" in phrase.lower() else ""
    return (f"{any_double}for {what}, test the value each die shows: "
            f"when a player rolls if the first die is {a} and the second die is {b}: ...")


# The actions of a permission that name a kind of property (`a player may not buy a street`).
_OF_A_KIND = ("buy", "mortgage", "trade")


# What may follow a value at the start of a condition: a comparison, or more expression.
_AFTER_VALUE = {"is", "are", "plus", "times", "per", "of"}


def _opened_here(opener, span: Span) -> tuple[str, Span]:
    line, text = opener
    return "the block is opened here", Span(span.file, line, 1, line, len(text) + 1)


def unexpected_eof(span: Span, expected: Expected, opener: Opener = None) -> RuleError:
    """The file ended in the middle of something."""
    names = {n for n, _ in expected}
    if "rulebook" in {lit for _, lit in expected}:
        return RuleError("E008", "a rules file starts with 'rulebook \"Title\"', found "
                         "the end of the file", span, hint=LABELS["header"][2])
    hint = None
    if "_INDENT" in names:
        hint = "a line ending in ':' must be followed by indented lines"
        if opener is not None:
            return RuleError("E003", f"the file ends right after '{opener[1]}', before the "
                             "block has any indented line", span, hint=hint,
                             notes=[_opened_here(opener, span)])
    return RuleError("E003", f"unexpected end of file, expected {_describe(expected)}", span,
                     hint=hint)
