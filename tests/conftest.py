"""Shared test helpers: where the public reference data lives, when it is present."""

from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DATA = ROOT / "tests" / "data"


@pytest.fixture
def shared_dir() -> pathlib.Path:
    """../shared beside the repository; tests that need it are skipped without it."""
    if not (SHARED / "data").is_dir():
        pytest.skip("../shared is not present")
    return SHARED
