"""The `rulelang` command: check, run and bench rulebooks; resume saved games."""

from __future__ import annotations

import click

from .bench_cmd import bench
from .check_cmd import check
from .resume_cmd import resume
from .run_cmd import run


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulelang")
def main():
    """rulelang: Monopoly-family rulebooks as data — check them, play them, measure them."""


main.add_command(check)
main.add_command(run)
main.add_command(bench)
main.add_command(resume)

if __name__ == "__main__":
    main()
