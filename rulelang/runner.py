"""Play one game or a batch of games of a compiled rulebook, and summarise the results.

Game i of a batch is played from seed `seed + i`, so any game of a batch can be replayed
alone. Results are plain attrs values with a `to_json()` for the CLI and for research code.
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

from attrs import asdict, frozen

from .engine.agents import AGENTS, Agent
from .engine import endings
from .engine.game import DEFAULT_MAX_TURNS, Game
from .engine.tables import Rulebook


def make_agents(spec: Sequence[str | Agent] | str, players: int) -> list[Agent]:
    """Agents for `players` seats from names ("default", "random") or instances.

    One name seats that agent everywhere; otherwise give exactly one per seat.
    """
    if isinstance(spec, str):
        spec = [s.strip() for s in spec.split(",") if s.strip()]
    spec = list(spec)
    if len(spec) == 1:
        spec = spec * players
    if len(spec) != players:
        raise ValueError(f"{len(spec)} agents for {players} players: give one, or one per seat")
    out = []
    for item in spec:
        if isinstance(item, str):
            if item not in AGENTS:
                raise ValueError(f"unknown agent {item!r}; choose from {', '.join(AGENTS)}")
            out.append(AGENTS[item]())
        else:
            out.append(item)
    return out


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
    """Play one game to its end and return how it ended."""
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
    """Play `games` games from seeds seed, seed+1, ... and summarise them."""
    wins = [0] * players
    reasons: dict[str, int] = {}
    finished = capped = turns = 0
    start = time.perf_counter()
    for i in range(games):
        seats = make_agents(agents, players)
        game = Game(rulebook, seats, seed=seed + i, max_turns=max_turns, log=log).play()
        turns += game.state.turn
        reasons[game.end_reason] = reasons.get(game.end_reason, 0) + 1
        if game.winner is not None:
            finished += 1
            wins[game.winner] += 1
        elif game.end_reason == "turn_cap":
            capped += 1
        if progress is not None:
            progress(i + 1)
    elapsed = time.perf_counter() - start
    return BatchResult(
        ruleset=rulebook.title,
        players=players,
        seed=seed,
        games=games,
        finished=finished,
        capped=capped,
        wins_by_seat=tuple(wins),
        end_reasons=dict(sorted(reasons.items())),
        mean_turns=round(turns / games, 2) if games else 0.0,
        turns_total=turns,
        elapsed_s=round(elapsed, 3),
        turns_per_s=round(turns / elapsed, 1) if elapsed > 0 else 0.0,
    )
