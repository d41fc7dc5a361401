"""Batches of games on one core, on several (`jobs`), or on a Dask cluster (`dask`).

A batch is a `BatchSpec`: what to load (a rules file, options, parameters) and what to play
(games from seeds seed, seed+1, ..., players, agents by name). Its games are split into
chunks of consecutive seeds; each chunk is played where it is sent, and the records come back
in seed order, so a batch gives the same records for any number of processes or workers.
A worker loads the rulebook from the spec once (closures do not travel between processes).
"""

from __future__ import annotations

import os
from typing import Callable, Sequence

from attrs import field, frozen

from .engine.game import DEFAULT_MAX_TURNS, Game
from .engine.tables import Rulebook
from .engine.tally import Tally

__all__ = ["BatchSpec", "GameRecord", "Interrupted", "play_batch", "play_record"]


@frozen
class BatchSpec:
    """A batch of games of a rules file, played from seeds `seed` .. `seed + games - 1`.

    agents: agent names (built-in, `module:Class` or `file.py:Class`: rulelang.runner), one
    for every seat or one per seat; one string is split at its commas ("default,own-turn"). observe: count what `rulelang stats` reports (each rule's
    firings, the money each rule moves, where each throw ends). trace: the game whose cash is
    recorded after every turn (a seed of the batch), or None."""

    file: str
    games: int
    players: int = 4
    agents: tuple[str, ...] = field(default=("default",), converter=lambda a: agent_names(a))
    seed: int = 0
    max_turns: int = DEFAULT_MAX_TURNS
    options: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()
    include_path: tuple[str, ...] = ()
    observe: bool = False
    trace: int | None = None


@frozen
class GameRecord:
    """One game of a batch as the summaries read it. first: the seat that played first (turn
    order counts from it); the tally's counts are empty unless the batch observes: landings
    per space (the last: In Jail), throws, each rule's firings, and per (rule, from, to) the
    money moved and the transfers; cash: every seat's cash after each turn (the traced game)."""

    seed: int
    turns: int
    rounds: int
    end_reason: str
    winner: int | None
    first: int
    throws: int = 0
    landings: tuple[int, ...] = ()
    fired: tuple[tuple[str, int], ...] = ()
    flows: tuple[tuple[str, str, str, int, int], ...] = ()
    cash: tuple[tuple[int, ...], ...] | None = field(default=None, eq=False)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a batch: `records` are the games finished before it, in seed order from
    the first seed (a prefix of the batch)."""

    def __init__(self, records: list[GameRecord]):
        super().__init__()
        self.records = records


def play_record(rulebook: Rulebook, spec: BatchSpec, seed: int,
                log: Callable[[str], None] | None = None) -> GameRecord:
    """Play the game of `seed` of the batch and record it (its events written to `log`)."""
    from .runner import make_agents

    seats = make_agents(list(spec.agents), spec.players)
    tally = Tally(rulebook.size) if spec.observe else None
    game = Game(rulebook, seats, seed=seed, max_turns=spec.max_turns, log=log, tally=tally)
    st = game.state
    first = st.current
    cash = None
    if spec.trace == seed:
        n = st.players
        rows = [tuple(st.cash[:n])]
        while not game.over:
            game.play_turn()
            rows.append(tuple(st.cash[:n]))
        cash = tuple(rows)
    else:
        game.play()
    if tally is None:
        return GameRecord(seed, st.turn, st.round, game.end_reason or "unfinished",
                          game.winner, first, cash=cash)
    tally.dropped()
    return GameRecord(
        seed, st.turn, st.round, game.end_reason or "unfinished", game.winner, first,
        throws=tally.throws,
        landings=tuple(tally.landings),
        fired=tuple(sorted(tally.fired.items())),
        flows=tuple(sorted((rule, a, b, v[0], v[1]) for (rule, a, b), v in tally.flows.items())),
        cash=cash,
    )


# ------------------------------------------------------------------ workers

_LOADED: dict[tuple, Rulebook] = {}  # a worker's rulebooks, by what loaded them


def load_spec(spec: BatchSpec) -> Rulebook:
    """The rulebook of a spec, loaded once per process."""
    key = (spec.file, spec.options, spec.parameters, spec.include_path, spec.observe)
    rulebook = _LOADED.get(key)
    if rulebook is None:
        from . import load

        rulebook = _LOADED[key] = load(spec.file, spec.options, spec.parameters,
                                       spec.include_path, observe=spec.observe)
    return rulebook


class AgentFailure(Exception):
    """An agent's failure in a worker, told where its traceback is still at hand (it does
    not cross to the process that asked for the games): `runner.agent_failure`'s text."""


def play_chunk(spec: BatchSpec, start: int, count: int) -> list[GameRecord]:
    """Games start .. start+count-1 of the batch (their seeds are spec.seed + i), in a worker."""
    from .runner import agent_failure

    rulebook = load_spec(spec)
    try:
        return [play_record(rulebook, spec, spec.seed + i) for i in range(start, start + count)]
    except Exception as err:
        told = agent_failure(err)
        if told is None:
            raise
        raise AgentFailure(told) from None


def chunks(games: int, parts: int) -> list[tuple[int, int]]:
    """(start, count) of consecutive games, about `parts` times as many as the workers want:
    small enough to balance the load, large enough that loading stays cheap."""
    size = max(1, min(200, -(-games // max(1, parts))))
    return [(start, min(size, games - start)) for start in range(0, games, size)]


def play_batch(
    spec: BatchSpec,
    rulebook: Rulebook | None = None,
    jobs: int = 1,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
    log: Callable[[str], None] | None = None,
) -> list[GameRecord]:
    """Every game of the batch, in seed order: in this process (`jobs` 1, with `rulebook` if
    given: then `spec.file` is not read), spread over `jobs` processes, or on the Dask
    scheduler at `dask` (an address such as tcp://host:8786, or a distributed.Client). The
    records are the same either way. `progress(n)` is told how many games are done; `log`,
    in this process only, the events of every game in turn. Ctrl-C raises Interrupted with
    the games finished in seed order before the first unfinished one."""
    if log is not None and (dask is not None or jobs > 1):
        raise ValueError("a batch's events are logged only when it is played in one process")
    if dask is not None:
        return _on_dask(spec, dask, progress)
    if jobs <= 1:
        rulebook = rulebook if rulebook is not None else load_spec(spec)
        records: list[GameRecord] = []
        try:
            for i in range(spec.games):
                records.append(play_record(rulebook, spec, spec.seed + i, log))
                if progress is not None:
                    progress(len(records))
        except KeyboardInterrupt:
            raise Interrupted(records) from None
        return records
    return _on_processes(spec, jobs, progress)


def _on_processes(spec: BatchSpec, jobs: int, progress) -> list[GameRecord]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    parts = chunks(spec.games, jobs * 8)
    done: dict[int, list[GameRecord]] = {}
    # forked workers start at once and share the parent's imports; elsewhere, spawned
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    context = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        pending = {pool.submit(play_chunk, spec, start, count): k
                   for k, (start, count) in enumerate(parts)}
        finished = 0
        failed: dict[int, Exception] = {}
        while pending:
            ready, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in ready:
                k = pending.pop(future)
                try:
                    done[k] = future.result()
                except Exception as err:
                    failed[k] = err
                    continue
                finished += len(done[k])
                if progress is not None:
                    progress(finished)
            if failed:  # only an earlier chunk's failure can come before the first one's
                first = min(failed)
                for future in [f for f, k in pending.items() if k > first]:
                    future.cancel()
                    del pending[future]
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        raise Interrupted(_prefix(done)) from None
    pool.shutdown(cancel_futures=True)
    if failed:  # the failure of the earliest game, whatever the order the workers finished
        raise failed[min(failed)]
    return [r for k in range(len(parts)) for r in done[k]]


def _prefix(done: dict[int, list[GameRecord]]) -> list[GameRecord]:
    out: list[GameRecord] = []
    k = 0
    while k in done:
        out.extend(done[k])
        k += 1
    return out


def _on_dask(spec: BatchSpec, address, progress) -> list[GameRecord]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ValueError("--dask needs dask.distributed: pip install 'rulelang[cluster]'") \
            from None
    client = address if isinstance(address, Client) else Client(address, timeout="10s")
    try:
        workers = max(1, sum(client.nthreads().values()))
        parts = chunks(spec.games, workers * 4)
        futures = [client.submit(play_chunk, spec, start, count, pure=False)
                   for start, count in parts]
        index = {f.key: k for k, f in enumerate(futures)}
        done: dict[int, list[GameRecord]] = {}
        finished = 0
        failed: dict[int, Exception] = {}
        try:
            for future in as_completed(futures):
                k = index[future.key]
                if failed and k > min(failed):
                    continue
                try:
                    done[k] = future.result()
                except Exception as err:
                    failed[k] = err
                    client.cancel(futures[k + 1:])
                    continue
                finished += len(done[k])
                if progress is not None:
                    progress(finished)
        except KeyboardInterrupt:
            client.cancel(futures)
            raise Interrupted(_prefix(done)) from None
        if failed:  # the failure of the earliest game, as on processes
            raise failed[min(failed)]
        return [r for k in range(len(parts)) for r in done[k]]
    finally:
        if client is not address:
            client.close()


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def agent_names(agents: Sequence[str] | str) -> tuple[str, ...]:
    """Agent names from `a,b,c` or a list."""
    if isinstance(agents, str):
        return tuple(a.strip() for a in agents.split(",") if a.strip())
    return tuple(agents)


def seated(agents: Sequence | str, players: int) -> tuple:
    """The agent of each seat: one name (or agent) for every seat, or one per seat as given
    (`a,b,c` or a list); ValueError for another count."""
    spec = agent_names(agents)
    if len(spec) == 1:
        spec = spec * players
    if len(spec) != players:
        raise ValueError(f"{len(spec)} agents for {players} players: give one, or one per seat")
    return spec
