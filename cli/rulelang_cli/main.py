"""The `rulelang` command: check, format, explain, run, bench and analyze rulebooks; resume saved
games; build the compiled engine."""

from __future__ import annotations

import importlib

import click

# Each command's module is imported only when that command runs: `rulelang check` stays quick
# because it never loads the engine.
_COMMANDS = {
    "check": "rulelang_cli.check_cmd:check",
    "fmt": "rulelang_cli.fmt_cmd:fmt",
    "explain": "rulelang_cli.explain_cmd:explain",
    "run": "rulelang_cli.run_cmd:run",
    "bench": "rulelang_cli.bench_cmd:bench",
    "analyze": "rulelang_cli.analyze_cmd:analyze",
    "resume": "rulelang_cli.resume_cmd:resume",
    "native": "rulelang_cli.native_cmd:native_group",
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(_COMMANDS)

    def get_command(self, ctx, name):
        if name not in _COMMANDS:
            return None
        module, attr = _COMMANDS[name].split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulelang")
def main():
    """rulelang: Monopoly-family rulebooks as data — check them, play them, measure them."""


if __name__ == "__main__":
    main()
