"""The packed `Span` behaves as the attrs class it replaced: fields, equality, order, hash."""

from __future__ import annotations

import copy
import pickle

import attrs
import pytest

from rulelang.ast import Span


def test_fields_read_back_as_given():
    """The five fields come back as given, negative and large ones included."""
    for fields in [("a.rules", 1, 1, 1, 2), ("b", 0, 0, 0, 0), ("<x>", -1, -1, -1, 0),
                   ("c", 70_000, 5, 70_003, 16_000_000), ("d", 9, 40, 3, 1)]:
        span = Span(*fields)
        assert (span.file, span.line, span.column, span.end_line, span.end_column) == fields
        assert repr(span) == (f"Span(file={fields[0]!r}, line={fields[1]!r}, "
                              f"column={fields[2]!r}, end_line={fields[3]!r}, "
                              f"end_column={fields[4]!r})")


def test_equality_hash_and_order_follow_the_five_fields():
    """Equal fields make equal spans of equal hash; order is that of the field tuples."""
    spans = [Span(f, line, col, end_line, end_col) for f in ("b", "a")
             for line in (2, 1) for col in (3, 1) for end_line in (line, line + 1)
             for end_col in (9, 4)]
    key = lambda s: (s.file, s.line, s.column, s.end_line, s.end_column)  # noqa: E731
    assert sorted(spans) == sorted(spans, key=key)
    for a in spans:
        b = Span(*key(a))
        assert a == b and hash(a) == hash(b) and not a != b and a <= b and a >= b
        assert len({x for x in spans if x == a}) == 1
    assert Span("a", 1, 1, 1, 2) != ("a", 1, 1, 1, 2)


def test_frozen_replace_and_copies():
    """A span cannot be changed; replace, copy and pickle give equal (or changed) spans."""
    span = Span("a", 3, 4, 5, 6)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        span.line = 4  # type: ignore[misc]
    assert span.replace(line=4, end_column=1) == Span("a", 4, 4, 5, 1)
    assert copy.deepcopy(span) == span == pickle.loads(pickle.dumps(span))
