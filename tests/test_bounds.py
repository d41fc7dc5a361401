"""Whatever checks clean ends: every loop of the engine is bounded and a bound ends the game
with a coded reason; legal rules never raise out of the engine (bankruptcy chains, a player
bankrupt in the middle of a per-player payment, agents and forbidden actions)."""

from __future__ import annotations

import json
import shutil
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

import rulelang
from clirun import in_process
from invariants import CheckedGame
from rulelang.engine.game import MAX_ROLLS, MAX_TIES, Game
from rulelang.engine.tables import MAX_CHAIN
from rulelang.runner import make_agents, result_of

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "data" / "hostile" / "engine"


@contextmanager
def within(seconds: int):
    """Fail, instead of hanging the suite, if the block runs longer than `seconds`."""

    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: a loop without a bound")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def rules(tmp_path):
    """Write a variant of a copy of the rulesets; returns its path (extends by a relative path)."""
    shutil.copytree(ROOT / "rulesets", tmp_path / "rulesets")

    def write(body: str, base: str = "classic_1961.rules", name: str = "variant.rules") -> str:
        path = tmp_path / "rulesets" / name
        path.write_text(f'rulebook "variant"\nextends "{base}"\n\n{body}', encoding="utf-8")
        return str(path)

    return write


TWO_PLAYERS = 'rule table:\n  cite "t", "t"\n  set players = 2 to 8\n'
# every double rolls again, and no number of doubles sends the player to jail
NO_JAIL_ON_DOUBLES = ('replace rule doubles:\n  cite "t", "t"\n'
                      '  when a player rolls doubles: roll again\n')


def _events(log: list[str]) -> list[dict]:
    return [json.loads(line) for line in log]


# ------------------------------------------------------------------ bounds


def test_constant_dice_still_choose_a_first_player(rules):
    """Dice that always tie choose the first player by seat order after MAX_TIES tied
    throws, and say so in the log; the game then plays to its cap."""
    rb = rulelang.load(rules(TWO_PLAYERS + 'die "a" faces 3\ndie "b" faces 4\n'))
    log: list[str] = []
    with within(20):
        game = Game(rb, make_agents("default", 2), seed=1, max_turns=50, log=log.append)
        game.play()
    events = _events(log)
    first = next(e for e in events if e["event"] == "first_player")
    assert first == {"turn": 0, "event": "first_player", "player": 0, "tie_break": True,
                     "rule": "first_player"}
    setup_rolls = [e for e in events[:events.index(first)] if e["event"] == "roll"]
    assert len(setup_rolls) == 2 * MAX_TIES
    assert game.end_reason == "turn_cap" and game.state.turn == 50


def test_always_doubles_with_roll_again_ends_at_the_roll_limit(rules):
    """Dice that always double, `roll again` and no jail on doubles: the first turn stops
    after MAX_ROLLS rolls and the game ends, with no winner, as `roll_limit`."""
    # 4 + 4 on the classic board never lands on "Go To Jail" nor on a card square
    rb = rulelang.load(rules(TWO_PLAYERS + NO_JAIL_ON_DOUBLES
                             + 'die "a" faces 4\ndie "b" faces 4\n'))
    log: list[str] = []
    with within(20):
        game = Game(rb, make_agents("default", 2), seed=1, max_turns=50, log=log.append)
        game.play()
    events = _events(log)
    turn_rolls = [e for e in events if e["event"] == "roll" and e["rule"] == "turn"]
    assert len(turn_rolls) == MAX_ROLLS
    assert events[-1] == {"turn": 0, "event": "end", "reason": "roll_limit", "winner": None,
                          "rule": "roll_limit"}
    result = result_of(game)
    assert (result.end_reason, result.winner, result.turns) == ("roll_limit", None, 1)
    assert result.to_json()["end_reason"] == "roll_limit"


def test_a_chain_of_passing_rules_ends_at_the_chain_limit(rules):
    """A `passes` rule that moves the player over the space again (its move starts where the
    player stood) is a chain too: it ends the game at MAX_CHAIN as `chain_limit`, instead of
    recursing until Python's RecursionError."""
    rb = rulelang.load(rules(
        'rule again_and_again:\n  cite "t", "t"\n'
        '  when a player passes "GO" unless the player is in jail: '
        'advance to "Reading Railroad"\n'))
    log: list[str] = []
    with within(20):
        game = CheckedGame(rb, make_agents("default", 3), seed=3, max_turns=300)
        game.checker.lines = log
        game.play()
    game.checker.check_finished()
    events = _events(log)
    assert game.end_reason == "chain_limit" and game.winner is None
    assert sum(e["event"] == "chain_cut" for e in events) == 1
    assert events[-1]["event"] == "end" and events[-1]["reason"] == "chain_limit"


def test_a_token_chain_ends_the_game_at_the_chain_limit(rules):
    """A `reaches` loop the checker cannot call endless ends the game as `chain_limit`."""
    rb = rulelang.load(rules(
        'token "Q" starts on "GO"\nrule r:\n  cite "t", "t"\n'
        '  when a player lands on a railroad: move token "Q" to the next street\n'
        '  when token "Q" reaches a street unless the player is in jail: '
        'move token "Q" to the next street\n'))
    with within(20):
        game = Game(rb, make_agents("default", 3), seed=2, max_turns=300).play()
    assert (game.end_reason, game.winner) == ("chain_limit", None)
    assert MAX_CHAIN == 32


@pytest.mark.parametrize("path", sorted(HOSTILE.glob("*.rules")), ids=lambda p: p.name)
def test_hostile_rulebooks_check_and_end_as_annotated(path):
    """Each hostile rulebook reports its `# expect:` code and, played from the command line
    (2 players, 50 turns, seed 1), ends for its `# end:` reason within seconds."""
    expect, end = path.read_text(encoding="utf-8").splitlines()[:2]
    assert expect.startswith("# expect: ") and end.startswith("# end: ")
    code, reason = expect.removeprefix("# expect: "), end.removeprefix("# end: ")
    codes = {d.code for d in rulelang.check(str(path))}
    assert (code in codes) if code != "none" else not codes, codes
    run = in_process("run", path, "--players", "2", "--max-turns", "50", "--seed", "1",
                     "--json", timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["end_reason"] == reason


def test_the_checker_warns_of_dice_that_always_tie(rules):
    """W111: every die constant, the first player drawn by the highest roll always ties."""
    path = rules(TWO_PLAYERS + 'die "a" faces 3\ndie "b" faces 4\n')
    diags = [d for d in rulelang.check(path) if d.code == "W111"]
    assert len(diags) == 1 and "tie" in diags[0].message
    assert f"after {MAX_TIES} of them" in diags[0].message  # the engine's bound, as it is


def test_the_checker_warns_of_dice_that_always_double_and_roll_again(rules):
    """W111: dice that always double, each double rolling again, no jail on doubles."""
    path = rules(TWO_PLAYERS + NO_JAIL_ON_DOUBLES + 'replace rule first_player:\n'
                 '  cite "t", "t"\ndie "a" faces 4\ndie "b" faces 4\n')
    diags = [d for d in rulelang.check(path) if d.code == "W111"]
    assert len(diags) == 1 and "roll again" in diags[0].message
    assert f"after {MAX_ROLLS} rolls" in diags[0].message
    # with the classic third-double jail, the turn ends: nothing to report
    jailed = rules(TWO_PLAYERS + 'replace rule first_player:\n  cite "t", "t"\n'
                   'die "a" faces 4\ndie "b" faces 4\n',
                   name="jailed.rules")
    assert "W111" not in {d.code for d in rulelang.check(jailed)}


# ------------------------------------------------------------------ legal rules, no exception


def test_random_agents_never_offer_a_trade_the_rulebook_forbids(rules):
    """`a player may not trade`: random agents never propose a trade (no IllegalAction)."""
    rb = rulelang.load(rules('rule no_trading:\n  cite "t", "t"\n  a player may not trade\n'))
    for seed in range(1, 6):
        game = CheckedGame(rb, make_agents("random", 3), seed=seed, max_turns=200)
        game.play()
        game.checker.check_finished()


def test_a_creditor_bankrupted_by_inherited_interest_leaves_a_winner(rules):
    """dinos, 100% interest, 2 random players, seed 4: the last bankruptcy's creditor, the
    only player left, wins; it is not asked interest it cannot pay (was StopIteration)."""
    rb = rulelang.load(rules('rule interest:\n  cite "t", "t"\n  set mortgage_interest = 100%\n',
                             base="dinos.rules"))
    game = CheckedGame(rb, make_agents("random", 2), seed=4, max_turns=2000)
    game.play()
    game.checker.check_finished()
    assert game.end_reason == "last_player" and game.winner is not None
    assert not game.state.bankrupt[game.winner]


def test_a_player_bankrupt_while_collecting_from_each_player_is_paid_no_more():
    """no_auctions, 6 players, seed 22625: the player collecting $50 from each goes bankrupt
    on the interest of the deeds it inherits; the players after it pay it nothing."""
    rb = rulelang.load(str(ROOT / "rulesets" / "house" / "no_auctions.rules"))
    agents = make_agents("default,default,default,default,random,default", 6)
    game = CheckedGame(rb, agents, seed=22625, max_turns=233)
    game.play()  # the checker: a bankrupt player holds no cash
    game.checker.check_finished()
    assert game.state.bankrupt[4] and game.state.cash[4] == 0


def test_a_player_alone_in_the_game_is_never_made_bankrupt(rules):
    """`set players = 1 to 8`, one player without cash: what it cannot pay is not taken, it
    is never made bankrupt (nobody would be left: was StopIteration) and never stays in jail
    past its last turn; the game plays to its cap."""
    rb = rulelang.load(rules('rule solo:\n  cite "t", "t"\n  set players = 1 to 8\n'
                             '  set starting_cash = $0\n  set auction_min_bid = $0\n  set jail_fine = $100000\n'))
    game = CheckedGame(rb, make_agents("default", 1), seed=5, max_turns=300)
    game.play()
    game.checker.check_finished()
    assert (game.end_reason, game.state.bankrupt) == ("turn_cap", [False])
