"""`rulelang lsp`: the language server (rulelang.lsp) over standard input and output."""

from __future__ import annotations

import importlib.util

import click

from .main import short_help


@click.command(short_help=short_help("lsp"))
@click.option("--stdio", is_flag=True,
              help="talk over standard input and output (the only way; editors pass it)")
def lsp(stdio: bool) -> None:
    """Serve the Language Server Protocol to an editor over standard input and output:
    the checker's diagnostics as the file changes, hover, go to definition, completion and
    the outline of a rules file. The editor starts it; docs/cli.md tells how to set up VS
    Code, Neovim and Helix. Needs pygls: pip install 'rulelang[lsp]'.
    """
    if any(importlib.util.find_spec(name) is None for name in ("pygls", "lsprotocol")):
        raise click.UsageError("`rulelang lsp` needs pygls: pip install 'rulelang[lsp]'")
    from rulelang.lsp import main

    main()
