"""/daily through the real handlers: the same hand for everyone in a UTC day, answered in private
only (a group gets the hand and a way there), the first right answer counted once, streaks of
days, the day's board across every chat — ranked by when each right answer arrived after the day
began, which nobody can move — and the hand kept unsolvable by the bot all day, and unknown to
anyone before its day (its order is drawn with the bot's secret). Every test here runs on a
clock and a date it sets: none reads the wall clock."""

from __future__ import annotations

import dataclasses
import re
from datetime import date, timedelta

import pytest

from bot.play.daily import puzzle as puzzle_module
from bot.play.daily.puzzle import (
    DailyHands,
    daily_puzzle,
    day_of,
    day_start,
    secret_key,
    streaks,
)
from bot.play.daily.puzzle import daily_deck as real_deck  # the real one: see conftest
from bot.play.games.registry import DAILY_GAMES
from bot.play.guards.live import DAILY_ROUND, EVERYONE, Live, LivePuzzles, hand_key
from bot.store.records import Round
from bot.text import markup
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, TEST_DAILY_HANDS, Clock, Harness
from tests.bot.telegram.test_buttons import press_data

GROUP = -2601
ANN = {"id": 261, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 262, "is_bot": False, "first_name": "Ben"}
ZHAO = {"id": 263, "is_bot": False, "first_name": "赵", "language_code": "zh-hans"}
CAROL = {"id": 264, "is_bot": False, "first_name": "Carol"}
DAY = "2030-03-01"  # the day every test of the handlers plays on
START = day_start(DAY)
KEY = secret_key("a bot's secret")
REAL = real_deck("24")


def every_daily_hand() -> tuple[tuple[int, ...], ...]:
    return REAL.hands


def daily_hand(day: str, key: bytes, hands: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """24's daily hand of a day, drawn from `hands` as from its real deck."""
    return daily_puzzle(day, key, dataclasses.replace(REAL, hands=hands))[0]


@pytest.fixture
def today(harness: Harness) -> Clock:
    """The daily puzzle's clock, set to an hour into DAY (UTC) and moved by hand; /forget's
    confirmations keep the same time."""
    clock = Clock(START + 3600)
    harness.services.community.daily.clock = clock
    harness.services.community.daily.hands.clock = clock  # the hand of its day, live all day
    harness.services.community.privacy.clock = clock
    return clock


def numbers_of(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text.split("→")[0].split(":")[-1])]


async def said(h: Harness, chat: int, user: dict, text: str, kind: str = "private"):
    await h.send(chat, user, text, kind=kind)
    return await h.telegram.reply(chat)


def test_every_day_has_its_own_medium_hand_and_keeps_it():
    from solver.rating import level

    real = every_daily_hand()
    hands = {day: daily_hand(day, KEY, real) for day in ("2026-11-24", "2026-11-25", "2027-02-28")}
    assert len(set(map(tuple, map(sorted, hands.values())))) == 3
    for day, hand in hands.items():
        assert len(hand) == 4 and solve(list(hand)) and level(hand) == "medium"
        assert sum(hand) != 24 and hand[0] * hand[1] * hand[2] * hand[3] != 24
        assert daily_hand(day, KEY, real) == hand  # the date and the key alone decide
    assert (2, 7, 7, 8) not in real  # rated medium, but 2+7+7+8 = 24
    for hand in TEST_DAILY_HANDS:  # the tests' own are hands a day may deal
        assert hand in real


def test_the_table_of_hands_is_what_the_rule_makes():
    from bot.play.games.twentyfour.daily import eligible_hands

    assert every_daily_hand() == eligible_hands() and len(every_daily_hand()) == 451


def test_no_hand_comes_back_before_every_hand_was_dealt():
    real = every_daily_hand()
    count = len(real)
    first = date.fromordinal(count * (date(2026, 1, 1).toordinal() // count + 1))  # a cycle's
    days = [(first + timedelta(days=i)).isoformat() for i in range(2 * count)]
    hands = [tuple(sorted(daily_hand(day, KEY, real))) for day in days]
    assert len(set(hands[:count])) == count and len(set(hands[count:])) == count
    assert hands[count:] != hands[:count]  # each cycle in an order of its own


def test_without_the_bot_s_secret_no_day_s_hand_can_be_told_ahead():
    """The code is public: were the order drawn from the date alone, anyone could solve any
    day's hand ahead and answer it a second after the day began, first on the board."""
    real = every_daily_hand()
    days = [(date(2031, 5, 1) + timedelta(days=i)).isoformat() for i in range(30)]
    other = secret_key("another bot's secret")
    same = [day for day in days if sorted(daily_hand(day, KEY, real)) ==
            sorted(daily_hand(day, other, real))]
    assert len(same) <= 2, same


async def test_the_bot_draws_its_days_with_its_own_secret(harness: Harness):
    daily = harness.services.community.daily
    assert daily.key == secret_key(harness.bot.config.token) != secret_key("")


def test_the_hands_do_not_depend_on_the_process():
    import subprocess
    import sys

    code = ("from bot.play.daily.puzzle import daily_deck, daily_puzzle, secret_key; "
            "print(daily_puzzle('2026-11-24', secret_key(\"a bot's secret\"), "
            "daily_deck('24'))[0])")
    made = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={"PYTHONHASHSEED": "123"})
    assert made.stdout.strip() == str(daily_hand("2026-11-24", KEY, every_daily_hand()))


def test_the_live_puzzles_are_the_day_s_and_change_at_midnight_with_no_timer(monkeypatch):
    """The live-hand guard asks for the daily puzzles at every request; they are drawn once a
    day, and the next day's are given from the first request after midnight (UTC)."""
    monkeypatch.setattr(puzzle_module, "daily_deck", real_deck)  # every day its own hand
    now = [START + 3600.0]
    hands = DailyHands("a bot's secret", lambda: now[0])

    def drawn(day: str) -> tuple[Live, ...]:
        return tuple(Live(DAILY_ROUND, EVERYONE, game, hand_key(hand), target)
                     for game in (g.name for g in DAILY_GAMES)
                     for hand, target in (hands.puzzle(day, game),) if hand)

    assert hands.live() == drawn(DAY) and hands.live() is hands.live()
    now[0] = START + 86_400.0 - 0.001  # the day's last moment
    assert hands.live() == drawn(DAY)
    now[0] = START + 86_400.0  # midnight
    tomorrow = (date.fromisoformat(DAY) + timedelta(days=1)).isoformat()
    assert hands.live() == drawn(tomorrow) != drawn(DAY)


def test_streaks_count_consecutive_days_and_survive_until_a_day_is_missed():
    days = ["2026-11-20", "2026-11-22", "2026-11-23", "2026-11-24"]
    assert streaks(days, "2026-11-24") == (3, 3)
    assert streaks(days, "2026-11-25") == (3, 3)  # today not solved yet: still alive
    assert streaks(days, "2026-11-26") == (0, 3)
    assert streaks([], "2026-11-26") == (0, 0)


@ON_BOTH_BACKENDS
async def test_private_daily_shows_the_hand_then_judges_and_counts_once(harness: Harness,
                                                                        today: Clock):
    hand = harness.services.community.daily.hand_now()
    assert hand == harness.services.community.daily.hand_of(DAY)
    shown = await said(harness, ANN["id"], ANN, "/daily")
    assert "Daily puzzle" in shown.text and DAY in shown.text and "UTC midnight" in shown.text
    assert sorted(numbers_of(shown.text)) == sorted(hand)
    assert shown.reply_markup is None  # already private: no button needed

    a, b, c, _ = hand
    wrong = await said(harness, ANN["id"], ANN, f"/daily {a}*{b}*{c}")
    assert "/daily" in wrong.text and "❌" in wrong.text
    assert await harness.stores.daily.daily_result(DAY, "24", ANN["id"]) is None

    today.now += 42.5
    solution = solve(list(hand))[0]
    right = await said(harness, ANN["id"], ANN, f"/daily {solution}")
    assert "Solved" in right.text and "at 01:00:42 UTC" in right.text
    assert "#1 of 1" in right.text and "Streak: 1" in right.text
    kept = await harness.stores.daily.daily_result(DAY, "24", ANN["id"])
    assert kept is not None and kept.chat_id == ANN["id"] and kept.seconds == 3642.5

    other = solve(list(hand))[-1]
    today.now += 60
    again = await said(harness, ANN["id"], ANN, f"/daily {other}")
    assert "You solved today's puzzle" in again.text and "01:00:42" in again.text
    assert (await harness.stores.daily.daily_result(DAY, "24", ANN["id"])) == kept  # once
    again = await said(harness, ANN["id"], ANN, "/daily")
    assert "You solved today's puzzle" in again.text and "→" not in again.text  # no new deal


@ON_BOTH_BACKENDS
async def test_a_group_sees_the_hand_and_is_sent_to_answer_in_private(harness: Harness,
                                                                      today: Clock):
    hand = harness.services.community.daily.hand_now()
    shown = await said(harness, GROUP, ANN, "/daily", kind="group")
    assert sorted(numbers_of(shown.text)) == sorted(hand)
    [[button]] = shown.reply_markup["inline_keyboard"]
    assert button["url"] == f"https://t.me/{harness.app.bot.username}?start=daily"

    solution = solve(list(hand))[0]
    refused = await said(harness, GROUP, BEN, f"/daily {solution}", kind="group")
    assert "private" in refused.text and solution not in refused.html
    assert refused.reply_markup["inline_keyboard"][0][0]["url"].endswith("?start=daily")
    assert await harness.stores.daily.daily_result(DAY, "24", BEN["id"]) is None

    deep = await said(harness, BEN["id"], BEN, "/start daily")  # the button's deep link
    assert sorted(numbers_of(deep.text)) == sorted(hand) and "/daily" in deep.text


@ON_BOTH_BACKENDS
async def test_the_daily_hand_is_unsolvable_by_the_bot_all_day(harness: Harness, today: Clock):
    hand = list(harness.services.community.daily.hand_now())
    for chat, kind in ((BEN["id"], "private"), (GROUP, "group")):
        for asked in (hand, [*hand, 1], hand[1:]):  # the hand, with an extra, less one
            words = " ".join(map(str, asked))
            refused = await said(harness, chat, BEN, f"/solve {words}", kind=kind)
            assert "daily puzzle" in refused.text, (asked, refused.text)
    refused = await said(harness, BEN["id"], BEN, f"/solve {' '.join(map(str, hand[1:]))} = 7")
    assert "daily puzzle" in refused.text  # less one, for any target
    answer = await harness.inline(BEN, " ".join(map(str, hand)))
    assert all(solve(hand)[0] not in str(r) for r in answer.results)
    assert "daily puzzle" in str(answer.results)

    daily = harness.services.community.daily
    later = next(day for day in (day_of(START + n * 86400) for n in range(1, 9))
                 if sorted(daily.hand_of(day)) != sorted(daily.hand_of(DAY)))
    yesterday, tomorrow = daily.hand_of(DAY), daily.hand_of(later)
    today.now = day_start(later) + 5  # a day with another hand: the old one is anyone's
    solved = await said(harness, BEN["id"], BEN, f"/solve {' '.join(map(str, yesterday))}")
    assert "daily puzzle" not in solved.text and "solution" in solved.text
    refused = await said(harness, BEN["id"], BEN, f"/solve {' '.join(map(str, tomorrow))}")
    assert "daily puzzle" in refused.text


def test_a_round_of_the_daily_hand_holds_its_solutions_back():
    today: list[tuple[int, ...] | None] = [(3, 8, 3, 8)]
    live = LivePuzzles(lambda: (Live(DAILY_ROUND, EVERYONE, "24", hand_key(today[0]), 24),)
                       if today[0] else ())
    dealt = Round(5, -1, "24", (8, 3, 8, 3), 24, "hard", 30, "en", None, 0.0, 60.0, "open",
                  False)
    assert live.elsewhere(dealt)
    assert [r.chat_id for r in live.reaching((3, 8, 3, 8, 13), 99)] == [EVERYONE]
    assert live.reaching((3, 8, 4, 8), 24) == []
    today[0] = None  # a day with no daily puzzle
    assert not live.elsewhere(dealt)


@ON_BOTH_BACKENDS
async def test_the_daily_board_ranks_the_earliest_with_streaks_and_your_place(
        harness: Harness, today: Clock):
    store = harness.stores.daily
    for i in range(11):
        user = 3000 + i
        await harness.stores.people.remember_user(user, f"P{i}")
        assert await store.record_daily(DAY, "24", user, user, "x", 60.0 + i, START + 60 + i)
    await store.record_daily("2030-02-28", "24", 3000, 3000, "x", 5.0, START - 86400 + 5)
    hand = list(harness.services.community.daily.hand_now())
    await said(harness, ANN["id"], ANN, "/daily")
    await said(harness, ANN["id"], ANN, f"/daily {solve(hand)[0]}")  # later than 11 others

    board = await said(harness, GROUP, BEN, "/top daily", kind="group")
    lines = board.text.splitlines()
    assert "12 solved" in lines[0] and "earliest first" in lines[0]
    assert lines[1] == "1. P0 — 00:01:00 · 🔥 2" and lines[2] == "2. P1 — 00:01:01 · 🔥 1"
    assert len(lines) == 12 and lines[-1] == "You have not solved it yet: /daily"
    mine = await said(harness, ANN["id"], ANN, "/top daily")
    assert mine.text.splitlines()[-1] == "12. Ann — 01:00:00 · 🔥 1"

    zh = await said(harness, ZHAO["id"], ZHAO, "/top daily")
    assert "每日谜题" in zh.text and "你还没解出来" in zh.text


@ON_BOTH_BACKENDS
async def test_the_daily_board_when_nobody_solved_yet(harness: Harness, today: Clock):
    empty = await said(harness, GROUP, ANN, "/top daily", kind="group")
    assert "Nobody has solved" in empty.text
    bad = await said(harness, GROUP, ANN, "/top daily countdown", kind="group")
    assert "Usage: /top" in bad.text


@ON_BOTH_BACKENDS
async def test_seeing_the_hand_elsewhere_first_gains_nothing(harness: Harness, today: Clock):
    """Issue 35, item 3: Ann sees the hand in a group and works it out there; much later she
    asks /daily in private and answers at once. The board counts when her answer arrived after
    the day began, so Ben, who answered before her, stays first."""
    today.now = START + 100
    shown = await said(harness, GROUP, ANN, "/daily", kind="group")
    solution = solve(numbers_of(shown.text))[0]
    today.now = START + 200
    await said(harness, BEN["id"], BEN, "/daily")
    today.now = START + 230
    ben = await said(harness, BEN["id"], BEN, f"/daily {solution}")
    assert "at 00:03:50 UTC" in ben.text and "#1 of 1" in ben.text
    today.now = START + 300
    await said(harness, ANN["id"], ANN, "/daily")
    today.now = START + 301  # a second after her /daily: she had solved it long before
    ann = await said(harness, ANN["id"], ANN, f"/daily {solution}")
    assert "at 00:05:01 UTC" in ann.text and "#2 of 2" in ann.text
    today.now = START + 400
    carol = await said(harness, CAROL["id"], CAROL, f"/daily {solution}")  # never shown it
    assert "at 00:06:40 UTC" in carol.text and "#3 of 3" in carol.text
    assert [r.user_id for r in await harness.stores.daily.daily_board(DAY, "24")] == \
        [BEN["id"], ANN["id"], CAROL["id"]]


@ON_BOTH_BACKENDS
async def test_forgetting_and_answering_again_gains_nothing(harness: Harness, today: Clock):
    """Issue 35, item 3: Ann is second; she has herself forgotten and answers the same puzzle
    again at once. Nothing of her is kept, and nothing needs to be: the second answer arrives
    later than the first, so it ranks no better (and her streak starts again)."""
    solution = solve(list(harness.services.community.daily.hand_now()))[0]
    today.now = START + 30
    await said(harness, ANN["id"], ANN, "/daily")
    today.now = START + 40
    await said(harness, BEN["id"], BEN, f"/daily {solution}")
    today.now = START + 55
    first = await said(harness, ANN["id"], ANN, f"/daily {solution}")
    assert "at 00:00:55 UTC" in first.text and "#2 of 2" in first.text

    today.now = START + 60
    asked = await said(harness, ANN["id"], ANN, "/forget")
    [(_, yes), _] = harness.telegram.buttons(ANN["id"], asked.message_id)
    assert (await press_data(harness, asked.message_id, ANN, yes, ANN["id"])).text == "Deleted."
    assert await harness.stores.daily.daily_result(DAY, "24", ANN["id"]) is None  # hidden at once
    await harness.services.community.privacy.erased()  # and gone once the erasure ended
    assert await harness.stores.daily.daily_count(DAY, "24") == 1

    today.now = START + 61
    await said(harness, ANN["id"], ANN, "/daily")
    again = await said(harness, ANN["id"], ANN, f"/daily {solution}")
    assert "at 00:01:01 UTC" in again.text and "#2 of 2" in again.text
    assert [r.user_id for r in await harness.stores.daily.daily_board(DAY, "24")] == \
        [BEN["id"], ANN["id"]]


@ON_BOTH_BACKENDS
async def test_a_group_is_never_shown_a_solver_s_answer(harness: Harness, today: Clock):
    hand = list(harness.services.community.daily.hand_now())
    solution = solve(hand)[0]
    await said(harness, ANN["id"], ANN, f"/daily {solution}")
    kept = await harness.stores.daily.daily_result(DAY, "24", ANN["id"])
    assert kept is not None
    mine = await said(harness, ANN["id"], ANN, "/daily")
    assert markup.code(kept.answer) in mine.html  # in private, the answer is shown
    in_group = await said(harness, GROUP, ANN, "/daily", kind="group")
    assert "Ann solved today's puzzle at 01:00:00 UTC" in in_group.text
    assert "#1 of 1" in in_group.text
    assert markup.code(kept.answer) not in in_group.html and in_group.reply_markup is None
    board = await said(harness, GROUP, BEN, "/top daily", kind="group")
    assert markup.code(kept.answer) not in board.html


async def test_no_round_deals_the_daily_hand(stores, pool):
    """A round dealt the day's hand would show its answers in that chat: the dealer sets such
    hands aside (same seed, same stock: the second bot would deal the first one's hand)."""
    from bot.play.chats.people import Chat, Player
    from bot.play.outcomes import Dealt
    from tests.bot.conftest import new_services

    group, ann = Chat(-2605, "group", "G"), Player(264, "Ann")
    first, _ = new_services(stores, pool, Clock(), seed=7)
    dealt = await first.rounds.play(group, ann, "24")
    assert isinstance(dealt, Dealt)
    hand = dealt.round.hand
    await first.rounds.reveal(group, ann)

    class Today(DailyHands):  # the hand the first bot dealt is today's daily puzzle
        def puzzle(self, day: str, game: str = "24") -> tuple[tuple[int, ...], int]:
            return (hand, 24) if game == "24" else super().puzzle(day, game)

    again, _ = new_services(stores, pool, Clock(), seed=7,
                            daily_hands=Today("", Clock()))
    dealt = await again.rounds.play(Chat(-2606, "group", "G"), ann, "24")
    assert isinstance(dealt, Dealt) and sorted(dealt.round.hand) != sorted(hand)


@ON_BOTH_BACKENDS
async def test_wrong_answers_to_the_daily_say_why_and_count_nothing(harness: Harness,
                                                                    today: Clock):
    hand = list(harness.services.community.daily.hand_now())
    a, b, c, d = hand
    for attempt, why in ((f"{a}-{b}-{c}-{d}", "not 24"), ("1+", "can't read"),
                         (f"{a}*{b}*{c}*{d}*{a}", "❌"), ("(" * 300, "❌")):
        reply = await said(harness, ANN["id"], ANN, f"/daily {attempt}")
        # a wrong answer says to try again; one that can't be read is refused as every
        # refusal is, its example typed as /daily
        again = "For example: /daily " if why == "can't read" or attempt.startswith("(") \
            else "Try again"
        assert why in reply.text and again in reply.text, (attempt, reply.text)
    assert await harness.stores.daily.daily_result(DAY, "24", ANN["id"]) is None
    zh = await said(harness, ZHAO["id"], ZHAO, "/daily 1+")
    assert zh.text.startswith("❌ 看不懂") and "例如：/daily " in zh.text


@pytest.mark.parametrize("language", ["en", "zh", "zh-Hant", "ru", "es", "pt-BR"])
async def test_help_says_how_the_daily_board_ranks(harness: Harness, language: str):
    user = {**ANN, "language_code": language}
    shown = await said(harness, ANN["id"], user, "/help")
    [line] = [row for row in shown.text.splitlines() if row.startswith("/daily")]
    assert line.count("UTC") == 2, line  # when the day begins, and what the board counts from
    if language == "en":
        assert "ranks by when your right answer arrives after midnight (UTC)" in line
        assert "seeing the hand elsewhere first gains nothing" in line
