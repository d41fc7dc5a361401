"""What a rulebook does to the game, from a batch of games (`rulelang stats`), and what one
rulebook changes against another on the same seeds (`rulelang compare`).

The engine counts while it plays (engine/tally.py): where every throw ends, each rule's
firings, the money each rule moves. `summarise` turns the batch's records (rulelang.batch)
into figures with 95% confidence intervals: Wilson intervals for shares, normal intervals for
means, and for the share of throws ending on a space an interval that treats each game as a
cluster (the throws of one game are not independent). `compare` pairs the games of the two
rulebooks by seed: the difference of a per-game figure is the mean of the per-game
differences, with its interval; the landing frequencies, whose throws differ between the two
games of a seed, are compared unpaired.
"""

from __future__ import annotations

import math
import statistics
from typing import Iterable, Sequence

from attrs import frozen

from .batch import GameRecord, seated

__all__ = ["Interval", "Share", "Spread", "Report", "summarise", "Comparison", "compare",
           "Z95"]

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


@frozen
class Interval:
    """A figure and its 95% confidence interval."""

    value: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """The interval leaves out 0 (for a difference: the rulebooks differ)."""
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict:
        return {"value": _r(self.value), "low": _r(self.low), "high": _r(self.high)}


@frozen
class Share:
    """`count` of `total`, as a share with its Wilson 95% interval."""

    count: int
    total: int

    @property
    def interval(self) -> Interval:
        return wilson(self.count, self.total)

    def to_json(self) -> dict:
        return {"count": self.count, "total": self.total, **self.interval.to_json()}


@frozen
class AgentWins:
    """The games won by the seats of one agent, where the seats' agents differ: `seats` of
    the table are its, so an equal share of the wins would be seats / players."""

    agent: str
    seats: int
    wins: Share

    def to_json(self) -> dict:
        return {"agent": self.agent, "seats": self.seats, **self.wins.to_json()}


@frozen
class Spread:
    """A per-game quantity: mean (with its interval), median, 10th and 90th percentiles, and a
    histogram of `bins` (low, high, count): low <= x < high."""

    mean: Interval
    median: float
    p10: float
    p90: float
    low: int
    high: int
    bins: tuple[tuple[int, int, int], ...]

    def to_json(self) -> dict:
        return {"mean": self.mean.to_json(), "median": self.median, "p10": self.p10,
                "p90": self.p90, "min": self.low, "max": self.high,
                "histogram": [{"low": a, "high": b, "count": c} for a, b, c in self.bins]}


@frozen
class RuleRow:
    """A rule in force and how it fired: `fired` times in all, in `games` of the games. `acts`:
    it has a `when` or a permission (a rule that only sets values never fires; the engine
    may still move money under its name, as for the starting cash). `transfers`: the
    transfers of money made under its name; `games`: the games in which it fired or moved
    money."""

    name: str
    file: str
    line: int
    acts: bool
    fired: int
    per_game: Interval
    transfers: int
    games: Share

    @property
    def used(self) -> bool:
        return bool(self.fired or self.transfers)

    def to_json(self) -> dict:
        return {"rule": self.name, "file": self.file, "line": self.line, "acts": self.acts,
                "fired": self.fired, "per_game": self.per_game.to_json(),
                "transfers": self.transfers, "games": self.games.to_json()}


@frozen
class FlowRow:
    """Money `rule` moved from `source` to `to` ("player", "bank" or a pot): in all, per game
    (with its interval), and in how many transfers."""

    rule: str
    source: str
    to: str
    amount: int
    transfers: int
    per_game: Interval

    def to_json(self) -> dict:
        return {"rule": self.rule, "from": self.source, "to": self.to, "amount": self.amount,
                "transfers": self.transfers, "per_game": self.per_game.to_json()}


@frozen
class SquareRow:
    """The share of throws that ended on a space (index -1: In Jail), with its interval."""

    index: int
    name: str
    landings: int
    per_roll: Interval

    def to_json(self) -> dict:
        return {"index": self.index, "name": self.name, "landings": self.landings,
                "per_roll": self.per_roll.to_json()}


@frozen
class Report:
    """Every figure of a batch (`rulelang stats`)."""

    ruleset: str
    file: str
    players: int
    agents: tuple[str, ...]
    seed: int
    games: int
    wins_by_order: tuple[Share, ...]  # index 0: the player who rolled first
    wins_by_seat: tuple[Share, ...]
    wins_by_agent: tuple[AgentWins, ...]  # () when every seat has the same agent
    no_winner: Share
    end_reasons: dict  # reason -> Share
    capped: Share
    turns: Spread
    rounds: Spread
    rules: tuple[RuleRow, ...]
    flows: tuple[FlowRow, ...]
    squares: tuple[SquareRow, ...]
    in_jail: SquareRow
    throws: int
    trace: tuple[tuple[int, ...], ...] | None  # the first game's cash after every turn

    @property
    def never_fired(self) -> tuple[str, ...]:
        """The rules with a `when` or a permission that never fired nor moved money."""
        return tuple(r.name for r in self.rules if r.acts and not r.used)

    def to_json(self) -> dict:
        return {
            "ruleset": self.ruleset, "file": self.file, "players": self.players,
            "agents": list(self.agents), "seed": self.seed, "games": self.games,
            "wins_by_order": [s.to_json() for s in self.wins_by_order],
            "wins_by_seat": [s.to_json() for s in self.wins_by_seat],
            "wins_by_agent": [w.to_json() for w in self.wins_by_agent],
            "no_winner": self.no_winner.to_json(),
            "end_reasons": {k: v.to_json() for k, v in self.end_reasons.items()},
            "capped": self.capped.to_json(),
            "turns": self.turns.to_json(),
            "rounds": self.rounds.to_json(),
            "rules": [r.to_json() for r in self.rules],
            "never_fired": list(self.never_fired),
            "flows": [f.to_json() for f in self.flows],
            "throws": self.throws,
            "squares": [s.to_json() for s in self.squares],
            "in_jail": self.in_jail.to_json(),
            "trace": {"seed": self.seed, "cash": [list(row) for row in self.trace]}
            if self.trace is not None else None,
        }


# ------------------------------------------------------------------ intervals


def wilson(count: int, total: int) -> Interval:
    """The Wilson score 95% interval of a share."""
    if total == 0:
        return Interval(0.0, 0.0, 1.0)
    p = count / total
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = Z95 * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    low = 0.0 if count == 0 else max(0.0, centre - half)
    high = 1.0 if count == total else min(1.0, centre + half)
    return Interval(p, low, high)


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean and its normal 95% interval (none from fewer than two values)."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, mean, mean)
    half = Z95 * statistics.stdev(values) / math.sqrt(n)
    low = mean - half
    if low < 0 <= min(values):  # a quantity that is never negative
        low = 0.0
    return Interval(mean, low, mean + half)


def ratio_interval(parts: Sequence[int], wholes: Sequence[int]) -> Interval:
    """sum(parts) / sum(wholes) with a 95% interval that treats each pair as a cluster (the
    ratio estimator's linearised variance)."""
    n, total = len(parts), sum(wholes)
    if total == 0:
        return Interval(0.0, 0.0, 0.0)
    r = sum(parts) / total
    if n < 2:
        return Interval(r, r, r)
    mean_whole = total / n
    resid = math.fsum((p - r * w) ** 2 for p, w in zip(parts, wholes))
    se = math.sqrt(resid / (n * (n - 1))) / mean_whole
    return Interval(r, max(0.0, r - Z95 * se), r + Z95 * se)


def percentile(ordered: Sequence[float], q: float) -> float:
    """The q-th percentile of sorted values, linearly interpolated."""
    if not ordered:
        return 0.0
    at = (len(ordered) - 1) * q / 100
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (at - low))


def spread(values: Sequence[int], bins: int = 20) -> Spread:
    """The spread of a per-game quantity. The histogram's bins have a round width and cover
    the values up to the 99th percentile; a last, wider bin holds those beyond (up to the
    largest value), so that one long game does not flatten the picture."""
    ordered = sorted(values)
    if not ordered:
        return Spread(Interval(0.0, 0.0, 0.0), 0.0, 0.0, 0.0, 0, 0, ())
    low, high = ordered[0], ordered[-1]
    top = int(percentile(ordered, 99))
    width = max(1, _nice(max(1, top - low + 1) / bins))
    start = low - low % width
    last = (top - start) // width
    counts = [0] * (last + 2)
    for v in ordered:
        counts[min((v - start) // width, last + 1)] += 1
    histogram = tuple((start + b * width, start + (b + 1) * width, counts[b])
                      for b in range(last + 1))
    if counts[last + 1]:
        histogram += ((start + (last + 1) * width, high + 1, counts[last + 1]),)
    return Spread(mean_interval(ordered), percentile(ordered, 50), percentile(ordered, 10),
                  percentile(ordered, 90), low, high, histogram)


def _nice(x: float) -> int:
    """A round bin width at least x: 1, 2, 5, 10, 20, 50, ..."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if step * m >= x:
                return step * m
        step *= 10


def _r(x: float) -> float:
    return round(x, 6)


# ------------------------------------------------------------------ one batch


def wins_by_agent(wins_seat: Sequence[int], games: int, agents: Sequence[str],
                  players: int) -> tuple[AgentWins, ...]:
    """Per agent, in the order of its first seat, the games its seats won; () when every
    seat has the same agent."""
    seats = seated(agents, players)
    names = tuple(dict.fromkeys(seats))
    if len(names) < 2:
        return ()
    return tuple(AgentWins(name, seats.count(name),
                           Share(sum(w for w, a in zip(wins_seat, seats) if a == name), games))
                 for name in names)


def summarise(records: Sequence[GameRecord], rulebook, players: int, *, file: str = "",
              agents: Sequence[str] = ("default",), rule_origins: dict | None = None) -> Report:
    """The figures of a batch of records of `rulebook` between `players` players (compiled
    to be observed for the rules' and the landings' figures). rule_origins: rule name ->
    (file, line)."""
    games = len(records)
    origins = rule_origins or {}
    wins_order = [0] * players
    wins_seat = [0] * players
    reasons: dict[str, int] = {}
    for r in records:
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
        if r.winner is not None:
            wins_seat[r.winner] += 1
            wins_order[(r.winner - r.first) % players] += 1
    no_winner = sum(1 for r in records if r.winner is None)
    fired = [dict(r.fired) for r in records]
    moved = [_transfers(r) for r in records]
    acting = set(rulebook.acting_rules)
    rules = []
    names = list(rulebook.rule_names) + sorted(
        {k for f in fired for k in f} - set(rulebook.rule_names))
    for name in names:
        counts = [f.get(name, 0) for f in fired]
        transfers = [m.get(name, 0) for m in moved]
        file_, line = origins.get(name, ("", 0))
        rules.append(RuleRow(name, file_, line, name in acting, sum(counts),
                             mean_interval(counts), sum(transfers),
                             Share(sum(1 for c, t in zip(counts, transfers) if c or t),
                                   games)))
    flows: dict[tuple[str, str, str], list[int]] = {}
    for k, r in enumerate(records):
        for rule, a, b, amount, transfers in r.flows:
            row = flows.setdefault((rule, a, b), [0, 0, *([0] * games)])
            row[0] += amount
            row[1] += transfers
            row[2 + k] += amount
    flow_rows = tuple(FlowRow(rule, a, b, v[0], v[1], mean_interval(v[2:]))
                      for (rule, a, b), v in sorted(flows.items(), key=lambda kv: -kv[1][0]))
    throws = [r.throws for r in records]
    size = rulebook.size
    squares = []
    for i in range(size + 1):
        parts = [r.landings[i] if r.landings else 0 for r in records]
        name = rulebook.spaces[i].name if i < size else "In Jail"
        squares.append(SquareRow(i if i < size else -1, name, sum(parts),
                                 ratio_interval(parts, throws)))
    trace = next((r.cash for r in records if r.cash is not None), None)
    return Report(
        ruleset=rulebook.title, file=file, players=players, agents=tuple(agents),
        seed=records[0].seed if records else 0, games=games,
        wins_by_order=tuple(Share(w, games) for w in wins_order),
        wins_by_seat=tuple(Share(w, games) for w in wins_seat),
        wins_by_agent=wins_by_agent(wins_seat, games, agents, players),
        no_winner=Share(no_winner, games),
        end_reasons={k: Share(v, games) for k, v in sorted(reasons.items())},
        capped=Share(reasons.get("turn_cap", 0), games),
        turns=spread([r.turns for r in records]),
        rounds=spread([r.rounds for r in records]),
        rules=tuple(rules), flows=flow_rows,
        squares=tuple(squares[:size]), in_jail=squares[size],
        throws=sum(throws), trace=trace,
    )


def _transfers(record: GameRecord) -> dict[str, int]:
    """Per rule, the transfers made under its name in one game."""
    out: dict[str, int] = {}
    for rule, _, _, _, transfers in record.flows:
        out[rule] = out.get(rule, 0) + transfers
    return out


# ------------------------------------------------------------------ two rulebooks


@frozen
class Difference:
    """B minus A for one figure: each side's value, the difference with its 95% interval,
    and whether the games were paired by seed."""

    figure: str
    a: float
    b: float
    diff: Interval
    paired: bool

    @property
    def significant(self) -> bool:
        return self.diff.significant

    def to_json(self) -> dict:
        return {"figure": self.figure, "a": _r(self.a), "b": _r(self.b),
                "difference": self.diff.to_json(), "paired": self.paired,
                "significant": self.significant}


@frozen
class Change:
    """A structural difference: what changed, its name, and where (B's file and line, or A's
    for what B removed); `before`/`after`: the values or places on each side."""

    kind: str  # "setting", "rule added", "rule removed", "rule replaced", "option", "agents"
    name: str
    before: str | None
    after: str | None
    where: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "before": self.before,
                "after": self.after, "where": self.where}


@frozen
class Comparison:
    a: Report
    b: Report
    differences: tuple[Difference, ...]
    changes: tuple[Change, ...]

    def to_json(self) -> dict:
        return {"a": {"ruleset": self.a.ruleset, "file": self.a.file,
                      "agents": list(self.a.agents)},
                "b": {"ruleset": self.b.ruleset, "file": self.b.file,
                      "agents": list(self.b.agents)},
                "games": self.a.games, "players": self.a.players, "seed": self.a.seed,
                "changes": [c.to_json() for c in self.changes],
                "differences": [d.to_json() for d in self.differences],
                "significant": [d.figure for d in self.differences if d.significant]}


def paired(figure: str, xs: Sequence[float], ys: Sequence[float]) -> Difference:
    """Per-game values of A and B on the same seeds: the mean difference and its interval
    (a difference of shares, from values 0 and 1, stays within -1 and 1)."""
    d = mean_interval([y - x for x, y in zip(xs, ys)])
    if all(v in (0, 1) for v in xs) and all(v in (0, 1) for v in ys):
        d = Interval(d.value, max(-1.0, d.low), min(1.0, d.high))
    n = max(1, len(xs))
    return Difference(figure, math.fsum(xs) / n, math.fsum(ys) / n, d, True)


def unpaired(figure: str, a: Interval, b: Interval) -> Difference:
    """Two independent estimates: the difference, its interval from both half-widths."""
    ha, hb = (a.high - a.low) / 2, (b.high - b.low) / 2
    half = math.sqrt(ha * ha + hb * hb)
    d = b.value - a.value
    return Difference(figure, a.value, b.value, Interval(d, d - half, d + half), False)


def compare(ra: Sequence[GameRecord], rb: Sequence[GameRecord], report_a: Report,
            report_b: Report, changes: Iterable[Change] = ()) -> Comparison:
    """The differences, B minus A, of the figures of two batches played on the same seeds."""
    if [r.seed for r in ra] != [r.seed for r in rb]:
        raise ValueError("the two batches were not played on the same seeds")
    out: list[Difference] = []
    out.append(paired("turns", [r.turns for r in ra], [r.turns for r in rb]))
    out.append(paired("rounds", [r.rounds for r in ra], [r.rounds for r in rb]))
    out.append(paired("capped", [r.end_reason == "turn_cap" for r in ra],
                      [r.end_reason == "turn_cap" for r in rb]))
    out.append(paired("no winner", [r.winner is None for r in ra],
                      [r.winner is None for r in rb]))
    players = report_a.players
    for k in range(players):
        out.append(paired(f"wins by order {k + 1}", _won(ra, k, players),
                          _won(rb, k, players)))
    for k in range(players):
        out.append(paired(f"wins by seat {k}", [r.winner == k for r in ra],
                          [r.winner == k for r in rb]))
    for reason in sorted(set(report_a.end_reasons) | set(report_b.end_reasons)):
        out.append(paired(f"end: {reason}", [r.end_reason == reason for r in ra],
                          [r.end_reason == reason for r in rb]))
    names = list(dict.fromkeys([x.name for x in report_a.rules if x.acts]
                               + [x.name for x in report_b.rules if x.acts]))
    fa, fb = [dict(r.fired) for r in ra], [dict(r.fired) for r in rb]
    for name in names:
        out.append(paired(f"rule {name}: firings per game", [f.get(name, 0) for f in fa],
                          [f.get(name, 0) for f in fb]))
        out.append(paired(f"rule {name}: share of games", [bool(f.get(name)) for f in fa],
                          [bool(f.get(name)) for f in fb]))
    flows_a, flows_b = _flows_per_game(ra), _flows_per_game(rb)
    for key in sorted(set(flows_a) | set(flows_b)):
        rule, a, b = key
        zeros = [0] * len(ra)
        out.append(paired(f"money {rule}: {a} to {b} per game", flows_a.get(key, zeros),
                          flows_b.get(key, zeros)))
    if report_a.throws and report_b.throws and len(report_a.squares) == len(report_b.squares):
        for sa, sb in zip(report_a.squares + (report_a.in_jail,),
                          report_b.squares + (report_b.in_jail,)):
            out.append(unpaired(f"landing per roll: {sb.name}", sa.per_roll, sb.per_roll))
    return Comparison(report_a, report_b, tuple(out), tuple(changes))


def _won(records: Sequence[GameRecord], k: int, players: int) -> list[bool]:
    """Per game: the player k-th in turn order (0: who played first) won."""
    return [r.winner is not None and (r.winner - r.first) % players == k for r in records]


def _flows_per_game(records: Sequence[GameRecord]) -> dict:
    out: dict[tuple[str, str, str], list[int]] = {}
    for k, r in enumerate(records):
        for rule, a, b, amount, _ in r.flows:
            out.setdefault((rule, a, b), [0] * len(records))[k] += amount
    return out


def structural(desc_a, desc_b) -> tuple[Change, ...]:
    """The settings, rules and options that differ between two described rulebooks
    (rulelang.show.Description), each with where B writes it (A, for what B lacks)."""
    out: list[Change] = []
    sa = {s.name: s for s in desc_a.settings}
    for s in desc_b.settings:
        old = sa.get(s.name)
        if old is None or old.value != s.value:
            out.append(Change("setting", s.name, old.value if old else None, s.value,
                              str(s.origin) if s.origin else "the engine's default"))
    ra = {r.name: r for r in desc_a.rules}
    rb = {r.name: r for r in desc_b.rules}
    for r in desc_b.rules:
        old = ra.get(r.name)
        if old is None:
            placed = f", placed {r.how} {r.target}" if r.how in ("before", "after") else ""
            out.append(Change("rule added", r.name, None, f"{r.origin}{placed}",
                              str(r.origin)))
        elif old.origin != r.origin:
            out.append(Change("rule replaced", r.name, str(old.origin), str(r.origin),
                              str(r.origin)))
    for r in desc_a.rules:
        if r.name not in rb:
            gone = next((x for x in desc_b.removed if x.name == r.name), None)
            where = str(gone.removed_by) if gone else str(r.origin)
            out.append(Change("rule removed", r.name, str(r.origin), None, where))
    oa = {o.name: o.on for o in desc_a.options}
    for o in desc_b.options:
        if oa.get(o.name) != o.on:
            out.append(Change("option", o.name, _on(oa.get(o.name)), _on(o.on), str(o.origin)))
    return tuple(out)


def _on(on: bool | None) -> str | None:
    return None if on is None else "on" if on else "off"
