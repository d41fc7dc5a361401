"""Saving a game between two turns and resuming it exactly: one cattrs converter, JSON, a version.

A save holds everything the rest of the game depends on: the state, the generator's state, the
game's progress counters, each agent's own state, and which rulebook it is (path, options and a
digest of its files). Writing is atomic: a temporary file, then a rename. Reading checks the
format, the version, a checksum (which detects accidental damage only: anyone can reseal an
edited save), the structure, the rulebook, and the meaning of the game against the rulebook and
the rules' invariants (save_check.py); any problem is a `SaveError`, raised before anything is
written anywhere.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import random
import tempfile
from typing import Any, Callable, Sequence

import attrs
import cattrs
from attrs import define
from cattrs.preconf.json import make_converter

from . import native, save_check
from .diagnostics import json_safe
from .files import not_regular
from .engine.agents import AGENTS
from .engine.game import MAX_SEED, MIN_SEED, Game
from .engine.state import State
from .engine.tables import Rulebook

FORMAT = "rulelang-save"
VERSION = 1  # the newest save format this version reads and the one it writes
_HEAD = f'{{"format":"{FORMAT}"'  # how every save this module writes begins

# The game's own fields that the rest of a game depends on, beyond its state and generator.
PROGRESS = ("over", "end_reason", "winner", "version", "seat_version", "last_roll",
            "dice_total")


class SaveError(Exception):
    """A game that cannot be saved, or a save that cannot be resumed; the message says why."""


@define
class RulebookRef:
    """Which rulebook a game plays: its file, the options switched on, a digest of its files."""

    title: str
    path: str
    options: list[str]
    parameters: list[str]
    digest: str


@define
class Progress:
    over: bool
    end_reason: str | None
    winner: int | None
    # a game saved between two turns is at the turn's hand: the engine keeps no cause of its
    # own since every event carries its firing; the field stays for the saves of version 1
    rule: str
    version: int
    seat_version: list[int]
    last_roll: tuple[Any, ...]  # faces: numbers, or the names of symbol faces
    dice_total: int


@define
class Generator:
    """A random.Random state: its version, its 625 words, the pending gauss value."""

    version: int
    internal: list[int]
    gauss: float | None


@define
class SavedAgent:
    """A seat's agent: its registry name, its class, and its attributes as tagged JSON."""

    name: str
    kind: str
    state: dict[str, Any]


@define
class SavedGame:
    rulebook: RulebookRef
    seed: int
    max_turns: int
    progress: Progress
    rng: Generator
    agents: list[SavedAgent]
    state: State


def _strict(kind):
    def structure(value, _):
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, found {type(value).__name__}")
        return value
    return structure


converter = make_converter(forbid_extra_keys=True)
converter.register_structure_hook(int, _strict(int))
converter.register_structure_hook(bool, _strict(bool))
converter.register_structure_hook(str, _strict(str))


def _state_schema() -> type:
    """State with its field types as written in state.py. The compiled engine's State (rulelang
    native build) keeps only `list` of `list[list[tuple[int, int]]]`: its save is read through
    the class of the source, so that every element is checked and comes back as it was."""
    if not native.active():
        return State
    spec = importlib.util.spec_from_file_location(
        "rulelang.engine._state_schema", native.source("rulelang.engine.state"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.State


_SCHEMA = _state_schema()
if _SCHEMA is not State:
    converter.register_structure_hook(
        State, lambda value, _: State(**attrs.asdict(converter.structure(value, _SCHEMA),
                                                     recurse=False)))


# ------------------------------------------------------------------ agents' own state


def _encode(value, where: str):
    """JSON for an agent's attribute; tuples, dicts and generators are tagged to come back."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise SaveError(f"{where} is {value}, which JSON cannot hold")
        return value
    if kind is list:
        return [_encode(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if kind is tuple:
        return {"tuple": [_encode(v, f"{where}[{i}]") for i, v in enumerate(value)]}
    if kind is dict and all(type(k) is str for k in value):
        return {"dict": {k: _encode(v, f"{where}[{k!r}]") for k, v in value.items()}}
    if kind is random.Random:
        return {"random": converter.unstructure(_generator(value))}
    raise SaveError(f"{where} holds a {kind.__name__}, which cannot be saved; give the agent "
                    "save_state() and load_state(data) methods")


def _decode(value):
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) != 1:
        raise ValueError(f"an agent value tagged {sorted(value)}: expected one tag")
    (tag, inner), = value.items()
    if tag == "tuple" and isinstance(inner, list):
        return tuple(_decode(v) for v in inner)
    if tag == "dict" and isinstance(inner, dict):
        return {k: _decode(v) for k, v in inner.items()}
    if tag == "random":
        try:
            saved = converter.structure(inner, Generator)
        except cattrs.BaseValidationError as err:
            problems = cattrs.transform_error(err, path="random")
            raise ValueError("an agent's generator: " + "; ".join(problems[:3])) from None
        rng = random.Random()
        _restore_generator(rng, saved)
        return rng
    raise ValueError(f"an agent value tagged {tag!r}: expected tuple, dict or random")


def _kind(agent) -> str:
    cls = type(agent)
    return f"{cls.__module__}.{cls.__qualname__}"


def _agent_state(agent, seat: int) -> dict[str, Any]:
    if hasattr(agent, "save_state"):
        data = agent.save_state()
        return {"custom": _encode(data, f"seat {seat}: the agent's save_state()")}
    skip = getattr(agent, "unsaved", ())
    return {k: _encode(v, f"seat {seat}: the agent's attribute {k!r}")
            for k, v in _attributes(agent).items() if k not in skip}


def _attributes(agent) -> dict[str, Any]:
    """The agent's instance attributes: its __dict__, and the fields of a class compiled by
    mypyc (listed in __mypyc_attrs__: such an instance may have no __dict__ at all)."""
    fields: dict[str, Any] = {}
    for cls in reversed(type(agent).__mro__):
        for name in getattr(cls, "__mypyc_attrs__", ()):
            if name != "__dict__" and hasattr(agent, name):
                fields[name] = getattr(agent, name)
    fields.update(getattr(agent, "__dict__", {}))
    return fields


def _restore_agent(agent, state: dict[str, Any]) -> None:
    if hasattr(agent, "load_state"):
        agent.load_state(_decode(state["custom"]))
        return
    for key, value in state.items():
        setattr(agent, key, _decode(value))


# ------------------------------------------------------------------ the generator


def _generator(rng: random.Random) -> Generator:
    version, internal, gauss = rng.getstate()
    return Generator(version, list(internal), gauss)


def _restore_generator(rng: random.Random, g: Generator) -> None:
    try:
        rng.setstate((g.version, tuple(g.internal), g.gauss))
    except (TypeError, ValueError, OverflowError) as err:
        raise ValueError(f"the generator's state is not valid: {err}") from None


# ------------------------------------------------------------------ the rulebook


def _digest(rulebook: Rulebook) -> str:
    h = hashlib.sha256()
    for path in rulebook.files:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as err:
            raise SaveError(f"the rulebook's file {path!r} cannot be read: {err.strerror}") from None
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return "sha256:" + h.hexdigest()


def _reference(rulebook: Rulebook) -> RulebookRef:
    if not rulebook.files:
        raise SaveError("the rulebook was not loaded from a file: a save could not find it again")
    return RulebookRef(rulebook.title, os.path.abspath(rulebook.files[0]),
                       list(rulebook.options), list(rulebook.parameters), _digest(rulebook))


# ------------------------------------------------------------------ saving


def dumps(game: Game) -> str:
    """The game as the text of a save file (between two turns, not in the middle of one)."""
    if not isinstance(game.rng, random.Random):
        raise SaveError("the game's dice are not the game's own generator: it cannot be saved")
    saved = SavedGame(
        rulebook=_reference(game.rulebook),
        seed=game.seed,
        max_turns=game.max_turns,
        progress=Progress(rule="turn", **{name: getattr(game, name) for name in PROGRESS}),
        rng=_generator(game.rng),
        agents=[SavedAgent(getattr(a, "name", type(a).__name__), _kind(a), _agent_state(a, i))
                for i, a in enumerate(game.agents)],
        state=game.state,
    )
    body = converter.unstructure(saved)
    try:
        save_check.check_bounds(body, "$.game")  # what could not be read back is not written
    except ValueError as err:
        raise SaveError(f"the game cannot be saved: {err}") from None
    # Names from the rulebook are written with \\u escapes where a terminal would act on
    # them (json_safe): the same JSON, and a save is safe to print.
    return json_safe(json.dumps({"format": FORMAT, "version": VERSION,
                                 "checksum": _checksum(body), "game": body},
                                ensure_ascii=False, separators=(",", ":"))) + "\n"


def _checksum(body) -> str:
    text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                      allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def save_game(game: Game, path: str | os.PathLike) -> None:
    """Write the game to `path` atomically: a complete new save, or the old file untouched."""
    text = dumps(game)  # any SaveError comes before a file is touched
    target = os.fspath(path)
    kind = not_regular(target)
    if kind:  # never a device, a pipe or a link
        raise SaveError(f"{target!r} is {kind}, not a regular file: a save replaces only a "
                        "regular file")
    for source in game.rulebook.files:
        if os.path.exists(target) and os.path.exists(source) and os.path.samefile(target, source):
            raise SaveError(f"{target!r} is a file of the rulebook being played: it would be "
                            "overwritten")
    folder = os.path.dirname(os.path.abspath(target))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                   dir=folder)
    except OSError as err:
        raise SaveError(f"cannot write a save in {folder!r}: {err.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise SaveError(f"cannot write {target!r}: {err.strerror or err}") from None
        raise


# ------------------------------------------------------------------ loading


def load_game(path: str | os.PathLike, agents: Sequence | None = None,
              rulebook: Rulebook | str | os.PathLike | None = None,
              log: Callable[[str], None] | None = None, include_path=()) -> Game:
    """The game saved in `path`, ready to play on exactly as if it had never stopped.

    agents: instances for the seats (needed when a seat's agent is not a built-in one);
    rulebook: the compiled rulebook, or its file if it moved (loaded with the saved options);
    by default it is loaded again from where the save says, like a played file (its
    `extends` under its directory, include_path and the installed rulebooks, as for
    rulelang.load); log: where the events go next.
    """
    target = os.fspath(path)
    return loads(_read(target), agents, rulebook, log, target, include_path)


def seat_count(path: str | os.PathLike) -> int:
    """How many seats the game saved in `path` has (SaveError if it is no valid save)."""
    target = os.fspath(path)
    body = _open(_read(target), repr(target))
    seats = body.get("agents") if isinstance(body, dict) else None
    if not isinstance(seats, list):
        raise SaveError(f"{target!r} is not a valid save: it has no seats")
    return len(seats)


def _read(target: str) -> str:
    try:
        with open(target, "rb") as f:
            data = f.read()
    except OSError as err:
        raise SaveError(f"cannot read {target!r}: {err.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{target!r} is not a rulelang save: it is not UTF-8 text") from None


def loads(text: str, agents: Sequence | None = None,
          rulebook: Rulebook | str | os.PathLike | None = None,
          log: Callable[[str], None] | None = None, source: str = "the save",
          include_path=()) -> Game:
    """The game saved in `text` (see load_game)."""
    where = repr(source) if source != "the save" else source
    body = _open(text, where)
    try:
        saved = converter.structure(body, SavedGame)
    except cattrs.BaseValidationError as err:
        problems = cattrs.transform_error(err, path="$.game")
        raise SaveError(f"{where} is not a valid save: " + "; ".join(problems[:3])) from None
    if not isinstance(rulebook, Rulebook):
        rulebook = _load_rulebook(saved.rulebook, rulebook, where, include_path)
    if list(rulebook.options) != saved.rulebook.options:
        raise SaveError(f"{where} was saved with the options {saved.rulebook.options} switched "
                        f"on, not {list(rulebook.options)}")
    if list(rulebook.parameters) != saved.rulebook.parameters:
        raise SaveError(f"{where} was saved with the parameters {saved.rulebook.parameters}, "
                        f"not {list(rulebook.parameters)}")
    if rulebook.title != saved.rulebook.title or _digest(rulebook) != saved.rulebook.digest:
        raise SaveError(f"{where} was saved with another version of the rulebook "
                        f"{saved.rulebook.title!r} ({saved.rulebook.path}): its files have "
                        "changed since, so the game cannot go on exactly")
    if not saved.agents:
        raise SaveError(f"{where} is not a valid save: it has no seats")
    seats = _seats(saved.agents, agents, where)
    low, high = rulebook.settings.players
    if not low <= len(seats) <= high:
        raise SaveError(f"{where} is not a valid save: {len(seats)} seats, and the rulebook is "
                        f"for {low} to {high} players")
    if not MIN_SEED <= saved.seed <= MAX_SEED:
        raise SaveError(f"{where} is not a valid save: its seed {saved.seed} is not a 64-bit "
                        "integer")
    game = Game(rulebook, seats, seed=saved.seed, max_turns=saved.max_turns)
    if len(saved.progress.seat_version) != len(seats):
        raise SaveError(f"{where} is not a valid save: {len(saved.progress.seat_version)} "
                        f"change counters for {len(seats)} seats")
    try:
        save_check.check_state(saved.state, game.state, game, saved.progress.over,
                               saved.max_turns)
        save_check.check_progress(saved.progress, game, saved.state)
        for i, (agent, s) in enumerate(zip(seats, saved.agents)):
            if type(agent) in AGENTS.values():  # a built-in agent: its values are known
                for value in s.state.values():
                    _decode(value)  # a bad tag is named before a shape is compared
                save_check.check_agent(i, s.kind, _agent_state(agent, i), s.state)
            _restore_agent(agent, s.state)
        _restore_generator(game.rng, saved.rng)
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        raise SaveError(f"{where} is not a valid save: {err}") from None
    game.state = saved.state
    for name in PROGRESS:
        setattr(game, name, getattr(saved.progress, name))
    game.refresh_views()
    game.log_to(log)
    return game


def _open(text: str, where: str) -> dict:
    """The body of a save, once its format, version and checksum are right."""
    try:
        doc = json.loads(text, parse_int=save_check.parse_int)
    except json.JSONDecodeError as err:
        if not text.startswith(_HEAD):
            raise SaveError(f"{where} is not a rulelang save: it is not JSON") from None
        cut = " (the file is truncated)" if err.pos >= len(text.rstrip()) else ""
        raise SaveError(f"{where} is damaged: not JSON at line {err.lineno}, column "
                        f"{err.colno}: {err.msg.lower()}{cut}") from None
    except RecursionError:
        raise SaveError(f"{where} is damaged: nested too deeply") from None
    try:
        save_check.check_bounds(doc)
    except ValueError as err:
        raise SaveError(f"{where} is not a valid save: {err}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{where} is not a rulelang save: expected a JSON object with "
                        f"\"format\": \"{FORMAT}\"")
    version = doc.get("version")
    if type(version) is not int or version < 1:
        raise SaveError(f"{where} is damaged: its format version is {version!r}")
    if version > VERSION:
        raise SaveError(f"{where} was written by a newer rulelang (save format {version}; this "
                        f"one reads format {VERSION} and older): upgrade rulelang to resume it")
    body = doc.get("game")
    try:
        intact = _checksum(body) == doc.get("checksum")
    except ValueError:
        intact = False
    if not intact:
        raise SaveError(f"{where} is damaged: its checksum does not match its contents")
    return body


def _load_rulebook(ref: RulebookRef, path, where: str, include_path=()) -> Rulebook:
    """The saved rulebook, from `path` if given, else from where it was, with its options."""
    from . import RuleError, RuleErrors, load  # the package imports this module

    path = ref.path if path is None else os.fspath(path)
    if not os.path.lexists(path):
        raise SaveError(f"{where} plays the rulebook {path!r}, which is not there now; give "
                        "the rulebook's file (--rules FILE, or rulebook= from Python)")
    try:
        return load(path, tuple(ref.options), tuple(ref.parameters), include_path)
    except RuleError as error:  # a saved parameter that is no NAME=VALUE
        raise SaveError(f"{where} plays the rulebook {path!r} with parameters it cannot read "
                        f"({error.diagnostic.code})") from None
    except RuleErrors as errors:
        # The path comes from the save, which anyone can write: name the codes only, never a
        # message, which could quote the file's text (checking it is the user's own call).
        codes = ", ".join(sorted({d.code for d in errors.diagnostics}))
        raise SaveError(f"{where} plays the rulebook {path!r}, which cannot be loaded now "
                        f"({codes}): see `rulelang check {path}`; a rulebook that extends "
                        "files of other folders needs them named with --include-path") from None


def _seats(saved: list[SavedAgent], given: Sequence | None, where: str) -> list:
    if given is not None:
        given = list(given)
        if len(given) != len(saved):
            raise SaveError(f"{where} has {len(saved)} seats, but {len(given)} agents were given")
        for i, (agent, s) in enumerate(zip(given, saved)):
            if _kind(agent) != s.kind:
                raise SaveError(f"seat {i} of {where} was played by {s.kind}, not {_kind(agent)}")
        return given
    seats = []
    for i, s in enumerate(saved):
        cls = AGENTS.get(s.name)
        if cls is None or f"{cls.__module__}.{cls.__qualname__}" != s.kind:
            raise SaveError(f"seat {i} of {where} was played by the agent {s.kind!r}, which is "
                            "not built in; name its class: rulelang resume --agents "
                            "module:Class (from Python: load_game(..., agents=[...]))")
        seats.append(cls())
    return seats
