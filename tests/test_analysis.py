"""`rulelang.analysis`: the exact chain against the engine's own games, the textbook figures of
the classic board, the rent table, and every ruleset analysed or refused."""

from __future__ import annotations

import functools
import os
import random
from pathlib import Path

import pytest

# the chains are solved as the command solves them: on one thread (rulelang_cli.analyze_cmd)
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
np = pytest.importorskip("numpy")

import rulelang  # noqa: E402
from rulelang.analysis.markov import JAIL, Unmodelled, analyze, levels  # noqa: E402
from rulelang.engine.agents import Agent  # noqa: E402
from rulelang.engine.game import Game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = str(ROOT / "rulesets" / "classic_1961.rules")


@functools.cache
def classic() -> rulelang.Rulebook:
    return rulelang.load(CLASSIC)


@functools.cache
def exact(jail: str, cards: str):
    return analyze(classic(), jail, cards)


class Leaving(Agent):
    """Buys nothing (so nobody ever owes rent); in jail, uses a card if it holds one, else
    pays the fine (`--jail leave`), or rolls (`--jail stay`)."""

    name = "leaving"

    def __init__(self, stay: bool = False):
        self.stay = stay

    def jail(self, game, seat):
        if self.stay:
            return "roll"
        return "card" if game.state.jail_cards[seat] else "pay"


class Counted(Game):
    """The engine's game, unchanged but for two things the model says: each draw is a
    uniformly random card of the deck as it stands (shuffled before the draw); with
    `uniform`, a card a player keeps goes back to its deck at once. Each throw's landing is
    counted: where the pawn stands once the move and everything it set off are done."""

    def __init__(self, rulebook, agents, seed, uniform: bool, counts):
        self.counts = counts
        self.uniform = uniform
        self.moving = 0
        self.deck_rng = random.Random(seed * 7919 + 1)
        super().__init__(rulebook, agents, seed=seed, max_turns=1 << 30)

    def seat_players(self, rulebook, players):
        """Two pawns whatever the rulebook's `set players`: an instrument of the chain."""

    def _count(self, seat):
        st = self.state
        self.counts[JAIL if st.in_jail[seat] else st.position[seat]] += 1

    def _move(self, seat, *args, **kwargs):
        self.moving += 1
        try:
            super()._move(seat, *args, **kwargs)
        finally:
            self.moving -= 1
        if not self.moving:
            self._count(seat)

    def go_to_jail(self, seat, rule):
        super().go_to_jail(seat, rule)
        if not self.moving:  # a throw that sends to jail without moving: the third double
            self._count(seat)

    def _jail_turn(self, seat):
        before = sum(self.counts)
        super()._jail_turn(seat)
        # a throw in jail that leaves the player there
        if self.state.in_jail[seat] and sum(self.counts) == before:
            self.counts[JAIL] += 1

    def draw(self, f, deck_index):
        st = self.state
        self.deck_rng.shuffle(st.decks[deck_index])
        held = len(st.jail_cards[f.player])
        super().draw(f, deck_index)
        if self.uniform and len(st.jail_cards[f.player]) > held:
            d, c = st.jail_cards[f.player].pop()
            st.decks[d].append(c)


def simulate(jail: str, cards: str, games: int, throws: int):
    """Per game, the share of its throws that end on each square (the last: In Jail)."""
    rb = classic()
    out = []
    for seed in range(games):
        counts = [0] * (rb.size + 1)
        game = Counted(rb, [Leaving(jail == "stay"), Leaving(jail == "stay")], seed,
                       cards == "uniform", counts)
        while sum(counts) < throws and not game.over:
            game.play_turn()
        out.append(np.array(counts, dtype=float) / sum(counts))
    return np.array(out)


@pytest.mark.parametrize("jail, cards", [("leave", "uniform"), ("stay", "kept")])
def test_the_engine_lands_where_the_chain_says(jail, cards):
    """The engine's own games, in the chain's model, land on each square per throw as often
    as the exact analysis says, within sampling error (4.5 standard errors across games)."""
    a = exact(jail, cards)
    expected = np.array(a.per_roll + (a.jail_per_roll,))
    shares = simulate(jail, cards, games=24, throws=6000)
    mean = shares.mean(axis=0)
    error = shares.std(axis=0, ddof=1) / np.sqrt(len(shares))
    z = np.abs(mean - expected) / np.maximum(error, 1e-9)
    names = a.names + ("In Jail",)
    worst = int(np.argmax(z))
    assert z.max() < 4.5, (f"{names[worst]}: simulated {mean[worst]:.5f}, exact "
                           f"{expected[worst]:.5f}, {z[worst]:.1f} standard errors")


def test_the_classic_board_in_the_textbook_model():
    """--jail leave --cards uniform on the 1961 board: the textbook table (GO 3.10% of the
    throws, 3.14% of the turns; In Jail the likeliest place, Illinois Avenue the likeliest
    street, Go To Jail never, the three Chance spaces the least likely), with every throw
    ending somewhere."""
    a = exact("leave", "uniform")
    names = a.names
    assert a.per_roll[0] == pytest.approx(0.030961, abs=5e-6)
    assert a.end_of_turn[0] == pytest.approx(0.031358, abs=5e-6)
    assert a.jail_per_roll == pytest.approx(0.039500, abs=5e-6)
    assert a.per_roll[names.index("Illinois Avenue")] == pytest.approx(0.031858, abs=5e-6)
    assert sum(a.per_roll) + a.jail_per_roll == pytest.approx(1.0, abs=1e-12)
    assert sum(a.end_of_turn) + a.jail_end_of_turn == pytest.approx(1.0, abs=1e-12)
    assert a.jail_per_roll > max(a.per_roll)
    streets = [i for i in range(len(names)) if classic().spaces[i].kind == "street"]
    assert names[max(streets, key=lambda i: a.per_roll[i])] == "Illinois Avenue"
    assert a.per_roll[names.index("Go To Jail")] == 0.0
    least = sorted(range(len(names)), key=lambda i: a.per_roll[i])[1:4]
    assert {names[i] for i in least} == {"Chance"}
    # each turn has one throw, and one more after each double (1/6) unless it is the third
    assert a.throws_per_turn == pytest.approx(1 + 1 / 6 + 1 / 36, abs=0.01)


def test_rents_are_the_rulebook_rents_times_the_landings():
    """A street's expected rent per throw is its landings per throw times its rent at each
    level (doubled for the whole group unimproved, as the 1961 rule says); a railroad's and a
    utility's are more than their landings times their base rent, since the cards that send
    the pawn there raise it (rent x2, rent dice x10)."""
    a = exact("leave", "uniform")
    rb = classic()
    by_name = {p.name: p for p in a.rents}
    board = by_name["Boardwalk"]
    sp = rb.space("Boardwalk")
    expected = [sp.rents[0], 2 * sp.rents[0], *sp.rents[1:]]
    assert [lv.label for lv, _ in board.rents] == [
        "unimproved", "whole group", "1 house", "2 houses", "3 houses", "4 houses", "1 hotel"]
    for (lv, value), rent in zip(board.rents, expected):
        assert value == pytest.approx(board.per_roll * rent, rel=1e-12), lv.label
    reading = by_name["Reading Railroad"]
    assert [lv.label for lv, _ in reading.rents] == ["1 held", "2 held", "3 held", "4 held"]
    one = reading.rents[0][1]
    assert 25 * reading.per_roll < one < 50 * reading.per_roll
    assert reading.rents[3][1] == pytest.approx(8 * one)
    water = by_name["Water Works"]
    assert water.rents[0][1] > 4 * 7 * water.per_roll
    assert levels(rb, rb.space("Water Works").index)[-1].count == 2


def test_the_json_document():
    """--json's document: the ruleset, the model, the squares with index, name and the two
    probabilities as numbers from 0 to 1, In Jail apart."""
    doc = exact("leave", "uniform").to_json()
    assert list(doc) == ["ruleset", "model", "squares", "in_jail"]
    assert set(doc["in_jail"]) == {"per_roll", "end_of_turn"}
    assert doc["ruleset"] == classic().title
    assert doc["model"] == {"jail": "leave", "cards": "uniform"}
    first = doc["squares"][0]
    assert set(first) == {"index", "name", "per_roll", "end_of_turn"}
    assert first["name"] == "GO" and 0.0309 < first["per_roll"] < 0.0310
    assert 0.0313 < first["end_of_turn"] < 0.0314
    assert [s["index"] for s in doc["squares"]] == list(range(40))
    assert doc["squares"][10]["name"] == "Jail"
    assert doc["squares"][10]["per_roll"] < doc["in_jail"]["per_roll"]


def test_a_choice_that_moves_the_pawn_is_refused_naming_its_rule():
    """A house rule that lets the player choose where to go cannot be a chain of squares:
    the analysis says so, naming the rule and the space."""
    rb = rulelang.load(str(ROOT / "rulesets" / "house" / "go_or_anywhere.rules"))
    with pytest.raises(Unmodelled, match=r"'go_or_anywhere' on landing on \"GO\": the "
                                         "player's choice"):
        analyze(rb)


def test_a_move_that_depends_on_the_owners_is_refused_naming_its_rule():
    """The Speed Die's Mr. Monopoly advances to the next unowned property: where it goes
    depends on who owns what, and the analysis refuses it, naming the rule."""
    rb = rulelang.load(str(ROOT / "rulesets" / "house" / "speed_die.rules"))
    with pytest.raises(Unmodelled, match="'mr_monopoly'.*depends on the state of the game"):
        analyze(rb)


def test_a_named_face_counts_and_a_third_die_does_not_move_the_pawn():
    """The editions' dice: the Eye of Sauron counts as the 1 it is (the Lord of the Rings
    board lands as the classic one does), and Star Wars' Force die, thrown beside the two
    that move the pawn, changes no landing."""
    base = exact("leave", "uniform").per_roll
    for name in ("lotr.rules", "starwars_ep2.rules"):
        code, doc = _json(ROOT / "rulesets" / name)
        assert code == 0, doc
        assert [s["per_roll"] for s in doc["squares"]] == pytest.approx(base, abs=1e-12), name


# ---------------------------------------------------------------- the command


def _analyze(*args):
    from click.testing import CliRunner

    from rulelang_cli.analyze_cmd import analyze as command

    return CliRunner().invoke(command, [str(a) for a in args])


OFFICIAL = sorted((ROOT / "rulesets").glob("*.rules"))


@functools.cache
def _json(path):
    """`rulelang analyze PATH --json`: (exit code, the document or the output)."""
    import json

    result = _analyze(path, "--json")
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        path, result.exception)
    assert "Traceback" not in result.output, path
    return result.exit_code, json.loads(result.output) if result.exit_code == 0 \
        else result.output


def test_every_official_ruleset_is_analysed_or_refused_with_a_reason():
    """`rulelang analyze` on every rulebook of rulesets/: the JSON table (exit 0), or a
    refusal that says why (exit 1), never a traceback."""
    analysed = []
    for path in OFFICIAL:
        code, doc = _json(path)
        if code == 0:
            total = sum(s["per_roll"] for s in doc["squares"]) + doc["in_jail"]["per_roll"]
            assert total == pytest.approx(1.0), path.name
            analysed.append(path.name)
        else:
            assert code == 1, (path.name, doc)
            assert "cannot analyse this rulebook: " in doc, path.name
    assert "classic_1961.rules" in analysed and "starwars_ep2.rules" in analysed


def test_a_refused_rulebook_exits_1_with_the_reason():
    """A rulebook the chain cannot represent: exit 1, the file and the reason on one line."""
    path = ROOT / "rulesets" / "house" / "go_or_anywhere.rules"
    result = _analyze(path)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"error: {path}: cannot analyse this rulebook: 'go_or_anywhere'" in result.output


def test_bad_command_lines_are_usage_errors():
    """An unknown model, or a --plot that is neither a folder nor an image file: exit 2."""
    assert _analyze(CLASSIC, "--jail", "never").exit_code == 2
    assert _analyze(CLASSIC, "--cards", "sorted").exit_code == 2
    assert _analyze(CLASSIC, "--plot", "board.txt").exit_code == 2


def test_plot_draws_the_board(tmp_path):
    """--plot DIR writes DIR/analysis.png, a PNG image; an existing file needs --force."""
    result = _analyze(CLASSIC, "--plot", tmp_path)
    assert result.exit_code == 0, result.output
    png = tmp_path / "analysis.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 50_000
    assert _analyze(CLASSIC, "--plot", png).exit_code == 2
    assert _analyze(CLASSIC, "--plot", png, "--force").exit_code == 0


def test_the_table_shows_in_jail_apart_and_the_rents():
    """The default report: per space the two probabilities, In Jail on a row of its own
    after the jail, and the rent tables."""
    result = _analyze(CLASSIC)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "│ 10 │ Jail" in out and "In Jail" in out and "3.9500%" in out
    assert "Boardwalk" in out and "52.52" in out  # a hotel on Boardwalk: 2.626% x $2000
