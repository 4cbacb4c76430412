"""The compiled core's switch: a built core is in use, and a rules version tells when not.

The core answers only when its rules version (module.c) equals solver.normal.RULES_VERSION;
both are bumped on purpose when a rule changes. These tests fail when the extension is built
but the pure solver answers anyway (unless SOLVER_PURE=1 asks for that), so a forgotten bump
cannot send every solve down the slow path with the suite green; and where REQUIRE_NATIVE=1
(`make test`, CI) they fail when it is not built at all, so a failed build cannot either.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

from solver import native
from solver.normal import RULES_VERSION
from tests.conftest import without_native

PURE_ON_PURPOSE = os.environ.get("SOLVER_PURE") == "1"
BUILT = importlib.util.find_spec("solver.native._core") is not None


def test_a_built_core_is_in_use():
    """Built and not turned off on purpose: the core answers, and STATUS says so."""
    if PURE_ON_PURPOSE:
        assert native.CORE is None and native.STATUS == "not in use (SOLVER_PURE=1)"
    elif BUILT:
        assert native.CORE is not None, native.STATUS
        assert f"in use (rules version {RULES_VERSION})" == native.STATUS
    else:
        assert native.CORE is None and native.STATUS.startswith("not in use (not built: ")
        without_native(native.STATUS)  # said right; but where REQUIRE_NATIVE=1, a failure


def test_the_versions_match_and_a_bump_on_one_side_turns_the_core_off():
    if not BUILT or PURE_ON_PURPOSE:
        without_native(native.STATUS)
    core = importlib.import_module("solver.native._core")
    assert core.RULES_VERSION == RULES_VERSION
    assert native.load() == (core, f"in use (rules version {RULES_VERSION})")
    off, status = native.load(RULES_VERSION + 1)
    assert off is None
    assert status == (f"not in use (the core follows version {RULES_VERSION} of the rules, "
                      f"solver/normal is at version {RULES_VERSION + 1}: port the change to "
                      "solver/native and bump RULES_VERSION in module.c)")


def test_solver_pure_turns_the_core_off(monkeypatch):
    monkeypatch.setenv("SOLVER_PURE", "1")
    assert native.load() == (None, "not in use (SOLVER_PURE=1)")


def test_the_version_line_says_whether_the_core_answers():
    out = subprocess.run([sys.executable, "-m", "solver", "--version"], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[1] == f"native core: {native.STATUS}"
    if BUILT and not PURE_ON_PURPOSE:
        assert out[1] == f"native core: in use (rules version {RULES_VERSION})"
