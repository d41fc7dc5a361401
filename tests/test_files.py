"""The files a rulebook may read: `extends` only under the allowed directories (the played
file's, each `--include-path`, the installed rulebooks), only regular files of bounded size,
never the content of anything else in any output; and the parser's cache only from a private
directory of the current user."""

from __future__ import annotations

import json
import os
import pickle
import resource
import shutil
import socket
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rulelang
from clirun import in_process
from rulelang import save

ROOT = Path(__file__).resolve().parent.parent
CANARY = "CANARY-0b5e-never-shown"
TIMEOUT = 20  # seconds: a FIFO or /dev/zero read for ever shows as a timeout, not a hang
CLASSIC = "classic_1961.rules"


def _limits() -> None:
    # A child reading /dev/zero runs out of memory quickly instead of swapping the machine.
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "RULELANG_CANARY": CANARY, **extra}


def _run(args, cwd=None, env=None, stdin=None, timeout=TIMEOUT) -> subprocess.CompletedProcess:
    """A child Python; no output of it may show the canary or a traceback."""
    try:
        done = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                              errors="replace", cwd=cwd, env=env or _env(),
                              stdin=stdin if stdin is not None else subprocess.DEVNULL,
                              timeout=timeout, preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{args} did not end within {timeout} s")
    out = done.stdout + done.stderr
    assert CANARY not in out, out[:2000]
    assert "Traceback" not in out, out[-3000:]
    return done


def _cli(*args: str, child: bool = False, **kw) -> subprocess.CompletedProcess:
    """`rulelang ARGS` in this process (tests/clirun.py), or with `child` in a child (a
    device, a FIFO, standard input or a huge file, which could block or fill the memory of
    the reader; the parser's cache, read once per process)."""
    if child:
        return _cli_child(*args, **kw)
    done = in_process(*args, cwd=kw.pop("cwd", None), env={"RULELANG_CANARY": CANARY},
                      timeout=TIMEOUT, **kw)
    out = done.stdout + done.stderr
    assert CANARY not in out, out[:2000]
    return done


def _cli_child(*args: str, **kw) -> subprocess.CompletedProcess:
    return _run(["-m", "rulelang_cli.main", *args], **kw)


_API = textwrap.dedent("""
    import json, sys
    import rulelang
    path, include = sys.argv[1], sys.argv[2:]
    codes = [d.code for d in rulelang.check(path, include_path=include)]
    try:
        rulelang.load(path, include_path=include)
        loaded = []
    except rulelang.RuleErrors as e:
        loaded = [d.code for d in e.diagnostics]
    print(json.dumps({"check": codes, "load": loaded}))
""")


def _api(path: str, *include: str, child: bool = False, cwd=None) -> dict[str, list[str]]:
    """rulelang.check and rulelang.load of `path`: with `child`, in a child (a hang or a
    memory blow-up of the code under test, reading a device or a FIFO, must not take the
    test session with it); else in this process, from `cwd`."""
    if child:
        done = _run(["-c", _API, path, *include], cwd=cwd)
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.splitlines()[-1])
    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        codes = [d.code for d in rulelang.check(path, include_path=list(include))]
        try:
            rulelang.load(path, include_path=list(include))
            loaded = []
        except rulelang.RuleErrors as e:
            loaded = [d.code for d in e.diagnostics]
    finally:
        os.chdir(here)
    return {"check": codes, "load": loaded}


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _rulebook(path: Path, extends: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(f'rulebook "R"\nextends "{extends}"\n'.encode("utf-8",
                                                                   "surrogateescape"))
    return path


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """tmp/secret.txt (the canary, outside the tree); tmp/game/ the rulebooks' own tree."""
    top = tmp_path_factory.mktemp("files")
    _write(top / "secret.txt", f"{CANARY}\nroot:x:0:0:{CANARY}:/root:/bin/bash\n")
    _write(top / "shared" / "base.rules", f'rulebook "Base"\nextends "{CLASSIC}"\n')
    game = top / "game"
    _write(game / "lib" / "parent.rules", f'rulebook "Parent"\nextends "{CLASSIC}"\n')
    (game / "link.rules").symlink_to(top / "secret.txt")
    (game / "out").symlink_to(top, target_is_directory=True)
    os.mkfifo(game / "pipe.rules")
    with open(game / "big.rules", "wb") as f:  # sparse: 17 MiB of nothing, written at once
        f.write(b'rulebook "Big"\n')
        f.truncate(17 << 20)
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(game / "sock.rules"))
    finally:
        sock.close()
    return top


# The `extends` of a rulebook in tmp/game/, and the code it must give.
HOSTILE_EXTENDS = {
    "dotdot": ("../secret.txt", "E419"),
    "dotdot_deep": ("../" * 12 + "etc/passwd", "E419"),
    "absolute": ("{top}/secret.txt", "E419"),
    "etc_passwd": ("/etc/passwd", "E419"),
    "proc_environ": ("/proc/self/environ", "E419"),
    "symlink_out": ("link.rules", "E419"),
    "symlinked_dir": ("out/secret.txt", "E419"),
    "dev_zero": ("/dev/zero", "E419"),
    "dev_stdin": ("/dev/stdin", "E419"),
    "fifo": ("pipe.rules", "E420"),
    "directory": ("lib", "E420"),
    "socket": ("sock.rules", "E420"),
    "oversize": ("big.rules", "E421"),
    "nul": ("a\x00b.rules", "E401"),
}
# Read by a child only: files that could block or exhaust the reader, or the process's own.
UNSAFE = {"proc_environ", "dev_zero", "dev_stdin", "fifo", "oversize"}


@pytest.mark.parametrize("case", sorted(HOSTILE_EXTENDS))
def test_a_hostile_extends_is_a_coded_error(case, tree):
    """check, load, `rulelang check` and `rulelang run`: the code, exit 1, no content shown."""
    target, code = HOSTILE_EXTENDS[case]
    path = _rulebook(tree / "game" / f"{case}.rules", target.format(top=tree))
    child = case in UNSAFE
    api = _api(str(path), child=child)
    assert code in api["check"] and code in api["load"], api
    for command in ("check", "run"):
        done = _cli(command, str(path), "--include-path", str(tree / "shared"), child=child)
        assert done.returncode == 1, done
        assert f"[{code}]" in done.stdout + done.stderr
    if code == "E419":
        done = _cli("check", str(path), child=child)
        assert "--include-path" in done.stdout and "outside" in done.stdout


def test_the_error_points_at_the_extends_string(tree):
    """E419 is reported at the path of `extends`, in the extending file."""
    path = _rulebook(tree / "game" / "where.rules", "../secret.txt")
    (d,) = rulelang.check(str(path))
    assert (d.code, d.span.file, d.span.line, d.span.column) == ("E419", str(path), 2, 9)
    assert CANARY not in d.message + (d.hint or "")


def test_an_extends_that_links_out_says_so(tree):
    """E419 for a link of the folder pointing outside says it links out; `..` is outside."""
    (link,) = rulelang.check(str(_rulebook(tree / "game" / "says_link.rules", "link.rules")))
    (out,) = rulelang.check(str(_rulebook(tree / "game" / "says_out.rules", "../secret.txt")))
    assert link.code == out.code == "E419"
    assert "'link.rules' links outside the directories" in link.message, link.message
    assert "'../secret.txt' is outside the directories" in out.message, out.message


def test_a_played_link_to_a_file_outside_its_directory_is_refused_unopened(tree, tmp_path):
    """`rulelang check link.rules` where the link points outside the folder it was named in:
    E419 from check, load, `check` and `run`, and not a line of the target shown."""
    (tmp_path / "link_out.rules").symlink_to("/etc/passwd")
    (tmp_path / "dangling.rules").symlink_to(tree / "nowhere.rules")
    cases = [(str(tree / "game" / "link.rules"), None), ("link.rules", tree / "game"),
             ("link_out.rules", tmp_path), ("dangling.rules", tmp_path)]
    for path, cwd in cases:
        assert _api(path, cwd=cwd) == {"check": ["E419"], "load": ["E419"]}, path
        for command in ("check", "run"):
            done = _cli(command, path, cwd=cwd)
            out = done.stdout + done.stderr
            assert done.returncode == 1 and "[E419]" in out, out
            assert f"'{path}' links to a file outside the directories" in out, out
            assert "root:x:0:0" not in out and "--include-path" in out
    # with its target's directory as an include path, it is read (and is no rulebook)
    codes = [d.code for d in rulelang.check(str(tree / "game" / "link.rules"),
                                            include_path=[str(tree)])]
    assert codes and "E419" not in codes, codes


def test_a_played_file_may_be_named_from_anywhere_and_link_inside(tree, tmp_path):
    """`../x.rules` (its own directory is the root), a link to a file under the folder,
    a link to a file of an include path, a folder that is a link: all read as before."""
    (tree / "game" / "inner.rules").symlink_to(tree / "game" / "lib" / "parent.rules")
    (tmp_path / "shared.rules").symlink_to(tree / "shared" / "base.rules")
    (tmp_path / "linked_game").symlink_to(tree / "game", target_is_directory=True)
    cases = [("../../shared/base.rules", tree / "game" / "lib", ()),
             ("../lib/parent.rules", tree / "game" / "lib", ()),
             ("inner.rules", tree / "game", ()),
             (str(tmp_path / "linked_game" / "lib" / "parent.rules"), None, ()),
             ("shared.rules", tmp_path, (str(tree / "shared"),))]
    for path, cwd, include in cases:
        assert _api(path, *include, cwd=cwd) == {"check": [], "load": []}, path
        include_args = [a for d in include for a in ("-I", d)]
        assert _cli("check", path, *include_args, cwd=cwd).returncode == 0, path


# A played file that is not a regular file, or too large, and the code it must give.
HOSTILE_PLAYED = {
    "fifo": ("game/pipe.rules", "E420"),
    "directory": ("game/lib", "E420"),
    "socket": ("game/sock.rules", "E420"),
    "dev_zero": ("/dev/zero", "E420"),
    "oversize": ("game/big.rules", "E421"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_PLAYED))
def test_a_played_file_must_be_a_regular_file_of_bounded_size(case, tree):
    """The played file itself: a FIFO, a directory, /dev/zero, 17 MiB are refused, not read."""
    name, code = HOSTILE_PLAYED[case]
    path = str(tree / name)
    child = case in UNSAFE
    api = _api(path, child=child)
    assert api["check"] == [code] and api["load"] == [code], api
    for command in ("check", "run"):
        done = _cli(command, path, child=child)
        if case == "directory":  # the command line refuses it first
            assert done.returncode == 2 and "Usage" in done.stderr
        else:
            assert done.returncode == 1 and f"[{code}]" in done.stdout + done.stderr, done


def test_standard_input_is_refused_not_waited_for(tree):
    """`rulelang check /dev/stdin` with a pipe no one writes to or closes: E420 at once."""
    read, write = os.pipe()
    try:
        for command in ("check", "run"):
            done = _cli(command, "/dev/stdin", stdin=read, child=True)
            assert done.returncode == 1 and "[E420]" in done.stdout + done.stderr, done
    finally:
        os.close(read)
        os.close(write)


def test_a_nul_in_the_played_path_is_a_coded_error():
    """rulelang.check("a\\0b") is E401, not a ValueError."""
    (d,) = rulelang.check("a\x00b.rules")
    assert d.code == "E401" and "NUL" in d.message
    with pytest.raises(rulelang.RuleErrors) as e:
        rulelang.load("a\x00b.rules")
    assert [d.code for d in e.value.diagnostics] == ["E401"]


def test_the_rendered_source_of_a_refused_file_is_never_read(tree):
    """A diagnostic on a FIFO renders without its source, at once (no blocking open)."""
    done = _cli("check", "--format", "text", str(tree / "game" / "pipe.rules"), child=True)
    assert done.returncode == 1 and "[E420]" in done.stdout


def test_include_path_finds_a_parent(tree):
    """--include-path DIR (and include_path=) adds a directory to search and to read from."""
    by_name = _rulebook(tree / "game" / "by_name.rules", "base.rules")
    by_path = _rulebook(tree / "game" / "by_path.rules", "../shared/base.rules")
    shared = str(tree / "shared")
    for path in (by_name, by_path):
        assert [d.code for d in rulelang.check(str(path)) if d.is_error] in (["E401"], ["E419"])
        assert [d for d in rulelang.check(str(path), include_path=[shared]) if d.is_error] == []
        assert rulelang.load(str(path), include_path=(shared,)).title == "R"
        assert _cli("check", str(path), "-I", shared).returncode == 0
        done = _cli("run", str(path), "--include-path", shared, "--players", "3",
                    "--max-turns", "50", "--json")
        assert done.returncode == 0 and json.loads(done.stdout)["ruleset"] == "R"


def test_a_file_of_the_tree_is_found_by_absolute_path(tree):
    """An absolute path inside the rulebook's own tree is accepted."""
    path = _rulebook(tree / "game" / "abs.rules", str(tree / "game" / "lib" / "parent.rules"))
    assert [d for d in rulelang.check(str(path)) if d.is_error] == []


def test_an_include_path_must_be_a_directory(tree):
    """A missing --include-path is a usage error (exit 2), never a traceback."""
    path = str(tree / "game" / "lib" / "parent.rules")
    for command in ("check", "run"):
        done = _cli(command, path, "--include-path", str(tree / "nowhere"))
        assert done.returncode == 2 and "Usage" in done.stderr


def test_an_installed_rulebook_is_found_by_name_from_anywhere(tmp_path):
    """`extends "classic_1961.rules"` from an unrelated directory finds the installed one."""
    path = _rulebook(tmp_path / "elsewhere" / "mine.rules", CLASSIC)
    assert [d for d in rulelang.check(str(path)) if d.is_error] == []
    assert rulelang.load(str(path)).files[1].endswith(CLASSIC)
    done = _cli("check", "mine.rules", cwd=tmp_path / "elsewhere")
    assert done.returncode == 0, done


def test_an_installed_rulebook_is_played_by_name(tmp_path, monkeypatch):
    """From a directory without it, `rulelang run classic_1961.rules`, `check` and
    rulelang.load play the installed rulebook (`house/...` too); a file of that name in the
    directory wins; a name close to an installed one is E401 with a hint naming it."""
    for path in (CLASSIC, "house/no_auctions.rules"):
        assert _api(path, cwd=tmp_path) == {"check": [], "load": []}, path
        done = _cli("run", path, "--players", "3", "--max-turns", "30", "--json", cwd=tmp_path)
        assert done.returncode == 0 and json.loads(done.stdout)["ruleset"], done
    done = _cli("check", CLASSIC, "house/no_auctions.rules", cwd=tmp_path)
    assert done.returncode == 0 and f"{CLASSIC}: ok" in done.stdout, done
    mine = _rulebook(tmp_path / CLASSIC, "house/no_auctions.rules")
    assert rulelang.load(str(mine)).title == "R"
    monkeypatch.chdir(_write(tmp_path / "empty" / "notes.txt", "").parent)
    with pytest.raises(rulelang.RuleErrors) as e:
        rulelang.load("clasic_1961.rules")
    (d,) = e.value.diagnostics
    assert d.code == "E401" and d.hint == f"did you mean the installed rulebook '{CLASSIC}'?"
    for missing, hint in (("clasic_1961.rules", CLASSIC), ("house/no_auction.rules",
                                                            "house/no_auctions.rules")):
        run = _cli("run", missing, cwd=tmp_path)  # a FILE that is not there: the command line
        assert run.returncode == 2 and "[E401]" in run.stderr and hint in run.stderr, run
        check = _cli("check", missing, cwd=tmp_path)
        assert check.returncode == 2 and hint in check.stderr, check
    assert _api("../classic_1961.rules", cwd=tmp_path) == {"check": ["E401"], "load": ["E401"]}


def test_an_installed_rulebook_is_named_without_rules(tmp_path):
    """`rulelang run classic_1961` and `check house/no_auctions` find the installed rulebooks
    without `.rules`; a file of that very name in the directory wins; rulelang.load too."""
    done = _cli("run", "classic_1961", "--players", "3", "--max-turns", "30", "--json",
                cwd=tmp_path)
    assert done.returncode == 0, done
    assert json.loads(done.stdout)["ruleset"] == "Monopoly, Canadian rules (1961)"
    done = _cli("check", "classic_1961", "house/no_auctions", cwd=tmp_path)
    assert done.returncode == 0 and "house/no_auctions: ok" in done.stdout, done
    assert _api("house/no_auctions", cwd=tmp_path) == {"check": [], "load": []}
    _rulebook(tmp_path / "classic_1961", "house/no_auctions.rules")  # a file named so wins
    done = _cli("run", "classic_1961", "--players", "3", "--max-turns", "30", "--json",
                cwd=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["ruleset"] == "R", done
    done = _cli("run", "clasic_1961", cwd=tmp_path)
    assert done.returncode == 2 and "classic_1961.rules" in done.stderr, done


def test_the_house_rules_still_extend_their_parent():
    """The shipped house rules (`extends "../classic_1961.rules"`) check clean."""
    for path in sorted((ROOT / "rulesets" / "house").glob("*.rules")):
        assert [d for d in rulelang.check(str(path)) if d.is_error] == [], path
    done = _cli("check", *sorted(str(p) for p in (ROOT / "rulesets" / "house").glob("*.rules")))
    assert done.returncode == 0, done


def test_a_nearer_file_wins_over_an_installed_one(tmp_path):
    """The extending file's directory is searched first, then the include paths."""
    shutil.copy(ROOT / "rulesets" / CLASSIC, tmp_path / CLASSIC)
    _write(tmp_path / "classic_board.rules",
           (ROOT / "rulesets" / "classic_board.rules").read_text(encoding="utf-8"))
    path = _rulebook(tmp_path / "mine.rules", CLASSIC)
    assert rulelang.load(str(path)).files[1] == str(tmp_path / CLASSIC)


def test_resume_reads_the_saved_rulebook_under_the_same_rules(tree, tmp_path):
    """A save's rulebook is loaded like a played file: its include paths, and nothing outside."""
    path = _rulebook(tree / "game" / "saved.rules", "base.rules")
    shared = str(tree / "shared")
    done = _cli("run", str(path), "-I", shared, "--players", "3", "--save-at", "3",
                "--save", str(tmp_path / "g.json"))
    assert done.returncode == 0, done
    ok = _cli("resume", str(tmp_path / "g.json"), "--include-path", shared, "--json")
    assert ok.returncode == 0, ok
    game = rulelang.load_game(tmp_path / "g.json", include_path=[shared])
    assert game.rulebook.title == "R"
    missing = _cli("resume", str(tmp_path / "g.json"))
    assert missing.returncode == 1
    # A save edited to play a rulebook that extends a file outside its tree.
    evil = _rulebook(tree / "game" / "evil_saved.rules", "../secret.txt")
    doc = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    doc["game"]["rulebook"]["path"] = str(evil)
    doc["checksum"] = save._checksum(doc["game"])
    (tmp_path / "evil.json").write_text(json.dumps(doc), encoding="utf-8")
    refused = _cli("resume", str(tmp_path / "evil.json"), "-I", shared)
    assert refused.returncode == 1 and "E419" in refused.stderr, refused
    with pytest.raises(rulelang.SaveError, match="E419"):
        rulelang.load_game(tmp_path / "evil.json")
    assert _cli("resume", str(tmp_path / "g.json"), "--rules",
                str(tree / "game" / "pipe.rules"), child=True).returncode == 1


# ---------------------------------------------------------------- the parser's cache


class _Plant:
    """A pickle that makes a directory when it is loaded: proof that a file was unpickled."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def _planted(marker: Path, larks: bool = False) -> bytes:
    """A plant in the format of rulelang's cache (a pickle), or of Lark's (a line first)."""
    return (b"0" * 64 + b"\n" if larks else b"") + pickle.dumps(_Plant(str(marker)))


_OLD_CACHE = textwrap.dedent("""
    # The parser built as rulelang has long built it, with Lark's cache=True: the file it
    # writes in the temporary directory has a name anyone can predict.
    from lark import Lark
    from rulelang import parse
    Lark(parse.grammar_text(), parser="lalr", lexer="contextual",
         postlex=parse._Indenter(), propagate_positions=parse._SkipLayout(),
         maybe_placeholders=False, cache=True)
""")


def test_a_pickle_planted_in_the_shared_temporary_directory_is_not_loaded(tmp_path):
    """A file at Lark's predictable path in /tmp is never unpickled by `rulelang check`."""
    shared_tmp, home = tmp_path / "tmp", tmp_path / "home"
    shared_tmp.mkdir()
    env = _env(TMPDIR=str(shared_tmp), XDG_CACHE_HOME=str(home / ".cache"), HOME=str(home))
    _run(["-c", _OLD_CACHE], env=env)
    (predictable,) = shared_tmp.glob(".lark_cache_*")
    for f in shared_tmp.iterdir():
        f.write_bytes(_planted(tmp_path / "pwned", larks=True))
    done = _cli_child("check", str(ROOT / "rulesets" / CLASSIC), env=env)
    assert done.returncode == 0, done
    assert not (tmp_path / "pwned").exists(), f"{predictable.name} was unpickled"
    assert list(shared_tmp.iterdir()) == [predictable], "the cache is still written to /tmp"


def _cache_files(home: Path) -> list[Path]:
    """The files of the cache: the parser, and the ASTs of the files checked."""
    return sorted((home / ".cache" / "rulelang").iterdir())


def test_the_cache_lives_in_a_private_directory_and_a_writable_one_is_refused(tmp_path):
    """The cache is ~/.cache/rulelang (0700); a cache file others could write is not loaded,
    be it the parser or the AST of a file."""
    home = tmp_path / "home"
    env = _env(HOME=str(home), TMPDIR=str(tmp_path))
    env.pop("XDG_CACHE_HOME", None)
    rules = str(ROOT / "rulesets" / CLASSIC)
    assert _cli_child("check", rules, env=env).returncode == 0
    folder, files = home / ".cache" / "rulelang", _cache_files(home)
    # the parser, and the ASTs of the rulebook and of the board it extends
    assert sorted(p.name.split("-")[0] for p in files) == ["ast", "ast", "parser"]
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for cached in files:
        assert stat.S_IMODE(cached.stat().st_mode) & 0o077 == 0
    # Control: a planted file that only its owner can write is trusted, so the plant works.
    for cached in files:
        cached.write_bytes(_planted(tmp_path / "trusted"))
    assert _cli_child("check", rules, env=env).returncode == 0
    assert (tmp_path / "trusted").exists(), "the planted pickle would not run: a vacuous test"
    # Writable by the group or by others: refused (and replaced by a fresh cache).
    for mode in (0o664, 0o646):
        for cached in _cache_files(home):
            cached.write_bytes(_planted(tmp_path / f"pwned{mode:o}"))
            cached.chmod(mode)
        assert _cli_child("check", rules, env=env).returncode == 0
        assert not (tmp_path / f"pwned{mode:o}").exists()
    # A folder that others could write is made private before anything in it is trusted.
    folder.chmod(0o777)
    assert _cli_child("check", rules, env=env).returncode == 0
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_damaged_or_stale_cache_is_rebuilt_and_an_unwritable_one_tolerated(tmp_path,
                                                                           monkeypatch):
    """A cache file that does not unpickle to a parser is never used and is replaced whole; a
    cache that cannot be written leaves nothing behind; another grammar has a file of its own."""
    from rulelang import parse

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = parse._normalize((ROOT / "rulesets" / CLASSIC).read_text(encoding="utf-8"))
    expected = parse._build_parser().parse(text, start="start")  # built, then saved
    folder = tmp_path / "rulelang"
    (cached,) = folder.iterdir()
    good = cached.read_bytes()
    assert parse._load_parser(str(cached)).parse(text, start="start") == expected
    for damaged in (b"", b"not a pickle", pickle.dumps(42), good[: len(good) // 2]):
        cached.write_bytes(damaged)
        assert parse._load_parser(str(cached)) is None
    assert parse._build_parser().parse(text, start="start") == expected
    assert [p.name for p in folder.iterdir()] == [cached.name]
    assert parse._load_parser(str(cached)) is not None, "the damaged file was not replaced"
    cached.unlink()

    def refused(*args, **kwargs):
        raise PermissionError("read-only")

    monkeypatch.setattr(parse.tempfile, "mkstemp", refused)
    assert parse._build_parser().parse(text, start="start") == expected
    assert list(folder.iterdir()) == []
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar = parse.grammar_text()
    monkeypatch.setattr(parse, "grammar_text", lambda: grammar + "\n// another grammar\n")
    parse._build_parser()
    assert len(list(folder.iterdir())) == 1
    monkeypatch.setattr(parse, "grammar_text", lambda: grammar)
    parse._build_parser()
    assert len(list(folder.iterdir())) == 2


def test_writing_a_parser_prunes_the_stale_ones(tmp_path, monkeypatch):
    """A new parser file removes all but the PARSER_CACHE_FILES written last, of the cache's
    own naming only: the one just written stays, other files of the folder are not touched."""
    import os

    from rulelang import parse

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "rulelang"
    folder.mkdir(mode=0o700)
    keep = parse.PARSER_CACHE_FILES
    stale = [folder / f"parser-{n:024x}.pickle" for n in range(keep + 2)]
    others = [folder / name for name in ("parser-notes.txt", "parser-abc.pickle",
                                         "ast-" + "0" * 32 + ".pickle", "mine.pickle")]
    for age, path in enumerate(stale + others):
        path.write_bytes(b"stale")
        os.utime(path, ns=(age * 10**9, age * 10**9))
    parse._build_parser()  # none of those names: built and written
    left = {p.name for p in folder.iterdir()}
    new = left - {p.name for p in stale + others}
    assert len(new) == 1 and parse._PARSER_FILES.fullmatch(*new)
    assert left == new | {p.name for p in stale[-(keep - 1):] + others}


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a file to another user needs root")
def test_a_cache_file_of_another_user_is_refused(tmp_path):
    """A cache file owned by someone else is not loaded, whatever its mode."""
    home = tmp_path / "home"
    env = _env(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
    rules = str(ROOT / "rulesets" / CLASSIC)
    assert _cli_child("check", rules, env=env).returncode == 0
    for cached in _cache_files(home):
        cached.write_bytes(_planted(tmp_path / "pwned"))
        cached.chmod(0o600)
        os.chown(cached, 4242, 4242)
    assert _cli_child("check", rules, env=env).returncode == 0
    assert not (tmp_path / "pwned").exists()


def test_without_a_writable_home_the_parser_is_built_in_memory(tmp_path):
    """An unwritable cache directory: `rulelang check` still works, and writes nothing."""
    blocker = _write(tmp_path / "not_a_dir", "x")
    env = _env(HOME=str(blocker), XDG_CACHE_HOME=str(blocker / "cache"), TMPDIR=str(tmp_path))
    done = _cli_child("check", str(ROOT / "rulesets" / CLASSIC), env=env)
    assert done.returncode == 0, done
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not_a_dir"]


def test_an_extends_without_its_suffix_names_the_installed_rulebook(tmp_path):
    """`extends "classic_1961"` plays the installed classic_1961.rules from anywhere, as
    `rulelang run classic_1961` does (`house/no_auctions` too); a close name is E401 with a
    hint naming the installed rulebook."""
    from rulelang.check import check_path

    for name in ("classic_1961", "house/no_auctions"):
        path = _rulebook(tmp_path / "elsewhere" / "mine.rules", name)
        program, diags = check_path(str(path))
        assert diags == [] and program.files[1] == str(
            Path(os.path.realpath(ROOT / "rulesets")) / f"{name}.rules"), name
        assert _cli("check", "mine.rules", cwd=tmp_path / "elsewhere").returncode == 0
    out = _rulebook(tmp_path / "elsewhere" / "out.rules", "../../../../../../../x/classic_1961")
    (d,) = check_path(str(out))[1]
    assert d.code == "E419" and d.hint == \
        'the installed rulebook is found by its name alone: extends "classic_1961"'
    typo = _rulebook(tmp_path / "elsewhere" / "typo.rules", "classic_1691")
    (d,) = check_path(str(typo))[1]
    assert d.code == "E401" and d.hint == \
        'did you mean the installed rulebook: extends "classic_1961.rules"?'


def test_an_extends_without_its_suffix_searches_each_directory_in_turn(tmp_path):
    """In the extending file's directory, then each include path, then the installed
    rulebooks, the path as written comes first, then with `.rules` added: a nearer file of
    either name wins over the installed one; a folder of the name is passed over for the
    file; a path that ends in `.rules` is only looked up as written, and the first thing of
    that name found is read, as before (a folder: E420)."""
    from rulelang.check import check_path

    board = (ROOT / "rulesets" / "classic_board.rules").read_text(encoding="utf-8")
    classic = (ROOT / "rulesets" / CLASSIC).read_text(encoding="utf-8")
    near = tmp_path / "near"
    _write(near / CLASSIC, classic)
    _write(near / "classic_board.rules", board)
    mine = _rulebook(near / "mine.rules", "classic_1961")
    assert rulelang.load(str(mine)).files[1] == str(near / CLASSIC)
    _rulebook(near / "parent.rules", CLASSIC)
    _rulebook(near / "parent", "house/no_auctions")  # the path as written comes first
    child = _rulebook(near / "child.rules", "parent")
    assert rulelang.load(str(child)).files[1] == str(near / "parent")
    shared = tmp_path / "shared"
    _rulebook(shared / "base.rules", CLASSIC)
    by_name = _rulebook(tmp_path / "game" / "by_name.rules", "base")
    assert [d.code for d in check_path(str(by_name))[1]] == ["E401"]
    program, diags = check_path(str(by_name), include_path=[str(shared)])
    assert diags == [] and program.files[1] == str(shared / "base.rules")
    _rulebook(shared / "base", "house/no_auctions")
    nearer = _rulebook(tmp_path / "other" / "base.rules", CLASSIC)  # the directory comes first
    other = _rulebook(tmp_path / "other" / "h.rules", "base")
    program, diags = check_path(str(other), include_path=[str(shared)])
    assert diags == [] and program.files[1] == str(nearer)
    (tmp_path / "game" / "classic_1961").mkdir()
    folder = _rulebook(tmp_path / "game" / "folder.rules", "classic_1961")
    assert check_path(str(folder))[1] == []
    (tmp_path / "game" / "lib.rules").mkdir()  # with `.rules`: as written, even a folder
    _rulebook(shared / "lib.rules", CLASSIC)
    folder = _rulebook(tmp_path / "game" / "lib_folder.rules", "lib.rules")
    assert [d.code for d in check_path(str(folder), include_path=[str(shared)])[1]] == ["E420"]
    _rulebook(tmp_path / "game" / "doubled.rules.rules", CLASSIC)
    doubled = _rulebook(tmp_path / "game" / "with_suffix.rules", "doubled.rules")
    assert [d.code for d in check_path(str(doubled))[1]] == ["E401"]


def test_a_missing_rulebook_is_not_likened_to_an_unrelated_one(tmp_path, monkeypatch):
    """Names are compared without the `.rules` every one of them ends with: 'nothere.rules'
    is like neither 'lotr.rules' nor 'ours.rules'; a file of the name in a folder above is
    hinted at by its relative path."""
    from rulelang.check import check_path

    _rulebook(tmp_path / "ours.rules", CLASSIC)
    far = _write(tmp_path / "n.rules", 'rulebook "N"\nextends "nothere.rules"\n')
    (d,) = check_path(str(far))[1]
    assert d.code == "E401" and d.hint == "the path is relative to the file that extends it"
    child = _write(tmp_path / "sub" / "child.rules", 'rulebook "C"\nextends "ours.rules"\n')
    (d,) = check_path(str(child))[1]
    assert d.code == "E401" and d.hint.startswith('did you mean extends "../ours.rules"?')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(rulelang.RuleErrors) as e:
        rulelang.load("nothere.rules")
    assert e.value.diagnostics[0].hint is None


def test_a_file_named_like_the_installed_rulebook_it_extends(tmp_path):
    """A local classic_1961.rules that extends "classic_1961.rules" (or "classic_1961")
    extends itself: E402, with a hint to rename it."""
    from rulelang.check import check_path

    for written in (CLASSIC, "classic_1961"):
        mine = _rulebook(tmp_path / CLASSIC, written)
        (d,) = check_path(str(mine))[1]
        assert d.code == "E402" and d.hint == (
            "a path is looked up beside the file first, so this file hides the installed "
            f"rulebook '{written}': give it another name")
