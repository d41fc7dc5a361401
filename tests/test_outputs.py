"""The files `run` and `resume` write are never destroyed by mistake: an output that is an
input (the rulebook, a file it extends, the save being resumed) or another output is refused,
`--force` or not; an existing output only with `--force`; all before the game is played; and
a crash or Ctrl-C in the middle of a game leaves the old file whole."""

from __future__ import annotations

import os
import stat
import time

import pytest
from click.testing import CliRunner

from clirun import in_process
from invariants import ROOT
from rulelang_cli import resume_cmd, run_cmd

FILES = ("classic_board.rules", "classic_1961.rules", "house/no_auctions.rules")


@pytest.fixture
def here(tmp_path):
    """A folder with copies of a rulebook, the files it extends and a house rule on top."""
    (tmp_path / "house").mkdir()
    for name in FILES:
        (tmp_path / name).write_bytes((ROOT / "rulesets" / name).read_bytes())
    return tmp_path


def rulelang_cli(command, *args, cwd):
    # the house rule extends its copied parent: the copy's folder is named with -I
    return in_process(command, "-I", ".", *args, cwd=cwd)


def _contents(folder):
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("args, message", [
    (["run", "classic_1961.rules", "--log", "classic_1961.rules"], "the rulebook being played"),
    (["run", "house/no_auctions.rules", "--log", "classic_board.rules"],
     "a file the rulebook 'house/no_auctions.rules' extends"),
    (["run", "house/no_auctions.rules", "--save-at", "3", "--save", "classic_1961.rules"],
     "a file the rulebook"),
    (["run", "classic_1961.rules", "--log", "./house/../classic_1961.rules"],
     "the rulebook being played"),
    (["run", "classic_1961.rules", "--log", "out.txt", "--save-at", "3", "--save", "out.txt"],
     "also the file of --log"),
    (["run", "classic_1961.rules", "--games", "3", "--log", "house/no_auctions.rules"],
     None),  # not an input of this run: an existing file all the same
])
@pytest.mark.parametrize("force", [False, True])
def test_run_never_overwrites_an_input(args, message, force, here):
    """An output that is an input or the other output: exit 2, every file as it was."""
    before = _contents(here)
    done = rulelang_cli(*args, *(["--force"] if force else []), cwd=here)
    if message is None and force:
        assert done.returncode == 0  # with --force, an existing file that is no input is fine
        return
    assert done.returncode == 2, done.stderr
    assert (message or "give --force to overwrite it") in done.stderr
    assert _contents(here) == before


def test_links_to_an_input_are_the_input(here):
    """A hard link or a symbolic link to the rulebook is the rulebook: refused."""
    os.link(here / "classic_1961.rules", here / "hard.jsonl")
    os.symlink(here / "classic_board.rules", here / "soft.jsonl")
    before = _contents(here)
    for name in ("hard.jsonl", "soft.jsonl"):
        done = rulelang_cli("run", "classic_1961.rules", "--log", name, "--force", cwd=here)
        assert done.returncode == 2, done.stderr
        # a symbolic link is refused as such, whatever it points to
        assert ("it would be overwritten" if name == "hard.jsonl" else "is a symbolic link") \
            in done.stderr
    assert _contents(here) == before


@pytest.fixture
def saved(here):
    done = rulelang_cli("run", "classic_1961.rules", "-s", "3", "--save-at", "10", "--save",
                        "game.json", cwd=here)
    assert done.returncode == 0, done.stderr
    return here / "game.json"


@pytest.mark.parametrize("args, message", [
    (["--log", "game.json"], "the save being resumed"),
    (["--save-at", "20", "--save", "game.json"], "the save being resumed"),
    (["--log", "classic_board.rules"], "a file the rulebook"),
    (["--rules", "classic_1961.rules", "--log", "classic_1961.rules"], "the rulebook being played"),
    (["--log", "a.jsonl", "--save-at", "20", "--save", "a.jsonl"], "also the file of --log"),
])
@pytest.mark.parametrize("force", [False, True])
def test_resume_never_overwrites_an_input(args, message, force, saved):
    """`resume S --log S` and the like: exit 2, the save and the rulebook as they were."""
    here = saved.parent
    before = _contents(here)
    done = rulelang_cli("resume", "game.json", *args, *(["--force"] if force else []), cwd=here)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert _contents(here) == before


@pytest.mark.parametrize("command", ["run", "resume"])
def test_an_existing_output_needs_force(command, saved):
    """An existing --log or --save file is refused without --force, replaced with it."""
    here = saved.parent
    head = ["run", "classic_1961.rules", "-s", "3"] if command == "run" else ["resume",
                                                                             "game.json"]
    for option in (["--log", "old.txt"], ["--save-at", "30", "--save", "old.txt"]):
        (here / "old.txt").write_text("keep me\n")
        done = rulelang_cli(*head, *option, cwd=here)
        assert done.returncode == 2 and "exists; give --force" in done.stderr
        assert (here / "old.txt").read_text() == "keep me\n"
        done = rulelang_cli(*head, *option, "--force", cwd=here)
        assert done.returncode == 0, done.stderr
        assert (here / "old.txt").read_text() != "keep me\n"
    assert not [p for p in here.iterdir() if p.name.endswith(".tmp")]


def test_outputs_are_checked_before_the_game_is_played(here):
    """A --save into a folder that does not exist is refused at once, not after the game."""
    start = time.perf_counter()
    done = rulelang_cli("run", "classic_1961.rules", "--max-turns", "100000", "--save-at",
                        "90000", "--save", "nowhere/game.json", cwd=here)
    assert done.returncode == 2 and "does not exist" in done.stderr
    assert time.perf_counter() - start < 20
    done = rulelang_cli("run", "classic_1961.rules", "--log", "nowhere/log.jsonl", cwd=here)
    assert done.returncode == 2 and "does not exist" in done.stderr


class _Crash(Exception):
    pass


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, _Crash])
@pytest.mark.parametrize("command", ["run", "resume"])
def test_a_crash_in_the_middle_leaves_the_old_log_whole(command, interrupt, saved,
                                                        monkeypatch):
    """A game stopped by Ctrl-C or an error after writing events: the old log is whole and
    no temporary file is left."""
    here = saved.parent
    log = here / "events.jsonl"
    log.write_text("the old log\n")
    module = run_cmd if command == "run" else resume_cmd
    real = module.play_on

    def crashing(game, *args, **kwargs):
        for _ in range(5):
            game.play_turn()
        raise interrupt()
    monkeypatch.setattr(module, "play_on", crashing)
    monkeypatch.chdir(here)
    args = ["classic_1961.rules"] if command == "run" else ["game.json"]
    result = CliRunner().invoke(module.run if command == "run" else module.resume,
                                [*args, "--log", "events.jsonl", "--force"])
    assert result.exit_code != 0
    assert log.read_text() == "the old log\n"
    assert sorted(p.name for p in here.iterdir()) == sorted(
        ["classic_board.rules", "classic_1961.rules", "house", "game.json", "events.jsonl"])
    monkeypatch.setattr(module, "play_on", real)
    result = CliRunner().invoke(module.run if command == "run" else module.resume,
                                [*args, "--log", "events.jsonl", "--force"])
    assert result.exit_code == 0 and log.read_text().startswith('{"turn":')


@pytest.mark.parametrize("option", [["--log"], ["--save-at", "3", "--save"]])
@pytest.mark.parametrize("force", [False, True])
def test_a_device_a_pipe_or_a_link_is_never_replaced(option, force, here):
    """An output that exists and is not a regular file (a FIFO standing for a device, a
    symbolic link to a file no input names) is refused, --force or not, and stays what it
    was: `--log /dev/null --force` must not put a file in the place of /dev/null."""
    os.mkfifo(here / "pipe")
    (here / "target.txt").write_text("kept\n")
    os.symlink(here / "target.txt", here / "link")
    for name, kind in (("pipe", "a pipe (FIFO)"), ("link", "a symbolic link")):
        done = rulelang_cli("run", "classic_1961.rules", *option, name,
                            *(["--force"] if force else []), cwd=here)
        assert done.returncode == 2, done.stderr
        assert f"is {kind}" in done.stderr and "--force to overwrite" not in done.stderr
    assert stat.S_ISFIFO(os.lstat(here / "pipe").st_mode)
    assert os.path.islink(here / "link") and (here / "target.txt").read_text() == "kept\n"
