"""The rich consoles the commands print with, made here only: on a terminal, rich's own;
to a pipe or a file, plain lines without the spaces rich pads a table's lines with, at a
width of the command's choosing; a closed pipe ends the command quietly (`rulelang_cli.main`)."""

from __future__ import annotations

import re
import sys

from rich.console import Console

__all__ = ["make_console"]

_TRAILING = re.compile(r" +(?=\n)")


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich's own exits with status 1; the command's handler gives the shell's 141
        self.quiet = True
        raise BrokenPipeError


class _PlainLines:
    """Standard output as rich writes to it, without the spaces at the end of a line. The
    spaces that end a write are held until the next one shows whether a newline follows."""

    def __init__(self) -> None:
        self._held = ""

    def write(self, text: str) -> int:
        text = self._held + text
        body = text.rstrip(" ")
        self._held = text[len(body):]
        sys.stdout.write(_TRAILING.sub("", body))
        return len(text)

    def flush(self) -> None:
        sys.stdout.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return sys.stdout.fileno()

    @property
    def encoding(self) -> str:
        return getattr(sys.stdout, "encoding", None) or "utf-8"


def make_console(piped_width: int | None = None) -> Console:
    """A console on standard output; when it is not a terminal, lines `piped_width` wide (or
    rich's default width), never cut to a screen's, and no spaces at their ends."""
    console = _Console(highlight=False)
    if console.is_terminal:
        return console
    return _Console(highlight=False, file=_PlainLines(), width=piped_width)
