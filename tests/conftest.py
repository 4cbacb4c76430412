"""Shared test helpers: where the repository and the public reference data live, and how a
test goes without something it needs.

Imports nothing beyond pytest and hypothesis (the solver's own test extra), so that tests/solver
collects with only the solver installed; the fake Telegram server's fixture lives with the tests
that use it (tests/fake_telegram).

Hypothesis's per-example deadline is off for the whole suite: it is a limit on wall time, and a
test never asserts on wall time (a loaded CI machine once took 356 ms over a first example that
takes 0.04 ms, and failed a test of nothing but correctness).
"""

from __future__ import annotations

import gc
import os
import pathlib
from collections.abc import Iterator
from typing import NoReturn

import pytest
from hypothesis import settings

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DATA = ROOT / "tests" / "solver" / "data"
# Set to 1 by `make test` (and so in CI): there a missing piece fails the run, as a skip would
# hide that the tests it stands for never ran. A bare `pytest` on a developer's machine skips.
REQUIRE_NATIVE = "REQUIRE_NATIVE"  # the solver's compiled core, built by `pip install -e .`
REQUIRE_SHARED = "REQUIRE_SHARED"  # the public reference data in ../shared


def unavailable(reason: str, required_by: str) -> NoReturn:
    """Skip the test for want of something; fail it instead where the environment variable
    `required_by` is 1."""
    if os.environ.get(required_by) == "1":
        pytest.fail(f"{reason}, and {required_by}=1 requires it", pytrace=False)
    pytest.skip(reason)


def without_native(status: str) -> NoReturn:
    """A test of the compiled solver, which is not in use (`status` says why): skipped where
    SOLVER_PURE=1 turned it off on purpose, else `unavailable` (REQUIRE_NATIVE)."""
    if os.environ.get("SOLVER_PURE") == "1":
        pytest.skip(f"compiled solver {status}")
    unavailable(f"compiled solver {status}", REQUIRE_NATIVE)


@pytest.fixture(autouse=True)
def collectable() -> Iterator[None]:
    """The first bot opened in a test process freezes what start-up made (bot/runtime/heap.py):
    it is let go after the test, or that bot's cycles would stay in the process forever."""
    yield
    gc.unfreeze()


@pytest.fixture
def shared_dir() -> pathlib.Path:
    """../shared beside the repository; tests that need it skip without it (and fail where
    REQUIRE_SHARED=1)."""
    if not (SHARED / "data").is_dir():
        unavailable("../shared is not present", REQUIRE_SHARED)
    return SHARED
