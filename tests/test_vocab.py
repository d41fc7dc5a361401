"""The vocabulary is declared once: the grammar, the builder, the checker, the AST's unions and
docs/language.md know exactly the primitives of rulelang.vocab, no more and no fewer."""

from __future__ import annotations

import ast as pyast
import importlib
import re
import typing
from pathlib import Path

import attrs
import pytest

from rulelang import ast, check_flow, parse, vocab
from rulelang.diagnostics import RuleError, RuleErrors
from rulelang.vocab import docs as vocab_docs
from rulelang.vocab.grammar import MARKER
from rulelang.vocab.spec import INLINE_ARTICLE, POSSESSIVE

ROOT = Path(__file__).resolve().parent.parent
HEADER = 'rulebook "T"\n'


def _grammar_aliases() -> dict[str, set[str]]:
    """Alias names of the built parser, by the nonterminal they are alternatives of."""
    out: dict[str, set[str]] = {}
    for rule in parse._get_parser().rules:
        if rule.alias:
            out.setdefault(rule.origin.name, set()).add(str(rule.alias))
    return out


def test_every_role_has_its_place_in_the_grammar():
    """grammar.lark has one `//@vocab ROLE` line for each role, and no other."""
    text = parse._GRAMMAR.read_text(encoding="utf-8")
    assert sorted(MARKER.findall(text)) == sorted(vocab.ROLES)


def test_the_grammar_knows_exactly_the_declared_forms():
    """The alternatives of the vocabulary's nonterminals are the declared expansions, each with
    its own alias; grammar.lark writes none of them by hand."""
    aliases = _grammar_aliases()
    for role, nonterminal in vocab.ROLES.items():
        declared = {a for a, e in vocab.EXPANSIONS.items() if e.primitive.role == role}
        assert aliases.get(nonterminal, set()) == declared, role
    raw = parse._GRAMMAR.read_text(encoding="utf-8")
    written = set(re.findall(r"->\s*(\w+)", raw))
    assert not written & set(vocab.EXPANSIONS), "grammar.lark writes a primitive's alias"
    assert not written & set(vocab.BY_NAME)


def test_aliases_reach_the_generic_builder():
    """No alias of a primitive is shadowed by a builder method or a grammar rule's name, and
    every other alias of the grammar has a builder."""
    builder = parse._Builder
    rules = {r.origin.name for r in parse._get_parser().rules}
    for alias in vocab.EXPANSIONS:
        assert getattr(builder, alias, None) is None, alias
        assert alias not in rules, alias
    others = {str(r.alias) for r in parse._get_parser().rules if r.alias} - set(vocab.EXPANSIONS)
    defaults = set(parse._FIXED) | set(parse._RENAMES) | set(parse._BUILDINGS) \
        | set(parse._AMOUNTS)
    assert {a for a in others if getattr(builder, a, None) is None} <= defaults


def test_every_parameter_type_has_a_conversion():
    """The builder converts every declared parameter type, and no other."""
    assert set(parse._CONVERT) == set(vocab.TYPES)


def test_declarations_are_well_formed():
    """Names are unique across primitives and settings; every primitive has its documentation
    line and an example; a rest parameter comes last; fixed fields are fields of the node."""
    names = [p.name for p in vocab.PRIMITIVES]
    assert len(names) == len(set(names))
    assert not set(names) & set(vocab.SETTINGS)
    for p in vocab.PRIMITIVES:
        assert p.role in vocab.ROLES and p.doc and p.example, p.name
        fields = set(attrs.fields_dict(p.node)) if p.node is not None else set()
        for param in p.params:
            assert param.type in vocab.TYPES, (p.name, param.name)
            assert p.node is None or param.name in fields, (p.name, param.name)
        for form in p.forms:
            assert set(form.fixed) <= fields, p.name
    for e in vocab.EXPANSIONS.values():
        rest = [vocab.TYPES[s.type].rest for s in e.slots]
        assert True not in rest[:-1], e.alias


def _nodes(example: str) -> list:
    """Every node of the example: a `when` line, or a card line (in a deck)."""
    text = f'deck "D":\n  {example}\n' if example.startswith("card") else \
        f"rule r:\n  {example}\n"
    file = parse.parse_text(HEADER + text, "example.rules")
    out = []
    stack = [file.items]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(node)
        elif attrs.has(type(node)):
            out.append(node)
            stack.extend(getattr(node, f.name) for f in attrs.fields(type(node)))
    return out


@pytest.mark.parametrize("primitive", vocab.PRIMITIVES, ids=lambda p: p.name)
def test_each_example_builds_its_primitive(primitive):
    """A primitive's example parses, and the builder makes a node of that primitive from it
    (a modifier: the node it modifies, with the field set)."""
    nodes = _nodes(primitive.example)
    if primitive.modifies is not None:
        cls, field = primitive.modifies
        assert any(isinstance(n, cls) and getattr(n, field) != attrs.fields_dict(cls)[field]
                   .default for n in nodes) or any(isinstance(n, ast.MultiplyRent)
                                                   for n in nodes)
        return
    assert primitive in [vocab.primitive_of(n) for n in nodes]


@pytest.mark.parametrize("alias", sorted(vocab.EXPANSIONS))
def test_each_form_parses(alias):
    """Each way of writing each form parses, with sample values in its slots, to a node of its
    primitive (or an error of units, never a syntax error)."""
    e = vocab.EXPANSIONS[alias]
    samples = {"qty": "$5", "_amount_choice": "$5 or 10% of worth", "PERCENT": "10%",
               "MULT": "x2", "STRING": '"GO"', "NAME": "street", "target": '"GO"',
               "token_ref": "a token", "NOT": "not", "expr": "$5", "who": "player",
               "_thing": "houses", "cmp": "at least", "ordinal": "first",
               "(MONEY | INT | PERCENT)": "$5", "cond_body": "the player is in jail",
               "cond": "the player is in jail and not the space has a house",
               "_ELSE effect": ", else nothing"}
    words = []
    for item in e.items:
        if item is None or item == INLINE_ARTICLE:
            words.append("a")
        elif isinstance(item, vocab.Slot):
            t = vocab.TYPES[item.type]
            words.append("3" if item.type in ("count", "steps") else samples[t.grammar])
        else:
            words.append(item)
    line = " ".join(words).replace(" ,", ",").replace(f" {POSSESSIVE}", POSSESSIVE)
    p = e.primitive
    if p.role == "event":
        text = f"when {line}: nothing"
    elif p.role == "condition":
        text = f"when a turn starts if {line}: nothing"
    elif p.role in ("target", "token"):
        text = f"when a player {'lands on' if p.role == 'target' else 'meets'} {line}: nothing"
    elif p.role == "amount":
        text = f"when a turn starts: pay $1 or {line}"
    elif p.role == "factor":
        text = f"when a turn starts if {line} is {line}: nothing"
    elif p.role == "action":
        text = f"a player may not {line}"
    elif p.modifies is not None:
        text = f"when a turn starts: advance to the nearest street, {line}"
    else:
        text = f"when a turn starts: {line}"
    try:
        nodes = _nodes(text)
    except (RuleError, RuleErrors) as err:
        codes = {d.code for d in err.diagnostics}
        assert codes <= {"E205"}, (text, codes)
        return
    if p.node is not None and p.modifies is None:
        assert p in [vocab.primitive_of(n) for n in nodes], text


def _unions() -> dict[str, set]:
    return {
        "event": set(typing.get_args(ast.Event)),
        "effect": set(typing.get_args(ast.Effect)),
        "amount": set(typing.get_args(ast.Amount)) - {ast.Money},
        "target": set(typing.get_args(ast.SpaceTarget)),
        "condition": set(typing.get_args(ast.Atom)),
        "factor": set(typing.get_args(ast.Factor)),
        "token": {ast.TokenRef},
        "action": {ast.Action},
    }


def test_the_ast_unions_are_the_declared_nodes():
    """ast.py's unions of events, effects, amounts and targets hold the declared nodes."""
    for role, classes in _unions().items():
        declared = {p.node for p in vocab.of_role(role) if p.node is not None}
        assert classes == declared, role


# AST classes that are not the vocabulary's: a file's structure, equipment and values.
_STRUCTURE = {"File", "Extends", "Item", "Rule", "Remove", "Option", "Set", "When", "Cite",
              "Board", "SpaceDecl", "Die", "Deck", "Card", "TokenDecl", "SideDecl", "Rename",
              "Pot", "Currency", "Program", "Span", "Money", "Count", "Percent", "Flag", "Word",
              "Text", "Range", "Name", "Value", "Statement", "Event", "Effect", "Amount",
              "SpaceTarget", "NOWHERE", "Choice", "DiceDecl",
              # the operators of expressions and conditions (grammar.lark's skeleton)
              "Plus", "Times", "PercentOf", "PerOwned", "Not", "And", "Or", "Expr", "Cond",
              "Atom", "Factor", "Permission"}


def _source(module: str) -> str:
    """The source of a module of rulelang, read beside it: a module of the compiled engine is
    an extension (.so) whose `__file__` is no source."""
    root = Path(importlib.import_module("rulelang").__file__).parent.parent
    return root.joinpath(*module.split(".")).with_suffix(".py").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["rulelang.parse", "rulelang.check", "rulelang.check_flow",
                                  "rulelang.check_tokens"])
def test_the_stages_know_no_undeclared_primitive(name):
    """Every AST class the parser or the checker names is declared in the vocabulary, or is
    part of a file's structure."""
    declared = {p.node.__name__ for p in vocab.PRIMITIVES if p.node is not None}
    tree = pyast.parse(_source(name))
    named = {n.attr for n in pyast.walk(tree) if isinstance(n, pyast.Attribute)
             and isinstance(n.value, pyast.Name) and n.value.id == "ast"}
    assert named <= declared | _STRUCTURE, named - declared - _STRUCTURE


def test_the_checker_knows_every_declared_effect():
    """The flow analysis has the money of every declared effect, and the checker walks each
    primitive's example without raising."""
    for p in vocab.of_role("effect"):
        if p.node is not None:
            assert p.node in check_flow.MONEY_FLOWS, p.name
    for p in vocab.PRIMITIVES:
        for node in _nodes(p.example):
            vocab.facts_of(node)


def test_the_reference_tables_are_the_declarations():
    """docs/language.md's tables are what `python -m rulelang.vocab.docs --write` makes of the
    declarations: every primitive and setting, and nothing else."""
    page = vocab_docs.PAGE.read_text(encoding="utf-8")
    assert vocab_docs.render(page) == page, \
        "run: python -m rulelang.vocab.docs --write"
    blocks = set(re.findall(r"<!-- vocab:(\w+) -->", page))
    assert blocks == set(vocab_docs.tables())
    for p in vocab.PRIMITIVES:
        for form in vocab.shown_forms(p):
            assert f"`{form}`" in page, form


def test_explain_finds_every_primitive_and_setting():
    """`rulelang explain` finds each primitive by its name and each setting by its own, and
    prints the declaration's forms and documentation line."""
    from rulelang.explain import describe, find

    for p in vocab.PRIMITIVES:
        assert find(p.name) == [p]
        text = describe(p)
        assert p.doc[1:] in text and all(f in text for f in vocab.shown_forms(p))
    for name, spec in vocab.SETTINGS.items():
        assert find(name) == [spec] and spec.doc in describe(spec)


@pytest.mark.parametrize("words, name", [
    ("pay rent", "pay_rent"), ("pay rent x2", "pay_rent"), ('a player lands on "GO"', "lands"),
    ("the owner is not in jail", "in_jail"), ("collect $50 from each player", "collect"),
    ("pay $200 or 10% of worth", "pay_choice"), ("move back 3", "move"),
    ("the number of houses in the bank", "bank_count"), ("the player's cash", "possessive"),
    ("the player's cash is at least $5", "compare"),
])
def test_explain_finds_a_primitive_by_its_use(words, name):
    """A primitive written as in a rule is found too."""
    from click.testing import CliRunner

    from rulelang.explain import find
    from rulelang_cli.main import main

    assert [p.name for p in find(words)] == [name]
    result = CliRunner().invoke(main, ["explain", words])
    assert result.exit_code == 0 and vocab.BY_NAME[name].doc[1:] in result.output


@pytest.mark.parametrize("words, names", [
    ("advance to the next", ["advance_next"]), ("may not build", ["may_build"]),
    ("a player may not mortgage", ["may_mortgage"]), ("completed", ["lap"]),
    ("pot", ["pay_into", "collect_pot", "pot_amount"]),
])
def test_explain_finds_a_primitive_by_part_of_its_form(words, names):
    """The first words of a form, or a word in a few forms, find those primitives; the words
    of a permission find its action."""
    from rulelang.explain import find

    assert sorted(p.name for p in find(words)) == sorted(names)


@pytest.mark.parametrize("words", ["choose", "permission", "unless", "else"])
def test_explain_tells_the_words_of_the_structure(words):
    """A choice, a permission, a condition's joints and `else` have no primitive of their
    own: explain says what they are and which section of the reference tells more."""
    from click.testing import CliRunner

    from rulelang_cli.main import main

    result = CliRunner().invoke(main, ["explain", words])
    assert result.exit_code == 0 and "More: rulelang explain " in result.output


def test_explain_refuses_what_is_neither_a_code_nor_a_word():
    """A word the language does not have is a usage error with a hint, no traceback."""
    from click.testing import CliRunner

    from rulelang_cli.main import main

    result = CliRunner().invoke(main, ["explain", "pay rnet"])
    assert result.exit_code == 2 and "'pay rent'" in result.output and "pay_rent" in result.output
    result = CliRunner().invoke(main, ["explain", '"unclosed'])
    assert result.exit_code == 2 and "Traceback" not in result.output


# ---------------------------------------------------------------- the compiled forms

# The compilers, in which each primitive's compiled form is registered (vocab/compiled.py).
_COMPILERS = ("rulelang.compile", "rulelang.evaluate", "rulelang.compile_course",
              "rulelang.engine.moves")
# Declared primitives with no compiled form of their own, by design: a target or a token
# reference is resolved by its event's compiled form (`_Env.matching`, `_Env.token`), and
# `rent dice xN` is a field of the nearest advance it modifies (no node of its own). The
# settings are folded into engine/settings.py's `Settings`, whose fields that module asserts
# equal to the declared settings.
_NOT_COMPILED_ROLES = {"target", "token"}


def test_the_compiler_knows_exactly_the_declared_primitives():
    """The table of compiled forms holds one factory for each declared event, condition,
    effect, amount, value and action, and nothing else; the roles without one are the
    targets and token references, and the modifier without a node."""
    from rulelang import compile as compile_module  # noqa: F401  (registers every form)
    from rulelang.vocab.compiled import COMPILED, ROLES

    assert set(ROLES) | _NOT_COMPILED_ROLES == set(vocab.ROLES)
    declared = {p.name for p in vocab.PRIMITIVES if p.role in ROLES and p.node is not None}
    assert not set(COMPILED) - declared, \
        f"compiled forms of undeclared primitives: {sorted(set(COMPILED) - declared)}"
    assert not declared - set(COMPILED), \
        f"declared primitives with no compiled form: {sorted(declared - set(COMPILED))}"
    without = {p.name for p in vocab.PRIMITIVES if p.name not in COMPILED}
    assert without == {p.name for p in vocab.PRIMITIVES
                       if p.role in _NOT_COMPILED_ROLES or p.node is None}
    assert {p.name for p in vocab.PRIMITIVES if p.node is None} == {"rent_dice"}


@pytest.mark.parametrize("name", _COMPILERS)
def test_the_compilers_pick_no_form_by_hand(name):
    """The compilers name no AST class but the declared primitives' and the structure's, and
    pick no compiled form with a `match` statement: every form is found by its name."""
    declared = {p.node.__name__ for p in vocab.PRIMITIVES if p.node is not None}
    tree = pyast.parse(_source(name))
    named = {n.attr for n in pyast.walk(tree) if isinstance(n, pyast.Attribute)
             and isinstance(n.value, pyast.Name) and n.value.id == "ast"}
    assert named <= declared | _STRUCTURE, named - declared - _STRUCTURE
    matches = [n.lineno for n in pyast.walk(tree) if isinstance(n, pyast.Match)
               and any(isinstance(c.pattern, pyast.MatchClass) and _names_ast(c.pattern.cls)
                       and c.pattern.cls.attr in declared for c in n.cases)]
    assert not matches, f"a `match` on primitives' nodes at lines {matches}"


def _names_ast(node) -> bool:
    return isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) \
        and node.value.id == "ast"


def test_each_example_compiles_through_the_table():
    """Every primitive's example compiles in a rulebook, its form found in the table."""
    from rulelang import compile as compile_module  # noqa: F401  (registers every form)
    from rulelang.vocab.compiled import COMPILED, form_of

    for p in vocab.PRIMITIVES:
        for node in _nodes(p.example):
            if vocab.primitive_of(node) is p and p.name in COMPILED:
                assert form_of(node) is COMPILED[p.name]


FIRING = "../tests/data/permissions/firing_context.rules"  # from rulesets/


def test_a_token_on_the_space_is_the_lot_acted_on_not_where_the_player_stands():
    """`if the space holds token T` in a permission tests the lot the action is on: the
    mortgage of the lot holding the token is refused wherever the player stands, that of
    another lot allowed even while the player stands on the token's space."""
    from scenario import refused, scenario

    from rulelang.engine.actions import Mortgage, why_refused

    text = 'a player may not mortgage a street if the space holds token "Ring"'
    streets = {"Vermont Avenue": 0, "Connecticut Avenue": 0}
    game = scenario(name=FIRING, owners=streets, tokens={"Ring": "Vermont Avenue"},
                    positions={0: "GO"})
    vermont = game.rulebook.space("Vermont Avenue").index
    connecticut = game.rulebook.space("Connecticut Avenue").index
    assert refused(game, 0, Mortgage(vermont), "ring_bearer").message == text
    game = scenario(name=FIRING, owners=streets, tokens={"Ring": "Vermont Avenue"},
                    positions={0: "Vermont Avenue"})
    assert why_refused(game, 0, Mortgage(connecticut)) is None
    assert refused(game, 0, Mortgage(vermont), "ring_bearer").message == text


def test_the_partner_of_a_trade_in_jail_or_before_a_lap():
    """`the partner is in jail` and `the partner has completed a lap` read the other player
    of the trade, not the player nor the deed's owner."""
    from scenario import refused, scenario

    from rulelang.engine.actions import Trade, why_refused

    game = scenario(name=FIRING, owners={"Vermont Avenue": 0, "Bill the Pony": 0},
                    in_jail={1: 0})
    vermont = game.rulebook.space("Vermont Avenue").index
    pony = game.rulebook.space("Bill the Pony").index
    game.state.laps[0] = 1
    assert refused(game, 0, Trade(1, give=(vermont,)), "ring_bearer").message == \
        "a player may not trade a street if the partner is in jail"
    assert why_refused(game, 0, Trade(2, give=(vermont,))) is None
    assert refused(game, 0, Trade(2, give=(pony,)), "ring_bearer").message == \
        "a player may not trade a railroad unless the partner has completed a lap"
    game.state.laps[2] = 1
    assert why_refused(game, 0, Trade(2, give=(pony,))) is None


@pytest.mark.parametrize("primitive", vocab.of_role("factor") + vocab.of_role("amount"),
                         ids=lambda p: p.name)
def test_messages_write_a_value_by_its_declared_form(primitive):
    """units.shown writes each value back as its example writes it, from its declaration."""
    from rulelang import units

    nodes = [n for n in _nodes(primitive.example) if vocab.primitive_of(n) is primitive]
    assert nodes and all(units.shown(n) in primitive.example for n in nodes)


@pytest.mark.parametrize("word, form", [("cite", 'cite "source", "section"'),
                                        ("extends", 'extends "file.rules"'),
                                        ("before", "before TARGET rule NAME:"),
                                        ("rule", "rule NAME:")])
def test_explain_knows_the_words_of_a_files_structure(word, form):
    """`rulelang explain cite`: the structure's words, as the language server's hover has
    them, before any primitive that contains the word."""
    from click.testing import CliRunner
    from rulelang_cli.main import main

    result = CliRunner().invoke(main, ["explain", word])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(form) and "(more: rulelang explain " in result.output
