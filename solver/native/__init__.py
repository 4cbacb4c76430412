"""The compiled core of the solver (C sources beside this file) and whether it is in use.

`CORE` is the extension module, or None when the pure-Python solver answers: SOLVER_PURE=1 is
set, the extension is not built, or the core follows another version of the rules than
solver/normal does. Both carry a rules version, bumped on purpose when a rule changes
(`solver.normal.RULES_VERSION` and RULES_VERSION in module.c): a change to the rules is ported
to the C and both numbers move together, and a comment or a renamed variable moves neither.
The twin test (tests/solver/test_native_twin.py) checks that the two answer alike, and
tests/solver/test_native_switch.py that a built core is in use. `STATUS` says which, in words.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

from solver.normal import RULES_VERSION


def load(rules: int = RULES_VERSION) -> tuple[ModuleType | None, str]:
    """The core and why (not) it answers, for the Python rules at version `rules`."""
    if os.environ.get("SOLVER_PURE") == "1":
        return None, "not in use (SOLVER_PURE=1)"
    try:
        core = importlib.import_module("solver.native._core")
    except ImportError as error:
        return None, f"not in use (not built: {error})"
    if rules != core.RULES_VERSION:
        return None, (f"not in use (the core follows version {core.RULES_VERSION} of the rules, "
                      f"solver/normal is at version {rules}: port the change to solver/native "
                      "and bump RULES_VERSION in module.c)")
    return core, f"in use (rules version {rules})"


CORE, STATUS = load()
