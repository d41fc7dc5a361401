"""`rulelang fmt FILE...`: rewrite rules files in the canonical layout (rulelang.fmt); --check
lists the files that would change, --diff shows how. Exit 0 done, 1 a file would change
(--check) or cannot be formatted, 2 bad usage."""

from __future__ import annotations

import difflib
import os
import stat
import sys
import tempfile

import click

from rulelang.diagnostics import RuleError, RuleErrors, printable, render, summary
from rulelang.files import MAX_BYTES, _too_large, source_text
from rulelang.fmt import FormatError, format_text
from rulelang.source import decode_source, read_source

from .main import short_help

STDIN = "-"
_STDIN_NAME = "<stdin>"


def _files(ctx, param, paths: tuple[str, ...]) -> list[str]:
    """The files named, a directory standing for every `*.rules` file below it (sorted);
    a path that names nothing is a usage error."""
    out: list[str] = []
    for path in paths:
        if path == STDIN:
            if len(paths) > 1:
                raise click.BadParameter("'-' (standard input) cannot be mixed with files",
                                         ctx, param)
            out.append(path)
        elif os.path.isdir(path):
            found = sorted(os.path.join(folder, name)
                           for folder, _, names in os.walk(path)
                           for name in names if name.endswith(".rules"))
            if not found:
                raise click.BadParameter(f"directory '{printable(path)}' holds no .rules file",
                                         ctx, param)
            out.extend(found)
        elif os.path.lexists(path):
            out.append(path)
        else:
            raise click.BadParameter(f"'{printable(path)}': no such file", ctx, param)
    return list(dict.fromkeys(out))


@click.command(short_help=short_help("fmt"))
@click.argument("files", metavar="FILE...", nargs=-1, required=True, callback=_files)
@click.option("--check", is_flag=True,
              help="change nothing; list the files that would change and exit 1 if any")
@click.option("--diff", is_flag=True,
              help="change nothing; print a unified diff of what would change")
def fmt(files: list[str], check: bool, diff: bool) -> None:
    """Rewrite rules files in the one canonical layout; --check, --diff change nothing.

    The layout: two spaces per block level, one space between words, the kinds of a board
    lined up, one blank line around every rule, option, board and deck. Comments stay where
    they are; no line is wrapped or joined; the rules mean exactly what they meant
    (docs/formatting.md).

    FILE may be a directory (every .rules file below it) or - (standard input, the result on
    standard output). A file is rewritten only when its layout changes, by replacing it
    whole: it is never left half written. A file that does not parse is left as it is and
    its mistakes are shown, as `rulelang check` shows them.

    Exit status: 0 done (or, with --check, nothing to change), 1 a file would change
    (--check) or could not be formatted, 2 bad usage.
    """
    outcomes = [_one(path, check, diff) for path in files]
    changes, failures = outcomes.count(True), outcomes.count(None)
    if len(files) > 1 or check:
        done = "would be reformatted" if check or diff else "reformatted"
        counts = [f"{changes} file{'s' if changes != 1 else ''} {done}",
                  f"{outcomes.count(False)} unchanged"]
        if failures:
            counts.append(f"{failures} not formatted (mistakes above)")
        click.echo(", ".join(counts), err=True)
    sys.exit(1 if failures or (check and changes) else 0)


def _one(path: str, check: bool, diff: bool) -> bool | None:
    """Format one file as asked: whether it changes (or would), None if it cannot be
    formatted (its mistakes shown) or rewritten."""
    shown = _STDIN_NAME if path == STDIN else path
    text: str | None = None
    try:
        before = None if path == STDIN else os.stat(os.path.realpath(path))
        text = _stdin() if path == STDIN else read_source(path)
        result = format_text(text, shown)
    except (RuleError, RuleErrors) as e:
        for d in e.diagnostics:
            source = text if path == STDIN else source_text(d.span.file)
            click.echo(render(d, source))
        click.echo(summary(shown, e.diagnostics))
        return None
    except FormatError as e:
        click.echo(printable(f"error: {e}; the file is left as it is"), err=True)
        return None
    except OSError as e:
        click.echo(printable(f"error: {shown}: {e.strerror}"), err=True)
        return None
    if path == STDIN and not (check or diff):
        click.echo(result, nl=False)
        return result != text
    if result == text:
        return False
    if diff:
        click.echo("".join(_diff(text, result, shown)), nl=False)
    if check:
        click.echo(printable(f"would reformat {shown}"), err=diff)
    elif not diff:
        try:
            _replace(path, result, before)
        except (_Changed, OSError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            click.echo(printable(f"error: {path}: {why}; the file is left as it is"),
                       err=True)
            return None
        click.echo(printable(f"formatted {path}"))
    return True


def _stdin() -> str:
    """Standard input as a rules file's text (at most MAX_BYTES, UTF-8), else RuleError."""
    data = sys.stdin.buffer.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise _too_large(_STDIN_NAME, f"more than {MAX_BYTES:,} bytes", MAX_BYTES)
    return decode_source(data, _STDIN_NAME)


def _diff(old: str, new: str, shown: str) -> list[str]:
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 f"{shown} (as it is)", f"{shown} (formatted)")
    return [printable(line.removesuffix("\n"), keep_tabs=True) + "\n"
            + ("" if line.endswith("\n") else "\\ No newline at end of file\n")
            for line in lines]


class _Changed(Exception):
    """The file changed on disk while it was being formatted."""


def _replace(path: str, text: str, before: os.stat_result) -> None:
    """Replace the file whole with `text`: written beside it, with its permissions, then
    renamed over it (a link is followed: its target is rewritten). The old content stays
    until the new one is complete on disk; a file changed meanwhile is left as it is."""
    real = os.path.realpath(path)
    folder, name = os.path.split(real)
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, stat.S_IMODE(before.st_mode))
        now = os.stat(real)
        if (now.st_mtime_ns, now.st_size, now.st_ino) != \
                (before.st_mtime_ns, before.st_size, before.st_ino):
            raise _Changed("the file changed while it was being formatted")
        os.replace(temporary, real)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
