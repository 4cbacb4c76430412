"""Which partition an update belongs to: its key (the chat's id, else the user's), and the key's
partition, a pure function of the key and the number of partitions.

Everything that must happen in order happens within one chat (a round's answers, a topic's one
round), so a chat's updates share a key and hence a partition, which one consumer takes in order.
The function is `((key % n) + n) % n`: the same in Python (whose `%` is already never negative)
and in a PostgreSQL expression over a chat's id, so a later per-partition lease can find a
chat's partition in SQL. It must not change while updates wait in the stream: every ingress and
worker of one bot uses the same PARTITIONS.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PARTITIONS = 64  # far more than workers: a partition is the unit that moves between them
NO_KEY = 0  # an update naming neither chat nor user (none of ALLOWED_UPDATES): partition 0
# the updates that name a user but never a chat of their own: keyed by the user
BY_USER = ("inline_query", "chosen_inline_result", "shipping_query", "pre_checkout_query")


def update_key(update: Mapping[str, Any]) -> int:
    """The key of a raw update (Telegram's JSON, as the ingress reads it): the chat's id; the
    user's for an inline query, a chosen inline result, and a button under an inline message
    (a callback query without a message); a private chat's id, which is its user's."""
    for kind, body in update.items():
        if kind == "update_id" or not isinstance(body, Mapping):
            continue
        if kind in BY_USER:
            return _id(body.get("from"))
        message = body.get("message") if kind == "callback_query" else body
        chat = message.get("chat") if isinstance(message, Mapping) else None
        if isinstance(chat, Mapping) and _id(chat) != NO_KEY:
            return _id(chat)
        return _id(body.get("from"))
    return NO_KEY


def _id(named: object) -> int:
    """The `id` of a chat or a user object, or NO_KEY when it has none."""
    value = named.get("id") if isinstance(named, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else NO_KEY


def partition_of(key: int, partitions: int = PARTITIONS) -> int:
    """The key's partition, 0 to partitions - 1: `((key % n) + n) % n`, as SQL computes it."""
    if partitions < 1:
        raise ValueError(f"partitions must be at least 1, not {partitions}")
    return ((key % partitions) + partitions) % partitions


def subject(prefix: str, partition: int) -> str:
    """The stream's subject of a partition: `<prefix>.<partition>` (updates.7)."""
    return f"{prefix}.{partition}"
