"""`@node`: a frozen, slotted class with attrs' behaviour, built without generating code.

attrs writes and compiles the methods of every class it decorates when the class is created;
for the 118 classes of `rulelang.ast` that took about a third of `rulelang check`'s start-up.
A node class gets the same behaviour from shared functions instead, and an `__init__` made
from a template compiled once for each number of fields: the fields in order (those with a
default last), `==` and `hash` over the fields compared (not the span), attrs' `repr`,
`__match_args__`, no assignment after construction (`attrs.exceptions.FrozenInstanceError`),
pickling and copying. `__attrs_attrs__` is made on first use, so `attrs.fields`, `attrs.has`
and `attrs.evolve` work on nodes as on any attrs class. `typing.dataclass_transform` tells
type checkers (mypy, hence mypyc) what the decorator makes.
"""

from __future__ import annotations

from operator import attrgetter, itemgetter
from types import CodeType, FunctionType
from typing import Any, Callable, TypeVar, dataclass_transform, overload

__all__ = ["node", "field"]

_T = TypeVar("_T")
_C = TypeVar("_C", bound=type)
_MISSING: Any = object()


class _Field:
    """What `field(...)` leaves in a class body until `@node` reads it."""

    __slots__ = ("default", "eq")

    def __init__(self, default: object, eq: bool) -> None:
        self.default = default
        self.eq = eq


@overload
def field(*, default: _T, eq: bool = True) -> _T: ...
@overload
def field(*, eq: bool = True) -> Any: ...
def field(*, default: object = _MISSING, eq: bool = True) -> Any:
    """A field's options, as attrs.field: its default, and whether `==` and hash use it."""
    return _Field(default, eq)


def _frozen(self, name, value):
    from attrs.exceptions import FrozenInstanceError

    raise FrozenInstanceError()


def _frozen_del(self, name):
    from attrs.exceptions import FrozenInstanceError

    raise FrozenInstanceError()


def _reduce(self):
    return (self.__class__, self.__class__._node_values(self))


def _repr(self) -> str:
    cls = self.__class__
    values = ", ".join(f"{name}={getattr(self, name)!r}" for name in cls._node_names)
    return f"{cls.__qualname__.rsplit('>.', 1)[-1]}({values})"


class _AttrsFields:
    """`__attrs_attrs__`, built the first time something asks for it (attrs.fields, has)."""

    def __get__(self, instance, cls):
        import attrs

        specs = cls._node_specs
        names = tuple(name for name, _, _, _ in specs)
        # A tuple whose items are also attributes by name, as attrs' own.
        tuple_class = type(f"{cls.__name__}Attributes", (tuple,), {
            "__slots__": (),
            **{name: property(itemgetter(i)) for i, name in enumerate(names)},
        })
        value = tuple_class(
            attrs.Attribute(name=name, default=attrs.NOTHING if default is _MISSING else default,
                            validator=None, repr=True, cmp=None, hash=None, init=True,
                            inherited=False, type=annotation, kw_only=False, eq=eq,
                            order=eq, alias=name)
            for name, default, eq, annotation in specs)
        type.__setattr__(cls, "__attrs_attrs__", value)
        return value


class _Signature:
    """`__signature__` for inspect (and hypothesis), built on first use."""

    def __get__(self, instance, cls):
        import inspect

        parameters = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=inspect.Parameter.empty if default is _MISSING
                                        else default)
                      for name, default, _, _ in cls._node_specs]
        return inspect.Signature(parameters)


_TEMPLATES: dict[int, CodeType] = {}


def _template(count: int) -> CodeType:
    """The code of `__init__(self, a0, ..., a<count-1>)` setting placeholder fields: compiled
    once per number of fields, then given each class's names (`_make_init`)."""
    code = _TEMPLATES.get(count)
    if code is None:
        params = "".join(f", a{i}" for i in range(count))
        body = "".join(f"    setattr(self, '\\0f{i}', a{i})\n" for i in range(count))
        namespace: dict[str, Any] = {}
        exec(f"def __init__(self{params}):\n" + (body or "    pass\n"), {}, namespace)
        code = _TEMPLATES[count] = namespace["__init__"].__code__
    return code


def _make_init(cls, names: tuple[str, ...], defaults: tuple) -> Callable:
    """`__init__(self, *fields)`, as attrs writes it: the fields by position or name, the last
    len(defaults) optional; made from the template of its number of fields (no compiling)."""
    template = _template(len(names))
    marks = {f"\0f{i}": name for i, name in enumerate(names)}
    code = template.replace(
        co_varnames=("self",) + names,
        co_consts=tuple(marks.get(c, c) if isinstance(c, str) else c
                        for c in template.co_consts),
        co_name="__init__", co_qualname=f"{cls.__qualname__}.__init__")
    return FunctionType(code, {"setattr": object.__setattr__}, "__init__", defaults or None)


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    if not names:
        return lambda self: ()
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda self: (get(self),)
    return attrgetter(*names)


def _make_eq(key: Callable[[Any], tuple]) -> Callable:
    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    return __eq__


def _make_hash(key: Callable[[Any], tuple], salt: int) -> Callable:
    def __hash__(self):
        return hash((salt,) + key(self))

    return __hash__


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def node(cls: _C) -> _C:
    """The class as a frozen slotted node (the module's docstring says what it gets)."""
    own = cls.__dict__
    specs = []
    for name, annotation in own.get("__annotations__", {}).items():
        value = own.get(name, _MISSING)
        default, eq = (value.default, value.eq) if isinstance(value, _Field) else (value, True)
        if default is _MISSING and specs and specs[-1][1] is not _MISSING:
            raise TypeError(f"{cls.__name__}: field '{name}' without a default follows one "
                            "with a default")
        specs.append((name, default, eq, annotation))
    names = tuple(name for name, _, _, _ in specs)
    defaults = tuple(default for _, default, _, _ in specs if default is not _MISSING)
    key = _key(tuple(name for name, _, eq, _ in specs if eq))
    body = {k: v for k, v in own.items() if k not in names and k not in ("__dict__",
                                                                           "__weakref__")}
    values = _key(names)
    body.update(
        __slots__=names,
        __match_args__=names,
        __init__=_make_init(cls, names, defaults),
        __eq__=_make_eq(key),
        __hash__=_make_hash(key, hash(cls.__qualname__)),
        __repr__=_repr,
        __setattr__=_frozen,
        __delattr__=_frozen_del,
        __reduce__=_reduce,
        __attrs_attrs__=_AttrsFields(),
        __signature__=_Signature(),
        _node_names=names,
        _node_specs=tuple(specs),
        _node_values=staticmethod(values),
    )
    return type(cls)(cls.__name__, cls.__bases__, body)
