"""The `rulelang` command: check, format, explain, show, run, bench and analyze rulebooks;
list the installed ones; resume saved games; build the compiled engine; serve editors."""

from __future__ import annotations

import contextlib
import importlib
import os
import sys

import click

from .options import BROKEN_PIPE, INTERRUPTED

# Each command's module is imported only when that command runs: `rulelang --help` and
# `rulelang check` stay quick because they never load the engine. The one-line help of each
# command is here too, for `rulelang --help` (the commands' own short_help is the same text).
_COMMANDS = {
    "check": ("rulelang_cli.check_cmd:check",
              "Check rulebooks: every mistake, with its line, code and hint."),
    "fmt": ("rulelang_cli.fmt_cmd:fmt",
            "Rewrite rules files in the one canonical layout."),
    "explain": ("rulelang_cli.explain_cmd:explain",
                "What a diagnostic code or a word of the language means."),
    "run": ("rulelang_cli.run_cmd:run", "Play a rulebook headlessly: one game, or a batch."),
    "show": ("rulelang_cli.show_cmd:show",
             "The rulebook as played: rules in order, where each setting comes from, the board."),
    "list": ("rulelang_cli.list_cmd:list_rulebooks",
             "The installed rulebooks, with their options and parameters."),
    "stats": ("rulelang_cli.stats_cmd:stats",
              "What a rulebook does to the game: wins, length, rules fired, money, landings."),
    "compare": ("rulelang_cli.compare_cmd:compare",
                "What one rulebook changes against another, on the same seeds."),
    "bench": ("rulelang_cli.bench_cmd:bench",
              "The engine's speed: median player-turns per second."),
    "analyze": ("rulelang_cli.analyze_cmd:analyze",
                "Exact long-run landing probabilities and rents, as a Markov chain."),
    "resume": ("rulelang_cli.resume_cmd:resume", "Play on a saved game to its end."),
    "native": ("rulelang_cli.native_cmd:native_group",
               "Build, inspect or remove the engine compiled with mypyc."),
    "lsp": ("rulelang_cli.lsp_cmd:lsp",
            "The language server, for editors: diagnostics, hover, completion."),
}

def short_help(name: str) -> str:
    """The one-line help of a command, as `rulelang --help` shows it."""
    return _COMMANDS[name][1]


class _LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(_COMMANDS)

    def get_command(self, ctx, name):
        if name not in _COMMANDS:
            return None
        module, attr = _COMMANDS[name][0].split(":")
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        with formatter.section("Commands"):
            formatter.write_dl([(name, help) for name, (_, help) in _COMMANDS.items()])

    def resolve_command(self, ctx, args):
        if args and args[0] not in _COMMANDS and not args[0].startswith("-"):
            from rulelang.resolve import did_you_mean

            hint = did_you_mean(args[0], _COMMANDS) or f"the commands: {', '.join(_COMMANDS)}"
            ctx.fail(f"no such command '{args[0]}'; {hint}")
        return super().resolve_command(ctx, args)

    def make_context(self, *args, **kwargs):
        # `rulelang --help` and `--version` print while the command line is read
        with _closed_stdout_ends_quietly():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        try:
            with _closed_stdout_ends_quietly():
                result = super().invoke(ctx)
                if not sys.stdout.closed:  # the language server closes it at its exit
                    sys.stdout.flush()  # a closed pipe is found here, not at the interpreter's exit
                return result
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            raise click.exceptions.Exit(INTERRUPTED) from None
        except Exception as err:
            from rulelang.diagnostics import printable
            from rulelang.runner import agent_failure

            told = agent_failure(err)
            if told is None:
                raise
            for line in f"error: {told}".split("\n"):
                click.echo(printable(line), err=True)
            raise click.exceptions.Exit(1) from None


@contextlib.contextmanager
def _closed_stdout_ends_quietly():
    """The reader of standard output went away (`rulelang run --log - | head -1`): stop
    without a word, with the status a command killed by SIGPIPE has in the shell, as `cat`
    does. What is still buffered goes nowhere."""
    try:
        yield
    except BrokenPipeError:
        _quiet_stdout()
        raise click.exceptions.Exit(BROKEN_PIPE) from None


def _quiet_stdout() -> None:
    """Standard output onto the null device, so that no later flush fails again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no descriptor (a test's captured output)
        pass


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog="Exit status: 0 success, 1 the rulebook (or the save) has errors, 2 a "
             "mistake of the command line, 130 stopped by Ctrl-C, 141 standard output closed. "
             "`rulelang COMMAND --help` tells more.")
@click.version_option(package_name="rulelang")
def main():
    """rulelang: Monopoly-family rulebooks as data — check them, play them, measure them."""


if __name__ == "__main__":
    main()
