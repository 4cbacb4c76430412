"""What a question about a puzzle asks, as play takes it (the face reads it from what was typed:
bot.telegram.grammar)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SolveRequest:
    numbers: tuple[int, ...]
    target: int
    closest: bool = False  # Countdown rules: the nearest value with whole-number steps
