"""Play one game or a batch of games of a compiled rulebook, and summarise the results.

Game i of a batch is played from seed `seed + i`, so any game of a batch can be replayed
alone. Results are plain attrs values with a `to_json()` for the CLI and for research code.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
import traceback
from types import ModuleType
from typing import Callable, Sequence

from attrs import asdict, frozen

from .batch import AgentFailure, BatchSpec, Interrupted, agent_names, play_batch, seated
from .engine.actions import IllegalAction
from .engine.agents import AGENTS, Agent
from .engine import endings
from .engine.game import DEFAULT_MAX_TURNS, Game, check_players
from .engine.tables import Rulebook
from .resolve import did_you_mean


def agent_class(name: str) -> type[Agent]:
    """The agent class `name` stands for: a built-in agent ("default", "random"), or a
    subclass of Agent written `module:Class` (a module importable from the Python path or
    the current directory) or `path/to/file.py:Class`. ValueError says what is wrong."""
    if name in AGENTS:
        return AGENTS[name]
    where, colon, attr = name.rpartition(":")
    if not colon or not where or not attr:
        hint = did_you_mean(name, AGENTS) or \
            f"choose from {', '.join(AGENTS)}, or name a class: module:Class or file.py:Class"
        raise ValueError(f"unknown agent {name!r}; {hint}")
    module = _agent_module(where)
    found: object = module
    for part in attr.split("."):
        found = getattr(found, part, None)
    if found is None:
        agents = sorted(n for n, v in vars(module).items()
                        if isinstance(v, type) and issubclass(v, Agent) and v is not Agent)
        hint = did_you_mean(attr, agents) or (f"its agents: {', '.join(agents)}" if agents
                                              else "it defines no subclass of rulelang.Agent")
        raise ValueError(f"{where!r} has no {attr!r}; {hint}")
    if not (isinstance(found, type) and issubclass(found, Agent)):
        raise ValueError(f"{name!r} is not an agent (a subclass of rulelang.Agent)")
    return found


_FILE_MODULES: dict[str, ModuleType] = {}  # the agents' modules read from files, by real path


def _agent_module(where: str) -> ModuleType:
    """The module `where` names: a file if it ends in .py, else a module to import."""
    if where.endswith(".py"):
        real = os.path.realpath(where)
        if real in _FILE_MODULES:
            return _FILE_MODULES[real]
        if not os.path.isfile(real):
            raise ValueError(f"no such file {where!r}")
        name = os.path.basename(where)[:-3]
        spec = importlib.util.spec_from_file_location(name, real)
        if spec is None or spec.loader is None:
            raise ValueError(f"{where!r} cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(spec)
        loader = spec.loader

        owned = sys.modules.setdefault(name, module) is module  # for its classes' lookups

        def execute() -> ModuleType:
            try:
                loader.exec_module(module)
            except BaseException:
                if owned:
                    del sys.modules[name]
                raise
            return module

        _run_module(where, execute)
        _FILE_MODULES[real] = module
        return module
    if os.getcwd() not in sys.path:  # as for `python -m`, after what is installed
        sys.path.append(os.getcwd())
    return _run_module(where, lambda: importlib.import_module(where))


def _run_module(where: str, load: Callable[[], ModuleType]) -> ModuleType:
    try:
        return load()
    except ModuleNotFoundError as err:
        if err.name and (where == err.name or where.startswith(err.name + ".")):
            raise ValueError(f"no module named {where!r} (the Python path and the current "
                             "directory were searched)") from None
        raise ValueError(f"{where!r} could not be loaded: {err}") from None
    except Exception as err:  # the module's own mistake, told in one line
        detail = f"{type(err).__name__}: {err}".rstrip(": ")
        raise ValueError(f"{where!r} could not be loaded: {detail}") from None


def make_agents(spec: Sequence[str | Agent] | str, players: int) -> list[Agent]:
    """Agents for `players` seats from names or instances: a name is a built-in agent
    ("default", "random") or an Agent subclass, `module:Class` or `file.py:Class`
    (agent_class), made with no arguments.

    One name seats that agent everywhere; otherwise give exactly one per seat.
    """
    out = []
    for item in seated(spec, players):
        if isinstance(item, str):
            cls = agent_class(item)
            try:
                out.append(cls())
            except Exception as err:  # an agent class that needs arguments, or fails
                detail = f"{type(err).__name__}: {err}".rstrip(": ")
                raise ValueError(f"the agent {item!r} cannot be made without arguments: "
                                 f"{detail}") from None
        else:
            out.append(item)
    return out


def agent_failure(err: BaseException) -> str | None:
    """What went wrong, in one paragraph, when `err` came out of a game because of an agent:
    an answer the rules refuse (IllegalAction), or an exception raised in the code of an
    agent that is not built in. It names the game's seed, the turn, the seat and its agent,
    and the lines of the agent's own code the exception passed through. None for anything
    else (the engine's own failure keeps its traceback)."""
    if isinstance(err, AgentFailure):  # told in a worker
        return str(err)
    game = seat = None
    own: list[traceback.FrameSummary] = []
    tb = err.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        me = frame.f_locals.get("self")
        if game is None:  # the game's own frame; compiled with mypyc it has none: the caller's
            for held in (me, frame.f_locals.get("game")):
                if isinstance(held, Game):
                    game = held
                    break
        if isinstance(me, Agent) and not type(me).__module__.startswith("rulelang.") \
                and game is not None and seat is None:
            seat = next((i for i, a in enumerate(game.agents) if a is me), None)
        if seat is not None and not frame.f_code.co_filename.startswith(_PACKAGE):
            own.extend(traceback.extract_tb(tb, limit=1))  # the agent's code and what it calls
        tb = tb.tb_next
    if game is None or not (isinstance(err, IllegalAction) or (seat is not None and own)):
        return None
    if seat is None:
        seat = game.state.current
    agent = game.agents[seat]
    name = getattr(agent, "name", "") if type(agent).__module__.startswith("rulelang.") \
        else type(agent).__qualname__
    detail = f"{type(err).__name__}: {err}".rstrip(": ")
    lines = [f"the agent of seat {seat} ({name}) failed at turn {game.state.turn} of the game "
             f"of seed {game.seed}: {detail}"]
    lines += [f"  {f.filename}:{f.lineno}, in {f.name}: {(f.line or '').strip()}" for f in own]
    return "\n".join(lines)


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


@frozen
class GameResult:
    """How one game ended. winner is a seat index, or None when the turn cap ended it.

    end_reason: "last_player", "turn_cap", a bound of the engine ("roll_limit",
    "chain_limit": no winner), "time_limit" for a clock that no rule ends the game at, or the
    name of the rule whose `end the game` ended it (`end_of_game`: the bankruptcy that ends a
    short game; `time_limit`: the agreed hour).
    net_worth is each player's printed valuation (endings.valuation): the scores that decide
    a game ended with several players left. minutes is the simulated clock.
    """

    ruleset: str
    seed: int
    players: int
    agents: tuple[str, ...]
    winner: int | None
    end_reason: str
    turns: int
    rounds: int
    cash: tuple[int, ...]
    net_worth: tuple[int, ...]
    bankrupt: tuple[bool, ...]
    minutes: float = 0.0

    def to_json(self) -> dict:
        d = asdict(self)
        for k in ("agents", "cash", "net_worth", "bankrupt"):
            d[k] = list(d[k])
        return d


def result_of(game: Game) -> GameResult:
    st = game.state
    n = st.players
    return GameResult(
        ruleset=game.rulebook.title,
        seed=game.seed,
        players=n,
        agents=tuple(getattr(a, "name", type(a).__name__) for a in game.agents),
        winner=game.winner,
        end_reason=game.end_reason or "unfinished",
        turns=st.turn,
        rounds=st.round,
        cash=tuple(st.cash[:n]),
        net_worth=tuple(game.net_worth(i) for i in range(n)),
        bankrupt=tuple(st.bankrupt),
        minutes=round(endings.minutes(game), 2),
    )


def play_game(
    rulebook: Rulebook,
    agents: Sequence[str | Agent] | str = "default",
    players: int = 4,
    seed: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
    log: Callable[[str], None] | None = None,
) -> GameResult:
    """Play one game to its end and return how it ended; ValueError for a number of
    players the rulebook is not for."""
    check_players(rulebook, players)
    seats = make_agents(agents, players)
    return result_of(Game(rulebook, seats, seed=seed, max_turns=max_turns, log=log).play())


@frozen
class BatchResult:
    """A summary of many games; capped games are counted apart from finished ones."""

    ruleset: str
    players: int
    seed: int
    games: int
    finished: int
    capped: int
    wins_by_seat: tuple[int, ...]
    end_reasons: dict
    mean_turns: float
    turns_total: int
    elapsed_s: float
    turns_per_s: float

    def to_json(self) -> dict:
        d = asdict(self)
        d["wins_by_seat"] = list(d["wins_by_seat"])
        return d


def batch_result(ruleset: str, players: int, seed: int,
                 ended: Sequence[tuple[int, str, int | None]], elapsed: float) -> BatchResult:
    """The summary of a batch from each finished game's (turns, end reason, winner), in seed
    order; elapsed: the seconds the batch took."""
    wins = [0] * players
    reasons: dict[str, int] = {}
    finished = capped = turns = 0
    for game_turns, reason, winner in ended:
        turns += game_turns
        reasons[reason] = reasons.get(reason, 0) + 1
        if winner is not None:
            finished += 1
            wins[winner] += 1
        elif reason == "turn_cap":
            capped += 1
    done = len(ended)
    return BatchResult(
        ruleset=ruleset,
        players=players,
        seed=seed,
        games=done,
        finished=finished,
        capped=capped,
        wins_by_seat=tuple(wins),
        end_reasons=dict(sorted(reasons.items())),
        mean_turns=round(turns / done, 2) if done else 0.0,
        turns_total=turns,
        elapsed_s=round(elapsed, 3),
        turns_per_s=round(turns / elapsed, 1) if elapsed > 0 else 0.0,
    )


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during `play_games`: `batch` summarises the games finished before it (its
    `games` counts them), and `asked` is how many games the batch was to play."""

    def __init__(self, batch: BatchResult, asked: int):
        super().__init__()
        self.batch = batch
        self.asked = asked


def play_games(
    rulebook: Rulebook,
    games: int,
    agents: Sequence[str] | str = "default",
    players: int = 4,
    seed: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
    log: Callable[[str], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> BatchResult:
    """Play `games` games from seeds seed, seed+1, ... and summarise them: the batch of
    `rulelang.batch.play_batch`, in this process.

    A KeyboardInterrupt (Ctrl-C) stops the batch as a BatchInterrupted, which carries the
    summary of the games finished until then.
    """
    check_players(rulebook, players)
    spec = BatchSpec("", games, players, agent_names(agents), seed, max_turns)
    start = time.perf_counter()

    def summary(records) -> BatchResult:
        return batch_result(rulebook.title, players, seed,
                            [(r.turns, r.end_reason, r.winner) for r in records],
                            time.perf_counter() - start)

    try:
        records = play_batch(spec, rulebook, progress=progress, log=log)
    except Interrupted as stop:
        raise BatchInterrupted(summary(stop.records), games) from None
    return summary(records)
