"""The stores behind /daily, /top week, /resetscores and /forget, on SQLite and PostgreSQL:
boards and places, a day's results once per person, a chat's reset and a person's erasure each
leaving the scores exactly what the remaining rounds and answers define."""

from __future__ import annotations

import pytest

from bot.store.score_store import Board
from bot.store.stores import Stores
from tests.bot.scoring import (
    ANSWERS_SQL,
    ROUNDS_SQL,
    SCORES_SQL,
    expected_scores,
    read_rows,
    stored_scores,
)
from tests.waiting import until

GROUP, OTHER = -10, -20
ANN, BEN, CY, DI = 1, 2, 3, 4


async def setup(stores: Stores) -> None:
    for chat in (GROUP, OTHER):
        await stores.people.remember_chat(chat, "group", "G")
    await stores.people.remember_chat(ANN, "private", None)
    for user, name in ((ANN, "Ann"), (BEN, "Ben"), (CY, "Cy"), (DI, "Di")):
        await stores.people.remember_user(user, name)


async def play(stores: Stores, chat: int, winner: int | None, others: tuple[int, ...] = (),
               at: float = 1000.0, points: int = 10, game: str = "24") -> int:
    """A round in the chat answered by `others` (wrongly) and won by `winner` (None: expired)."""
    made = await stores.rounds.open_round(chat, game, (1, 2, 3, 4), 24, "easy", points, "en",
                                          at, at + 60, started_by=winner or others[0])
    assert made is not None
    for user in others:
        await stores.rounds.record_answer(made.id, user, "1+2", False, at + 1)
    if winner is not None:
        await stores.rounds.record_answer(made.id, winner, "1*2*3*4", True, at + 2)
        assert await stores.rounds.close_round(made.id, "won", at + 2, winner, "1*2*3*4",
                                               points, 2.0)
    else:
        assert await stores.rounds.close_round(made.id, "expired", at + 60)
    return made.id


async def consistent(stores: Stores) -> dict:
    """The scores table, checked against the definition recomputed from rounds and answers."""
    db = stores.scores.db  # type: ignore[attr-defined]
    rounds, answers = read_rows(await db.fetch(ROUNDS_SQL), await db.fetch(ANSWERS_SQL))
    stored = stored_scores(await db.fetch(SCORES_SQL))
    assert stored == expected_scores(rounds, answers)
    return stored


async def test_boards_all_time_and_week_with_places(stores: Stores) -> None:
    await setup(stores)
    await play(stores, GROUP, ANN, (BEN,), at=1000.0, points=30)  # long ago
    await play(stores, GROUP, BEN, (ANN,), at=900_000.0, points=10)
    await play(stores, GROUP, BEN, (), at=900_100.0, points=10)
    await play(stores, OTHER, CY, (ANN,), at=900_200.0, points=50)
    week = 900_000.0 - 1
    assert [(p.rank, p.name, p.points, p.wins) for p in await stores.scores.board(Board(GROUP))] \
        == [(1, "Ann", 30, 1), (2, "Ben", 20, 2)]
    assert [(p.name, p.points) for p in await stores.scores.board(Board(GROUP, since=week))] \
        == [("Ben", 20)]
    assert [(p.name, p.points) for p in await stores.scores.board(Board(since=week))] \
        == [("Cy", 50), ("Ben", 20)]
    assert [p.name for p in await stores.scores.board(Board(GROUP), limit=1)] == ["Ann"]
    ben = await stores.scores.placing(Board(GROUP), BEN)
    assert ben is not None and (ben.rank, ben.points, ben.wins) == (2, 20, 2)
    assert (await stores.scores.placing(Board(since=week), BEN)).rank == 2  # type: ignore
    assert await stores.scores.placing(Board(GROUP, since=week), ANN) is None
    assert await stores.scores.placing(Board(GROUP, game="countdown"), BEN) is None
    assert (await stores.scores.placing(Board(None, "24"), CY)).rank == 1  # type: ignore


async def test_tied_players_share_a_place_in_a_stable_order(stores: Stores) -> None:
    """The board lists them in a stable order (by id); each one's own place is the place they
    share (1 + those strictly ahead: bot.play.words.places), on every kind of board."""
    await setup(stores)
    await play(stores, GROUP, BEN, (), points=10)
    await play(stores, GROUP, ANN, (), at=2000.0, points=10)
    await play(stores, GROUP, CY, (), at=3000.0, points=5)
    board = await stores.scores.board(Board(GROUP))
    assert [p.user_id for p in board] == [ANN, BEN, CY]
    for kind in (Board(GROUP), Board(), Board(GROUP, "24"), Board(None, "24"),
                 Board(GROUP, since=0.0), Board(since=0.0)):
        assert [(await stores.scores.placing(kind, uid)).rank  # type: ignore[union-attr]
                for uid in (ANN, BEN, CY)] == [1, 1, 3], kind


async def test_a_day_counts_the_first_right_answer_once(stores: Stores) -> None:
    await setup(stores)
    day = "2026-11-24"
    assert await stores.daily.record_daily(day, "24", ANN, GROUP, "8*3*(7/7)", 40.0, 5000.0)
    assert not await stores.daily.record_daily(day, "24", ANN, ANN, "(7/7)*8*3", 5.0, 5100.0)
    assert await stores.daily.record_daily(day, "24", BEN, ANN * 0 + BEN, "x", 40.0, 4000.0)
    assert await stores.daily.record_daily(day, "24", CY, CY, "y", 12.5, 6000.0)
    assert await stores.daily.record_daily(day, "24", DI, DI, "w", 41.0, 6100.0)
    assert await stores.daily.record_daily("2026-11-23", "24", ANN, ANN, "z", 1.0, 10.0)
    kept = await stores.daily.daily_result(day, "24", ANN)
    assert kept is not None and (kept.answer, kept.seconds, kept.name) == ("8*3*(7/7)", 40.0,
                                                                         "Ann")
    assert [r.user_id for r in await stores.daily.daily_board(day, "24")] == [CY, BEN, ANN, DI]
    # Ben and Ann both at 40 s: they share second place
    assert [await stores.daily.daily_rank(day, "24", u) for u in (CY, BEN, ANN, DI)] == [1, 2, 2, 4]
    assert await stores.daily.daily_rank("2026-11-23", "24", BEN) is None
    assert await stores.daily.daily_count(day, "24") == 4
    assert await stores.daily.daily_days(ANN, "24") == ["2026-11-23", day]


async def test_a_day_keeps_a_result_of_each_games_daily(stores: Stores) -> None:
    """The results are keyed by game too (schema step 30, issue 72): a person's answer to one
    game's daily of the day is not their answer to another's, each board and count is its
    game's, and a day counts once where days of any game are asked (the week's achievement,
    the page's calendar)."""
    await setup(stores)
    day = "2026-11-24"
    assert await stores.daily.record_daily(day, "24", ANN, ANN, "8*3*(7/7)", 40.0, 5000.0)
    assert await stores.daily.record_daily(day, "make10", ANN, ANN, "1+9*(3-2)", 20.0, 4000.0)
    assert not await stores.daily.record_daily(day, "make10", ANN, ANN, "9+1", 5.0, 4100.0)
    assert await stores.daily.record_daily(day, "make10", BEN, BEN, "x", 10.0, 3000.0)
    first = await stores.daily.daily_result(day, "24", ANN)
    other = await stores.daily.daily_result(day, "make10", ANN)
    assert first is not None and other is not None
    assert (first.answer, other.answer) == ("8*3*(7/7)", "1+9*(3-2)")
    assert [r.user_id for r in await stores.daily.daily_board(day, "make10")] == [BEN, ANN]
    assert [r.user_id for r in await stores.daily.daily_board(day, "24")] == [ANN]
    assert (await stores.daily.daily_count(day, "24"), await stores.daily.daily_count(
        day, "make10")) == (1, 2)
    assert (await stores.daily.daily_rank(day, "24", ANN),
            await stores.daily.daily_rank(day, "make10", ANN)) == (1, 2)
    assert await stores.daily.daily_days(BEN, "24") == []
    assert await stores.daily.daily_days(BEN, "make10") == [day]
    assert await stores.achievements.latest_days(ANN, 7) == [day]  # once, not once a game
    assert await stores.pages.daily_days(ANN, "2026-01-01") == [day]


async def test_a_chat_reset_deletes_its_scores_only_and_nothing_comes_back(
        stores: Stores) -> None:
    await setup(stores)
    won = await play(stores, GROUP, ANN, (BEN,))
    await play(stores, OTHER, ANN, (BEN,))
    await stores.forgetting.reset_chat(GROUP)
    stored = await consistent(stores)
    assert {key[0] for key in stored} == {OTHER}
    assert await stores.scores.board(Board(GROUP)) == []
    assert await stores.scores.board(Board(GROUP, since=0.0)) == []
    await stores.rounds.record_answer(won, CY, "late", False, 1100.0)  # a late answer
    assert {(k[0], k[1]) for k in await consistent(stores)} == {(OTHER, ANN), (OTHER, BEN),
                                                                (GROUP, CY)}
    await play(stores, GROUP, BEN, (), at=2000.0)  # the chat scores again from zero
    assert [(p.name, p.points) for p in await stores.scores.board(Board(GROUP))] == \
        [("Ben", 10)]
    await consistent(stores)


async def test_a_reset_keeps_the_open_round(stores: Stores) -> None:
    await setup(stores)
    await play(stores, GROUP, ANN, ())
    current = await stores.rounds.open_round(GROUP, "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                                             3000.0, 3060.0, started_by=BEN)
    assert current is not None
    await stores.rounds.record_answer(current.id, CY, "1+2", False, 3001.0)
    await stores.forgetting.reset_chat(GROUP)
    assert await stores.rounds.close_round(current.id, "won", 3002.0, BEN, "x", 10, 2.0)
    assert {k[1] for k in await consistent(stores)} == {BEN, CY}


async def test_forget_deletes_a_person_everywhere_and_the_boards_recompute(
        stores: Stores) -> None:
    await setup(stores)
    await stores.people.set_language(ANN, "zh")
    won = await play(stores, GROUP, ANN, (BEN,), points=30)
    await play(stores, OTHER, BEN, (ANN, CY))
    await play(stores, ANN, ANN, ())  # in Ann's private chat
    await stores.daily.record_daily("2026-11-24", "24", ANN, ANN, "x", 3.0, 10.0)
    await stores.daily.record_daily("2026-11-24", "24", BEN, BEN, "y", 4.0, 10.0)
    before = await consistent(stores)
    await stores.forgetting.forget_user(ANN)
    after = await consistent(stores)
    assert not any(key[1] == ANN for key in after)
    assert after == {key: score for key, score in before.items() if key[1] != ANN}
    assert await stores.people.user_name(ANN) is None
    assert await stores.daily.daily_days(ANN, "24") == []
    assert await stores.daily.daily_days(BEN, "24") == ["2026-11-24"]
    assert await stores.people.language(ANN) is None
    kept = await stores.rounds.get_round(won)
    assert kept is not None and kept.status == "won" and kept.started_by is None
    assert await stores.rounds.winner_name(won) is None
    assert [p.name for p in await stores.scores.board(Board())] == ["Ben"]
    assert [p.name for p in await stores.scores.board(Board(since=0.0))] == ["Ben"]
    await stores.people.remember_user(ANN, "Ann")  # Ann comes back: a new start
    await play(stores, GROUP, ANN, (), at=5000.0)
    assert (await stores.scores.placing(Board(GROUP), ANN)).points == 10  # type: ignore
    await consistent(stores)


async def test_forget_of_someone_unknown_changes_nothing(stores: Stores) -> None:
    await setup(stores)
    await play(stores, GROUP, ANN, (BEN,))
    before = await consistent(stores)
    await stores.forgetting.forget_user(999)
    assert await consistent(stores) == before


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_forget_in_postgres_beside_closes_in_flight(stores: Stores) -> None:
    """Rounds closing while people who answered (or started) them are forgotten: every pair
    finishes, in whichever order, and the scores stay exact."""
    import asyncio

    await setup(stores)
    for i in range(12):
        user = 100 + i
        await stores.people.remember_user(user, f"U{i}")
        current = await stores.rounds.open_round(GROUP, "24", (1, 2, 3, 4), 24, "easy", 10,
                                                 "en", 3000.0 + i, 3060.0 + i,
                                                 started_by=user if i % 2 else BEN)
        assert current is not None
        await stores.rounds.record_answer(current.id, user, "1+2", False, 3001.0 + i)
        await stores.rounds.record_answer(current.id, CY, "1+3", False, 3001.0 + i)
        jobs = [stores.forgetting.forget_user(user),
                stores.rounds.close_round(current.id, "won", 3002.0 + i, BEN, "x", 10, 2.0)]
        await asyncio.gather(*(jobs[::-1] if i % 3 == 1 else jobs))
        assert await stores.people.user_name(user) is None
    scores = await consistent(stores)
    assert not any(key[1] >= 100 for key in scores)
    assert scores[(GROUP, BEN, "24")][:3] == (120, 12, 12)


def test_the_new_statements_are_written_once_for_both_databases():
    import re
    import sqlite3

    from bot.store.sql import daily, forgetting
    from bot.store.sqlite.schema import apply
    from tests.bot.store.sql.test_statements import named_statements

    connection = sqlite3.connect(":memory:")
    apply(connection)
    for module in (daily, forgetting):
        written = dict(named_statements(module.QMARK))
        rendered = dict(named_statements(module.NUMBERED))
        for name, sql in written.items():
            assert re.sub(r"\$\d+", "?", rendered[name]) == sql, name
            connection.execute("EXPLAIN " + sql, [None] * sql.count("?"))
    connection.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_forget_waits_for_a_close_that_counted_the_person_before_their_answers_went(
        stores: Stores, postgres_url: str) -> None:
    """A round's close scores a person who answered, and has not committed when their forget
    deletes their answers (a part at a time, before its one transaction): the forget still
    waits for that close, then deletes the score it wrote, instead of failing at the person's
    row on the score the close committed meanwhile."""
    import asyncio

    import asyncpg

    from bot.store.sql.rounds import NUMBERED

    await setup(stores)
    await stores.people.remember_user(104, "U4")
    current = await stores.rounds.open_round(GROUP, "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                                             3000.0, 3060.0, started_by=BEN)
    assert current is not None
    await stores.rounds.record_answer(current.id, 104, "1+2", False, 3001.0)
    closing = await asyncpg.connect(postgres_url)
    watching = await asyncpg.connect(postgres_url)
    try:
        held = closing.transaction()
        await held.start()
        await closing.execute(NUMBERED.close_round, "won", 3002.0, BEN, "x", 10, 2.0,
                              current.id)  # scored 104 (played), not committed
        forgetting = asyncio.create_task(stores.forgetting.forget_user(104))
        await until(lambda: watching.fetchval(
            "SELECT COUNT(*) > 0 FROM pg_locks WHERE NOT granted"), "the forget waiting")
        await held.commit()
        await forgetting
    finally:
        await closing.close()
        await watching.close()
    assert await stores.people.user_name(104) is None
    scores = await consistent(stores)
    assert not any(key[1] == 104 for key in scores)


async def test_postgres_prepares_the_new_statements(postgres_url: str) -> None:
    import asyncpg

    from bot.store.postgres import CHAT_LOCK, USER_CHATS, USER_LOCKS
    from bot.store.sql import daily, forgetting, scores
    from tests.bot.store.sql.test_statements import named_statements

    connection = await asyncpg.connect(postgres_url)
    try:
        for module in (daily, forgetting, scores):
            for _name, sql in named_statements(module.NUMBERED):
                await connection.prepare(sql)
        await connection.prepare(CHAT_LOCK)
        await connection.prepare(USER_LOCKS)
        await connection.prepare(USER_CHATS)
    finally:
        await connection.close()


async def test_the_services_forget_and_reset_on_both_backends(stores: Stores, pool) -> None:
    """/daily, /forget and /resetscores as the services do them, over each backend."""
    from bot.play.chats.people import Chat, Player
    from bot.play.daily.puzzle import day_of
    from solver import solve
    from tests.bot.conftest import Clock, new_services

    services, _ = new_services(stores, pool, Clock())
    community = services.community
    ann, ben = Player(ANN, "Ann"), Player(BEN, "Ben")
    group, private = Chat(GROUP, "group", "G"), Chat(ANN, "private")
    await setup(stores)
    await play(stores, GROUP, ANN, (BEN,))
    day = day_of(1000.0)
    solved = await community.daily.answer(private, ann,
                                          solve(list(community.daily.hand_of(day)))[0])
    assert "Solved" in solved.text and await stores.daily.daily_days(ANN, "24") == [day]

    async def admin() -> bool:
        return True

    asked = await community.privacy.ask_forget(private, ann)
    assert not isinstance(asked, str)
    assert (await community.privacy.press(asked.token, True, private, ben, admin)).text is None
    done = await community.privacy.press(asked.token, True, private, ann, admin)
    assert done.notice == "Deleted." and await stores.people.user_name(ANN) is None
    await community.privacy.erased()  # the rows go after the answer
    assert await stores.daily.daily_days(ANN, "24") == []
    assert await stores.people.user_name(ANN) is None
    assert not any(key[1] == ANN for key in await consistent(stores))

    asked = await community.privacy.ask_reset(group, ben, admin)
    assert not isinstance(asked, str)
    await community.privacy.press(asked.token, True, group, ben, admin)
    assert await stores.scores.board(Board(GROUP)) == []
    assert await consistent(stores) == {}


async def test_a_long_history_is_forgotten_a_part_at_a_time(stores: Stores,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """A person's answers go FORGET_PART at a time, each part its own statement, before the
    erasure's one transaction (which other chats' writes wait for on SQLite) finds the rest."""
    from bot.store.sql.forgetting import FORGET_PART

    await setup(stores)
    made = await stores.rounds.open_round(GROUP, "24", (1, 2, 3, 4), 24, "easy", 10, "en",
                                          1000.0, 1060.0, started_by=ANN)
    assert made is not None
    for n in range(2 * FORGET_PART + 50):
        await stores.rounds.record_answer(made.id, ANN, f"{n}", False, 1001.0 + n / 1000)
    await stores.rounds.record_answer(made.id, BEN, "x", False, 1001.0)
    assert await stores.rounds.close_round(made.id, "won", 1002.0, BEN, "x", 10, 2.0)
    db = stores.forgetting.db  # type: ignore[attr-defined]
    seen: list[tuple[str, int]] = []
    run, run_all = db.run, db.run_all

    async def counted_run(sql: str, params=()) -> int:
        changed = await run(sql, params)
        seen.append((sql, changed))
        return changed

    async def counted_run_all(steps) -> None:
        seen.append(("(one transaction)", len(steps)))
        await run_all(steps)

    monkeypatch.setattr(db, "run", counted_run)
    monkeypatch.setattr(db, "run_all", counted_run_all)
    await stores.forgetting.forget_user(ANN)
    answers_part = stores.forgetting.sql.forget_parts[0]  # type: ignore[attr-defined]
    assert [changed for sql, changed in seen if sql == answers_part] == \
        [FORGET_PART, FORGET_PART, 50]
    done = stores.forgetting.sql.done  # type: ignore[attr-defined]
    assert [sql for sql, _ in seen[-2:]] == ["(one transaction)", done]  # then the note goes
    assert await stores.rounds.answerers(made.id) == [BEN]
    await consistent(stores)
