"""The parser: every construct's AST, spans, coded syntax errors, robustness on any input."""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelang import ast
from rulelang import parse as parse_module
from rulelang.diagnostics import RuleError, RuleErrors, printable
from rulelang.parse import parse_file, parse_text

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.rules"))
HEADER = 'rulebook "T"\n'


def items(text: str) -> tuple:
    """The items of a snippet parsed under a header."""
    return parse_text(HEADER + text, "t.rules").items


def effects(text: str) -> tuple:
    """The effects of `when a turn starts: <text>`."""
    (rule,) = items(f"rule r:\n  when a turn starts: {text}\n")
    return rule.body[0].effects


def event(text: str):
    """The event of `when <text>: nothing`."""
    (rule,) = items(f"rule r:\n  when {text}: nothing\n")
    return rule.body[0].event


def error(text: str, path: str = "t.rules"):
    """The diagnostic of a text that must not parse."""
    with pytest.raises(RuleError) as e:
        parse_text(text, path)
    return e.value.diagnostic


# ---------------------------------------------------------------- the rulesets


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_rulesets_parse(path):
    """The shipped rulebooks parse, each item with a span in its own file."""
    rel = str(path.relative_to(ROOT))
    file = parse_file(str(path))
    assert file.items and all(item.span.line > 0 for item in file.items)
    assert parse_text(path.read_text(encoding="utf-8"), rel).path == rel


def test_classic_board_shape():
    """classic_board.rules: 40 spaces, two dice, two decks of 16 cards."""
    file = parse_file(str(ROOT / "rulesets" / "classic_board.rules"))
    board, *rest = file.items
    assert len(board.spaces) == 40
    assert [d.name.value for d in rest if isinstance(d, ast.Die)] == ["first", "second"]
    assert [len(d.cards) for d in rest if isinstance(d, ast.Deck)] == [16, 16]


# ---------------------------------------------------------------- constructs


def test_header_and_extends():
    """`rulebook` and `extends` fill File.title and File.extends."""
    file = parse_text('# c\n\nrulebook "Dégât d\'Astéroïde"\nextends "a.rules"\n', "x.rules")
    assert file.title.value == "Dégât d'Astéroïde"
    assert file.extends.path.value == "a.rules" and file.items == ()


def test_space_attributes_in_any_order():
    """Space attributes may come in any order; utilities list dice multipliers."""
    (board,) = items('board:\n  "A": street in "G", rent $1 $2, house $5, mortgage $3, '
                     'price $6, hotel $7\n  "U": utility in "Utilities", price $150, '
                     'mortgage $75, rent dice x4 x10\n  "GO": go\n')
    a, u, go = board.spaces
    assert a == ast.SpaceDecl(ast.Text("A"), ast.Name("street"), ast.Text("G"), ast.Money(6),
                              ast.Money(3), ast.Money(5), ast.Money(7),
                              (ast.Money(1), ast.Money(2)))
    assert u.multipliers == (ast.Count(4), ast.Count(10)) and u.rents == ()
    assert go == ast.SpaceDecl(ast.Text("GO"), ast.Name("go"))


def test_dice_and_decks():
    """Dice take a range or a list and named faces; decks hold cards with effects."""
    d1, d2, deck = items('die "w" faces 1..6, face 1 named "Eye of Sauron"\n'
                         'die "f" faces 1, 2, 3\n'
                         'deck "Chance":\n  card "C1" "Go": advance to "GO", collect $5\n')
    assert d1 == ast.Die(ast.Text("w"), (1, 2, 3, 4, 5, 6), ((1, ast.Text("Eye of Sauron")),))
    assert d2.faces == (1, 2, 3)
    assert deck.cards[0] == ast.Card(ast.Text("C1"), ast.Text("Go"),
                                     (ast.AdvanceTo(ast.Text("GO")), ast.Collect(ast.Money(5))))


def test_rule_forms():
    """New, replace, before, after and remove rules carry their override and target."""
    body = ":\n  cite \"f\", \"s\"\n  set jail_fine = $50\n"
    new, rep, bef, aft, rem = items(f"rule a{body}replace rule b{body}before c rule d{body}"
                                    f"after e rule f{body}remove rule g\n")
    assert (new.override, new.target) == (None, None)
    assert new.cite == ast.Cite("f", "s", span=new.cite.span)
    assert new.body == (ast.Set(ast.Name("jail_fine"), ast.Money(50)),)
    assert (rep.name, rep.override, rep.target) == (ast.Name("b"), "replace", ast.Name("b"))
    assert (bef.name, bef.override, bef.target) == (ast.Name("d"), "before", ast.Name("c"))
    assert (aft.name, aft.override, aft.target) == (ast.Name("f"), "after", ast.Name("e"))
    assert rem == ast.Remove(ast.Name("g"))


@pytest.mark.parametrize("text, value", [
    ("$1500", ast.Money(1500)), ("3", ast.Count(3)), ("200%", ast.Percent(200)),
    ("yes", ast.Flag(True)), ("no", ast.Flag(False)), ("3 to 8", ast.Range(3, 8)),
    ("highest_roll", ast.Word("highest_roll")), ('"Power"', ast.Text("Power")),
    ("auction", ast.Word("auction")),
])
def test_set_values(text, value):
    """Each kind of value keeps its unit."""
    (item,) = items(f"set x = {text}\n")
    assert item == ast.Set(ast.Name("x"), value)


def test_top_level_items():
    """currency, rename, cite and option blocks at the top level."""
    cur, ren, cite, opt = items('currency "Power"\nrename group "Purple" to "Shire"\n'
                                'cite "f", "s"\noption ring "The One Ring":\n'
                                '  set jail_fine = $10\n  rule r:\n    set houses = 30\n')
    assert cur == ast.Currency(ast.Text("Power"))
    assert ren == ast.Rename("group", ast.Text("Purple"), ast.Text("Shire"))
    assert isinstance(cite, ast.Cite)
    assert (opt.name, opt.title) == (ast.Name("ring"), ast.Text("The One Ring"))
    assert [type(i) for i in opt.items] == [ast.Set, ast.Rule]


@pytest.mark.parametrize("text, node", [
    ('a player lands on "GO"', ast.Lands(ast.SpaceByName(ast.Text("GO")))),
    ('a player passes "GO"', ast.Passes(ast.SpaceByName(ast.Text("GO")))),
    ("a player lands on a property", ast.Lands(ast.SpaceByKind(ast.Name("property")))),
    ("a player lands on an unowned street",
     ast.Lands(ast.SpaceByKind(ast.Name("street"), "nobody"))),
    ("a player lands on a railroad owned by another player",
     ast.Lands(ast.SpaceByKind(ast.Name("railroad"), "other"))),
    ("a player lands on a utility owned by the player",
     ast.Lands(ast.SpaceByKind(ast.Name("utility"), "self"))),
    ("a player rolls doubles", ast.RollsDoubles()),
    ("a player rolls doubles 3 times in a row", ast.RollsDoubles(3)),
    ("a turn starts", ast.TurnStarts()),
    ('a die shows "Eye of Sauron"', ast.DieShows(ast.Text("Eye of Sauron"))),
])
def test_events(text, node):
    """Every event form builds its node."""
    assert event(text) == node


def test_conditions():
    """if/unless, `is not`, and options; `unless ... is not` is not negated."""
    (rule,) = items("rule r:\n  when a turn starts if the player is in jail unless the owner "
                    "is in jail if the owner is not in jail unless the player is not in jail "
                    "if option ring: nothing\n")
    conds = [(c.subject, c.test, c.negated, c.name) for c in rule.body[0].conditions]
    assert conds == [("player", "in_jail", False, None), ("owner", "in_jail", True, None),
                     ("owner", "in_jail", True, None), ("player", "in_jail", False, None),
                     ("option", "option", False, ast.Name("ring"))]


@pytest.mark.parametrize("text, nodes", [
    ("collect $200", (ast.Collect(ast.Money(200)),)),
    ("collect $50 from each player", (ast.Collect(ast.Money(50), "each_player"),)),
    ("pay $75", (ast.Pay(ast.Money(75)),)),
    ("pay each player $50", (ast.Pay(ast.Money(50), "each_player"),)),
    ("pay $200 or 10% of worth",
     (ast.PayChoice((ast.Money(200), ast.PercentOfWorth(10))),)),
    ("pay 10% of worth or $200 or $300",
     (ast.PayChoice((ast.PercentOfWorth(10), ast.Money(200), ast.Money(300))),)),
    ("pay $25 per house, $100 per hotel, collect $1",
     (ast.PayPerBuilding(ast.Money(25), ast.Money(100)), ast.Collect(ast.Money(1)))),
    ("go to jail", (ast.GoToJail(),)),
    ('advance to "Boardwalk"', (ast.AdvanceTo(ast.Text("Boardwalk")),)),
    ("advance to the nearest railroad, rent x2, collect $1",
     (ast.AdvanceToNearest(ast.Name("railroad"), 2), ast.Collect(ast.Money(1)))),
    ("advance to the nearest utility, rent dice x10",
     (ast.AdvanceToNearest(ast.Name("utility"), 1, 10),)),
    ("advance to the nearest railroad", (ast.AdvanceToNearest(ast.Name("railroad")),)),
    ("move back 3", (ast.MoveBy(-3),)),
    ("move 3", (ast.MoveBy(3),)),
    ('draw from "Chance"', (ast.Draw(ast.Text("Chance")),)),
    ("keep to leave jail free", (ast.KeepJailCard(),)),
    ("buy or auction", (ast.BuyOrAuction(),)),
    ("buy", (ast.BuyOrAuction(False),)),
    ("pay rent", (ast.PayRent(),)),
    ("pay rent x2", (ast.PayRent(2),)),
    ("roll again, nothing", (ast.RollAgain(), ast.Nothing())),
])
def test_effects(text, nodes):
    """Every effect form builds its node; commas inside an effect are not separators."""
    assert effects(text) == nodes


# ---------------------------------------------------------------- spans


def test_spans_cover_their_own_text():
    """Each node's span is exactly its text; a rule ends at its last statement."""
    text = HEADER + 'rule r:\n  when a player lands on "Bordwalk": pay rent\n\n# c\n'
    (rule,) = parse_text(text, "x.rules").items
    when = rule.body[0]
    target = when.event.target
    assert target.name.span == ast.Span("x.rules", 3, 26, 3, 36)
    assert when.event.span == ast.Span("x.rules", 3, 8, 3, 36)
    assert when.effects[0].span == ast.Span("x.rules", 3, 38, 3, 46)
    assert rule.span == ast.Span("x.rules", 2, 1, 3, 46)
    assert rule.name.span == ast.Span("x.rules", 2, 6, 2, 7)


def test_modified_nearest_spans_the_modifier():
    """`advance to the nearest utility, rent dice x10` is one node with one span."""
    (effect,) = effects("advance to the nearest utility, rent dice x10")
    assert (effect.span.column, effect.span.end_column) == (23, 68)


def test_line_endings_bom_tabs_and_missing_final_newline():
    """CRLF, a BOM, tab indentation and no final newline parse like the plain text."""
    plain = items("rule r:\n  set a = 1\n  set b = 2")
    assert parse_text("\ufeff" + HEADER.replace("\n", "\r\n") + "rule r:\r\n\tset a = 1\r\n"
                      "\tset b = 2", "t").items == plain


@pytest.mark.parametrize("char", ["\r", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\u2028"])
def test_a_control_character_outside_a_string_is_never_a_line_break(char):
    """A lone CR (or another control character but tab and newline) in a comment or between
    words is E001 at its own place, shown escaped: it neither ends the comment nor the line,
    so nothing can hide behind it on what an editor shows as one line."""
    for text, column in ((HEADER + f"# a friendly comment{char}set a = 1\n", 21),
                         (HEADER + f"set a = 1 {char} \n", 11),
                         (HEADER.replace("\n", "\r\n") + f"# c{char}set a = 1\r\n", 4)):
        d = error(text)
        assert (d.code, d.span.line, d.span.column) == ("E001", 2, column), d.message
        assert printable(char) in d.message and d.hint
        assert char not in d.message + d.hint


def test_line_numbers_count_newlines_only():
    """A lone CR inside a name in quotes is a character of the name, not a line break."""
    d = error('rulebook "T\ry"\nset a = @\n')
    assert (d.code, d.span.line, d.span.column) == ("E001", 2, 9)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("text, code, line, column, hint", [
    ("", "E008", 1, 1, "rulebook"),
    ("board:\n", "E008", 1, 1, "rulebook"),
    (HEADER + "rul r:\n  set a = 1\n", "E006", 2, 1, "did you mean 'rule'?"),
    (HEADER + 'rule r:\n  when a player land on "X": nothing\n', "E006", 3, 17,
     "did you mean 'lands'?"),
    (HEADER + "rule r\n  set a = 1\n", "E005", 2, 7, "ends with ':'"),
    (HEADER + 'extends "a"\n\n# c\ndeck "D"\n  card "a" "b": nothing\n', "E005", 5, 9,
     "ends with ':'"),
    (HEADER + 'rule r:\n  when a turn starts pay $1\n', "E005", 3, 22, "then ':'"),
    (HEADER + "rule my rule:\n  set a = 1\n", "E014", 2, 9, "underscores"),
    (HEADER + "rule r:\n  when a player lands on Boardwalk: nothing\n", "E012", 3, 26,
     'write "Boardwalk"'),
    (HEADER + "rule r:\n  when a player lands on 'X': nothing\n", "E012", 3, 26, '"'),
    (HEADER + 'rule r:\n  when a player lands on "X: nothing\n', "E007", 3, 26, "close"),
    (HEADER + "rule r:\n  set a = 1\n    set b = 2\n", "E002", 4, 5, "indented"),
    (HEADER + "rule r:\n    set a = 1\n  set b = 2\n", "E004", 4, 1, "same amount"),
    (HEADER + "rule r:\n", "E003", 2, 8, "indented lines"),
    (HEADER + "set a = @\n", "E001", 2, 9, "expected"),
    (HEADER + "set a = $\n", "E001", 2, 9, "$1500"),
    (HEADER + "rule r:\n  when a turn starts: move $3\n", "E205", 3, 28, "write '3'"),
    (HEADER + "rule r:\n  when a turn starts: pay 5\n", "E205", 3, 27, "write '$5'"),
    (HEADER + "rule r:\n  when a turn starts: pay 10%\n", "E205", 3, 27, "of worth"),
    (HEADER + "rule r:\n  when a turn starts: rent x2\n", "E010", 3, 23, "nearest"),
    (HEADER + 'rule r:\n  set a = 1\n  cite "a", "b"\n', "E013", 4, 3, "after the rule header"),
    (HEADER + 'board:\n  "GO": go, price $5, price $6\n', "E009", 3, 23, "keep one"),
    (HEADER + 'die "d" faces 6..1\n', "E208", 2, 15, "1..6"),
    (HEADER + "set x 5\n", "E002", 2, 7, None),
    (HEADER + "rule r:\n  when a player lands on \u201cPark Place\u201d: nothing\n", "E012",
     3, 26, 'write the name as "Park Place"'),
    (HEADER + "set x = $" + "9" * 5000 + "\n", "E202", 2, 9, "at most 9 digits"),
])
def test_syntax_errors(text, code, line, column, hint):
    """Each slip gets its code, the position of the offending token and a useful hint."""
    d = error(text)
    assert (d.code, d.span.line, d.span.column) == (code, line, column), d.message
    assert d.message[0].islower() and not d.message.endswith(".")
    if hint is not None:
        assert hint in d.hint


@pytest.mark.parametrize("line, hint", [
    ("  when a player rolls 7: collect $5", "when a player rolls if the dice total is 7:"),
    ('  when a player lands on "GO": get $60', "collect $60"),
    ('  when a player passes "GO": collect $1,500', "write amounts without separators: $1500"),
    ('  cite "house rules"', 'cite "house rules", "'),
    ('  when a player passes "GO" if the player has $500: collect $5',
     "the player's cash is at least $500"),
    ('  a player may not buy "Boardwalk"', "a player may not buy a street if the space's price"),
    ('  a player may not build "Boardwalk"', "a player may not build if the space's price"),
    ('  a player may not buy a street if the space is "Boardwalk"',
     "a condition cannot name one space"),
    ("  a player may not build before the player has completed a lap",
     "a condition starts with 'if' or 'unless': write 'unless the player has completed a lap'"),
    ("  a player may not buy a street after the player has completed a lap",
     "write 'if the player has completed a lap'"),
    ("  a player may not build until the player is in jail",
     "('until ...' is 'unless ...'), e.g. a player may not build unless the player has "
     "completed a lap"),
    ("  a player may not build unless the player has completed 2 laps",
     "the player's laps is at least 2"),
    ("  a player may not build if the player has not completed three laps",
     "the player's laps is less than 3"),
    ("  a player may not build if the player has completed at least 4 laps",
     "the player's laps is at least 4"),
    ("  a player may not build if the player has completed more than 2 laps",
     "the player's laps is more than 2"),
    ("  a player may not build unless the player has completed 1 lap",
     "one lap is written 'a lap': the player has completed a lap"),
    ("  when a player rolls snake eyes: collect $5",
     "for snake eyes (1 and 1), test the value each die shows: when a player rolls if the "
     "first die is 1 and the second die is 1: ..."),
    ("  when a player rolls if boxcars: collect $5",
     "if the first die is 6 and the second die is 6"),
    ("  when a player rolls if the dice show sixes: collect $5",
     "for sixes (6 and 6)"),
    ("  when a player rolls two fours: collect $5", "for two fours (4 and 4)"),
    ("  when a player rolls if the dice show 6 and 5: collect $5",
     "if the first die is 6 and the second die is 5"),
    ("  when a player rolls 6 and 6: collect $5", "if the first die is 6 and the second die is 6"),
])
def test_hints_for_a_beginner_s_phrasings(line, hint):
    """A phrasing the language does not have gets its E002 and a hint at the language's."""
    d = error(HEADER + f"rule r:\n{line}\n")
    assert d.code == "E002" and hint in (d.hint or ""), (d.message, d.hint)


def test_a_particular_double_is_not_hinted_as_doubles():
    """`double sixes` (a misspelled `doubles` for the parser) is hinted as the value each die
    shows, since `doubles` is any double; a real misspelling still gets 'did you mean'."""
    for line, hint in (
            ("when a player rolls if the dice show double sixes", "'doubles' is any double; "
             "for double sixes (6 and 6), test the value each die shows: when a player rolls "
             "if the first die is 6 and the second die is 6: ..."),
            ("when a player rolls double 3", "if the first die is 3 and the second die is 3"),
            ("when a player rolls dubles", "did you mean 'doubles'?")):
        d = error(HEADER + f"rule r:\n  {line}: collect $5\n")
        assert d.code == "E006" and hint in d.hint, (d.message, d.hint)
        assert ("did you mean" in d.hint) == hint.startswith("did you mean"), d.hint
    d = error(HEADER + "rule r:\n  when a player rolls if the dice show doubles 3 times: "
              "collect $5\n")
    assert d.code == "E002" and d.hint is None


def test_a_time_word_before_the_effects_is_hinted_as_a_condition():
    """`when ... before the player has completed a lap:` is E005 with the condition's hint."""
    d = error(HEADER + 'rule r:\n  when a player passes "GO" before the player has completed '
              "a lap: collect $5\n")
    assert (d.code, d.hint) == ("E005", "a condition starts with 'if' or 'unless': write "
                                "'unless the player has completed a lap'")


@pytest.mark.parametrize("line", [
    "  a player may not build before the player has completed a lap",
    "  a player may not build after the player has completed a lap",
    "  a player may not build unless the player has completed 2 laps",
    "  a player may not build unless the player has not completed 2 laps",
    "  a player may not build unless the player has completed at most 2 laps",
    "  a player may not build unless the player has completed less than 2 laps",
    "  a player may not build unless the player has completed exactly 2 laps",
    "  a player may not build unless the player has not completed exactly 2 laps",
    "  a player may not build unless the owner has completed 1 lap",
    "  a player may not build unless the player has not completed 1 lap",
])
def test_a_hinted_condition_on_laps_parses(line):
    """The condition a laps hint writes is one the language has: put in place of the
    slip's, the line parses."""
    d = error(HEADER + f"rule r:\n{line}\n")
    written = d.hint.split(": ", 1)[1].removeprefix("write ").strip("'")
    head = line.split(" the player has" if " the player has" in line else " the owner has")[0]
    head = head.rsplit(" ", 1)[0]  # the action, without the word that starts the condition
    if not written.startswith(("if ", "unless ")):
        written = "if " + written
    items(f"rule r:\n{head} {written}\n")


@pytest.mark.parametrize("line", [
    "  when a player rolls snake eyes: collect $5",
    "  when a player rolls if the dice show double sixes: collect $5",
    "  when a player rolls if the dice show 6 and 5: collect $5",
])
def test_a_hinted_test_of_one_roll_parses(line):
    """The rule a one-roll hint writes parses, its `...` standing for the effects."""
    d = error(HEADER + f"rule r:\n{line}\n")
    written = d.hint[d.hint.index("when a player rolls"):].replace("...", "collect $5")
    items(f"rule r:\n  {written}\n")


def test_a_choice_of_effects_joined_by_commas_is_hinted_with_semicolons():
    """E308 for one option of several effects says that ';' separates options, and writes
    the options apart, also in a file long enough to be parsed in chunks; one effect alone
    keeps the general hint."""
    line = '  when a player lands on "GO": the player chooses one: collect $50, advance to "GO"\n'
    filler = "".join(f"rule r{i}:\n  when a player lands on \"GO\": collect ${i}\n"
                     for i in range(300))
    for before in ("", filler):
        d = error(HEADER + before + "rule last:\n" + line)
        assert d.code == "E308" and d.hint == (
            "options are separated by ';', and ',' joins the effects of one option: the player "
            'chooses one: collect $50; advance to "GO"'), d.hint
    assert len(filler) > 8 * 1024  # more than one chunk
    d = error(HEADER + 'rule r:\n  when a player lands on "GO": the player chooses one: '
              "collect $50\n")
    assert d.code == "E308" and d.hint.startswith("add '; OPTION'")


def test_an_amount_with_a_separator_is_hinted_in_a_setting():
    """`set starting_cash = $1,500` is E002 at the comma, hinting $1500."""
    d = error(HEADER + "set starting_cash = $1,500\n")
    assert (d.code, d.span.column, d.hint) == ("E002", 23,
                                               "write amounts without separators: $1500")


def test_several_unit_errors_are_reported_together():
    """Unit mistakes found while building the AST are collected, not stopped at the first."""
    with pytest.raises(RuleErrors) as e:
        parse_text(HEADER + "rule r:\n  when a turn starts: move $3, pay 5, collect 10%\n", "t")
    assert [(d.code, d.span.column) for d in e.value.diagnostics] == [
        ("E205", 28), ("E205", 36), ("E205", 47)]


def test_expected_tokens_in_plain_words():
    """A generic error lists what could come next in words, not terminal names."""
    d = error(HEADER + "set a = @\n")
    assert "an amount like $50" in d.hint and "MONEY" not in d.hint


# ---------------------------------------------------------------- the parser itself


def test_grammar_is_conflict_free(caplog):
    """Building the LALR tables reports no shift/reduce conflict (Lark resolves them silently)."""
    from lark import Lark, logger

    logger.setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG, logger="lark"):
            Lark(parse_module.grammar_text(), parser="lalr",
                 postlex=parse_module._Indenter(), debug=True)
    finally:
        logger.setLevel(logging.CRITICAL)
    assert not [r for r in caplog.records if "conflict" in r.getMessage().lower()]


def test_parser_is_built_once():
    """The LALR parser is cached per process."""
    assert parse_module._get_parser() is parse_module._get_parser()


def test_only_parse_imports_lark():
    """Lark stays behind the parse facade."""
    offenders = [p.name for p in (ROOT / "rulelang").rglob("*.py")
                 if p.name != "parse.py" and ("import lark" in p.read_text(encoding="utf-8")
                                              or "from lark" in p.read_text(encoding="utf-8"))]
    assert offenders == []


# ---------------------------------------------------------------- robustness


def _parse_or_rule_error(text: str) -> None:
    try:
        parse_text(text, "fuzz.rules")
    except (RuleError, RuleErrors) as e:
        for d in e.diagnostics:
            assert d.span.line >= 0 and d.message


_SOURCES = [p.read_text(encoding="utf-8") for p in RULESETS]
_ALPHABET = st.sampled_from(list('abrulesetwhn :,"$%.#\n\t\r 0123456789x_=-é\'@') + [
    "rule ", "when ", "board:\n", "  ", "\n  ", '"GO"', "$50", "to ", "a player lands on "])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ALPHABET, max_size=60).map("".join))
def test_random_text_raises_only_rule_errors(text):
    """Any text either parses or raises RuleError(s) with a location."""
    _parse_or_rule_error(text)
    _parse_or_rule_error(HEADER + text)


@st.composite
def _mutations(draw):
    text = draw(st.sampled_from(_SOURCES))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 12))
        insert = draw(st.lists(_ALPHABET, max_size=3).map("".join))
        text = text[:at] + insert + text[at + cut:]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations())
def test_mutated_rulesets_raise_only_rule_errors(text):
    """Small edits of the shipped rulebooks parse or raise RuleError(s), never anything else."""
    _parse_or_rule_error(text)


# ---------------------------------------------------------------- the lexer of each state


def _outcome(parser, text: str):
    """The tree of a text as nested tuples with every token's type and position, or the
    syntax error's kind, position and expected terminals."""
    def shape(node):
        if isinstance(node, parse_module.Token):
            return (node.type, str(node), node.line, node.column, node.end_line, node.end_column)
        return (node.data, tuple(shape(child) for child in node.children))

    parse_module._indenter.path, parse_module._indenter.offset = "t.rules", 0
    try:
        return shape(parser.parse(text, start="start"))
    except parse_module.UnexpectedInput as e:
        token = getattr(e, "token", None)
        return (type(e).__name__, e.line, e.column, token and (token.type, str(token)),
                sorted(getattr(e, "expected", None) or getattr(e, "allowed", None) or ()))
    except RuleError as e:  # the indenter's limits and E004
        return ("RuleError", e.diagnostic.code, e.diagnostic.span)


def _texts() -> list[str]:
    """Every ruleset, and each with a few characters changed (deterministically)."""
    import random

    texts = []
    for path in RULESETS + sorted((ROOT / "rulesets" / "house").glob("*.rules")):
        text = parse_module._normalize(path.read_text(encoding="utf-8"))
        texts.append(text)
        rng = random.Random(path.name)
        for _ in range(3):
            at = rng.randrange(len(text))
            texts.append(text[:at] + rng.choice('":$%#x9 \n\t,(') + text[at + 1:])
    return texts


@functools.cache
def _larks_parser():
    return parse_module._build_parser(lexer=None)


@pytest.mark.parametrize("hot", [1, 5, None, 10**9])
def test_the_lexer_of_each_state_gives_larks_tokens(monkeypatch, hot):
    """The states' lexers made on first use, matching one terminal at a time and then the
    alternation, give the tokens and errors of Lark's own contextual lexer."""
    if hot is not None:
        monkeypatch.setattr(parse_module, "_HOT", hot)
    ours, larks = parse_module._build_parser(), _larks_parser()
    assert type(ours.parser.lexer.lexer) is not type(larks.parser.lexer.lexer)
    texts = _texts() if hot in (None, 10**9) else _texts()[::4]
    for text in texts:
        assert _outcome(ours, text) == _outcome(larks, text), text[:80]


def _next_token(lexer, text: str):
    """The first token one state's lexer reads in `text`."""
    try:
        from lark.utils import TextSlice  # Lark 1.3 lexes a slice of the text
    except ImportError:
        slice_ = text
    else:
        slice_ = TextSlice(text, 0, len(text))
    return lexer.next_token(parse_module.lark.lexer.LexerState(slice_))


@pytest.mark.parametrize("larks", [False, True], ids=["ours", "larks"])
def test_no_state_lexes_a_keyword_at_the_start_of_a_longer_word(larks):
    """In every parser state, a keyword of letters followed by a letter, a digit or '_' (what
    a NAME may hold) is not that keyword: the whole word is one token, in both lexers."""
    parser = _larks_parser() if larks else parse_module._build_parser()
    lexers = parser.parser.lexer.lexer.lexers
    keywords = parse_module._keywords(parser)
    checked = 0
    for state, actions in parser.parser.parser.parser.parse_table.states.items():
        for name in actions:
            literal = parse_module._literal(parser, name)
            if literal not in keywords:
                continue
            for word in (literal + "s", literal + "9", literal + "_"):
                token = _next_token(lexers[state], word + " ")
                assert str(token) == word, (state, name, token.type, str(token))
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("line, code, word, hint", [
    ("  a player may not build unless the player has completed at least 2 laps", "E002",
     "at", "the player's laps is at least 2"),
    ("  a player may not build after the player has completed a lap", "E002", "after",
     "write 'if the player has completed a lap'"),
    ('  when a player lands on "GO" if theplayer is in jail: collect $5', "E002", "theplayer",
     None),
    ('  when a player lands on "GO": pay 10 timesthe dice total', "E006", "timesthe",
     "did you mean 'times'?"),
    ('  when a player lands on "GO" if the player is in jailhouse: collect $5', "E006",
     "jailhouse", "did you mean 'jail'?"),
    ('  when a player lands on "GO" if the player is in jail and_more: collect $5', "E005",
     "and_more", None),
    ('  when a player lands on "GO" if the player is in jail or2: collect $5', "E005", "or2",
     None),
])
def test_an_unexpected_word_is_reported_whole(line, code, word, hint):
    """A word that starts with a keyword the parser expects is that word, reported whole at its
    own column (never the keyword and the rest of the word, nor read as the two)."""
    d = error(HEADER + f"rule r:\n{line}\n")
    column = line.index(f" {word}") + 2
    assert (d.code, d.span.line, d.span.column, d.span.end_column) == \
        (code, 3, column, column + len(word)), d.message
    assert f"'{word}'" in d.message
    if hint is not None:
        assert hint in d.hint


@pytest.mark.parametrize("line", [
    "  when a player rolls 7: collect $5",
    "  when a player rolls if the dice show double sixes: collect $5",
    "  a player may not build after the player has completed a lap",
])
def test_tokens_of_a_text_that_does_not_parse_raise_parse_text_s_error(line):
    """`tokens` of a text that does not parse raises the diagnostic `parse_text` raises, with
    what the parser accepts where it stopped."""
    text = HEADER + f"rule r:\n{line}\n"
    with pytest.raises(RuleError) as e:
        parse_module.tokens(text, "t.rules")
    assert e.value.diagnostic == error(text)


def test_a_keyword_out_of_place_is_no_misspelling():
    """A keyword of the language where another is expected is E002 with what was expected
    (`at` where `a` is), not E006 'unknown keyword' with a close keyword."""
    d = error(HEADER + "rule r:\n  a player may not build unless the player has completed at "
              "least 2 laps\n")
    assert (d.code, d.span.column, d.message) == ("E002", 58, "expected 'a', found 'at'")
    d = error(HEADER + 'rule r:\n  when a player lands on "GO": pay $50 to them\n')
    assert d.code == "E002" and d.message.endswith("found 'to'"), d.message
