"""Shared test setup: the tests' own helpers are importable, ../shared is located once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    """The read-only reference logbooks and gold; tests that need them skip without them."""
    if not (SHARED / "gold").is_dir():
        pytest.skip(f"reference material not found at {SHARED} (clone beside ../shared)")
    return SHARED
