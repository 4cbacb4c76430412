"""The compiled core of the solver (C sources beside this file) and whether it is in use.

`CORE` is the extension module, or None when the pure-Python solver answers: SOLVER_PURE=1 is
set, or the extension is not built. `STATUS` says which, in words.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get("SOLVER_PURE") == "1":
        return None, "not in use (SOLVER_PURE=1)"
    try:
        core = importlib.import_module("solver.native._core")
    except ImportError as error:
        return None, f"not in use (not built: {error})"
    return core, "in use"


CORE, STATUS = _load()
