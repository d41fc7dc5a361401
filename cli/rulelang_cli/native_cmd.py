"""`rulelang native build|status|clean`: the engine compiled with mypyc (rulelang/native.py)."""

from __future__ import annotations

import time

import click

from rulelang import native

from .main import short_help


@click.group(name="native", short_help=short_help("native"))
def native_group() -> None:
    """The engine compiled ahead of time with mypyc: the same games, about twice as fast.

    A build older than any engine source is never run: the engine is then pure Python until
    the next build.
    """


@native_group.command()
@click.option("--verbose", is_flag=True, help="Show the compiler's output.")
def build(verbose: bool) -> None:
    """Compile the engine beside its sources (needs `pip install 'rulelang[native]'` and a C
    compiler; about a minute)."""
    start = time.perf_counter()
    try:
        version = native.build(verbose=verbose)
    except native.NativeError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"compiled {len(native.MODULES)} engine modules with mypyc {version} "
               f"in {time.perf_counter() - start:.0f} s")


@native_group.command()
def status() -> None:
    """Say which engine runs: compiled or pure Python, and why (exit 0 if compiled, 1 if not)."""
    compiled, why = native.status()
    click.echo(why)
    raise SystemExit(0 if compiled else 1)


@native_group.command()
def clean() -> None:
    """Remove the compiled engine: pure Python from now on."""
    removed = native.clean()
    click.echo(f"removed {len(removed)} files" if removed else "nothing to remove")
