"""Turning rows back into records: hands are stored as JSON text and flags as 0/1 in both
databases."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.store.records import Round

ROUND_COLUMNS = ("id, chat_id, game, hand, target, level, points, lang, message_id, started_at, "
                 "deadline, status, hint_used, started_by, topic, hints_on, typing_on")


def tuples(value: Any) -> Any:
    """JSON arrays back into tuples, nested (a hand of rolls is 13 rolls of 5 dice)."""
    return tuple(tuples(v) for v in value) if isinstance(value, list) else value


def hand_of(text: str) -> tuple:
    return tuples(json.loads(text))


def round_of(row: Sequence[Any]) -> Round:
    return Round(row[0], row[1], row[2], hand_of(row[3]), row[4], row[5], row[6], row[7],
                 row[8], row[9], row[10], row[11], bool(row[12]), row[13], row[14],
                 flag(row[15]), flag(row[16]))


def flag(value: Any) -> bool | None:
    """A stored 0/1 that may be NULL (not stored: the rounds before the column)."""
    return None if value is None else bool(value)
