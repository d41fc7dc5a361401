"""rulelang: Monopoly-family rulebooks as data — parse, check, compile and play them headlessly.

The public API:

    import rulelang
    rulebook = rulelang.load("rulesets/classic_1961.rules")      # raises RuleErrors
    result = rulelang.play_game(rulebook, ["default", "random", "default"], players=3, seed=7)
    game = rulelang.Game(rulebook, [MyAgent(), rulelang.DefaultAgent()], seed=1).play()
    rulelang.save_game(game, "game.json"); game = rulelang.load_game("game.json")
"""

from __future__ import annotations

import importlib

from . import native as _native

_native.install()  # an engine build older than its sources is never run (native.py)

from . import check as _check_stage  # bound first, so the function below keeps the name
from .diagnostics import Diagnostic, RuleError, RuleErrors

# The engine, the compiler and the runner load on first use: `rulelang check` never needs them.
_LAZY = {
    **dict.fromkeys(["Build", "IllegalAction", "Lift", "Lot", "Mortgage", "Sell", "SellAll",
                     "Trade"], ".engine.actions"),
    **dict.fromkeys(["AGENTS", "Agent", "DefaultAgent", "OwnTurnAgent", "RandomAgent"],
                    ".engine.agents"),
    **dict.fromkeys(["DEFAULT_MAX_TURNS", "Game"], ".engine.game"),
    "Rulebook": ".engine.tables",
    "compile_program": ".compile",
    "parse_override": ".parse",
    **dict.fromkeys(["BatchResult", "GameResult", "play_game", "play_games"], ".runner"),
    **dict.fromkeys(["SaveError", "load_game", "save_game"], ".save"),
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rulelang' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "AGENTS", "Agent", "BatchResult", "Build", "DEFAULT_MAX_TURNS", "DefaultAgent",
    "Diagnostic", "Game", "GameResult", "IllegalAction", "Lift", "Lot", "Mortgage",
    "OwnTurnAgent", "RandomAgent", "RuleError", "RuleErrors", "Rulebook", "SaveError", "Sell", "SellAll",
    "Trade", "check", "load", "load_game", "play_game", "play_games", "save_game",
]


def check(path: str, options=(), parameters=None, include_path=()) -> list[Diagnostic]:
    """Every diagnostic for a rules file (and the files it extends), sorted by position.

    include_path: a directory or a list of directories where an `extends` may also find its
    file (after the extending file's own directory, before the installed rulebooks).
    """
    return _check_stage.check_path(path, options, _overrides(parameters), include_path)[1]


def load(path: str, options=(), parameters=None, include_path=(),
         observe: bool = False) -> "Rulebook":
    """Parse, resolve, check and compile a rules file; RuleErrors if it has errors.

    parameters maps a parameter's name to its value as written in a rules file or on the
    command line (`{"time_limit": "60"}`); it must be declared with `parameter` in the file.
    include_path: as for `check`. A rulebook reads only regular files of at most 16 MiB,
    under its own directory, the include paths and the installed rulebooks (`rulelang explain
    "The header"`).
    observe: compile every rule to count its firings in a game's tally (`rulelang.stats`);
    the games are the same.
    """
    program, diagnostics = _check_stage.check_path(path, options, _overrides(parameters),
                                                   include_path)
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors or program is None:
        raise RuleErrors(errors)
    from .compile import compile_program

    return compile_program(program, _texts(parameters), observe)


def _texts(parameters) -> tuple[str, ...]:
    """Parameters as NAME=VALUE texts, from a mapping or from such texts."""
    if not parameters:
        return ()
    if isinstance(parameters, dict):
        return tuple(f"{name}={value}" for name, value in parameters.items())
    return tuple(parameters)


def _overrides(parameters) -> tuple:
    texts = _texts(parameters)
    if not texts:
        return ()
    from .parse import parse_override

    return tuple(parse_override(p) for p in texts)
