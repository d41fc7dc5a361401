"""Scenario tests of the 1961 short game and time-limit game (004, PARTIE ABRÉGÉE)."""

import json

import pytest

import rulelang
import rulelang.runner
from clirun import in_process
from rulelang.engine.actions import Build, SellAll
from rulelang.engine.endings import valuation
from rulelang.engine.game import Game
from scenario import RULESETS, Scripted, assert_dealt, rulebook, scenario, total_money

SHORT, TIMED = "classic_1961_short.rules", "classic_1961_timed.rules"
RB = rulebook(SHORT)


def P(name: str) -> int:
    return RB.space(name).index


def _retired(game, seat):
    """Seat retired by an earlier bankruptcy (the first of the short game)."""
    st = game.state
    st.cash[st.bank] += st.cash[seat]
    st.cash[seat] = 0
    st.bankrupt[seat] = True
    st.bankruptcies += 1


@pytest.mark.parametrize("name", [SHORT, TIMED])
def test_two_deeds_dealt_and_paid(name):
    """PARTIE ABRÉGÉE 1 / LIMITE DE TEMPS: two deeds to each player, paid at the printed price."""
    assert_dealt(name, players=4, each=2, paid=True)


def test_hotel_after_three_houses():
    """PARTIE ABRÉGÉE 2: three houses on every lot of the group, then a hotel; they go back."""
    game = scenario(name=SHORT, owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Mediterranean Avenue": 3, "Baltic Avenue": 3})
    st = game.state
    houses = st.bank_houses
    from rulelang.engine.actions import apply
    apply(game, 0, Build(P("Baltic Avenue")))
    assert st.hotels[P("Baltic Avenue")] == 1 and st.houses[P("Baltic Avenue")] == 0
    assert st.bank_houses == houses + 3 and st.cash[0] == 1500 - 50
    assert total_money(game) == 0


def test_hotel_needs_three_houses_on_every_lot():
    """PARTIE ABRÉGÉE 2: with two houses on another lot, the next building is a house there."""
    game = scenario(name=SHORT, owners={"Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    houses={"Mediterranean Avenue": 2, "Baltic Avenue": 3})
    from rulelang.engine.actions import IllegalAction, apply
    with pytest.raises(IllegalAction):
        apply(game, 0, Build(P("Baltic Avenue")))
    apply(game, 0, Build(P("Mediterranean Avenue")))
    assert game.state.houses[P("Mediterranean Avenue")] == 3


def test_hotel_sells_back_for_half_of_itself_and_three_houses():
    """PARTIE ABRÉGÉE 2: a hotel resells at half price and counts one house less (three)."""
    game = scenario(name=SHORT, owners={"Park Place": 0, "Boardwalk": 0},
                    hotels={"Park Place": 1, "Boardwalk": 1})
    from rulelang.engine.actions import apply
    apply(game, 0, SellAll(P("Boardwalk")))
    assert game.state.cash[0] == 1500 + 2 * (200 + 3 * 200) // 2
    assert total_money(game) == 0


def test_valuation_as_printed():
    """PARTIE ABRÉGÉE 3: cash, printed prices, mortgaged lots at half, buildings at cost."""
    game = scenario(name=SHORT, cash={0: 100},
                    owners={"Park Place": 0, "Boardwalk": 0, "Reading Railroad": 0,
                            "Mediterranean Avenue": 0, "Baltic Avenue": 0},
                    hotels={"Boardwalk": 1}, houses={"Park Place": 2},
                    mortgaged=["Reading Railroad", "Mediterranean Avenue"])
    # cash 100; Park Place 350 + 2 houses 400; Boardwalk 400 + hotel 200 with its three
    # houses 600; Reading mortgaged 100; Mediterranean mortgaged 30; Baltic 60
    assert valuation(game, 0) == 100 + 350 + 400 + 400 + 800 + 100 + 30 + 60


def test_first_bankruptcy_retires_the_player_as_in_the_regular_game():
    """PARTIE ABRÉGÉE 3: the first bankrupt retires; buildings sold; the game goes on."""
    game = scenario(name=SHORT, dice=[(2, 3)], positions={0: "Pennsylvania Avenue"},
                    cash={0: 100}, owners={"Boardwalk": 1, "Park Place": 1, "Baltic Avenue": 0,
                                           "Mediterranean Avenue": 0},
                    hotels={"Boardwalk": 1},
                    houses={"Baltic Avenue": 2, "Mediterranean Avenue": 2})
    game.play_turn()
    st = game.state
    assert st.bankrupt[0] and not game.over
    assert st.houses[P("Baltic Avenue")] == 0 and st.owner[P("Baltic Avenue")] == 1
    assert st.cash[1] == 1500 + 100 + 4 * 25
    assert st.bankruptcies == 1
    assert total_money(game) == 0


def test_second_bankruptcy_ends_the_game_everything_to_the_player_creditor():
    """PARTIE ABRÉGÉE 3: at the second bankruptcy the game stops; the creditor takes all,
    buildings too, no interest on mortgages; the richest wins."""
    game = scenario(players=4, name=SHORT, dice=[(2, 3)], positions={0: "Pennsylvania Avenue"},
                    cash={0: 100, 2: 4000},
                    owners={"Boardwalk": 1, "Park Place": 1, "Baltic Avenue": 0,
                            "Mediterranean Avenue": 0, "Reading Railroad": 0},
                    hotels={"Boardwalk": 1},
                    houses={"Baltic Avenue": 3, "Mediterranean Avenue": 3},
                    mortgaged=["Reading Railroad"])
    _retired(game, 3)
    houses = game.state.bank_houses
    game.play_turn()
    st = game.state
    assert game.over and game.end_reason == "end_of_game"
    assert st.houses[P("Baltic Avenue")] == st.houses[P("Mediterranean Avenue")] == 3
    assert st.bank_houses == houses
    assert st.owner[P("Reading Railroad")] == 1 and st.mortgaged[P("Reading Railroad")]
    assert st.cash[1] == 1500 + 100
    # seat 1: 1600 + Boardwalk 400 and its hotel 800 + Park Place 350 + Baltic/Med 120
    # + 6 houses 300 + Reading at half 100
    assert valuation(game, 1) == 3670 < valuation(game, 2) == 4000
    assert game.winner == 2
    assert total_money(game) == 0


def test_second_bankruptcy_to_the_bank_gives_it_everything_without_auction():
    """PARTIE ABRÉGÉE 3: owing the bank, the bank takes all, buildings too; no auction."""
    bidder = Scripted(bids=[500])
    game = scenario(players=4, agents=[Scripted(), bidder, Scripted(), Scripted()],
                    name=SHORT, dice=[(1, 3)], positions={0: "GO"}, cash={0: 10},
                    owners={"Baltic Avenue": 0, "Mediterranean Avenue": 0},
                    houses={"Baltic Avenue": 2, "Mediterranean Avenue": 2})
    _retired(game, 3)
    game.play_turn()  # Income Tax $200: more than his $10, $100 of houses, $60 of mortgages
    st = game.state
    assert game.over and game.end_reason == "end_of_game"
    assert st.owner[P("Baltic Avenue")] == -1 and st.houses[P("Baltic Avenue")] == 0
    assert st.bank_houses == 32 and bidder.asked == []
    assert game.winner in (1, 2)
    assert total_money(game) == 0


def test_richest_tie_goes_to_more_cash():
    """Decision (seed silent): equal valuations, the one with more cash wins."""
    game = scenario(players=4, name=SHORT, dice=[(1, 2)], positions={0: "Short Line"},
                    cash={0: 10, 1: 1400, 2: 1340}, owners={"Baltic Avenue": 2})
    _retired(game, 3)
    game.play_turn()
    assert game.over and valuation(game, 1) == valuation(game, 2) and game.winner == 1


def test_time_limit_ends_at_the_agreed_time_and_the_richest_wins():
    """LIMITE DE TEMPS: 90 minutes by default, one minute per player-turn; richest wins."""
    rb = rulebook(TIMED)
    assert rb.settings.time_limit == 90 and rb.settings.seconds_per_turn == 60
    seen = 0
    for seed in range(40):
        game = Game(rb, rulelang.runner.make_agents("default", 4), seed=seed).play()
        if game.end_reason == "time_limit":
            seen += 1
            assert game.state.turn == 90
            alive = [s for s in range(4) if not game.state.bankrupt[s]]
            best = max(valuation(game, s) for s in alive)
            assert valuation(game, game.winner) == best
        else:
            assert game.end_reason == "last_player" and game.state.turn <= 90  # a last bankruptcy in the 90th turn
    assert seen >= 30


def test_time_limit_is_a_parameter_agreed_before_the_game():
    """LIMITE DE TEMPS: `--set time_limit=30` ends the game after 30 minutes instead."""
    rb = rulelang.load(str(RULESETS / TIMED), parameters={"time_limit": "30"})
    game = Game(rb, rulelang.runner.make_agents("default", 4), seed=1).play()
    assert game.end_reason == "time_limit" and game.state.turn == 30


def _cli(*args):
    return in_process("run", RULESETS / TIMED, *args)


def test_cli_set_time_limit():
    """`rulelang run --set time_limit=30 --json` reports the end reason, the clock and scores."""
    out = _cli("--set", "time_limit=30", "--json", "--seed", "1")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["end_reason"] == "time_limit" and result["minutes"] == 30
    assert result["turns"] == 30 and len(result["net_worth"]) == 4


def test_cli_set_refuses_what_is_not_a_parameter():
    """`--set jail_fine=$10` is a usage error (exit 2) naming the rulebook's parameters."""
    out = _cli("--set", "jail_fine=$10")
    assert out.returncode == 2
    assert "not a parameter" in out.stderr and "time_limit" in out.stderr
    bad = _cli("--set", "time_limit")
    assert bad.returncode == 2 and "NAME=VALUE" in bad.stderr
    assert "Traceback" not in out.stderr + bad.stderr
