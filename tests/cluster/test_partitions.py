"""An update's key and partition: a chat's updates share one partition, whatever their kind;
inline queries, chosen results and presses under inline messages go by the user; the partition
is a stable function of the key, in range, reaching every partition, and PostgreSQL computes
the same one from a chat's id."""

from __future__ import annotations

import asyncpg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cluster.partitions import NO_KEY, PARTITIONS, partition_of, update_key
from bot.telegram.app import ALLOWED_UPDATES

GROUP = {"id": -1001234567890, "type": "supergroup", "title": "G"}
ANN = {"id": 4242, "is_bot": False, "first_name": "Ann"}
PRIVATE = {"id": 4242, "type": "private", "first_name": "Ann"}
MESSAGE = {"message_id": 5, "date": 0, "chat": GROUP, "from": ANN, "text": "/play"}
KEYS = st.integers(min_value=-(2**63), max_value=2**63 - 1)  # Telegram's ids fit in 64 bits


@pytest.mark.parametrize(("update", "key"), [
    ({"message": MESSAGE}, GROUP["id"]),
    ({"edited_message": MESSAGE}, GROUP["id"]),
    ({"message": {**MESSAGE, "chat": PRIVATE}}, ANN["id"]),  # a private chat: its user's id
    ({"callback_query": {"id": "1", "from": ANN, "message": MESSAGE, "data": "x"}}, GROUP["id"]),
    ({"callback_query": {"id": "1", "from": ANN, "inline_message_id": "i", "data": "x"}},
     ANN["id"]),
    ({"inline_query": {"id": "1", "from": ANN, "query": "1 2 3 4", "offset": ""}}, ANN["id"]),
    ({"chosen_inline_result": {"result_id": "r", "from": ANN, "query": "q"}}, ANN["id"]),
    ({"my_chat_member": {"chat": GROUP, "from": ANN, "date": 0}}, GROUP["id"]),
    ({"poll": {"id": "p", "question": "?", "options": []}}, NO_KEY),  # neither: partition 0
    ({}, NO_KEY),
])
def test_an_update_is_keyed_by_its_chat_else_its_user(update, key):
    assert update_key({"update_id": 9, **update}) == key


def test_every_kind_the_bot_asks_for_has_a_key():
    """None of ALLOWED_UPDATES falls to the fixed partition: each names a chat or a user."""
    samples = {"message": MESSAGE, "edited_message": MESSAGE,
               "inline_query": {"id": "1", "from": ANN, "query": ""},
               "callback_query": {"id": "1", "from": ANN, "message": MESSAGE},
               "my_chat_member": {"chat": GROUP, "from": ANN},
               "chat_member": {"chat": GROUP, "from": ANN}}
    assert set(ALLOWED_UPDATES) == set(samples)
    for kind, body in samples.items():
        assert update_key({"update_id": 1, kind: body}) != NO_KEY


@settings(max_examples=300, deadline=None)
@given(KEYS, st.integers(min_value=1, max_value=1024))
def test_the_partition_is_stable_and_in_range(key, partitions):
    first = partition_of(key, partitions)
    assert first == partition_of(key, partitions) and 0 <= first < partitions
    assert first == ((key % partitions) + partitions) % partitions


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=1, max_value=256), st.integers(min_value=-(10**12), max_value=0))
def test_every_partition_is_reached(partitions, start):
    """Consecutive ids (chats come and go in runs) fall on every partition."""
    reached = {partition_of(key, partitions) for key in range(start, start + partitions)}
    assert reached == set(range(partitions))


def test_a_chat_keeps_its_partition_whatever_its_updates():
    message = {"update_id": 1, "message": MESSAGE}
    press = {"update_id": 2, "callback_query": {"id": "1", "from": {**ANN, "id": 7},
                                                "message": MESSAGE}}
    assert partition_of(update_key(message)) == partition_of(update_key(press))


@pytest.mark.parametrize("partitions", [1, 7, PARTITIONS, 1024])
async def test_postgresql_computes_the_same_partition(postgres_server, partitions):
    """`((key % n) + n) % n` in SQL over BIGINT ids: a later per-partition lease can find a
    chat's partition in the database (PostgreSQL's % keeps the dividend's sign)."""
    keys = [GROUP["id"], -1, 0, 1, ANN["id"], 2**63 - 1, -(2**63) + 1, -1002003004005,
            777000, -(2**40) - 3]
    connection = await asyncpg.connect(postgres_server.url())
    try:
        rows = await connection.fetch(
            "SELECT key, ((key % $2::bigint) + $2::bigint) % $2::bigint AS partition "
            "FROM unnest($1::bigint[]) AS key", keys, partitions)
    finally:
        await connection.close()
    assert {row["key"]: row["partition"] for row in rows} == \
        {key: partition_of(key, partitions) for key in keys}
