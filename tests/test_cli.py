"""The command line as a new user meets it: one meaning for each exit status (2 the command
line, 1 the rulebook), `--log -`, `check` of several files and of standard input, seeds that
each play their own game, Ctrl-C on a batch, `rulelang list`, installed rulebooks by name,
agents of one's own, a quick `rulelang --help`; never a Python traceback."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

import rulelang
from clirun import in_process
from invariants import ROOT
from rulelang.engine.game import MAX_SEED, MIN_SEED, seed_key
from rulelang.runner import make_agents
from rulelang_cli import main as main_module
from rulelang_cli import run_cmd
from rulelang_cli.main import main

CLASSIC = "classic_1961.rules"
# A subclass of rulelang.Agent, and things named like agents that are not usable ones
AGENT_MODULE = textwrap.dedent("""
    import rulelang


    class Cautious(rulelang.DefaultAgent):
        name = "cautious"

        def buy(self, game, seat, pos):
            return game.state.cash[seat] - game.rulebook.spaces[pos].price > 500


    class NotAnAgent:
        pass


    class Picky(rulelang.DefaultAgent):
        def __init__(self, taste):
            super().__init__()
""")


def cli(*args, cwd=None, stdin=None, code=None):
    """`rulelang ARGS` in this process (tests/clirun.py): its result, which never shows a
    traceback."""
    done = in_process(*args, cwd=cwd, stdin=stdin)
    if code is not None:
        assert done.returncode == code, (done.returncode, done.stdout[-2000:], done.stderr)
    return done


def child(*args, cwd=None, stdin=None, code=None):
    """`rulelang ARGS` in a child process, where the process is what is tested."""
    done = subprocess.run([sys.executable, "-m", "rulelang_cli.main", *map(str, args)],
                          input=stdin, capture_output=True, text=True, cwd=cwd, timeout=300)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    if code is not None:
        assert done.returncode == code, (done.returncode, done.stdout[-2000:], done.stderr)
    return done


@pytest.fixture
def broken(tmp_path):
    """A rulebook with an error (E101) and nothing else wrong."""
    path = tmp_path / "broken.rules"
    path.write_text('rulebook "Broken"\nextends "classic_1961.rules"\nset nope = 1\n',
                    encoding="utf-8")
    return path


# ---------------------------------------------------------------- exit status

@pytest.mark.parametrize("args, status", [
    (["check", "missing.rules"], 2),
    (["run", "missing.rules"], 2),
    (["bench", "missing.rules", "--check-runs", "0"], 2),
    (["resume", "missing.json"], 2),
    (["run", CLASSIC, "--rules-typo"], 2),
    (["check", CLASSIC, "--option", "jackpot"], 2),
    (["run", CLASSIC, "--option", "jackpot"], 2),
    (["check", CLASSIC, "--set", "nope=3"], 2),
    (["run", CLASSIC, "--set", "nope=3"], 2),
    (["check", "classic_1961_timed.rules", "--set", "time_limit=soon"], 2),
    (["run", "classic_1961_timed.rules", "--set", "time_limit=soon"], 2),
    (["run", CLASSIC, "--agents", "nobody"], 2),
    (["bench", CLASSIC, "--agents", "nobody", "--check-runs", "0"], 2),
    (["run", CLASSIC, "--seed", str(MAX_SEED + 1)], 2),
    (["run", CLASSIC, "--seed", str(MAX_SEED), "--games", "2"], 2),
    (["run", CLASSIC, "--save-at", "3", "--save", "-"], 2),
    (["explain", "E999"], 2),
    (["lsit"], 2),
    (["check", "{broken}"], 1),
    (["run", "{broken}"], 1),
    (["bench", "{broken}", "--check-runs", "0"], 1),
])
def test_one_meaning_for_each_exit_status(args, status, broken, tmp_path):
    """2 a mistake of the command line, 1 a rulebook with errors: the same in every command,
    told in a line or two, never with a traceback."""
    args = [a.format(broken=broken) for a in args]
    done = cli(*args, cwd=tmp_path, code=status)
    if status == 2:
        assert "Error:" in done.stderr and len(done.stderr.splitlines()) <= 4, done.stderr
        assert ": ok" not in done.stdout  # a check not done as asked is not said to be clean
    else:
        assert "error[E101]" in done.stdout + done.stderr


def test_the_exit_statuses_are_documented():
    """`rulelang --help` and docs/cli.md say what each exit status means."""
    done = cli("--help", code=0)
    assert "Exit status: 0 success, 1 the rulebook" in " ".join(done.stdout.split())
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for status in ("| 0 |", "| 1 |", "| 2 |", "| 130 |", "| 141 |"):
        assert status in doc
    for command in ("check", "run", "resume"):
        text = " ".join(cli(command, "--help", code=0).stdout.split())
        assert "Exit status: 0" in text and "2 a mistake of the command line" in text, command


# ---------------------------------------------------------------- --log

@pytest.mark.parametrize("command", ["run", "resume"])
def test_a_log_in_a_missing_folder_is_a_usage_error(command, tmp_path):
    """`--log /no/such/dir/x.jsonl`: exit 2 before anything is played; nothing is written,
    the save is as it was."""
    cli("run", CLASSIC, "--save-at", "5", "--save", tmp_path / "g.json", cwd=tmp_path, code=0)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    args = [CLASSIC] if command == "run" else [tmp_path / "g.json"]
    done = cli(command, *args, "--log", tmp_path / "no" / "such" / "x.jsonl", cwd=tmp_path,
               code=2)
    assert "--log" in done.stderr and "does not exist" in done.stderr
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_log_that_cannot_be_written_keeps_the_old_file(tmp_path, monkeypatch):
    """A disk that fills up during the game: exit 1 with the reason, the old log whole and no
    temporary file left."""
    from rulelang_cli import outputs

    log = tmp_path / "events.jsonl"
    log.write_text("the old log\n")

    class Full:
        def __init__(self, file):
            self.file = file

        def write(self, text):
            raise OSError(28, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.file, name)

    real = outputs.AtomicText.__init__

    def init(self, path):
        real(self, path)
        self.file = Full(self.file)
    monkeypatch.setattr(outputs.AtomicText, "__init__", init)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(run_cmd.run, [CLASSIC, "--log", "events.jsonl", "--force"])
    assert result.exit_code == 1 and "No space left on device" in result.output
    assert not isinstance(result.exception, OSError)
    assert log.read_text() == "the old log\n"
    assert [p.name for p in tmp_path.iterdir()] == ["events.jsonl"]


@pytest.mark.parametrize("as_json", [False, True])
def test_log_dash_writes_the_events_to_standard_output(as_json, tmp_path):
    """`--log -`: standard output is the JSON Lines of the events and nothing else; the
    report goes to standard error; no file named `-` appears."""
    extra = ["--json"] if as_json else []
    done = cli("run", CLASSIC, "--seed", "3", "--log", "-", *extra, cwd=tmp_path, code=0)
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[0]["event"] == "start" and events[-1]["event"] == "end"
    assert not (tmp_path / "-").exists()
    cli("run", CLASSIC, "--seed", "3", "--log", tmp_path / "events.jsonl", cwd=tmp_path, code=0)
    assert done.stdout == (tmp_path / "events.jsonl").read_text(encoding="utf-8")
    if as_json:
        assert json.loads(done.stderr)["seed"] == 3
    else:
        assert "seed 3, 4 players" in done.stderr


def test_resume_log_dash(tmp_path):
    """`resume --log -` too: the events of the rest of the game, on standard output."""
    cli("run", CLASSIC, "--save-at", "5", "--save", tmp_path / "g.json", cwd=tmp_path, code=0)
    done = cli("resume", tmp_path / "g.json", "--log", "-", cwd=tmp_path, code=0)
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events and events[-1]["event"] == "end" and "wins" in done.stderr
    assert not (tmp_path / "-").exists()


# ---------------------------------------------------------------- seeds

def _log(seed: int, agents: str) -> list[str]:
    rulebook = rulelang.load(CLASSIC)
    lines: list[str] = []
    rulelang.Game(rulebook, make_agents(agents, 4), seed=seed, max_turns=60,
                  log=lines.append).play()
    return lines[1:]  # the start event names the seed itself


@pytest.mark.parametrize("agents", ["default", "random"])
def test_a_negative_seed_plays_its_own_game(agents):
    """Seeds -1 and 1 play different games (random.Random keys an integer by its absolute
    value); a seed that is not negative keeps its generator's key, so its game is the one
    it always was (tests.transcripts checks them)."""
    for seed in (1, 2, 7):
        assert _log(-seed, agents) != _log(seed, agents), seed
    assert _log(-1, agents) == _log(-1, agents)
    assert [seed_key(s) for s in (0, 1, 12345, MAX_SEED)] == [0, 1, 12345, MAX_SEED]
    keys = {seed_key(s) for s in (*range(-50, 50), MIN_SEED, MAX_SEED, MIN_SEED + 1)}
    assert len(keys) == 103
    for outside in (MIN_SEED - 1, MAX_SEED + 1):
        with pytest.raises(ValueError, match="64-bit"):
            seed_key(outside)


def test_negative_seeds_on_the_command_line(tmp_path):
    """`run --seed -1` and `--seed 1` report different games; a batch from -1 plays -1, 0, 1."""
    minus = json.loads(cli("run", CLASSIC, "--seed", "-1", "--json", cwd=tmp_path,
                           code=0).stdout)
    plus = json.loads(cli("run", CLASSIC, "--seed", "1", "--json", cwd=tmp_path,
                          code=0).stdout)
    assert minus["seed"] == -1 and (minus["turns"], minus["cash"]) != (plus["turns"],
                                                                       plus["cash"])
    done = cli("run", CLASSIC, "--seed", "-1", "--games", "3", cwd=tmp_path, code=0)
    assert "seeds -1..1" in done.stdout


# ---------------------------------------------------------------- check

def test_check_reports_the_files_it_can_and_the_missing_one(broken, tmp_path):
    """`check a.rules missing.rules b.rules`: a and b are checked and reported, the missing
    one is named with a hint, exit 2; in JSON the checked files' diagnostics all the same."""
    done = cli("check", broken, "missing.rules", CLASSIC, cwd=tmp_path, code=2)
    assert "error[E101]" in done.stdout and f"{broken}: 1 error" in done.stdout
    assert f"{CLASSIC}: ok" in done.stdout
    assert "no such file 'missing.rules'" in done.stderr
    done = cli("check", broken, "missing.rules", "--format", "json", cwd=tmp_path, code=2)
    assert [d["code"] for d in json.loads(done.stdout)] == ["E101"]
    assert "missing.rules" in done.stderr
    done = cli("check", "missing.rules", "other.rules", cwd=tmp_path, code=2)
    assert "missing.rules" in done.stderr and "other.rules" in done.stderr


def test_check_reads_standard_input(tmp_path):
    """`check -`: the rulebook from standard input, named <stdin>, its `extends` looked up
    from the current directory; with other files; standard input only once."""
    text = 'rulebook "Mine"\nextends "classic_1961.rules"\nset jail_fine = $60\n'
    done = cli("check", "-", cwd=tmp_path, stdin=text, code=0)
    assert done.stdout.strip() == "<stdin>: ok"
    done = cli("check", "-", CLASSIC, cwd=tmp_path, stdin=text + "set nope = 1\n", code=1)
    assert "<stdin>:4:5: error[E101]: unknown setting 'nope'" in done.stdout
    assert "  4 | set nope = 1" in done.stdout and f"{CLASSIC}: ok" in done.stdout
    (tmp_path / "parent.rules").write_text(
        'rulebook "Parent"\nextends "classic_1961.rules"\n', encoding="utf-8")
    done = cli("check", "-", cwd=tmp_path, stdin='rulebook "C"\nextends "parent.rules"\n',
               code=0)
    done = cli("check", "-", "--format", "json", cwd=tmp_path,
               stdin=b"rulebook \"L\"\nset jail_fine = $5 # caf\xe9\n".decode("latin-1"),
               code=1)
    assert {d["file"] for d in json.loads(done.stdout)} == {"<stdin>"}
    done = cli("check", "-", "-", cwd=tmp_path, stdin=text, code=2)
    assert "only once" in done.stderr


# ---------------------------------------------------------------- Ctrl-C

def _interrupted(args, cwd, games):
    """A `rulelang` child stopped by SIGINT, as Ctrl-C stops it (it handles SIGINT even if
    the test session ignores it), once `games` games have started (their events come on
    standard output): its exit status, how many games started in all, its standard error."""
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "from rulelang_cli.main import main; sys.argv[0] = 'rulelang'; main()")
    starts = 0
    with subprocess.Popen([sys.executable, "-c", code, *args], cwd=cwd, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        try:
            for line in child.stdout:
                starts += '"event":"start"' in line
                if starts >= games:
                    break
            child.send_signal(signal.SIGINT)
            starts += child.stdout.read().count('"event":"start"')
            err = child.stderr.read()
            child.wait(timeout=120)
        finally:
            if child.poll() is None:
                child.kill()
    return child.returncode, starts, err


def test_ctrl_c_on_a_batch_prints_the_partial_summary(tmp_path):
    """SIGINT in the middle of a batch: the summary of the games finished, exit 130."""
    status, starts, err = _interrupted(["run", CLASSIC, "--games", "100000", "--log", "-"],
                                       tmp_path, games=3)
    assert status == 130 and "Traceback" not in err, err
    head, *summary = err.strip().splitlines()
    finished = int(head.split()[1])
    assert head == f"interrupted: {finished} of 100000 games finished", err
    assert starts - 1 <= finished <= starts and finished >= 2
    assert summary[0].endswith(f"{finished} games, 4 players, seeds 1..{finished}"), err
    assert "finished with a winner" in summary[1]


def test_ctrl_c_elsewhere_is_exit_130_without_a_traceback(monkeypatch):
    """Ctrl-C in a command with no partial result to show: `interrupted`, exit 130."""
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(run_cmd, "play_on", interrupted)
    result = CliRunner().invoke(main, ["run", CLASSIC])
    assert result.exit_code == 130 and result.output.strip() == "interrupted"
    assert not isinstance(result.exception, KeyboardInterrupt)


# ---------------------------------------------------------------- a closed standard output

NAMES = ROOT / "tests" / "data" / "check" / "names.rules"
# Every command that writes to standard output, with what makes it write.
WRITERS = {
    "run --log -": ["run", CLASSIC, "--log", "-"],
    "run --json": ["run", CLASSIC, "--games", "2", "--json"],
    "resume --log -": None,  # needs a save: made in the test
    "show": ["show", CLASSIC],
    "list": ["list"],
    "check": ["check", NAMES],
    "explain": ["explain", "E104"],
    "fmt -": ["fmt", "-"],
    "stats": ["stats", CLASSIC, "--games", "2"],
    "compare": ["compare", CLASSIC, CLASSIC, "--games", "2"],
    "analyze": ["analyze", CLASSIC],
    "bench": ["bench", CLASSIC, "--games", "1", "--repeat", "1"],
    "native status": ["native", "status"],
    "--help": ["--help"],
    "--version": ["--version"],
    "show --help": ["show", "--help"],
}


def _closed_early(args, cwd, stdin: str = "") -> subprocess.CompletedProcess:
    """`rulelang ARGS` whose standard output is closed before it writes a byte."""
    child = subprocess.Popen([sys.executable, "-m", "rulelang_cli.main", *map(str, args)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=cwd)
    child.stdout.close()
    _, err = child.communicate(stdin.encode(), timeout=300)
    return subprocess.CompletedProcess(args, child.returncode, "", err.decode())


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_closed_standard_output_ends_the_command_quietly(command, tmp_path):
    """Standard output closed (`rulelang ... | head -1`): exit 141, as a command killed by
    SIGPIPE has in the shell, and nothing on standard error (the report of `run` apart)."""
    args = WRITERS[command]
    if args is None:
        cli("run", CLASSIC, "--save-at", "5", "--save", tmp_path / "g.json", cwd=tmp_path,
            code=0)
        args = ["resume", tmp_path / "g.json", "--log", "-"]
    text = (ROOT / "rulesets" / CLASSIC).read_text(encoding="utf-8")
    done = _closed_early(args, tmp_path, stdin=text if args[-1] == "-" else "")
    assert done.returncode == 128 + signal.SIGPIPE, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and "rror" not in done.stderr, done.stderr
    if args[0] not in ("run", "resume", "bench"):  # their reports go to standard error
        assert done.stderr == ""


def test_head_of_the_log():
    """`rulelang run --log - | head -1`: the first event, then exit 141 and no message."""
    shell = f"{sys.executable} -m rulelang_cli.main run {CLASSIC} --log - | head -1; " \
        "echo status ${PIPESTATUS[0]} >&2"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=300)
    assert json.loads(done.stdout)["event"] == "start"
    assert done.stderr == "status 141\n"


# ---------------------------------------------------------------- output to a pipe

@pytest.mark.parametrize("args", [["show", CLASSIC], ["stats", CLASSIC, "--games", "2"],
                                  ["compare", CLASSIC, CLASSIC, "--games", "2"],
                                  ["analyze", CLASSIC]], ids=lambda a: a[0])
def test_tables_to_a_pipe_have_no_trailing_spaces(args):
    """The tables rich prints pad their lines on a terminal only: piped, no line ends with a
    space, and the tables are there."""
    done = cli(*args, code=0)
    lines = done.stdout.splitlines()
    assert len(lines) > 10 and any("  " in line for line in lines)
    assert [line for line in lines if line.endswith(" ")] == []


# ---------------------------------------------------------------- list

def test_list_shows_the_installed_rulebooks(tmp_path):
    """`rulelang list` (from any directory): every installed rulebook by the name `run`
    takes, its title, its options and its parameters with their defaults."""
    done = cli("list", cwd=tmp_path, code=0)
    lines = done.stdout.splitlines()
    names = [line.split()[0] for line in lines if not line.startswith(" ")]
    installed = sorted(p.relative_to(ROOT / "rulesets").with_suffix("").as_posix()
                       for p in (ROOT / "rulesets").rglob("*.rules"))
    assert names == installed
    first = lines.index(next(x for x in lines if x.startswith("lotr_timed ")))
    assert lines[first].split(None, 1)[1] == "The Lord of the Rings Trilogy Edition: " \
        "time-limit game"
    assert lines[first + 1].split() == ["option", "one_ring:", "The", "One", "Ring", "(the",
                                        "Optional", "Rule)"]
    assert lines[first + 2].split() == ["parameter", "time_limit", "=", "90"]
    books = {b["name"]: b for b in json.loads(cli("list", "--json", cwd=tmp_path,
                                                  code=0).stdout)}
    assert sorted(books) == installed
    assert books["classic_1961_timed"]["parameters"] == [{"name": "time_limit",
                                                          "default": "90"}]
    assert books[CLASSIC[:-6]] == {"name": "classic_1961", "title":
                                   "Monopoly, Canadian rules (1961)", "options": [],
                                   "parameters": []}


# ---------------------------------------------------------------- agents

@pytest.fixture
def agents_dir(tmp_path):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "cautious.py").write_text(AGENT_MODULE, encoding="utf-8")
    (tmp_path / "cautious.py").write_text(AGENT_MODULE, encoding="utf-8")
    (tmp_path / "raising.py").write_text("raise RuntimeError('half written')\n")
    return tmp_path


def test_agents_from_a_module_or_a_file(agents_dir):
    """`--agents module:Class` (from the current directory) and `--agents file.py:Class`
    seat the class; mixed with built-in agents, one per seat."""
    here = agents_dir
    by_module = json.loads(cli("run", CLASSIC, "--agents", "cautious:Cautious", "--json",
                               cwd=here, code=0).stdout)
    by_file = json.loads(cli("run", CLASSIC, "--agents", "bots/cautious.py:Cautious",
                             "--json", cwd=here, code=0).stdout)
    assert by_module["agents"] == ["cautious"] * 4 and by_module == by_file
    default = json.loads(cli("run", CLASSIC, "--json", cwd=here, code=0).stdout)
    assert (default["turns"], default["cash"]) != (by_module["turns"], by_module["cash"])
    mixed = json.loads(cli("run", CLASSIC, "--agents",
                           "random,bots/cautious.py:Cautious,default", "--players", "3",
                           "--json", cwd=here, code=0).stdout)
    assert mixed["agents"] == ["random", "cautious", "default"]
    batch = cli("run", CLASSIC, "--agents", "cautious:Cautious", "--games", "2", cwd=here,
                code=0)
    assert "2 games" in batch.stdout


@pytest.mark.parametrize("spec, message", [
    ("nomodule:Cautious", "no module named 'nomodule'"),
    ("bots/none.py:Cautious", "no such file 'bots/none.py'"),
    ("cautious:Cautous", "'cautious' has no 'Cautous'; did you mean 'Cautious'?"),
    ("cautious:Reckless", "its agents: Cautious, Picky"),
    ("cautious:NotAnAgent", "'cautious:NotAnAgent' is not an agent"),
    ("cautious:rulelang", "'cautious:rulelang' is not an agent"),
    ("cautious:Picky", "cannot be made without arguments: TypeError"),
    ("raising.py:Bot", "'raising.py' could not be loaded: RuntimeError: half written"),
    ("raising:Bot", "'raising' could not be loaded: RuntimeError: half written"),
    ("randum", "did you mean 'random'?"),
])
def test_a_bad_agent_is_a_usage_error(spec, message, agents_dir):
    """A module, file or class that is missing or not an agent: exit 2, one line saying so."""
    done = cli("run", CLASSIC, "--agents", spec, cwd=agents_dir, code=2)
    assert "--agents" in done.stderr and message in done.stderr, done.stderr


FAILING_AGENTS = """
from rulelang.engine.agents import DefaultAgent


def price(x):
    return x / 0


class Broke(DefaultAgent):
    def buy(self, *args):
        return price(1)


class Seven(DefaultAgent):
    def choose(self, *args):
        return 7
"""


@pytest.mark.parametrize("how", [(), ("--games", "3"), ("--games", "4", "--jobs", "2")])
def test_an_agent_that_fails_is_told_in_a_few_lines(how, tmp_path):
    """An agent's exception ends the command with status 1 and a paragraph: the seed, the
    turn, the seat and the agent, and the lines of the agent's own code it passed through;
    the same in a batch and from a worker process; no traceback."""
    (tmp_path / "failing.py").write_text(FAILING_AGENTS, encoding="utf-8")
    run = child if "--jobs" in how else cli
    done = run("run", CLASSIC, "--agents", "default,failing.py:Broke,default", "--players", "3",
               *how, cwd=tmp_path, code=1)
    first, *frames = done.stderr.splitlines()
    assert first == ("error: the agent of seat 1 (Broke) failed at turn 0 of the game of "
                     "seed 1: ZeroDivisionError: division by zero"), done.stderr
    assert [f.split(", in ")[1] for f in frames] == ["buy: return price(1)",
                                                     "price: return x / 0"]


def test_an_answer_the_rules_refuse_is_told_in_a_line(tmp_path):
    """An agent's choice out of range: status 1, the rule that refuses it."""
    (tmp_path / "failing.py").write_text(FAILING_AGENTS, encoding="utf-8")
    done = cli("run", "house/go_or_anywhere", "--agents", "failing.py:Seven", "--seed", "3",
               cwd=tmp_path, code=1)
    assert done.stderr.startswith("error: the agent of seat ") and done.stderr.endswith(
        "IllegalAction: refused by rule 'go_or_anywhere': choose one of 2 options (0 to 1), "
        "not 7\n"), done.stderr


def test_a_game_of_custom_agents_resumes_with_them(agents_dir, tmp_path):
    """A save of custom agents resumes with `resume --agents` (the same classes) to the game
    played without stopping; without it, exit 1 naming the agent."""
    here = agents_dir
    whole = json.loads(cli("run", CLASSIC, "--agents", "cautious.py:Cautious", "--seed", "4",
                           "--json", cwd=here, code=0).stdout)
    cli("run", CLASSIC, "--agents", "cautious.py:Cautious", "--seed", "4", "--save-at", "20",
        "--save", "g.json", cwd=here, code=0)
    done = cli("resume", "g.json", cwd=here, code=1)
    assert "cautious.Cautious" in done.stderr
    resumed = json.loads(cli("resume", "g.json", "--agents", "cautious:Cautious", "--json",
                             cwd=here, code=0).stdout)
    assert resumed == whole
    done = cli("resume", "g.json", "--agents", "default", cwd=here, code=1)
    assert "not rulelang.engine.agents.DefaultAgent" in done.stderr
    done = cli("resume", "g.json", "--agents", "cautious:Nope", cwd=here, code=2)
    assert "has no 'Nope'" in done.stderr


# ---------------------------------------------------------------- --help

def test_help_loads_no_command():
    """`rulelang --help` imports none of the commands' modules (nor the engine, nor the
    parser): only the list below, kept in step with each command's own short help."""
    code = ("import sys\nfrom rulelang_cli.main import main\ntry:\n    main(['--help'])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('rulelang', 'lark'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    loaded = json.loads(done.stdout.splitlines()[-1].replace("'", '"'))
    assert loaded == ["rulelang_cli", "rulelang_cli.main", "rulelang_cli.options"]
    assert "check    Check rulebooks" in done.stdout
    for name in main_module._COMMANDS:
        command = main.get_command(None, name)
        assert command.short_help == main_module.short_help(name), name
        assert command.help, name
    assert CliRunner().invoke(main, []).exit_code in (0, 2)  # no command: the help


def test_the_readme_lists_every_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in main_module._COMMANDS:
        assert f"`rulelang {name}" in readme, name


def test_an_unknown_command_suggests_one(tmp_path):
    done = cli("chek", CLASSIC, cwd=tmp_path, code=2)
    assert "no such command 'chek'; did you mean 'check'?" in done.stderr



def test_plain_lines_hold_the_spaces_that_end_a_write(monkeypatch):
    """Spaces at the end of one write are dropped if the next starts a new line, and written
    if it goes on with text."""
    import io

    from rulelang_cli.console import _PlainLines

    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    plain = _PlainLines()
    for part in ("a  ", " \nb ", "c   ", "\n  d\n"):
        plain.write(part)
    assert out.getvalue() == "a\nb c\n  d\n"


@pytest.mark.parametrize("args, needs", [
    (["lsp"], "pygls"),
    (["analyze", CLASSIC], "numpy"),
    (["stats", CLASSIC, "--games", "1", "--plot", "x"], "matplotlib"),
])
def test_a_missing_extra_is_a_usage_error(args, needs, monkeypatch, tmp_path):
    """A command or option whose extra is not installed: status 2, the extra to install."""
    import importlib.util

    from click.testing import CliRunner

    from rulelang_cli.main import main

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == needs else found(name, *a))
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 2 and "pip install 'rulelang[" in done.output, done.output


@pytest.mark.parametrize("command", ["run", "stats", "bench"])
def test_a_number_that_is_not_one_says_so(command):
    """`--seed abc`: a whole number is wanted, said in those words (status 2)."""
    done = cli(command, CLASSIC, "--seed", "abc", code=2)
    assert "'abc' is not a whole number" in done.stderr, done.stderr
