"""Saved games: a game saved at any turn and resumed goes on exactly as if it never stopped;
a bad save is refused with a clear error and nothing is overwritten."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from clirun import in_process
from invariants import ROOT, load, ruleset_paths
from rulelang import save
from rulelang.engine.game import Game
from rulelang.runner import make_agents, result_of
from strategies import ci_examples, tables

RULES = "rulesets/classic_1961.rules"


def _game(ruleset, names, seed, lines, max_turns=2000):
    return Game(load(ruleset), make_agents(names, len(names)), seed=seed, max_turns=max_turns,
                log=lines.append)


def _played_to(game, turn):
    while not game.over and game.state.turn < turn:
        game.play_turn()
    return game


@pytest.mark.parametrize("ruleset", ruleset_paths())
@ci_examples(6)
@given(data=st.data())
def test_resumed_game_goes_on_exactly(ruleset, data, tmp_path_factory):
    """Saved at any turn and resumed from the file: the same events byte for byte, the same end."""
    seed, names = data.draw(tables(ruleset), label="seed, agents")
    max_turns = data.draw(st.sampled_from([300, 2000]), label="max_turns")
    whole: list[str] = []
    uninterrupted = _game(ruleset, names, seed, whole, max_turns).play()
    at = data.draw(st.integers(0, uninterrupted.state.turn - 1), label="save at turn")
    before: list[str] = []
    game = _played_to(_game(ruleset, names, seed, before, max_turns), at)
    path = tmp_path_factory.mktemp("save") / "game.json"
    rulelang.save_game(game, path)
    after: list[str] = []
    resumed = rulelang.load_game(path, log=after.append)
    again = save.dumps(resumed)
    resumed.play()
    assert before + after == whole
    assert result_of(resumed) == result_of(uninterrupted)
    assert again == path.read_text(encoding="utf-8"), "save, load, save: not the same file"


def test_saving_changes_nothing_in_the_saved_game():
    """A game goes on the same after a save as without it: saving only reads."""
    whole: list[str] = []
    _game(RULES, ["random", "default", "random"], 5, whole).play()
    lines: list[str] = []
    game = _played_to(_game(RULES, ["random", "default", "random"], 5, lines), 30)
    save.dumps(game)
    game.play()
    assert lines == whole


def test_resume_from_the_command_line_matches_the_uninterrupted_game(tmp_path):
    """`run --save-at --save`, then `resume` in another process and hash seed: the same log."""
    def rulelang_cli(*args, hashseed):
        env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
        return subprocess.run([sys.executable, "-m", "rulelang_cli.main", *map(str, args)],
                              capture_output=True, env=env, check=True, cwd=tmp_path,
                              text=True).stdout
    common = [ROOT / RULES, "-p", 4, "-s", 9, "-a", "default,random,default,random"]
    full = rulelang_cli("run", *common, "--log", "full.jsonl", "--json", hashseed=1)
    out = rulelang_cli("run", *common, "--log", "a.jsonl", "--save-at", 25, "--save", "s.json",
                       hashseed=2)
    assert "saved at turn 25" in out
    resumed = rulelang_cli("resume", "s.json", "--log", "b.jsonl", "--json", hashseed=3)
    assert resumed == full
    joined = (tmp_path / "a.jsonl").read_bytes() + (tmp_path / "b.jsonl").read_bytes()
    assert joined == (tmp_path / "full.jsonl").read_bytes()


def test_resume_can_save_again(tmp_path):
    """A resumed game can be saved again further on, and that save resumes too."""
    first = tmp_path / "first.json"
    second = tmp_path / "second.json"
    whole: list[str] = []
    end = result_of(_game(RULES, ["default"] * 3, 2, whole).play())
    lines: list[str] = []
    rulelang.save_game(_played_to(_game(RULES, ["default"] * 3, 2, lines), 10), first)
    rulelang.save_game(_played_to(rulelang.load_game(first, log=lines.append), 20), second)
    game = rulelang.load_game(second, log=lines.append).play()
    assert lines == whole and result_of(game) == end


# ---------------------------------------------------------------- agents of one's own


class Counting(rulelang.DefaultAgent):
    """Remembers how many times it was asked to buy, in a plain attribute."""

    name = "counting"

    def __init__(self):
        super().__init__()
        self.asked = 0

    def buy(self, game, seat, pos):
        self.asked += 1
        return self.asked % 2 == 1


class Notebook(rulelang.RandomAgent):
    """Keeps its state through save_state/load_state."""

    name = "notebook"

    def __init__(self):
        super().__init__()
        self.notes = {"seen": set()}

    def buy(self, game, seat, pos):
        self.notes["seen"].add(pos)
        return len(self.notes["seen"]) % 3 != 0

    def save_state(self):
        return {"seen": sorted(self.notes["seen"]), "rng": self.rng}

    def load_state(self, data):
        self.notes = {"seen": set(data["seen"])}
        self.rng = data["rng"]


@pytest.mark.parametrize("make", [Counting, Notebook])
def test_own_agents_resume_with_their_state(make, tmp_path):
    """Agents of one's own resume from their attributes, or from save_state/load_state."""
    def seats():
        return [make(), rulelang.DefaultAgent(), make()]
    whole: list[str] = []
    Game(load(RULES), seats(), seed=3, max_turns=400, log=whole.append).play()
    lines: list[str] = []
    game = _played_to(Game(load(RULES), seats(), seed=3, max_turns=400, log=lines.append), 40)
    rulelang.save_game(game, tmp_path / "g.json")
    with pytest.raises(rulelang.SaveError, match="not built in; name its class: rulelang "
                       "resume --agents"):
        rulelang.load_game(tmp_path / "g.json")
    rulelang.load_game(tmp_path / "g.json", agents=seats(), log=lines.append).play()
    assert lines == whole


class _Own(rulelang.DefaultAgent):
    """A user's agent: its instances take attributes of their own (the built-in agents' may
    not, once compiled by rulelang native build)."""


def test_an_agent_whose_state_cannot_be_saved_is_named():
    """An attribute JSON cannot hold is refused, naming the seat and the attribute."""

    agent = _Own()
    agent.memory = {1: "a"}
    game = Game(load(RULES), [rulelang.DefaultAgent(), agent, rulelang.DefaultAgent()])
    with pytest.raises(rulelang.SaveError, match="seat 1: the agent's attribute 'memory'"):
        save.dumps(game)


# ---------------------------------------------------------------- bad saves


@pytest.fixture(scope="module")
def good_save():
    game = _played_to(_game(RULES, ["default", "random", "default"], 4, []), 12)
    return save.dumps(game)


def _resealed(text, change):
    """The save with its body changed by `change` and a checksum that matches again."""
    doc = json.loads(text)
    change(doc)
    doc["checksum"] = save._checksum(doc["game"])
    return json.dumps(doc)


def _bad_saves(good: str) -> dict[str, tuple[str | bytes, str]]:
    newer = json.loads(good)
    newer["version"] = save.VERSION + 1
    edited = good.replace('"seed":4', '"seed":5')
    assert edited != good

    def cash(doc):
        doc["game"]["state"]["cash"][0] = "1500"

    def owner(doc):
        doc["game"]["state"]["owner"][1] = 7

    def missing(doc):
        del doc["game"]["rng"]

    def seats(doc):
        doc["game"]["state"]["owner"].pop()

    def agent(doc):
        doc["game"]["agents"][0]["state"]["_idle_key"] = {"set": [1]}

    return {
        "truncated": (good[: len(good) // 2], "truncated"),
        "empty": ("", "not a rulelang save"),
        "binary": (b"\x89PNG\r\n\x1a\n\x00\xff", "not UTF-8"),
        "foreign json": ('{"name": "a game of something else"}', "not a rulelang save"),
        "a list": ("[1, 2, 3]", "not a rulelang save"),
        "newer": (json.dumps(newer), "newer rulelang"),
        "edited": (edited, "checksum does not match"),
        "wrong type": (_resealed(good, cash), "expected int @ $.game.state.cash[0]"),
        "out of range": (_resealed(good, owner), "owner[1] is 7"),
        "missing field": (_resealed(good, missing), "required field missing @ $.game.rng"),
        "short list": (_resealed(good, seats), "state.owner has 39 entries, expected 40"),
        "bad agent value": (_resealed(good, agent), "expected tuple, dict or random"),
    }


@pytest.mark.parametrize("case", ["truncated", "empty", "binary", "foreign json", "a list",
                                  "newer", "edited", "wrong type", "out of range",
                                  "missing field", "short list", "bad agent value"])
def test_a_bad_save_is_refused_clearly(case, good_save, tmp_path):
    """Each kind of damage gets its own clear message, from Python and from the CLI, where
    it overwrites neither the log nor the save target, and prints no traceback."""
    content, message = _bad_saves(good_save)[case]
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(rulelang.SaveError) as err:
        rulelang.load_game(path)
    assert message in str(err.value)
    log, target = tmp_path / "events.jsonl", tmp_path / "next.json"
    log.write_text("keep me\n")
    target.write_text("keep me too\n")
    done = in_process("resume", path, "--log", log, "--save-at", "50", "--save", target,
                      cwd=ROOT)
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and message in done.stderr
    assert log.read_text() == "keep me\n" and target.read_text() == "keep me too\n"


def test_a_changed_rulebook_is_refused(tmp_path):
    """A save of a rulebook whose file changed since cannot go on exactly: it says so."""
    for name in ("classic_1961.rules", "classic_board.rules"):
        (tmp_path / name).write_bytes((ROOT / "rulesets" / name).read_bytes())
    rb = rulelang.load(str(tmp_path / "classic_1961.rules"))
    game = _played_to(Game(rb, make_agents("default", 3), seed=1), 5)
    rulelang.save_game(game, tmp_path / "g.json")
    rulelang.load_game(tmp_path / "g.json")
    with open(tmp_path / "classic_board.rules", "a", encoding="utf-8") as f:
        f.write("\n# an edit\n")
    with pytest.raises(rulelang.SaveError, match="its files have changed"):
        rulelang.load_game(tmp_path / "g.json")
    (tmp_path / "classic_1961.rules").unlink()
    with pytest.raises(rulelang.SaveError, match="which is not there now"):
        rulelang.load_game(tmp_path / "g.json")


def test_the_wrong_agents_are_refused(good_save, tmp_path):
    """Agents given for a resume must be as many as the seats and of the saved classes."""
    path = tmp_path / "g.json"
    path.write_text(good_save, encoding="utf-8")
    with pytest.raises(rulelang.SaveError, match="3 seats, but 2 agents"):
        rulelang.load_game(path, agents=make_agents("default", 2))
    with pytest.raises(rulelang.SaveError, match="seat 1 .* was played by .*RandomAgent"):
        rulelang.load_game(path, agents=make_agents("default", 3))


# ---------------------------------------------------------------- atomic writes


def test_a_failed_save_leaves_the_old_file_whole(good_save, tmp_path, monkeypatch):
    """If the rename fails, the previous save is untouched and no temporary file is left."""
    path = tmp_path / "g.json"
    path.write_text(good_save, encoding="utf-8")
    game = _played_to(_game(RULES, ["default"] * 3, 8, []), 30)

    def broken(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(rulelang.SaveError, match="No space left on device"):
        rulelang.save_game(game, path)
    assert path.read_text(encoding="utf-8") == good_save
    assert os.listdir(tmp_path) == ["g.json"]


def test_an_unsaveable_game_writes_nothing(good_save, tmp_path):
    """A game that cannot be saved leaves the target file as it was."""
    path = tmp_path / "g.json"
    path.write_text(good_save, encoding="utf-8")
    agent = _Own()
    agent.callback = print
    game = Game(load(RULES), [agent, rulelang.DefaultAgent(), rulelang.DefaultAgent()])
    with pytest.raises(rulelang.SaveError, match="builtin_function_or_method"):
        rulelang.save_game(game, path)
    assert path.read_text(encoding="utf-8") == good_save
    assert os.listdir(tmp_path) == ["g.json"]


def test_save_options_go_together():
    """--save-at without --save is a usage error (exit 2)."""
    done = in_process("run", RULES, "--save-at", "3", cwd=ROOT)
    assert done.returncode == 2 and "go together" in done.stderr


def test_a_moved_rulebook_is_found_with_rules(tmp_path):
    """A rulebook that moved, with its files unchanged, is given with --rules (or rulebook=)."""
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    for name in ("classic_1961.rules", "classic_board.rules"):
        (old / name).write_bytes((ROOT / "rulesets" / name).read_bytes())
    rb = rulelang.load(str(old / "classic_1961.rules"))
    whole: list[str] = []
    Game(rb, make_agents("default", 3), seed=6, log=whole.append).play()
    lines: list[str] = []
    game = _played_to(Game(rb, make_agents("default", 3), seed=6, log=lines.append), 20)
    rulelang.save_game(game, tmp_path / "g.json")
    old.rename(new)
    with pytest.raises(rulelang.SaveError, match="not there now"):
        rulelang.load_game(tmp_path / "g.json")
    rulelang.load_game(tmp_path / "g.json", rulebook=new / "classic_1961.rules",
                       log=lines.append).play()
    assert lines == whole
    done = in_process("resume", "g.json", "--rules", "new/classic_1961.rules", "--json",
                      cwd=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["end_reason"] == "last_player"
