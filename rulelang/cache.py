"""The per-user cache directory: `private_file(name)` is a path in it that no other user can
have written, or None when there is no such place (then nothing is cached).

The parser (`rulelang.parse`) and the syntax trees of files read (`rulelang.source`) are cached
as pickles, and unpickling runs code: a file another user could write must never be loaded.
Lark's own `cache=True` uses a predictable name in the shared temporary directory; ours is
$XDG_CACHE_HOME/rulelang (or ~/.cache/rulelang), mode 0700, owned by the user, and a file in it
is used only if the user owns it and only the user can write it (files are written there with
mode 0600).
"""

from __future__ import annotations

import os
import re
import stat

__all__ = ["directory", "private_file", "prune"]


def _uid() -> int | None:
    getuid = getattr(os, "getuid", None)  # None on Windows: no cache there
    return getuid() if getuid is not None else None


def directory() -> str | None:
    """The private cache directory, created if need be; None if it cannot be made private."""
    uid = _uid()
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    if uid is None or not os.path.isabs(base):
        return None
    folder = os.path.join(base, "rulelang")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            return None
        if stat.S_IMODE(info.st_mode) & 0o077:
            os.chmod(folder, 0o700)
    except OSError:
        return None
    return folder


def private_file(name: str) -> str | None:
    """The path of `name` in the cache directory, if it is absent or a regular file of the
    user's that no one else can write; a file that fails the test is removed (so a fresh one
    can be written). None if there is no private directory or the file cannot be removed."""
    folder = directory()
    if folder is None:
        return None
    path = os.path.join(folder, name)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError:
        return None
    if stat.S_ISREG(info.st_mode) and info.st_uid == _uid() and not info.st_mode & 0o022:
        return path
    try:
        os.unlink(path)
    except OSError:
        return None
    return path


def prune(folder: str, pattern: re.Pattern, keep: int) -> None:
    """Remove from the cache `folder` the files whose whole name matches `pattern` (one kind
    of the cache's own files), all but the `keep` written last; nothing else is touched, and
    a file that cannot be removed is left."""
    try:
        found = [e for e in os.scandir(folder)
                 if pattern.fullmatch(e.name) and e.is_file(follow_symlinks=False)]
        if len(found) <= keep:
            return
        found.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime_ns)
        for e in found[:len(found) - keep]:
            os.unlink(e.path)
    except OSError:
        pass
