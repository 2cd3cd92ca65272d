"""Shared helpers of the modsolve Python tests: the repository's paths and puzzles."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
SNAPSHOTS = ROOT / "tests" / "it" / "snapshots"


def puzzle_text(name: str) -> str:
    """The contents of `puzzles/NAME.ron`."""
    return (PUZZLES / f"{name}.ron").read_text()


@pytest.fixture
def octopus() -> str:
    return puzzle_text("octopus")
