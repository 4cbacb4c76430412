"""The compiled core of the solver (C sources beside this file) and whether it is in use.

`CORE` is the extension module, or None when the pure-Python solver answers: SOLVER_PURE=1 is
set, the extension is not built, or the rules in solver/normal are not those the core was
ported from (its RULES, a CRC of their sources: a change there must be ported to the C too,
and until it is, the core stays out of the way). `STATUS` says which, in words.
"""

from __future__ import annotations

import binascii
import importlib
import os
from pathlib import Path
from types import ModuleType

NORMAL = Path(__file__).resolve().parent.parent / "normal"


def rules_fingerprint(folder: Path = NORMAL) -> str:
    """A CRC of the normal form's sources (solver/normal/*.py), as eight hex digits."""
    crc = 0
    for path in sorted(folder.glob("*.py")):
        crc = binascii.crc32(path.name.encode() + path.read_bytes(), crc)
    return f"{crc:08x}"


def load(normal: Path = NORMAL) -> tuple[ModuleType | None, str]:
    """The core and why (not) it answers, for the rules in the folder `normal`."""
    if os.environ.get("SOLVER_PURE") == "1":
        return None, "not in use (SOLVER_PURE=1)"
    try:
        core = importlib.import_module("solver.native._core")
    except ImportError as error:
        return None, f"not in use (not built: {error})"
    rules = rules_fingerprint(normal)
    if rules != core.RULES:
        return None, (f"not in use (ported from the rules {core.RULES} of solver/normal, which "
                      f"are now {rules}: port the change to solver/native)")
    return core, "in use"


CORE, STATUS = load()
