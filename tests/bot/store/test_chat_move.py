"""A group's move to a supergroup on a year of history (issue 40): its closed rounds move a part
at a time, each part its own short transaction, the scores last; a kill in between leaves the
move noted, and the next start finishes it — on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

import bot.store.sql.people as people_sql
from bot.play.chats.people import People
from bot.store.stores import Stores
from tests.bot.scoring import (
    ANSWERS_SQL,
    ROUNDS_SQL,
    SCORES_SQL,
    chat_weeks_hold,
    expected_scores,
    read_rows,
    stored_scores,
)

OLD, NEW = -41, -1_000_041
PART = 3
WON = 10  # closed rounds in the old group: four parts of three, the last one short


class Killed(Exception):
    """The process stopped here."""


async def history(stores: Stores) -> int:
    """WON rounds won in the old group by two players, then one still open: its id."""
    await stores.people.remember_chat(OLD, "group", "Old")
    for user in (1, 2):
        await stores.people.remember_user(user, f"U{user}")
    rounds, at = stores.rounds, 1000.0
    for n in range(WON):
        made = await rounds.open_round(OLD, "24", (1, 2, 3, 4), 24, "", 10, "en", at, at + 60)
        assert made is not None
        await rounds.record_answer(made.id, 2 - n % 2, "1+1", False, at + 1)
        await rounds.close_round(made.id, "won", at + 2, 1 + n % 2, "1*2*3*4", 10, 2.0)
        at += 2 * 86400 + 10  # over several weeks: the group's weeks (schema step 39) move too
    current = await rounds.open_round(OLD, "24", (1, 1, 4, 6), 24, "", 10, "en", at, at + 60)
    assert current is not None
    return current.id


async def where(stores: Stores) -> dict[int, int]:
    """How many rounds each chat holds."""
    db = stores.rounds.db  # type: ignore[attr-defined]
    return {chat: count for chat, count in
            await db.fetch("SELECT chat_id, COUNT(*) FROM rounds GROUP BY chat_id")}


async def consistent(stores: Stores) -> None:
    db = stores.rounds.db  # type: ignore[attr-defined]
    rounds, answers = read_rows(await db.fetch(ROUNDS_SQL), await db.fetch(ANSWERS_SQL))
    scores = stored_scores(await db.fetch(SCORES_SQL))
    assert scores == expected_scores(rounds, answers)
    assert {key[0] for key in scores} == {NEW}
    await chat_weeks_hold(db)


async def test_closed_rounds_move_a_part_at_a_time(stores: Stores, monkeypatch) -> None:
    monkeypatch.setattr(people_sql, "MOVE_PART", PART)
    await history(stores)
    db = stores.people.far  # type: ignore[attr-defined]  # what the move runs on
    parts: list[int] = []
    run = db.run

    async def counted(sql: str, params: tuple = ()) -> int:
        changed = await run(sql, params)
        if sql == stores.people.sql.move_part:  # type: ignore[attr-defined]
            parts.append(changed)
        return changed

    monkeypatch.setattr(db, "run", counted)
    await stores.people.migrate_chat(OLD, NEW)
    assert parts == [3, 3, 3, 1]  # each part its own statement and transaction
    assert await where(stores) == {NEW: WON + 1}  # the open round too, in the last one
    assert await stores.people.unfinished_moves() == []
    await consistent(stores)


async def test_a_move_killed_between_parts_is_finished_at_the_next_start(
        stores: Stores, monkeypatch) -> None:
    monkeypatch.setattr(people_sql, "MOVE_PART", PART)
    open_id = await history(stores)
    db = stores.people.far  # type: ignore[attr-defined]  # what the move runs on
    run, done = db.run, []

    async def dies(sql: str, params: tuple = ()) -> int:
        if sql == stores.people.sql.move_part and len(done) == 2:  # type: ignore[attr-defined]
            raise Killed
        changed = await run(sql, params)
        done.append(changed)
        return changed

    monkeypatch.setattr(db, "run", dies)
    with pytest.raises(Killed):
        await stores.people.migrate_chat(OLD, NEW)
    monkeypatch.setattr(db, "run", run)
    assert await where(stores) == {NEW: 2 * PART, OLD: WON - 2 * PART + 1}
    assert await stores.people.unfinished_moves() == [(OLD, NEW)]
    await chat_weeks_hold(stores.rounds.db)  # type: ignore[attr-defined]  # split, each whole

    await People(stores.people).load()  # the next start, before any round is read
    assert await where(stores) == {NEW: WON + 1}
    assert await stores.people.unfinished_moves() == []
    assert [r.id for r in await stores.rounds.open_rounds()] == [open_id]
    assert (await stores.rounds.open_rounds())[0].chat_id == NEW
    await consistent(stores)


async def test_a_move_killed_before_its_parts_keeps_everything_in_the_old_group_until_then(
        stores: Stores, monkeypatch) -> None:
    """Nothing moved yet, the move noted: the next start moves all of it."""
    monkeypatch.setattr(people_sql, "MOVE_PART", PART)
    await history(stores)
    db = stores.people.far  # type: ignore[attr-defined]  # what the move runs on
    run = db.run

    async def dies(sql: str, params: tuple = ()) -> int:
        if sql == stores.people.sql.move_part:  # type: ignore[attr-defined]
            raise Killed
        return await run(sql, params)

    monkeypatch.setattr(db, "run", dies)
    with pytest.raises(Killed):
        await stores.people.migrate_chat(OLD, NEW)
    monkeypatch.setattr(db, "run", run)
    assert await where(stores) == {OLD: WON + 1}
    await People(stores.people).load()
    assert await where(stores) == {NEW: WON + 1}
    await consistent(stores)


async def test_the_groups_achievements_move_with_it(stores: Stores) -> None:
    """What was earned in the group is said to be earned in the supergroup it became."""
    current = await history(stores)
    await stores.achievements.award(1, "first_win", 1002.0, OLD, current)
    await stores.people.migrate_chat(OLD, NEW)
    [(code, _, chat, _)] = [(e.code, e.earned_at, e.chat_id, e.round_id)
                            for e in await stores.achievements.earned(1)]
    assert (code, chat) == ("first_win", NEW)
    assert [row.code for row in await stores.achievements.earned_in_chat(NEW, 10)] == \
        ["first_win"]
