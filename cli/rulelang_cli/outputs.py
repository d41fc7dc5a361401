"""The files a command writes (`--log`, `--save`): checked before the game is played, and
written through a temporary file renamed at the end, so that nothing is destroyed by mistake.

An output that is one of the command's inputs (the rulebook and every file it extends, the
save being resumed) or another of its outputs is a usage error, `--force` or not; an existing
output is refused unless `--force`; a crash or Ctrl-C leaves the old file whole.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from contextlib import ExitStack
from typing import Callable

import click

from rulelang.diagnostics import json_safe
from rulelang.files import not_regular


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: the same device and inode when both exist (links and
    symbolic links included), else the same resolved path."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_outputs(outputs: dict[str, str | None], inputs: dict[str, str], force: bool) -> None:
    """Refuse, as a usage error, an output that is an input or another output, an existing
    output without --force, and an output whose folder is missing or read-only.

    outputs: option (`--log`) -> path or None; inputs: path -> what it is, for the message.
    """
    given = [(option, path) for option, path in outputs.items() if path]
    for i, (option, path) in enumerate(given):
        for source, what in inputs.items():
            if _same_file(path, source):
                raise click.BadParameter(f"{path!r} is {what}: it would be overwritten; "
                                         "choose another file", param_hint=option)
        for other, other_path in given[:i]:
            if _same_file(path, other_path):
                raise click.BadParameter(f"{path!r} is also the file of {other}; choose "
                                         "another file", param_hint=option)
        kind = not_regular(path)
        if kind:  # a device, a pipe or a link is never replaced by a file, --force or not
            raise click.BadParameter(f"{path!r} is {kind}: rulelang writes logs and saves "
                                     "only to regular files; choose another file",
                                     param_hint=option)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise click.BadParameter(f"the folder {folder!r} does not exist", param_hint=option)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise click.BadParameter(f"the folder {folder!r} cannot be written to",
                                     param_hint=option)
        if os.path.lexists(path) and not force:
            raise click.BadParameter(f"{path!r} exists; give --force to overwrite it",
                                     param_hint=option)


def log_writer(path: str | None, stack: ExitStack) -> Callable[[str], None] | None:
    """What writes the events of `--log PATH`: None without one; `-` standard output;
    else an AtomicText entered on `stack`, renamed over PATH when the stack closes."""
    if not path:
        return None
    if path == "-":
        return lambda line: sys.stdout.write(json_safe(line) + "\n")
    out = stack.enter_context(AtomicText(path))
    return lambda line: out.write(json_safe(line) + "\n")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class AtomicText:
    """A text file written under a temporary name in its folder and renamed over `path` when
    closed without an error (`with AtomicText(path) as out: out.write(...)`); on an error, a
    Ctrl-C or an exit, the temporary file is removed and `path` stays as it was."""

    def __init__(self, path: str):
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.",
                                            suffix=".tmp", dir=folder)
        except OSError as err:
            click.echo(f"error: cannot write {path!r}: {err.strerror or err}", err=True)
            sys.exit(1)
        self.file = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        try:  # the permissions a new file would get, or the old file's
            os.chmod(self.tmp, stat.S_IMODE(os.stat(path).st_mode) if os.path.exists(path)
                     else 0o666 & ~_umask())
        except OSError:
            pass

    def write(self, text: str) -> None:
        try:
            self.file.write(text)
        except OSError as err:  # a full disk: the old file stays as it was
            click.echo(f"error: cannot write {self.path!r}: {err.strerror or err}", err=True)
            sys.exit(1)

    def __enter__(self) -> AtomicText:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            try:
                self.file.flush()
                os.fsync(self.file.fileno())
                self.file.close()
                os.replace(self.tmp, self.path)
                return
            except OSError as err:
                self._discard()
                click.echo(f"error: cannot write {self.path!r}: {err.strerror or err}",
                           err=True)
                sys.exit(1)
        self._discard()

    def _discard(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass
        try:
            os.unlink(self.tmp)
        except OSError:
            pass
