"""The engine compiled ahead of time with mypyc, and the guard that never runs it stale.

The engine's modules are plain Python and always work as such. `rulelang native build`
compiles them with mypyc (needs the `native` extra, i.e. mypy, and a C compiler) into
extension modules beside their sources, which then import first; the games are the same, byte
for byte, about twice as fast. The build records a hash of every source it compiled. On the
first import of an engine module, `install()`'s finder compares those hashes with the sources:
if any source changed since the build (or RULELANG_PURE=1 is set, or there is no build), every
engine module loads from its .py file, so an edit always takes effect and a build is never
half used. `rulelang native status` says which engine runs; `rulelang native clean` removes the
build.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent  # the directory that holds the package
MANIFEST = PACKAGE / "_native.json"
GROUP = "rulelang._native"  # the group the compiled modules share a library in

# compiled together; settings.py and tables.py hold frozen attrs classes, which stay Python
MODULES = (
    "rulelang.engine.state",
    "rulelang.engine.firing",
    "rulelang.engine.holdings",
    "rulelang.engine.game",
    "rulelang.engine.actions",
    "rulelang.engine.agents",
    "rulelang.engine.endings",
    "rulelang.engine.tokens",
    "rulelang.engine.setup",
    "rulelang.engine.moves",
    "rulelang.compile",
    "rulelang.evaluate",
)

PURE_VARIABLE = "RULELANG_PURE"


class NativeError(Exception):
    """The compiled engine cannot be built (what is missing, and how to get it)."""


def source(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def _digest(path: Path) -> str:
    import hashlib  # here, not at the top: `rulelang check` imports this module and never hashes

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _compiled_files() -> list[Path]:
    """The extension modules a build put beside the sources (and its shared library)."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found = []
    for module in (*MODULES, GROUP + "__mypyc"):
        stem = ROOT.joinpath(*module.split("."))
        found += [stem.with_name(stem.name + s) for s in suffixes
                  if stem.with_name(stem.name + s).exists()]
    return found


def status() -> tuple[bool, str]:
    """(whether the compiled engine runs, why, in words)."""
    import json

    if os.environ.get(PURE_VARIABLE):
        return False, f"pure Python ({PURE_VARIABLE} is set)"
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False, "pure Python (no compiled build: `rulelang native build` makes one)"
    except (OSError, ValueError):
        return False, f"pure Python ({MANIFEST.name} is unreadable: `rulelang native build` again)"
    if manifest.get("suffix") != importlib.machinery.EXTENSION_SUFFIXES[0]:
        return False, "pure Python (the build is for another Python: `rulelang native build`)"
    sources = manifest.get("sources", {})
    changed = [m for m in MODULES
               if not source(m).exists() or sources.get(m) != _digest(source(m))]
    if changed:
        return False, (f"pure Python ({source(changed[0]).name} changed since the build: "
                       "`rulelang native build` again)")
    if len(_compiled_files()) < len(MODULES) + 1:
        return False, "pure Python (the build is incomplete: `rulelang native build` again)"
    return True, f"compiled with mypyc {manifest.get('mypy', '?')}"


class _Guard:
    """A finder ahead of the standard ones: decides once, on the first engine import, whether
    the build is current; if it is not, every engine module loads from its source."""

    def __init__(self) -> None:
        self.pure: bool | None = None

    def find_spec(self, name, path=None, target=None):
        if name not in MODULES:
            return None
        if self.pure is None:
            self.pure = not status()[0]
        if not self.pure:
            return None  # the standard finders take the extension module first
        return importlib.util.spec_from_file_location(name, source(name))


_GUARD = _Guard()


def install() -> None:
    """Put the guard in front of the import system (rulelang/__init__.py does, once)."""
    if _GUARD not in sys.meta_path:
        sys.meta_path.insert(0, _GUARD)


def active() -> bool:
    """Whether this process runs the compiled engine."""
    module = sys.modules.get("rulelang.engine.game")
    if module is None:
        import rulelang.engine.game as module
    return not str(getattr(module, "__file__", "")).endswith(".py")


def describe() -> str:
    """The engine this process runs, in words (rulelang bench reports it)."""
    if active():
        return status()[1] if status()[0] else "compiled with mypyc"
    return status()[1]


def clean() -> list[Path]:
    """Remove the build; the engine is pure Python again."""
    removed = _compiled_files()
    for path in removed:
        path.unlink()
    if MANIFEST.exists():
        MANIFEST.unlink()
        removed.append(MANIFEST)
    return removed


def build(verbose: bool = False) -> str:
    """Compile the engine with mypyc beside its sources; returns the mypy version used."""
    try:
        import mypy.version
        from mypyc.build import mypycify
    except ImportError as e:
        raise NativeError("mypyc is not installed: pip install 'rulelang[native]'") from e
    import contextlib
    import io
    import json
    import tempfile

    from setuptools import Distribution

    clean()
    sources = {m: _digest(source(m)) for m in MODULES}
    with tempfile.TemporaryDirectory(prefix="rulelang-native-") as tmp:
        cwd = os.getcwd()
        out = io.StringIO()
        try:
            os.chdir(ROOT)  # mypyc names the modules after their paths from here
            quiet = contextlib.nullcontext() if verbose else contextlib.redirect_stdout(out)
            with quiet:
                extensions = mypycify(
                    # the rest of the package is read for its types, not compiled
                    ["--follow-imports=silent", "--cache-dir", os.path.join(tmp, "mypy"),
                     *(str(source(m).relative_to(ROOT)) for m in MODULES)],
                    opt_level="3", group_name=GROUP, target_dir=os.path.join(tmp, "c"),
                )
                dist = Distribution({"name": "rulelang-native", "ext_modules": extensions})
                dist.script_args = ["build_ext", "--inplace",
                                    "--build-temp", os.path.join(tmp, "o"),
                                    "--build-lib", os.path.join(tmp, "lib")]
                dist.parse_command_line()
                dist.run_commands()
        except (Exception, SystemExit) as e:  # setuptools exits on a failed compiler
            raise NativeError(f"the build failed: {e}\n{out.getvalue()[-4000:]}") from e
        finally:
            os.chdir(cwd)
    # the sources may not change during the build: the hashes are of what was compiled
    if any(_digest(source(m)) != digest for m, digest in sources.items()):
        clean()
        raise NativeError("a source changed during the build: build again")
    manifest = {"mypy": mypy.version.__version__,
                "suffix": importlib.machinery.EXTENSION_SUFFIXES[0], "sources": sources}
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return mypy.version.__version__
