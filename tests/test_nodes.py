"""`@node` classes (rulelang.nodes) behave as the attrs classes they replace."""

from __future__ import annotations

import copy
import pickle

import attrs
import pytest

from rulelang import ast
from rulelang.nodes import field, node

WHERE = ast.Span("t.rules", 3, 5, 3, 9)


@node
class Pair:
    """A node of two fields, the second with a default, and a span that == ignores."""

    left: int
    right: str = "r"
    span: ast.Span = field(eq=False, default=ast.NOWHERE)


@attrs.frozen(weakref_slot=False)
class AttrsPair:
    left: int
    right: str = "r"
    span: ast.Span = attrs.field(eq=False, default=ast.NOWHERE)


def test_construction_binds_like_attrs():
    """Positional, keyword and default arguments; the same TypeErrors as a Python function."""
    assert Pair(1).right == "r" and Pair(1, "x").right == "x" and Pair(right="y", left=2).left == 2
    assert Pair(1, span=WHERE).span is WHERE
    for args, kwargs in [((), {}), ((1, 2, 3, 4), {}), ((1,), {"left": 2}), ((1,), {"wrong": 2})]:
        with pytest.raises(TypeError):
            Pair(*args, **kwargs)
        with pytest.raises(TypeError):
            AttrsPair(*args, **kwargs)


def test_equality_hash_and_repr_are_those_of_attrs():
    """== and hash ignore the span, compare the class; repr names every field as attrs does."""
    assert Pair(1, span=WHERE) == Pair(1) and hash(Pair(1, span=WHERE)) == hash(Pair(1))
    assert Pair(1) != Pair(2) and Pair(1) != AttrsPair(1) and Pair(1) != (1, "r")
    assert len({Pair(1), Pair(1, span=WHERE), Pair(1, "x")}) == 2
    assert repr(Pair(1, span=WHERE)) == repr(AttrsPair(1, span=WHERE)).replace("AttrsPair",
                                                                                "Pair")


def test_nodes_are_frozen_and_slotted():
    """No assignment, no deletion, no instance dict, no weak-reference slot."""
    pair = Pair(1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        pair.left = 2
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del pair.left
    assert not hasattr(pair, "__dict__") and Pair.__slots__ == ("left", "right", "span")
    assert Pair.__weakrefoffset__ == 0


def test_attrs_functions_copying_and_match_work_on_nodes():
    """attrs.fields, has, evolve; pickle and copy; positional match patterns."""
    assert attrs.has(Pair) and [f.name for f in attrs.fields(Pair)] == ["left", "right", "span"]
    assert attrs.fields(Pair).right.default == "r" and not attrs.fields(Pair).span.eq
    assert attrs.fields(Pair).left.default is attrs.NOTHING
    assert attrs.fields_dict(Pair)["left"].eq
    pair = Pair(1, "x", span=WHERE)
    assert attrs.evolve(pair, left=5) == Pair(5, "x") and attrs.evolve(pair).span is WHERE
    for copied in (pickle.loads(pickle.dumps(pair)), copy.deepcopy(pair), copy.copy(pair)):
        assert copied == pair and copied.span == WHERE
    match pair:
        case Pair(left, right):
            assert (left, right) == (1, "x")
        case _:
            pytest.fail("no match")


def test_every_ast_node_is_a_node():
    """The AST's classes are all @node classes, each with a span but the Program."""
    classes = [c for c in vars(ast).values() if isinstance(c, type) and attrs.has(c)]
    assert len(classes) > 100
    for cls in classes:
        assert "__init__" in vars(cls) and cls.__match_args__ == tuple(cls.__slots__)
        assert "span" in cls.__slots__ or cls is ast.Program, cls
