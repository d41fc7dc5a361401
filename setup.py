"""Optional ahead-of-time compilation of the engine with mypyc (experiment, branch `compiled`).

`pip install -e .` stays pure Python. `RULELANG_COMPILE=mypyc pip install -e .` compiles the
engine modules below (needs mypy at build time: pip install mypy==2.4.1, then
--no-build-isolation, or list mypy in build-system.requires). The pure .py sources stay
beside the .so files; delete the .so files (or reinstall without RULELANG_COMPILE) to go
back to pure Python.
"""

import os

from setuptools import setup

ENGINE = [
    "rulelang/engine/state.py",
    "rulelang/engine/game.py",
    "rulelang/engine/holdings.py",
    "rulelang/engine/actions.py",
    "rulelang/engine/agents.py",
    "rulelang/engine/endings.py",
    "rulelang/engine/tokens.py",
    "rulelang/engine/setup.py",
    "rulelang/compile.py",
]

ext_modules = []
if os.environ.get("RULELANG_COMPILE") == "mypyc":
    from mypyc.build import mypycify

    # one shared library per module group: the group's name keeps it inside the package
    # the rest of the package is imported, not compiled: its own type errors must not stop the build
    ext_modules = mypycify(["--follow-imports=silent", *ENGINE], opt_level="3",
                           group_name="rulelang._native")

setup(ext_modules=ext_modules)
