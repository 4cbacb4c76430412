"""Shared test helpers: where the repository and the public reference data live.

Imports nothing beyond pytest, so that tests/solver collects with only the solver installed;
the fake Telegram server's fixture lives with the tests that use it (tests/fake_telegram).
"""

from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DATA = ROOT / "tests" / "solver" / "data"


@pytest.fixture
def shared_dir() -> pathlib.Path:
    """../shared beside the repository; tests that need it are skipped without it."""
    if not (SHARED / "data").is_dir():
        pytest.skip("../shared is not present")
    return SHARED
