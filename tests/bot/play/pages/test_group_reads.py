"""A group's page reads less than it did (issue 47: the page under 50 ms on a year-old database;
issue 71: as fast on a year-old one as on a new one) and shows the same: its records are read at
the head of an index each (schema step 33), not by sorting the chat's rows (checked against those
sorts, kept here as the definition, on both backends and random scores with ties, and against
the definition in tests/bot/scoring.py while some players' /forget is under way), and its
hardest hands are ranked from the latest won rounds only up to the HARDEST_OF-th distinct hand
at the highest level (checked against ranking every one)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.play.pages import group
from bot.play.pages.player import (
    HARDEST_OF,
    LEVEL_ORDER,
    HardestOf,
    numbers_of,
    ranked,
    until_hardest_of,
)
from bot.store.sql.connection import numbered
from bot.store.sql.pages import GroupRecord, WonRound
from bot.store.stores import Stores
from bot.text.i18n import texts_for
from tests.bot.scoring import SCORES_SQL, expected_records, stored_scores
from tests.bot.store.test_answered_rounds import Difficulties

CHAT, OTHER = -300, -301
# The records as the page read them before: a window over the chat's rows for each kind.
FORMER = ("SELECT b.game, b.kind, b.user_id, u.first_name, b.value FROM ("
          "SELECT game, 'fastest' AS kind, user_id, fastest_win AS value, "
          "ROW_NUMBER() OVER (PARTITION BY game ORDER BY fastest_win, user_id) AS n "
          "FROM scores WHERE chat_id = ? AND fastest_win IS NOT NULL "
          "UNION ALL SELECT game, 'run', user_id, best_streak, ROW_NUMBER() OVER "
          "(PARTITION BY game ORDER BY best_streak DESC, user_id) FROM scores "
          "WHERE chat_id = ? AND best_streak > 0 "
          "UNION ALL SELECT game, 'wins', user_id, wins, ROW_NUMBER() OVER "
          "(PARTITION BY game ORDER BY wins DESC, user_id) FROM scores "
          "WHERE chat_id = ? AND wins > 0) b "
          "JOIN users u ON u.id = b.user_id WHERE b.n = 1 ORDER BY b.game, b.kind")
SCORE = ("INSERT INTO scores (chat_id, user_id, game, points, wins, rounds_played, fastest_win, "
         "current_streak, best_streak) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)")


async def scored(stores: Stores, rng: random.Random, players: int) -> None:
    """Random scores in CHAT (and some in OTHER, which must not count), ties made likely:
    a few values only, some rows with no win at all."""
    db: Any = stores.pages.db  # type: ignore[attr-defined]
    sql = SCORE if type(db).__module__.startswith("bot.store.sqlite") else numbered(SCORE)
    for chat in (CHAT, OTHER):
        await stores.people.remember_chat(chat, "group", "G")
    for user in range(1, players + 1):
        await stores.people.remember_user(user, f"P{user}")
        for chat in (CHAT, OTHER):
            for game in ("24", "countdown"):
                if rng.random() < 0.3:
                    continue
                wins = rng.choice((0, 0, 1, 2, 3))
                fastest = rng.choice((2.5, 3.0, 7.25)) if wins else None
                run = rng.choice((0, 1, 2)) if wins else 0
                await db.run(sql, (chat, user, game, wins * 10, wins, wins + 2, fastest, run))


async def former(stores: Stores) -> list[GroupRecord]:
    db: Any = stores.pages.db  # type: ignore[attr-defined]
    sql = FORMER if type(db).__module__.startswith("bot.store.sqlite") else numbered(FORMER)
    return [GroupRecord(game, kind, user_id, name, float(value))
            for game, kind, user_id, name, value in await db.fetch(sql, (CHAT, CHAT, CHAT))]


@pytest.mark.parametrize("seed", range(6))
async def test_the_records_are_what_the_former_sorts_found(stores: Stores, seed: int) -> None:
    await scored(stores, random.Random(seed), players=2 + seed * 3)
    expected = await former(stores)
    assert await stores.pages.group_records(CHAT) == expected
    assert expected or seed == 0  # the seeds make records to compare, ties among them


@pytest.mark.parametrize("seed", range(4))
async def test_the_records_are_their_definition_while_forgets_are_under_way(
        stores: Stores, seed: int) -> None:
    """The best of each kind is every row's, its holder the least user id level on it whose
    /forget is not under way (none: no record), as tests/bot/scoring.py defines them."""
    rng = random.Random(seed)
    players = 3 + seed * 3
    await scored(stores, rng, players)
    hidden = {user for user in range(1, players + 1) if rng.random() < 0.4}
    for user in hidden:
        await stores.forgetting.note_forget(user, 1.0)
    db: Any = stores.pages.db  # type: ignore[attr-defined]
    scores = stored_scores(await db.fetch(SCORES_SQL))
    assert [(r.game, r.kind, r.user_id, r.value)
            for r in await stores.pages.group_records(CHAT)] == \
        expected_records(scores, CHAT, hidden)


async def test_a_group_with_no_win_has_no_record(stores: Stores) -> None:
    await stores.people.remember_chat(CHAT, "group", "G")
    assert await stores.pages.group_records(CHAT) == []


won_rounds = st.lists(st.builds(
    WonRound, st.sampled_from(("24", "countdown", "yahtzee")),
    st.sampled_from(("easy", "medium", "hard", "hard", "")),
    st.one_of(st.lists(st.integers(1, 6), min_size=4, max_size=4).map(json.dumps),
              st.just('{"rolls": [[1, 2, 3, 4, 5]]}')),
    st.just(24), st.integers(1, 9), st.just("P"), st.floats(1, 60)), max_size=200)


def by_level(won: list[WonRound]) -> list[WonRound]:
    """Rounds read latest first put as the group's page reads them: the hardest level first,
    each level's latest first (other games' levels with 24's easiest)."""
    return sorted(won, key=lambda r: -LEVEL_ORDER.get(r.level, 0))


@settings(max_examples=200, deadline=None)
@given(won_rounds, st.integers(0, 200))
def test_the_hardest_hands_are_ranked_as_from_every_won_round(won: list[WonRound],
                                                              cut: int) -> None:
    """`until_hardest_of` stops reading only where `ranked` would choose nothing older: the
    same rounds (winner, time and all) come out as when every won round is ranked; read in
    two parts (the page's first read, then the rest unless it has enough), the same again.
    Read by level (the group's page), it stops at the HARDEST_OF-th distinct hand of any level,
    and `ranked` chooses from it what it chooses from every round read by level."""
    every = [(r, numbers) for r in won if (numbers := numbers_of(r.hand))]
    fewer = until_hardest_of(won)
    assert fewer == every[:len(fewer)]
    chooser = HardestOf[WonRound]()
    parts = chooser.take(won[:cut])
    if not chooser.done:
        parts += chooser.take(won[cut:])
    assert parts == fewer
    store: Any = Difficulties()
    for rows, chooser in ((won, HardestOf[WonRound]()),
                          (by_level(won), HardestOf[WonRound](by_level=True))):
        every = [(r, numbers) for r in rows if (numbers := numbers_of(r.hand))]
        fewer = chooser.take(rows[:cut])
        if not chooser.done:
            fewer += chooser.take(rows[cut:])
        assert fewer == every[:len(fewer)]
        for most in (1, 5):
            chosen = [every[i] for i in asyncio.run(ranked(
                store, [(r.game, r.level, n, r.target) for r, n in every], most))]
            assert [fewer[i] for i in asyncio.run(ranked(
                store, [(r.game, r.level, n, r.target) for r, n in fewer], most))] == chosen
    distinct = {(r.game, tuple(sorted(n)), r.target) for r, n in every}
    assert chooser.done == (len(distinct) >= HARDEST_OF)  # by level: any level's hands count


async def test_the_won_rounds_read_in_parts_are_the_rounds_read_at_once(stores: Stores) -> None:
    """The second part starts where the first ended, rounds ended at the same moment too."""
    await stores.people.remember_chat(CHAT, "group", "G")
    await stores.people.remember_user(1, "P1")
    for n in range(12):
        made = await stores.rounds.open_round(CHAT, "24", (1, 2, 3, 4 + n), 24, "hard", 10,
                                              "en", 1000.0 + n, 1060.0 + n)
        assert made is not None
        await stores.rounds.close_round(made.id, "won", 2000.0 + n // 3, 1, "x", 10, 2.0)
    whole = await stores.pages.won_rounds(CHAT, 0.0, 12, 12)
    assert len(whole) == 12
    assert await stores.pages.won_rounds(CHAT, 0.0, 12, 5) + \
        await stores.pages.won_rounds(CHAT, 0.0, 12, 7, 5) == whole


async def won_at_random(stores: Stores, rng: random.Random, count: int) -> list[WonRound]:
    """`count` rounds won in CHAT (and as many in OTHER), levels and games mixed, hands from a
    few so that some are won again at another level, some ended at the same moment, some
    winners' /forget under way: CHAT's, latest first, as the page reads them (a hidden
    winner's name None)."""
    for chat in (CHAT, OTHER):
        await stores.people.remember_chat(chat, "group", "G")
    for user in range(1, 5):
        await stores.people.remember_user(user, f"P{user}")
    await stores.forgetting.note_forget(4, 1.0)
    won: list[tuple[float, int, WonRound]] = []
    for n in range(count):
        for chat in (CHAT, OTHER):
            game, level = rng.choice((("24", "easy"), ("24", "medium"), ("24", "hard"),
                                      ("24", "hard"), ("countdown", "")))
            hand = rng.choice(((1, 2, 3, 4), (4, 3, 2, 1), (3, 3, 8, 8), (1, 5, 5, 5))) \
                if rng.random() < 0.5 else tuple(rng.randint(1, 13) for _ in range(4))
            winner = rng.randint(1, 4)
            made = await stores.rounds.open_round(chat, game, hand, 24, level, 10, "en",
                                                  1000.0 + n, 1060.0 + n)
            assert made is not None
            ended, seconds = 2000.0 + n // 3, float(rng.randint(1, 50))
            await stores.rounds.close_round(made.id, "won", ended, winner, "x", 10, seconds)
            if chat == CHAT:
                won.append((ended, made.id, WonRound(
                    game, level, json.dumps(list(hand)), 24, winner,
                    None if winner == 4 else f"P{winner}", seconds)))
    return [r for _, _, r in sorted(won, key=lambda w: (-w[0], -w[1]))]


@pytest.mark.parametrize("seed", range(3))
async def test_the_won_rounds_come_hardest_level_first_from_the_latest_window(
        stores: Stores, seed: int) -> None:
    """Of the chat's latest `window` won rounds only (another chat's, and older ones, never),
    the hardest level first, each level's latest first; any part of that order alike."""
    latest = await won_at_random(stores, random.Random(seed), 60)
    for window in (60, 25, 1):
        expected = by_level(latest[:window])
        assert await stores.pages.won_rounds(CHAT, 0.0, window, 100) == expected
        assert await stores.pages.won_rounds(CHAT, 0.0, window, 7, 3) == expected[3:10]
    since = 2000.0 + 10  # rounds ended before it are left out
    assert await stores.pages.won_rounds(CHAT, since, 100, 100) == \
        by_level([r for r in latest[:len(latest) - 30]])


@pytest.mark.parametrize("seed", range(3))
async def test_the_hands_shown_are_the_hardest_of_every_round_in_the_window(
        stores: Stores, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the page shows is what ranking every round of the window shows, each hand at the
    highest level it was won at, its latest win there: however small the first read."""
    latest = await won_at_random(stores, random.Random(seed), 90)
    window = [(r, n) for r in by_level(latest[:70]) if (n := numbers_of(r.hand))]
    texts = texts_for("en")
    store: Any = stores.pages
    expected = [group.hand_item(texts, *window[i]) for i in await ranked(
        store, [(r.game, r.level, n, r.target) for r, n in window], group.HANDS)]
    assert len(expected) == group.HANDS
    monkeypatch.setattr(group, "WON_READ", 70)
    for first in (40, 1, 21):
        monkeypatch.setattr(group, "FIRST_READ", first)
        shown = await group.hands_section(stores.pages, texts, CHAT, 3000.0, "1970-01-01")
        assert shown["items"] == expected


async def test_the_hands_read_in_parts_are_the_hands_read_at_once(
        stores: Stores, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's first read made tiny: what it shows is what one read of the window shows."""
    await stores.people.remember_chat(CHAT, "group", "G")
    await stores.people.remember_user(1, "P1")
    rng = random.Random(3)
    for n in range(40):
        hand = tuple(rng.randint(1, 9) for _ in range(4))
        made = await stores.rounds.open_round(CHAT, "24", hand, 24,
                                              rng.choice(("easy", "medium", "hard")), 10, "en",
                                              1000.0 + n, 1060.0 + n)
        assert made is not None
        await stores.rounds.close_round(made.id, "won", 2000.0 + n // 2, 1, "x", 10, 2.0 + n)
    texts = texts_for("en")
    shown = []
    monkeypatch.setattr(group, "WON_READ", 24)  # fewer than were won: the window is full
    for first in (24, 1, 7):
        monkeypatch.setattr(group, "FIRST_READ", first)
        shown.append(await group.hands_section(stores.pages, texts, CHAT, 3000.0, "1970-01-01"))
    assert len(shown[0]["items"]) == group.HANDS
    assert shown[1] == shown[0] == shown[2]


async def test_a_groups_page_reads_on_the_loop_and_a_players_year_off_it(
        stores: Stores, backend: str) -> None:
    """On SQLite the group's page's reads are bounded whatever the database's age and go on the
    event loop's thread (each trip to aiosqlite's thread cost its hand-over both ways, three in
    a row for the page); a player's year of rounds still goes to the thread."""
    if backend != "sqlite":
        pytest.skip("where a statement runs is SQLite's (bot.store.sqlite.trips)")
    await won_at_random(stores, random.Random(5), 30)
    trips = stores.ratings.db.trips  # type: ignore[attr-defined]
    far = trips.far
    page = await group.group_page(stores.pages, stores.ratings, texts_for("en"), CHAT, 3000.0)
    assert [s["kind"] for s in page["sections"]][-3:] == ["records", "hands", "weeks"]
    assert page["sections"][-2]["items"]  # the hardest hands were read, and their levels
    assert await stores.pages.erasing(1) is False
    assert trips.far == far
    await stores.pages.round_days(1, 0.0)
    assert trips.far == far + 1
