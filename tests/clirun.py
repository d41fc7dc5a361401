"""`rulelang ARGS` run in the test's own process, as a child process would run it: its exit
status, standard output and standard error apart, in a given directory, environment and
standard input, with what one command leaves behind (modules of agents, the Python path,
loaded rulebooks, environment variables) taken away before the next.

A child process costs 0.2 to 0.4 s of CPU to start (the interpreter, the imports, the parser
unpickled); in-process a command costs only its own work. Keep a real child where the
process itself is what is tested: exit status 141 on a closed pipe, signals, `--jobs`
workers, the language server over stdio, the hash seed, the installed entry point, a file
that could hang the reader, and one smoke test per command (`test_cli.py`).

A Python exception other than SystemExit is not caught: it fails the test with its
traceback, as a traceback on standard error of a child would.
"""

from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang import batch, runner
from rulelang_cli.main import main

__all__ = ["in_process"]

_KEPT = tuple(str(Path(p).resolve()) for p in {sys.prefix, sys.base_prefix, sys.exec_prefix,
                                               Path(__file__).resolve().parent.parent})


def _foreign(module) -> bool:
    """A module read from outside the interpreter, its packages and this project: an
    agent's, from the command's directory or a file it named."""
    where = getattr(module, "__file__", None)
    return where is not None and not str(Path(where).resolve()).startswith(_KEPT)


class _Late(BaseException):
    """Raised in a command that ran out of time: a BaseException, so that no `except
    Exception` of the code under test takes it for an error of its own."""


def _late(signum, frame):
    raise _Late


def in_process(*args, cwd: str | os.PathLike | None = None,
               env: Mapping[str, str | None] | None = None,
               stdin: str | bytes | None = None,
               timeout: float | None = None) -> subprocess.CompletedProcess:
    """`rulelang ARGS` in this process, in `cwd`, with `env`'s variables set (None: unset)
    and `stdin` as standard input (none: empty); its result as a child's would be. With a
    `timeout` (seconds), a command still running then fails the test (a loop in Python code
    is stopped; one inside a C call is not: input that could block a read or exhaust memory
    is for a child with its limits)."""
    args = [os.fspath(a) if isinstance(a, os.PathLike) else str(a) for a in args]
    assert "--jobs" not in args and "-j" not in args, "worker processes: run a real child"
    modules, path, environ = set(sys.modules), list(sys.path), dict(os.environ)
    files, loaded = dict(runner._FILE_MODULES), dict(batch._LOADED)
    here = os.getcwd()
    importlib.invalidate_caches()  # a module written since the last import is seen
    timed = timeout is not None
    if timed:
        assert threading.current_thread() is threading.main_thread(), "SIGALRM: main thread only"
        previous = signal.signal(signal.SIGALRM, _late)
        signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        if cwd is not None:
            os.chdir(cwd)
        result = CliRunner().invoke(main, args, input=stdin, env=env, catch_exceptions=False,
                                    prog_name="rulelang")
    except _Late:
        pytest.fail(f"`rulelang {' '.join(args)}` still running after {timeout} s")
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        os.chdir(here)
        for name in set(sys.modules) - modules:
            if _foreign(sys.modules[name]):
                del sys.modules[name]
        sys.path[:] = path
        os.environ.clear()
        os.environ.update(environ)
        runner._FILE_MODULES.clear()
        runner._FILE_MODULES.update(files)
        batch._LOADED.clear()
        batch._LOADED.update(loaded)
    done = subprocess.CompletedProcess(["rulelang", *args], result.exit_code, result.stdout,
                                       result.stderr)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done
