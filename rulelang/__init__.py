"""rulelang: Monopoly-family rulebooks as data — parse, check, compile and play them headlessly.

The public API:

    import rulelang
    rulebook = rulelang.load("rulesets/classic_1961.rules")      # raises RuleErrors
    result = rulelang.play_game(rulebook, ["default", "random", "default"], players=3, seed=7)
    game = rulelang.Game(rulebook, [MyAgent(), rulelang.DefaultAgent()], seed=1).play()
    rulelang.save_game(game, "game.json"); game = rulelang.load_game("game.json")
"""

from __future__ import annotations

from . import check as _check_stage  # bound first, so the function below keeps the name
from .compile import compile_program
from .diagnostics import Diagnostic, RuleError, RuleErrors
from .engine.actions import (
    Build,
    IllegalAction,
    Lift,
    Lot,
    Mortgage,
    Sell,
    SellAll,
    Trade,
)
from .engine.agents import AGENTS, Agent, DefaultAgent, RandomAgent
from .engine.game import DEFAULT_MAX_TURNS, Game
from .engine.tables import Rulebook
from .runner import BatchResult, GameResult, play_game, play_games
from .save import SaveError, load_game, save_game

__all__ = [
    "AGENTS", "Agent", "BatchResult", "Build", "DEFAULT_MAX_TURNS", "DefaultAgent",
    "Diagnostic", "Game", "GameResult", "IllegalAction", "Lift", "Lot", "Mortgage",
    "RandomAgent", "RuleError", "RuleErrors", "Rulebook", "SaveError", "Sell", "SellAll",
    "Trade", "check", "load", "load_game", "play_game", "play_games", "save_game",
]


def check(path: str, options=()) -> list[Diagnostic]:
    """Every diagnostic for a rules file (and the files it extends), sorted by position."""
    return _check_stage.check_path(path, options)[1]


def load(path: str, options=()) -> Rulebook:
    """Parse, resolve, check and compile a rules file; RuleErrors if it has errors."""
    program, diagnostics = _check_stage.check_path(path, options)
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors or program is None:
        raise RuleErrors(errors)
    return compile_program(program)
