"""tests/clirun.py runs `rulelang` in the test's process as a child would: each command in
its own directory and environment, with the agents' modules of its own directory, leaving
nothing of them behind; a Python exception fails the test; a loop past the time limit too."""

from __future__ import annotations

import json
import os
import sys

import pytest

from clirun import in_process
from rulelang import batch, runner

BOT = """
import rulelang


class Bot(rulelang.DefaultAgent):
    name = {name!r}
"""


def _agents(folder, spec):
    done = in_process("run", "classic_1961.rules", "--agents", spec, "--players", "3",
                      "--max-turns", "5", "--json", cwd=folder)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["agents"]


def test_each_command_sees_the_agents_of_its_own_directory(tmp_path):
    """Two directories with a module `bot` of the same name: each command seats its own, by
    module or by file, and neither is left in sys.modules, sys.path or the CLI's caches."""
    path, modules = list(sys.path), set(sys.modules)
    files, loaded = dict(runner._FILE_MODULES), dict(batch._LOADED)
    for name in ("first", "second"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "bot.py").write_text(BOT.format(name=name), encoding="utf-8")
    for spec in ("bot:Bot", "bot.py:Bot"):
        for name in ("first", "second"):
            assert _agents(tmp_path / name, spec) == [name] * 3, spec
    assert sys.path == path and "bot" not in sys.modules and set(sys.modules) >= modules
    assert runner._FILE_MODULES == files and batch._LOADED == loaded


def test_the_directory_and_the_environment_are_restored(tmp_path, monkeypatch):
    """A command runs in `cwd` with `env`; afterwards the directory and os.environ are what
    they were, a variable the command itself set (analyze sets OMP_NUM_THREADS) too."""
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    here, environ = os.getcwd(), dict(os.environ)
    (tmp_path / "r.rules").write_text('rulebook "R"\nextends "classic_1961.rules"\n',
                                      encoding="utf-8")
    done = in_process("check", "r.rules", cwd=tmp_path, env={"RULELANG_TEST_VARIABLE": "1"})
    assert done.returncode == 0 and done.stdout == "r.rules: ok\n", done
    assert in_process("analyze", "classic_1961.rules", "--json").returncode == 0
    assert os.getcwd() == here and dict(os.environ) == environ


def test_a_python_exception_fails_the_test(monkeypatch):
    """An exception of the command's code is raised, with its traceback, not turned into an
    exit status."""
    from rulelang_cli import check_cmd

    def broken(*args, **kwargs):
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(check_cmd, "check_path", broken)
    with pytest.raises(ZeroDivisionError, match="planted"):
        in_process("check", "classic_1961.rules")


def test_a_command_past_its_time_limit_fails_the_test():
    """With a timeout, a command still running fails the test instead of hanging it (3,000
    games take seconds)."""
    with pytest.raises(pytest.fail.Exception, match="still running after 0.5 s"):
        in_process("run", "classic_1961.rules", "--games", "3000", timeout=0.5)
