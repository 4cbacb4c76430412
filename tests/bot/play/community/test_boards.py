"""/top week and the all-time board with your own place below the first ten, and a group
admin's /resetscores behind a confirmation only that admin may press, which lapses; through the
real handlers."""

from __future__ import annotations

from bot.play.community.boards import BoardAsk
from bot.store.stores import Stores
from bot.telegram.grammar import parse_board, read_board
from tests.bot.conftest import ON_BOTH_BACKENDS, Clock, Harness
from tests.bot.telegram.test_buttons import press_data

GROUP = -2602
ANN = {"id": 271, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 272, "is_bot": False, "first_name": "Ben"}
CY = {"id": 273, "is_bot": False, "first_name": "Cy"}


async def won(stores: Stores, chat: int, user: int, name: str, points: int, at: float,
              game: str = "24") -> None:
    """A round the user won at that time (as the round service stores one)."""
    await stores.people.remember_chat(chat, "group", "G")
    await stores.people.remember_user(user, name)
    made = await stores.rounds.open_round(chat, game, (1, 2, 3, 4), 24, "easy", points, "en",
                                          at - 5, at + 55, started_by=user)
    assert made is not None
    await stores.rounds.record_answer(made.id, user, "1*2*3*4", True, at)
    assert await stores.rounds.close_round(made.id, "won", at, user, "1*2*3*4", points, 5.0)


def on_a_clock(h: Harness) -> Clock:
    """The boards and the reset question read the test's clock, not the wall clock."""
    clock = Clock(1_800_000_000.0)
    h.services.community.standings.clock = clock
    h.services.community.privacy.clock = clock
    return clock


async def said(h: Harness, user: dict, text: str, chat: int = GROUP):
    await h.send(chat, user, text, kind="group" if chat < 0 else "private")
    return await h.telegram.reply(chat)


@ON_BOTH_BACKENDS
async def test_the_week_board_counts_the_last_seven_days_only(harness: Harness):
    now = on_a_clock(harness).now
    await won(harness.stores, GROUP, ANN["id"], "Ann", 30, now - 7 * 86400 - 1)
    await won(harness.stores, GROUP, BEN["id"], "Ben", 10, now - 7 * 86400 + 1)
    await won(harness.stores, GROUP, BEN["id"], "Ben", 10, now - 60, game="countdown")
    await won(harness.stores, -9999, CY["id"], "Cy", 50, now - 60)
    week = await said(harness, ANN, "/top week")
    assert week.text.splitlines() == ["🏆 Leaderboard, last 7 days", "1. Ben — 20 points, 2 wins"]
    alltime = await said(harness, ANN, "/top")
    assert alltime.text.splitlines()[1:] == ["1. Ann — 30 points, 1 win",
                                             "2. Ben — 20 points, 2 wins"]
    everywhere = await said(harness, ANN, "/top week all countdown")
    assert everywhere.text.splitlines()[1:] == ["1. Ben — 10 points, 1 win"]
    assert "last 7 days" in everywhere.text and "Countdown" in everywhere.text
    assert "Cy" in (await said(harness, ANN, "/top all week")).text
    zh = await said(harness, {**ANN, "language_code": "zh"}, "/top 本周")
    assert "最近 7 天" in zh.text
    empty = await said(harness, ANN, "/top week yahtzee")
    assert "No rounds won in the last 7 days" in empty.text
    wrong = await said(harness, ANN, "/top week month")
    assert "month" in wrong.text and "Usage: /top [week|daily|rating]" in wrong.text


@ON_BOTH_BACKENDS
async def test_your_own_place_shows_below_the_first_ten(harness: Harness):
    now = on_a_clock(harness).now
    for i in range(11):
        await won(harness.stores, GROUP, 5000 + i, f"P{i}", 100 - i, now - 100 + i)
    await won(harness.stores, GROUP, ANN["id"], "Ann", 5, now - 10)
    for ask in ("/top", "/top week"):
        board = (await said(harness, ANN, ask)).text.splitlines()
        assert len(board) == 13 and board[10].startswith("10. P9")
        assert board[11:] == ["…", "12. Ann — 5 points, 1 win"]
    top = (await said(harness, {"id": 5000, "is_bot": False, "first_name": "P0"}, "/top")).text
    assert len(top.splitlines()) == 11  # in the ten: no line of their own
    nobody = (await said(harness, BEN, "/top")).text
    assert len(nobody.splitlines()) == 11  # no points here: no place to show


@ON_BOTH_BACKENDS
async def test_resetscores_asks_only_admins_and_only_the_asker_confirms(harness: Harness):
    now = on_a_clock(harness).now
    await won(harness.stores, GROUP, ANN["id"], "Ann", 30, now - 60)
    await won(harness.stores, -9999, ANN["id"], "Ann", 20, now - 60)
    harness.telegram.promote(GROUP, BEN["id"])
    harness.telegram.promote(GROUP, CY["id"])
    refused = await said(harness, ANN, "/resetscores")
    assert "Only the group's admins" in refused.text and refused.reply_markup is None
    private = await said(harness, BEN, "/resetscores", chat=BEN["id"])
    assert "use it in the group" in private.text
    asked = await said(harness, BEN, "/resetscores")
    assert "delete every score of this chat" in asked.text
    other = await harness.press(GROUP, asked.message_id, CY, "✅ Yes, delete")
    assert other.text == "Only Ben can answer this."  # even another admin
    assert "Ann" in (await said(harness, ANN, "/top")).text

    done = await harness.press(GROUP, asked.message_id, BEN, "✅ Yes, delete")
    assert done.text == "The leaderboard is reset."
    edited = harness.telegram.message(GROUP, asked.message_id)
    assert "Ben reset this chat's leaderboard" in edited["text"]
    assert "reply_markup" not in edited  # the buttons are gone
    assert "No scores yet" in (await said(harness, ANN, "/top")).text
    assert "No rounds won" in (await said(harness, ANN, "/top week")).text
    assert "Ann" in (await said(harness, ANN, "/top all")).text  # other chats keep theirs


@ON_BOTH_BACKENDS
async def test_a_reset_question_lapses_and_can_be_cancelled(harness: Harness):
    clock = on_a_clock(harness)
    await won(harness.stores, GROUP, ANN["id"], "Ann", 30, clock.now - 60)
    harness.telegram.promote(GROUP, BEN["id"])
    asked = await said(harness, BEN, "/resetscores")
    clock.now += 61
    lapsed = await harness.press(GROUP, asked.message_id, BEN, "✅ Yes, delete")
    assert lapsed.text == "This question has expired."
    assert "expired: nothing was deleted" in harness.telegram.message(GROUP,
                                                                     asked.message_id)["text"]
    asked = await said(harness, BEN, "/resetscores")
    cancelled = await harness.press(GROUP, asked.message_id, BEN, "✖️ Cancel")
    assert cancelled.text == "Cancelled: nothing was deleted."
    assert "Ann" in (await said(harness, ANN, "/top")).text
    forged = await press_data(harness, asked.message_id, BEN, "cf:y:00000000", GROUP)
    assert forged.text == "This button doesn't work (any more)."  # not a button it carries
    assert "Ann" in (await said(harness, ANN, "/top")).text


def test_top_reads_each_word_once_in_any_order():
    assert read_board("") == BoardAsk()
    assert read_board("countdown WEEK all") == BoardAsk("week", True, "countdown")
    assert read_board("daily") == BoardAsk("daily", True)  # the daily board is every chat's
    for wrong in ("week week", "daily countdown", "all all", "hello"):
        assert parse_board(wrong) is None, wrong
