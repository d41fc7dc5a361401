"""The compiled engine (rulelang native build) runs only when it is current, and says so."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from rulelang import native
from rulelang_cli.main import main


@pytest.mark.skipif(not os.environ.get("RULELANG_EXPECT_NATIVE"),
                    reason="CI's compiled run sets RULELANG_EXPECT_NATIVE")
def test_the_compiled_run_runs_the_compiled_engine():
    # otherwise CI's second run of the suite would test pure Python again, unnoticed
    assert native.active(), native.status()[1]


@pytest.fixture
def manifest(tmp_path, monkeypatch):
    path = tmp_path / "_native.json"
    monkeypatch.setattr(native, "MANIFEST", path)
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    monkeypatch.setattr(native, "_compiled_files", lambda: [None] * (len(native.MODULES) + 1))
    return path


def _write(path, **changes):
    data = {"mypy": "2.4.1", "suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
            "sources": {m: native._digest(native.source(m)) for m in native.MODULES}}
    data.update(changes)
    path.write_text(json.dumps(data))


def test_a_current_build_runs(manifest):
    _write(manifest)
    assert native.status() == (True, "compiled with mypyc 2.4.1")


def test_no_build_is_pure_python(manifest):
    compiled, why = native.status()
    assert not compiled and "rulelang native build" in why


def test_a_build_older_than_a_source_is_not_run(manifest):
    _write(manifest)
    sources = json.loads(manifest.read_text())["sources"]
    sources["rulelang.engine.agents"] = "0" * 64
    _write(manifest, sources=sources)
    compiled, why = native.status()
    assert not compiled and "agents.py changed since the build" in why


def test_a_build_for_another_python_is_not_run(manifest):
    _write(manifest, suffix=".cpython-399-x86_64-linux-gnu.so")
    assert not native.status()[0]


def test_an_unreadable_manifest_is_not_run(manifest):
    manifest.write_text("{not json")
    compiled, why = native.status()
    assert not compiled and "unreadable" in why


def test_an_incomplete_build_is_not_run(manifest, monkeypatch):
    _write(manifest)
    monkeypatch.setattr(native, "_compiled_files", lambda: [])
    compiled, why = native.status()
    assert not compiled and "incomplete" in why


def test_the_variable_forces_pure_python(manifest, monkeypatch):
    _write(manifest)
    monkeypatch.setenv(native.PURE_VARIABLE, "1")
    assert native.status()[0] is False


def test_pure_python_loads_every_engine_module_from_its_source():
    code = ("import rulelang, rulelang.engine.game, rulelang.compile, sys; "
            "print(all(sys.modules[m].__file__.endswith('.py') for m in rulelang.native.MODULES"
            " if m in sys.modules))")
    env = dict(os.environ, **{native.PURE_VARIABLE: "1"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "True"


def test_status_exits_0_only_when_compiled():
    result = CliRunner().invoke(main, ["native", "status"])
    assert result.exit_code == (0 if native.status()[0] else 1)
    assert result.output.strip() == native.status()[1]


def test_a_build_without_mypyc_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "mypyc.build", None)  # as if mypy were not installed
    result = CliRunner().invoke(main, ["native", "build"])
    assert result.exit_code == 1
    assert "pip install 'rulelang[native]'" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
