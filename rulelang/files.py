"""The files a rulebook may read: `read_rules` reads only a regular file of bounded size,
`Library.admit` refuses a played file that links out of the allowed directories, and
`Library.find` turns an `extends` path into a file under them; a refusal is a coded RuleError
that never shows (nor opens) the file it names.

The allowed directories are the played file's directory (the real path of the directory of
the path as given) and everything under it, each include path (`--include-path DIR`) and the
rulebooks installed with rulelang. The played file's real path (symbolic links resolved) must
lie inside one of them. An `extends` path is looked up relative to the extending file, then in
each include path in order, then in the installed rulebooks; the first file that exists and
whose real path lies inside an allowed directory wins; a path without `.rules` is tried
with it too, in each directory after the path as written. A played path that does not exist
names an installed rulebook if there is one under that relative path, `.rules` optional
(`installed_rulebook`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Iterable

from attrs import frozen

from rulelang import ast
from rulelang.diagnostics import RuleError

__all__ = ["INSTALLED", "MAX_BYTES", "Library", "installed", "installed_names",
           "installed_rulebook", "missing", "read_rules", "read_stream", "source_text"]

# The rulebooks shipped with rulelang: `rulelang/rulesets` is a link to the top-level
# rulesets/ in a source tree, and a copy of it in an installed package.
INSTALLED = Path(__file__).with_name("rulesets")
# A rules file is text: the largest shipped one is under 100 kB, a generated one of 10 MB
# still checks; anything larger is refused unread.
MAX_BYTES = 16 * 1024 * 1024

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX; Windows has no FIFO to block on
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _nowhere(path: str) -> ast.Span:
    return ast.Span(path, 0, 0, 0, 0)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def not_regular(path: str) -> str | None:
    """What `path` is when it exists and is not a regular file ("a symbolic link", "a pipe
    (FIFO)", ...; a link is not followed), else None: a file that may be written over."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    return "a symbolic link" if stat.S_ISLNK(mode) else _kind(mode)


def _not_regular(path: str, mode: int) -> RuleError:
    return RuleError("E420", f"the file '{path}' is {_kind(mode)}, not a regular file",
                     _nowhere(path), hint="a rules file is an ordinary file: save the rules "
                     "to a file and give its path")


def _nul_message(path: str) -> str:
    shown = path.replace("\0", "\\0")
    return f"the path '{shown}' contains a NUL character, which no file name can have"


def _nul(path: str) -> RuleError:
    return RuleError("E401", _nul_message(path), _nowhere(path.replace("\0", "\\0")))


def read_rules(path: str, shown: str | None = None, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a rules file: E401 unreadable, E420 not a regular file, E421 too large.

    The file is opened without blocking (a FIFO with no writer does not hang the open) and
    checked on the opened descriptor; at most limit + 1 bytes are ever read, so a file that
    grows while it is read is refused too. Messages name the file `shown` (default: path).
    """
    path = os.fspath(path)
    if "\0" in path:
        raise _nul(path)
    fd = _open(path, shown or path)
    try:
        return _read(fd, shown or path, limit)
    finally:
        os.close(fd)


def _open(path: str, shown: str) -> int:
    # O_NONBLOCK: opening a FIFO that no one writes to returns at once instead of waiting
    flags = os.O_RDONLY | _NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(path, flags)
    except FileNotFoundError:
        raise RuleError("E401", f"no such file '{shown}'", _nowhere(shown)) from None
    except OSError as e:
        try:  # a socket cannot be opened at all (ENXIO): say what it is
            mode = os.stat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise _not_regular(shown, mode) from None
        raise RuleError("E401", f"cannot read '{shown}': {e.strerror or e}",
                        _nowhere(shown)) from None


def _read(fd: int, shown: str, limit: int) -> bytes:
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(shown, info.st_mode)
        if info.st_size > limit:
            raise _too_large(shown, f"{info.st_size:,} bytes", limit)
        if _NONBLOCK:
            os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise _too_large(shown, "growing while it is read", limit)
        return b"".join(chunks)
    except OSError as e:
        raise RuleError("E401", f"cannot read '{shown}': {e.strerror or e}",
                        _nowhere(shown)) from None


def read_stream(stream, shown: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a rules file read from an open binary stream (standard input) named
    `shown`: E421 past `limit` bytes, of which at most limit + 1 are read; E401 if it
    cannot be read."""
    try:
        data = stream.read(limit + 1)
    except OSError as e:
        raise RuleError("E401", f"cannot read '{shown}': {e.strerror or e}",
                        _nowhere(shown)) from None
    if len(data) > limit:
        raise _too_large(shown, f"over {limit:,} bytes", limit)
    return data


def _too_large(path: str, size: str, limit: int) -> RuleError:
    return RuleError("E421", f"the file '{path}' is {size}: larger than the {limit >> 20} MiB "
                     "a rules file may have", _nowhere(path),
                     hint="a rulebook is text: split it into files that extend each other")


def source_text(path: str) -> str | None:
    """The text of a file for showing a diagnostic's source line, or None if it is not a
    rules file that `read_rules` would read (never blocks, never reads without bound)."""
    try:
        return read_rules(path).decode("utf-8", "replace")
    except RuleError:
        return None


def _inside(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def installed(path: str) -> str | None:
    """The installed rulebook at the relative path `path` (`classic_1961.rules`,
    `house/no_auctions.rules`), or None."""
    if "\0" in path or os.path.isabs(path):
        return None
    root = os.path.realpath(INSTALLED)
    candidate = os.path.normpath(os.path.join(root, path))
    if _inside(os.path.realpath(candidate), root) and os.path.isfile(candidate):
        return candidate
    return None


def installed_rulebook(name: str) -> str | None:
    """The installed rulebook `name` names, `.rules` optional (`classic_1961`), or None."""
    found = installed(name)
    if found is None and not name.endswith(".rules"):
        found = installed(name + ".rules")
    return found


def installed_names() -> list[str]:
    """The relative paths of the installed rulebooks, as `installed` takes them."""
    root = Path(os.path.realpath(INSTALLED))
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.rules"))


def missing(path: str) -> bool:
    """Whether nothing at all (not even a broken link) is at `path`."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return True
    except (OSError, ValueError):
        return False  # unreadable, or a NUL: reading it says so
    return False


@frozen
class Library:
    """Where the files of one rulebook may come from: the allowed directories, as real paths,
    and the directories an `extends` path is looked up in after the extending file's own."""

    roots: tuple[str, ...]
    search: tuple[str, ...]
    played: str = "."  # the played file's directory, for the hint of E419
    named: tuple[str, ...] = ()  # the allowed directories as named (links not resolved)

    @classmethod
    def of(cls, played: str, include_path: Iterable[str | os.PathLike] = ()) -> "Library":
        """The library of the played file `played` with the given include paths."""
        if isinstance(include_path, (str, os.PathLike)):
            include_path = (include_path,)
        search = tuple(os.path.normpath(os.fspath(d)) for d in include_path)
        for d in search:
            if "\0" in d:
                raise _nul(d)
        search += (os.path.realpath(INSTALLED),)
        if "\0" in played:
            played = "."
        top = os.path.dirname(os.path.abspath(played))
        # The directory as the system finds it: `link/../x.rules` is in link's target's parent
        here = os.path.realpath(os.path.dirname(played) or os.curdir)
        roots = tuple(dict.fromkeys((here, *(os.path.realpath(d) for d in search))))
        named = tuple(dict.fromkeys(os.path.abspath(d) for d in (top, *search)))
        return cls(roots, search, top, named)

    def allows(self, path: str) -> bool:
        """Whether `path`, symbolic links resolved, lies in an allowed directory."""
        real = os.path.realpath(path)
        return any(_inside(real, root) for root in self.roots)

    def admit(self, played: str) -> None:
        """E419 if the played file, symbolic links resolved, lies outside the allowed
        directories (its target is not opened); E420 if that target is a pipe, a device or
        a socket (`/dev/stdin`), which is never opened either."""
        if "\0" in played or self.allows(played):
            return
        try:
            mode = os.stat(played).st_mode
        except (OSError, ValueError):
            mode = stat.S_IFREG
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise _not_regular(played, mode)
        includes = "".join(f", '{d}'" for d in self.search[:-1])
        raise RuleError("E419", f"the file '{played}' links to a file outside the directories "
                        "a rulebook may read", _nowhere(played),
                        hint=f"a rulebook is read from its own directory '{self.played}'"
                        f"{includes} and the installed rulebooks; a link out of them is "
                        "never followed: copy the file, or name its directory with "
                        "--include-path DIR")

    def find(self, ext: ast.Extends, extending: str) -> str:
        """The file an `extends` names, as a path to show (a missing one if the path lies
        in an allowed directory, for E401); E419 at the extends path if it lies outside.

        A path without `.rules` names the file of that path, else the one with `.rules`
        added, in each directory in turn (`extends "classic_1961"` is the installed
        `classic_1961.rules` unless a file of either name is beside the extending file)."""
        written = ext.path.value
        span = ext.path.span
        if "\0" in written:
            raise RuleError("E401", _nul_message(written), span,
                            hint="remove the NUL character from the path")
        here = os.path.normpath(os.path.join(os.path.dirname(extending), written))
        names = (written,) if written.endswith(".rules") else (written, written + ".rules")
        candidates = list(dict.fromkeys(
            os.path.normpath(os.path.join(d, name))
            for d in (os.path.dirname(extending), *self.search) for name in names))
        found = [c for c in candidates if os.path.lexists(c) and self.allows(c)]
        # `extends "house"` beside a folder house/ and a file house.rules means the file;
        # a folder alone is read all the same, and reading it says so (E420)
        preferred = [c for c in found if len(names) == 1 or not os.path.isdir(c)] or found
        if preferred:
            return preferred[0]
        if self.allows(here):
            return here  # missing: reading it says so (E401)
        # A link (or a directory that is one) inside an allowed directory, pointing out
        links = any(os.path.lexists(c) and self._named_inside(c) for c in candidates)
        where = "links outside" if links else "is outside"
        raise RuleError("E419", f"the file '{written}' {where} the directories a "
                        "rulebook may read", span, hint=self._hint(written))

    def _named_inside(self, path: str) -> bool:
        absolute = os.path.abspath(path)
        return any(_inside(absolute, d) for d in self.named)

    def _hint(self, written: str) -> str:
        name = os.path.basename(written)
        if name and installed_rulebook(name) is not None:
            return f"the installed rulebook is found by its name alone: extends \"{name}\""
        includes = "".join(f", '{d}'" for d in self.search[:-1])
        return (f"a rulebook extends files under its own directory '{self.played}'{includes} "
                f"and the installed rulebooks '{self.search[-1]}'; name another directory "
                "with --include-path DIR")
