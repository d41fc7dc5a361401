"""The cache of ASTs (rulelang.source): a file parsed once without errors is not parsed again
while its text, its name and the code that builds ASTs stay the same."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from rulelang import parse, source
from rulelang.diagnostics import RuleError

ROOT = Path(__file__).resolve().parent.parent
BOARD = ROOT / "rulesets" / "classic_board.rules"


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "rulelang"


def _asts(folder: Path) -> list[Path]:
    return sorted(folder.glob("ast-*.pickle"))


def _no_parsing(monkeypatch):
    def refused(text, path, lenient=True):
        raise AssertionError("parsed again")

    monkeypatch.setattr(parse, "_parse_text", refused)
    monkeypatch.setattr(parse, "_parse_text_lenient", refused)


def test_a_file_parsed_once_comes_from_the_cache(folder, monkeypatch):
    first = parse.parse_file(str(BOARD), cached=True)
    assert first == parse.parse_file(str(BOARD))  # the same AST as an uncached parse
    (stored,) = _asts(folder)
    _no_parsing(monkeypatch)
    again = parse.parse_file(str(BOARD), cached=True)
    assert again == first and again.span == first.span
    assert _asts(folder) == [stored]


def test_another_text_or_another_name_is_parsed_again(folder, monkeypatch):
    text = BOARD.read_text(encoding="utf-8")
    parse.parse_text(text, "a.rules", cached=True)
    changed = parse.parse_text(text.replace("Mediterranean Avenue", "Rue Lecourbe"),
                               "a.rules", cached=True)
    assert "Rue Lecourbe" in repr(changed) and "Mediterranean Avenue" not in repr(changed)
    renamed = parse.parse_text(text, "b.rules", cached=True)
    assert renamed.path == renamed.span.file == "b.rules"  # the name the file is shown by
    assert len(_asts(folder)) == 3


def test_a_file_with_errors_is_not_cached(folder):
    for _ in range(2):
        with pytest.raises(RuleError):
            parse.parse_text('rulebook "x"\nrule r:\n  when a player lands on: pay $5\n',
                             "bad.rules", cached=True)
    assert _asts(folder) == []


def test_a_damaged_or_foreign_ast_is_parsed_again_and_replaced(folder):
    expected = parse.parse_file(str(BOARD), cached=True)
    (stored,) = _asts(folder)
    for damaged in (b"", b"not a pickle", pickle.dumps(42), stored.read_bytes()[:100]):
        stored.write_bytes(damaged)
        assert parse.parse_file(str(BOARD), cached=True) == expected
        assert _asts(folder) == [stored]
        assert source._load_ast(stored.name[4:-7]) == expected  # replaced whole


def test_the_cache_keeps_the_last_files_only(folder, monkeypatch):
    monkeypatch.setattr(source, "AST_CACHE_FILES", 3)
    for n in range(5):
        parse.parse_text(f'rulebook "r{n}"\n', f"r{n}.rules", cached=True)
    assert len(_asts(folder)) == 3


def test_without_a_cache_directory_files_are_parsed(tmp_path, monkeypatch):
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker / "cache"))
    monkeypatch.setenv("HOME", str(blocker))
    assert parse.parse_file(str(BOARD), cached=True) == parse.parse_file(str(BOARD))


def test_a_long_file_is_not_cached(folder, monkeypatch):
    monkeypatch.setattr(source, "AST_CACHE_CHARS", 100)
    text = BOARD.read_text(encoding="utf-8")
    expected = parse.parse_text(text, "long.rules")
    assert parse.parse_text(text, "long.rules", cached=True) == expected
    assert _asts(folder) == []


def test_a_check_of_cached_files_imports_no_parser(tmp_path):
    """Checking files whose ASTs are cached neither builds a parser nor imports Lark."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    program = ("import sys; from rulelang.check import check_path; "
               f"check_path({str(ROOT / 'rulesets' / 'classic_1961.rules')!r}); "
               "print(sorted(m for m in sys.modules if m == 'lark' or m == 'rulelang.parse'))")
    runs = [subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                           text=True, check=True).stdout.strip() for _ in range(2)]
    assert runs == ["['lark', 'rulelang.parse']", "[]"]
