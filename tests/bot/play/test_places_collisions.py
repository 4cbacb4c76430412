"""A group that becomes a supergroup while both ids already play (issue 48): a member's /play or
/match in the supergroup came before the bot handled the move. The store merges the two chats in
the move's last transaction — the supergroup's open round and match go on, the group's end quietly
(answers kept, counted as played) — so the move never meets the "one per topic" indexes, whatever
came first; scores, daily results, matches, settings and language end up under the new id with
nothing counted twice; a repeated move changes nothing, and one a kill cut short is finished at the
next start. On SQLite and PostgreSQL. The bot's side of it (both service messages in either order,
one alone, one twice; the table, the Mini App's view and the alarms):
tests/bot/play/test_places_orders.py."""

from __future__ import annotations

import pytest

import bot.store.sql.people as people_sql
from bot.play.chats.people import People
from bot.store.stores import Stores
from tests.bot.scoring import (
    ANSWERS_SQL,
    ROUNDS_SQL,
    SCORES_SQL,
    expected_scores,
    read_rows,
    stored_scores,
)
from tests.bot.store.test_recount import ladders_hold

OLD, NEW = -4801, -1_000_004_801
ANN, BEN, CY = 481, 482, 483
DAY = "2026-11-24"


class Killed(Exception):
    """The process stopped here."""


async def won_rounds(stores: Stores, chat: int, winner: int, at: float) -> float:
    """Two rounds won in the chat, Cy answering wrong in each; the time after them."""
    for _ in range(2):
        made = await stores.rounds.open_round(chat, "24", (1, 2, 3, 4), 24, "", 10, "en", at,
                                              at + 60)
        assert made is not None
        await stores.rounds.record_answer(made.id, CY, "1+1", False, at + 1)
        await stores.rounds.close_round(made.id, "won", at + 2, winner, "1*2*3*4", 10, 2.0)
        at += 10
    return at


async def in_play(stores: Stores, chat: int, starter: int, at: float) -> tuple[int, int]:
    """A match on in the chat, its round open with Cy's wrong answer: (round, match)."""
    match = await stores.matches.open_match(chat, 3, starter, "en", at)
    made = await stores.rounds.open_round(chat, "24", (1, 1, 4, 6), 24, "", 10, "en", at,
                                          at + 60, starter)
    assert match is not None and made is not None
    await stores.matches.add_match_round(match.id, made.id)
    await stores.rounds.record_answer(made.id, CY, "4+4", False, at + 1)
    return made.id, match.id


async def both_play(stores: Stores, group_first: bool = True) -> dict[str, int]:
    """Each chat's history (Ann wins in the group, Ben in the supergroup), then in each a match
    on with its round open (the group's begun first unless `group_first` is False); a daily
    result solved in the group, its language and a setting; a setting of the supergroup's."""
    people = stores.people
    await people.remember_chat(OLD, "group", "Old")
    await people.remember_chat(NEW, "supergroup", "New")
    for user in (ANN, BEN, CY):
        await people.remember_user(user, f"U{user}")
    at = await won_rounds(stores, NEW, BEN, await won_rounds(stores, OLD, ANN, 1000.0))
    sides = [("group", OLD, ANN), ("supergroup", NEW, BEN)]
    ids: dict[str, int] = {}
    for name, chat, starter in sides if group_first else sides[::-1]:
        ids[name], ids[f"{name} match"] = await in_play(stores, chat, starter, at)
        at += 10
    await stores.daily.record_daily(DAY, "24", ANN, OLD, "(1+2+3)*4", 5.0, at)
    await people.set_language(OLD, "ru")
    await people.set_chat_settings(OLD, {"hints": False}, at)
    await people.set_chat_settings(NEW, {"count": 5}, at)
    return ids


async def snapshot(stores: Stores) -> dict[str, list[tuple]]:
    db = stores.rounds.db  # type: ignore[attr-defined]
    tables = {"rounds": "SELECT id, chat_id, status, ended_at, announced FROM rounds",
              "answers": "SELECT id, round_id, user_id FROM answers",
              "matches": "SELECT id, chat_id, status FROM matches",
              "scores": SCORES_SQL, "totals": "SELECT * FROM player_totals",
              "daily": "SELECT day, user_id, chat_id FROM daily_results",
              "moves": "SELECT old_id, new_id FROM chat_moves"}
    return {name: sorted(await db.fetch(sql)) for name, sql in tables.items()}


async def merged(stores: Stores, ids: dict[str, int]) -> None:
    """What a merge leaves: one open round and one match, the supergroup's; the group's round
    ended quietly under the new id with its answer; every score from the rounds, once."""
    db = stores.rounds.db  # type: ignore[attr-defined]
    assert [(r.id, r.chat_id) for r in await stores.rounds.open_rounds()] == \
        [(ids["supergroup"], NEW)]
    ended = await stores.rounds.get_round(ids["group"])
    assert ended is not None and (ended.status, ended.chat_id) == ("revealed", NEW)
    owed = {result.round.id for result in await stores.rounds.unannounced()}
    assert ids["group"] not in owed  # no result owed for it
    assert await stores.rounds.answerers(ids["group"]) == [CY]  # its answer is kept
    on = await stores.matches.match_on(NEW)
    assert on is not None and on.id == ids["supergroup match"]
    assert await stores.matches.match_on(OLD) is None
    assert sorted(await db.fetch("SELECT id, chat_id, status FROM matches")) == sorted(
        [(ids["group match"], NEW, "stopped"), (ids["supergroup match"], NEW, "on")])
    rounds, answers = read_rows(await db.fetch(ROUNDS_SQL), await db.fetch(ANSWERS_SQL))
    scores = stored_scores(await db.fetch(SCORES_SQL))
    assert scores == expected_scores(rounds, answers)
    assert {key[0] for key in scores} == {NEW}
    assert scores[(NEW, CY, "24")][2] == 5  # four rounds closed before, and the group's open one
    assert scores[(NEW, ANN, "24")][:2] == (20, 2) and scores[(NEW, BEN, "24")][:2] == (20, 2)
    await ladders_hold(db)
    daily = await stores.daily.daily_result(DAY, "24", ANN)
    assert daily is not None and daily.chat_id == NEW
    assert await stores.people.language(NEW) == "ru"  # the supergroup chose none
    assert await stores.people.chat_settings(NEW) == {"count": 5}  # its own stand
    assert await stores.people.unfinished_moves() == []


@pytest.mark.parametrize("group_first", [True, False], ids=["group-first", "supergroup-first"])
async def test_the_supergroups_round_and_match_go_on_and_the_groups_end(
        stores: Stores, group_first: bool) -> None:
    """Whichever round began first: the supergroup's is where its members play."""
    ids = await both_play(stores, group_first)
    await stores.people.migrate_chat(OLD, NEW)
    await merged(stores, ids)


async def test_a_second_move_of_the_same_pair_changes_nothing(stores: Stores) -> None:
    """Telegram says it in the group and in the supergroup: the second finds nothing to move."""
    ids = await both_play(stores)
    await stores.people.migrate_chat(OLD, NEW)
    once = await snapshot(stores)
    await stores.people.migrate_chat(OLD, NEW)
    assert await snapshot(stores) == once
    await merged(stores, ids)


async def test_a_chat_never_moves_into_itself(stores: Stores) -> None:
    """Only a forged message says so; every open round would meet itself and end."""
    ids = await both_play(stores)
    before = await snapshot(stores)
    await stores.people.migrate_chat(NEW, NEW)
    assert await snapshot(stores) == before
    assert {r.id for r in await stores.rounds.open_rounds()} == \
        {ids["group"], ids["supergroup"]}


async def test_a_merge_killed_between_parts_is_finished_at_the_next_start(
        stores: Stores, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(people_sql, "MOVE_PART", 1)
    ids = await both_play(stores)
    db = stores.people.far  # type: ignore[attr-defined]  # what the move runs on
    run, parts = db.run, []

    async def dies(sql: str, params: tuple = ()) -> int:
        if sql == stores.people.sql.move_part:  # type: ignore[attr-defined]
            if len(parts) == 1:
                raise Killed
            parts.append(sql)
        return await run(sql, params)

    monkeypatch.setattr(db, "run", dies)
    with pytest.raises(Killed):
        await stores.people.migrate_chat(OLD, NEW)
    monkeypatch.setattr(db, "run", run)
    assert await stores.people.unfinished_moves() == [(OLD, NEW)]
    assert len(await stores.rounds.open_rounds()) == 2  # nothing met yet: both still play

    await People(stores.people).load()  # the next start, before any round is read
    await merged(stores, ids)


async def test_a_group_first_stored_after_its_move_began_moves_whole(
        stores: Stores, monkeypatch: pytest.MonkeyPatch) -> None:
    """The group's first /play races its move: unknown when the move began (no row to copy
    for the supergroup then), stored with its open round before the move's last transaction,
    which copies the row then, so the round moves and goes on there. (The same race inside
    that transaction, on PostgreSQL: tests/postgres/test_move_race.py.)"""
    db = stores.people.far  # type: ignore[attr-defined]  # what the move runs on
    run, raced = db.run, []

    async def first_play_meanwhile(sql: str, params: tuple = ()) -> int:
        if sql == stores.people.sql.move_part and not raced:  # type: ignore[attr-defined]
            await stores.people.remember_chat(OLD, "group", "Old")
            raced.append(await stores.rounds.open_round(
                OLD, "24", (1, 2, 3, 4), 24, "", 10, "en", 1000.0, 1060.0, ANN))
        return await run(sql, params)

    await stores.people.remember_user(ANN, "Ann")
    monkeypatch.setattr(db, "run", first_play_meanwhile)
    await stores.people.migrate_chat(OLD, NEW)
    monkeypatch.setattr(db, "run", run)

    assert raced and raced[0] is not None
    assert [(r.id, r.chat_id, r.status) for r in await stores.rounds.open_rounds()] == \
        [(raced[0].id, NEW, "open")]
    assert await stores.people.unfinished_moves() == []
