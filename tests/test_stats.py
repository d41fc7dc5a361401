"""`rulelang stats` and `rulelang compare`: what the engine counts (engine/tally.py) is what
happened in the game, counting changes no game, batches give the same records on any number
of processes or on a Dask cluster, and the figures and intervals are right."""

from __future__ import annotations

import functools
import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.batch import BatchSpec, GameRecord, chunks, play_batch
from rulelang.engine.agents import Agent
from rulelang.engine.game import Game
from rulelang.engine.tally import JAIL, Tally
from rulelang.stats import (compare, mean_interval, percentile, ratio_interval, spread,
                            summarise, wilson)
from rulelang_cli.main import main as cli

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = str(ROOT / "rulesets" / "classic_1961.rules")
JACKPOT = str(ROOT / "rulesets" / "house" / "free_parking_jackpot.rules")


@functools.cache
def observed(path: str = CLASSIC) -> rulelang.Rulebook:
    return rulelang.load(path, observe=True)


@functools.cache
def plain(path: str = CLASSIC) -> rulelang.Rulebook:
    return rulelang.load(path)


def _agents(n: int):
    return [rulelang.DefaultAgent() for _ in range(n)]


# ------------------------------------------------------------------ counting changes nothing


@pytest.mark.parametrize("path", [CLASSIC, JACKPOT,
                                  str(ROOT / "rulesets" / "lotr_fr.rules"),
                                  str(ROOT / "rulesets" / "starwars_ep2.rules"),
                                  str(ROOT / "rulesets" / "dinos.rules")])
def test_an_observed_game_is_the_same_game(path):
    """A rulebook compiled to be observed, with a tally, plays every game the plain one
    plays, event for event."""
    for seed in (1, 2, 3):
        a, b = [], []
        Game(plain(path), _agents(4), seed=seed, log=a.append).play()
        Game(observed(path), _agents(4), seed=seed, log=b.append,
             tally=Tally(observed(path).size)).play()
        assert a == b


# ------------------------------------------------------------------ what the tally counts


def _logged_game(seed: int, path: str = CLASSIC):
    lines: list[str] = []
    rb = observed(path)
    game = Game(rb, _agents(4), seed=seed, log=lines.append, tally=Tally(rb.size)).play()
    game.tally.dropped()
    return game, [json.loads(x) for x in lines]


def test_the_money_each_rule_moved_is_every_transfer_of_the_log():
    """The tally's flows are the log's transfers, rule by rule, amount by amount (the rent
    path that writes no log line is counted too: see the next test)."""
    for seed in (4, 5):
        game, events = _logged_game(seed)
        logged: dict = {}
        for e in events:
            if e["event"] == "transfer":
                kind = lambda a: a if isinstance(a, str) else "player"  # noqa: E731
                key = (e["rule"], kind(e["source"]), kind(e["to"]))
                row = logged.setdefault(key, [0, 0])
                row[0] += e["amount"]
                row[1] += 1
        assert game.tally.flows == logged


def test_the_log_changes_nothing_the_tally_counts():
    """With the log off the engine pays rent by a quicker path: the tally counts the same
    flows, firings and landings as with the log on."""
    rb = observed()
    for seed in (13, 14):
        on = Game(rb, _agents(4), seed=seed, log=lambda line: None, tally=Tally(rb.size)).play()
        off = Game(rb, _agents(4), seed=seed, tally=Tally(rb.size)).play()
        assert off.tally.flows == on.tally.flows
        assert off.tally.fired == on.tally.fired
        assert off.tally.landings == on.tally.landings


def test_the_money_moved_adds_up_to_the_cash_of_every_player():
    """Log off (rent by the quick path): what flowed into players less what flowed out of
    them is the cash they hold at the end, game after game."""
    rb = observed(JACKPOT)
    for seed in range(6, 12):
        game = Game(rb, _agents(4), seed=seed, tally=Tally(rb.size)).play()
        net = 0
        for (_, source, to), (amount, _) in game.tally.flows.items():
            net += amount * ((to == "player") - (source == "player"))
        assert net == sum(game.state.cash[:4])


def test_every_throw_ends_once_where_the_log_says():
    """Each throw of the log ends once: on the space of the player's last move or In Jail."""
    game, events = _logged_game(7)
    t = game.tally
    rolls = sum(1 for e in events if e["event"] == "roll" and e["rule"] == "turn")
    broke = sum(1 for e in events if e["event"] == "bankrupt")
    assert t.throws == sum(t.landings)
    # a throw that bankrupts its player ends nowhere; the last throw may end the game
    assert rolls - broke - 1 <= t.throws <= rolls
    assert t.landings[game.rulebook.spaces.index(
        next(s for s in game.rulebook.spaces if s.kind == "go_to_jail"))] == 0
    jailed = sum(1 for e in events if e["event"] == "jail")
    assert 0 < t.landings[JAIL] and jailed <= t.landings[JAIL]


def test_each_rule_fires_as_often_as_the_log_shows_it():
    """The `salary` rule fires once per salary paid, `go_to_jail` once per landing on Go To
    Jail; rules that only set values never fire."""
    game, events = _logged_game(8)
    fired = game.tally.fired
    salaries = sum(1 for e in events if e["event"] == "transfer" and e["rule"] == "salary")
    assert fired["salary"] == salaries > 0
    sent = sum(1 for e in events if e["event"] == "jail" and e["rule"] == "go_to_jail")
    assert fired["go_to_jail"] == sent
    assert "capital" not in fired and "capital" not in game.rulebook.acting_rules


def test_a_permission_fires_when_it_refuses():
    """A building on a lot of a group the player does not hold whole is refused by the
    1961 rulebook's `houses` rule: that refusal is a firing of `houses`."""
    from rulelang.engine.actions import Build, refusing

    rb = observed()
    game = Game(rb, _agents(4), seed=1, tally=Tally(rb.size))
    lot = next(s.index for s in rb.spaces if s.kind == "street")
    game.give_deed(lot, 0, "test")
    found = refusing(game, 0, Build(lot))
    assert found is not None and found.rule == "houses"
    assert game.tally.fired.get("houses") == 1
    refusing(game, 0, Build(lot))
    assert game.tally.fired["houses"] == 2


# ------------------------------------------------------------------ the exact analysis


class _Leaving(Agent):
    """Buys nothing; in jail, uses a card if it holds one, else pays (`--jail leave`)."""

    name = "leaving"

    def jail(self, game, seat):
        return "card" if game.state.jail_cards[seat] else "pay"


class _Shuffled(Game):
    """Each draw is a uniformly random card of the deck as it stands (`--cards kept`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.deck_rng = random.Random(self.seed * 7919 + 1)

    def seat_players(self, rulebook, players):
        """Two pawns whatever the rulebook's `set players`: an instrument of the chain."""

    def draw(self, f, deck_index):
        self.deck_rng.shuffle(self.state.decks[deck_index])
        super().draw(f, deck_index)


def test_the_landings_per_throw_are_the_exact_analysis_within_sampling_error():
    """The tally's share of throws ending on each square, in the chain's model (nobody
    buys, leave jail at once, draws at random from the deck as it stands), is `rulelang
    analyze --jail leave --cards kept` within 4.5 standard errors (games as clusters)."""
    pytest.importorskip("numpy")
    from rulelang.analysis.markov import analyze

    rb = observed()
    exact = analyze(plain(), "leave", "kept")
    expected = exact.per_roll + (exact.jail_per_roll,)
    records = []
    for seed in range(16):
        game = _Shuffled(rb, [_Leaving(), _Leaving()], seed=seed, max_turns=8000,
                         tally=Tally(rb.size)).play()
        game.tally.dropped()
        records.append(game.tally)
    throws = [t.throws for t in records]
    worst = 0.0
    for i, p in enumerate(expected):
        iv = ratio_interval([t.landings[i] for t in records], throws)
        se = (iv.high - iv.value) / 1.959963984540054
        z = abs(iv.value - p) / max(se, 1e-9)
        worst = max(worst, z)
        assert z < 4.5, (i, iv.value, p)
    assert worst > 0.1  # the figures are compared, not equal by construction


# ------------------------------------------------------------------ batches


def test_records_are_the_same_on_one_or_two_processes():
    spec = BatchSpec(CLASSIC, games=24, seed=3, observe=True, trace=3)
    one = play_batch(spec, observed())
    two = play_batch(spec, jobs=2)
    assert one == two
    assert [r.seed for r in one] == list(range(3, 27))
    assert one[0].cash is not None and one[0].cash == two[0].cash


def test_a_logged_batch_is_play_games_and_its_events():
    """play_games is play_batch in one process: the same games, and their events logged one
    game after the other, as each game alone logs them; a log is refused on two processes."""
    rulebook = plain()
    spec = BatchSpec(CLASSIC, games=3, seed=5)
    lines: list[str] = []
    records = play_batch(spec, rulebook, log=lines.append)
    batch = rulelang.play_games(rulebook, 3, seed=5)
    assert sum(r.turns for r in records) == batch.turns_total
    assert tuple(sum(r.winner == seat for r in records) for seat in range(4)) == \
        batch.wins_by_seat
    alone: list[str] = []
    for seed in (5, 6, 7):
        rulelang.play_game(rulebook, seed=seed, log=alone.append)
    assert lines == alone
    with pytest.raises(ValueError):
        play_batch(spec, jobs=2, log=lines.append)


def test_a_dask_cluster_gives_the_same_records():
    distributed = pytest.importorskip("distributed")
    spec = BatchSpec(CLASSIC, games=12, seed=9, observe=True)
    one = play_batch(spec, observed())
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert play_batch(spec, dask=client) == one
        assert play_batch(spec, dask=cluster.scheduler_address) == one


def test_chunks_cover_every_game_once_in_order():
    for games in (1, 7, 200, 1001):
        for parts in (1, 3, 16):
            c = chunks(games, parts)
            assert [s for s, _ in c] == sorted(s for s, _ in c)
            assert sum(n for _, n in c) == games
            assert all(s + n == t for (s, n), (t, _) in zip(c, c[1:]))


# ------------------------------------------------------------------ intervals


def test_wilson_interval_of_known_shares():
    iv = wilson(50, 100)
    assert iv.value == 0.5 and math.isclose(iv.low, 0.4038, abs_tol=1e-4)
    assert math.isclose(iv.high, 0.5962, abs_tol=1e-4)
    zero = wilson(0, 300)
    assert zero.low == 0 and math.isclose(zero.high, 0.01264, abs_tol=1e-4)


def test_mean_percentile_and_ratio_intervals():
    iv = mean_interval([1, 2, 3, 4])
    assert iv.value == 2.5 and math.isclose(iv.high - iv.value, 1.959964 * 1.290994 / 2,
                                            rel_tol=1e-5)
    assert percentile([1, 2, 3, 4, 5], 50) == 3 and percentile([1, 2, 3, 4], 10) == 1.3
    r = ratio_interval([1, 3], [10, 10])
    assert r.value == 0.2 and r.low < 0.2 < r.high
    s = spread(list(range(100)) + [5000])
    assert s.bins[-1][1] == 5001 and s.bins[-1][2] >= 1  # the long game in a last bin
    assert sum(c for _, _, c in s.bins) == 101


def _record(seed, turns, winner, first=0):
    return GameRecord(seed, turns, turns // 4, "last_player", winner, first)


def test_compare_pairs_games_by_seed():
    a = [_record(s, 100 + s, 0) for s in range(20)]
    b = [_record(s, 110 + s, 1, first=1) for s in range(20)]
    rb = plain()
    ra_, rb_ = summarise(a, rb, 4), summarise(b, rb, 4)
    c = compare(a, b, ra_, rb_)
    turns = next(d for d in c.differences if d.figure == "turns")
    assert turns.diff.value == 10 and turns.diff.low == turns.diff.high == 10  # paired
    assert turns.significant
    first = next(d for d in c.differences if d.figure == "wins by order 1")
    assert first.a == 1.0 and first.b == 1.0 and not first.significant
    seat0 = next(d for d in c.differences if d.figure == "wins by seat 0")
    assert seat0.diff.value == -1.0
    with pytest.raises(ValueError):
        compare(a, b[1:] + b[:1], ra_, rb_)


# ------------------------------------------------------------------ the commands


def test_stats_json_reports_every_figure_and_is_the_same_on_two_jobs(tmp_path):
    runner = CliRunner()
    args = ["stats", CLASSIC, "--games", "30", "--json"]
    one = runner.invoke(cli, args)
    two = runner.invoke(cli, args + ["--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    d = json.loads(one.output)
    assert d["games"] == 30 and len(d["wins_by_order"]) == 4 == len(d["wins_by_seat"])
    assert sum(w["count"] for w in d["wins_by_order"]) + d["no_winner"]["count"] == 30
    assert {"mean", "median", "p10", "p90", "histogram"} <= set(d["turns"])
    assert sum(b["count"] for b in d["turns"]["histogram"]) == 30
    rules = {r["rule"]: r for r in d["rules"]}
    assert rules["salary"]["fired"] > 0 and rules["salary"]["line"] > 0
    assert rules["capital"]["acts"] is False and rules["capital"]["transfers"] == 120
    assert any(f["rule"] == "rent" and f["from"] == "player" for f in d["flows"])
    assert len(d["squares"]) == 40 and d["in_jail"]["per_roll"]["value"] > 0.02
    total = sum(s["landings"] for s in d["squares"]) + d["in_jail"]["landings"]
    assert total == d["throws"]
    assert len(d["trace"]["cash"]) > 10


def test_stats_plot_writes_four_pictures(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "pictures"
    result = CliRunner().invoke(cli, ["stats", CLASSIC, "--games", "20", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    for name in ("landings", "length", "wins", "cash"):
        assert (out / f"{name}.png").stat().st_size > 10_000
    again = CliRunner().invoke(cli, ["stats", CLASSIC, "--games", "20", "--plot", str(out)])
    assert again.exit_code == 2 and "--force" in again.output


def test_compare_shows_the_jackpot(tmp_path):
    result = CliRunner().invoke(cli, ["compare", CLASSIC, JACKPOT, "--games", "40", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    kinds = {(c["kind"], c["name"]) for c in d["changes"]}
    assert ("rule replaced", "free_parking") in kinds and ("setting", "fines_to") in kinds
    where = next(c["where"] for c in d["changes"] if c["name"] == "free_parking")
    assert where.endswith("free_parking_jackpot.rules:14")
    figures = {x["figure"]: x for x in d["differences"]}
    assert figures["turns"]["paired"] is True
    jackpot = figures["money free_parking: Free Parking jackpot to player per game"]
    assert jackpot["a"] == 0 and jackpot["b"] > 0 and jackpot["significant"]
    text = CliRunner().invoke(cli, ["compare", CLASSIC, JACKPOT, "--games", "40"])
    assert "game length: B is" in text.output and "rule free_parking: fired" in text.output


def test_compare_with_other_agents_on_the_same_rulebook():
    """--b-agents plays B (A itself, B left out) with other agents: the agents are the one
    change named, the games are paired by seed, and B's games are those of its agents."""
    result = CliRunner().invoke(cli, ["compare", CLASSIC, "--b-agents", "own-turn",
                                      "--games", "30", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    assert [(c["kind"], c["before"], c["after"]) for c in d["changes"]] == \
        [("agents", "default", "own-turn")]
    assert (d["a"]["agents"], d["b"]["agents"]) == (["default"], ["own-turn"])
    alone = json.loads(CliRunner().invoke(cli, ["stats", CLASSIC, "--games", "30", "--agents",
                                                "own-turn", "--json"]).output)
    figures = {x["figure"]: x for x in d["differences"]}
    assert figures["turns"]["paired"] is True
    assert figures["turns"]["b"] == pytest.approx(alone["turns"]["mean"]["value"])
    text = CliRunner().invoke(cli, ["compare", CLASSIC, CLASSIC, "--b-agents", "own-turn",
                                    "--games", "5"]).output
    assert "(A: default; B: own-turn)" in text and "only the agents differ" in text
    same = json.loads(CliRunner().invoke(cli, ["compare", CLASSIC, CLASSIC, "--games", "5",
                                               "--json"]).output)
    assert same["changes"] == []


def test_wins_by_agent_add_up_the_seats_of_each_agent():
    """With mixed agents every win is one agent's, counted on its seats; with one agent for
    every seat there is no such table."""
    spec = BatchSpec(CLASSIC, games=24, players=4, seed=3, agents="own-turn,default,default,random")
    assert spec.agents == ("own-turn", "default", "default", "random")
    rulebook = rulelang.load(CLASSIC)
    report = summarise(play_batch(spec, rulebook), rulebook, 4, agents=spec.agents)
    by_agent = {w.agent: w for w in report.wins_by_agent}
    assert list(by_agent) == ["own-turn", "default", "random"]
    assert [w.seats for w in by_agent.values()] == [1, 2, 1]
    seat = [s.count for s in report.wins_by_seat]
    assert by_agent["default"].wins.count == seat[1] + seat[2]
    assert by_agent["own-turn"].wins.count == seat[0]
    assert sum(w.wins.count for w in by_agent.values()) == 24 - report.no_winner.count
    assert report.to_json()["wins_by_agent"][1]["seats"] == 2
    uniform = summarise(play_batch(BatchSpec(CLASSIC, games=4, agents="own-turn"), rulebook),
                        rulebook, 4, agents=("own-turn",))
    assert uniform.wins_by_agent == ()
    text = CliRunner().invoke(cli, ["stats", CLASSIC, "--games", "6", "--agents",
                                    "own-turn,default,default,own-turn"]).output
    assert "wins by agent" in text and "an equal share" in text


@pytest.mark.parametrize("args, message", [
    (["stats", CLASSIC, "--games", "0"], "--games"),
    (["stats", CLASSIC, "--players", "9"], "3 to 8 players"),
    (["stats", CLASSIC, "--agents", "nobody"], "--agents"),
    (["stats", CLASSIC, "--jobs", "-1"], "--jobs"),
    (["run", CLASSIC, "--jobs", "2"], "give --games"),
    (["run", CLASSIC, "--games", "2", "--jobs", "2", "--log", "x.jsonl"], "--log"),
    (["compare", CLASSIC], "name the rulebook B, or give --b-agents"),
    (["compare", CLASSIC, "--b-agents", "nobody"], "--b-agents"),
    (["compare", CLASSIC, "--b-agents", "default,random"], "--b-agents"),
    (["stats", "no_such.rules"], "FILE"),
])
def test_bad_command_lines_are_usage_errors(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_run_spreads_a_batch_with_the_same_summary():
    runner = CliRunner()
    out = [json.loads(runner.invoke(cli, ["run", CLASSIC, "--games", "16", "--json",
                                          "--jobs", str(j)]).output) for j in (1, 2)]
    for d in out:
        d.pop("elapsed_s")
        d.pop("turns_per_s")
    assert out[0] == out[1] and out[0]["games"] == 16


def test_a_difference_of_shares_stays_within_one():
    from rulelang.stats import paired

    d = paired("share", [0] * 999 + [1], [1] * 1000)
    assert d.diff.high <= 1.0 and d.diff.low >= -1.0 and d.diff.value == 0.999


def test_the_end_reasons_are_counted_once():
    result = CliRunner().invoke(cli, ["stats", CLASSIC, "--games", "3", "--max-turns", "40"])
    assert result.exit_code == 0, result.output
    assert "turn_cap (capped: no winner)" in result.output
    assert "capped (turn cap)" not in result.output
    assert "3 games, 4 players" in result.output
