"""Answers through the real Application (issue 10, items 2-4; issue 26, item 3): fair races said
plainly, a quiet chat (only whole attempts are judged; a wrong one goes into the deal's status,
no message), privacy mode, and precise feedback (misused numbers, the Countdown step that breaks
the rule, usage mistakes, hints step by step)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from telegram import Update

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Dealt
from bot.play.ports import ROUND_END
from bot.play.round.table import LATE_WITHIN
from bot.play.services import Services
from bot.runtime import arrivals
from bot.runtime.pool import SolverPool
from bot.wiring import built, opening
from demo.emulator import BotApiEmulator
from solver import solve
from tests.bot.conftest import Harness, make_config, new_services, running
from tests.bot.scoring import score_mismatches

GROUP = -1301
ANN = {"id": 41, "is_bot": False, "first_name": "Ann"}
BOB = {"id": 42, "is_bot": False, "first_name": "Bob"}
CAROL = {"id": 43, "is_bot": False, "first_name": "Carol"}
COUNTDOWN_HAND, COUNTDOWN_TARGET = (1, 3, 7, 10, 25, 50), 831  # 830 is the closest


class Clock:
    """The round service's clock, moved by hand: answer times are exact."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def deal(h: Harness, hand: tuple[int, ...], game: str = "24", target: int = 24,
               points: int = 20, starter: dict = ANN) -> Services:
    """A round on a known hand, started by `starter`, as /play would store it."""
    await h.stores.people.remember_chat(GROUP, "group", "G")
    await h.stores.people.remember_user(starter["id"], starter["first_name"])
    now = h.services.rounds.clock()
    level = "easy" if game == "24" else "2"
    made = await h.stores.rounds.open_round(GROUP, game, hand, target, level, points, "en", now,
                                            now + 60, starter["id"])
    assert made is not None
    await load(h.services)
    return h.services


async def load(services: Services) -> None:
    """Read the chats' languages and the open rounds into memory, as at start-up."""
    await services.people.load()
    services.table.load(await services.rounds.store.open_rounds())


async def with_deal_message(h: Harness) -> int:
    """Give the round dealt by hand a deal message the bot sent (a /play's "a round is on"),
    whose status wrong answers then edit; how many messages the chat has then."""
    await h.send(GROUP, ANN, "/play")
    shown = await h.telegram.reply(GROUP)
    await h.services.outbox.deal_sent(h.services.rounds.open_round(GROUP).id,
                                        shown.message_id)
    return len(sent_to(h))


def status_of(h: Harness) -> str:
    """The deal's status as last written (its lines under the puzzle)."""
    return h.telegram.edits[-1].text.split("just type it.\n", 1)[-1]


def sent_to(h: Harness, chat_id: int = GROUP) -> list[str]:
    return [s.text for s in h.telegram.sent if s.chat_id == chat_id]


def scores_are_exact(h: Harness) -> list[str]:
    with sqlite3.connect(h.app.bot_data.settings.database_path) as database:
        return score_mismatches(database)


@pytest.fixture
def clock(harness: Harness) -> Clock:
    fixed = Clock()
    harness.services.table.clock = fixed  # the clock of every round service
    return fixed


# --- item 2: fair races ------------------------------------------------------------------------

@pytest.mark.parametrize("route", ["plain", "/a", "reply"])
async def test_a_late_right_answer_hears_who_was_first_and_by_how_much(
        harness: Harness, clock: Clock, route: str):
    await harness.send(GROUP, ANN, "/play")
    deal_message = await harness.telegram.reply(GROUP)
    answer = solve(harness.services.rounds.open_round(GROUP).hand)[0]
    clock.now += 4.0
    await harness.send(GROUP, BOB, answer)
    assert "Bob wins" in (await harness.telegram.reply(GROUP)).text
    assert harness.services.rounds.open_round(GROUP) is None  # closed in memory: no round is on
    clock.now += 0.3
    if route == "reply":
        await harness.send(GROUP, ANN, answer, reply_to=deal_message.message_id)
    else:
        await harness.send(GROUP, ANN, answer if route == "plain" else f"/a {answer}")
    late = await harness.telegram.reply(GROUP)
    assert late.text == "⌛ Bob was first, 0.3 s before you."
    assert late.reply_to is not None  # said to Ann, under her answer
    await harness.send(GROUP, ANN, "/stats")  # she played that round: it counts, exactly
    assert "0 wins in 1 round" in (await harness.telegram.reply(GROUP)).text
    assert scores_are_exact(harness) == []


async def send_arrived(h: Harness, user: dict, text: str, ago: float,
                       dated_ago: float = 0.0) -> None:
    """A message that reached the bot `ago` seconds before its handler ran (it waited for its
    turn behind a burst), and that Telegram dated `dated_ago` seconds before now."""
    message = await h.telegram.say(GROUP, user, text, None, "group", None)
    h.telegram.updates.clear()
    message["date"] = int(time.time() - dated_ago)
    update = Update.de_json({"update_id": next(h.ids), "message": message}, h.app.bot)
    with arrivals.arrived(arrivals.monotonic() - ago):
        await h.app.process_update(update)


def stored_seconds(h: Harness) -> float:
    """The last round's time to its win, as the database keeps it."""
    with sqlite3.connect(h.app.bot_data.settings.database_path) as database:
        [(seconds,)] = database.execute(
            "SELECT win_seconds FROM rounds ORDER BY id DESC LIMIT 1").fetchall()
    return float(seconds)


async def test_an_answer_is_timed_from_when_it_came_not_from_when_it_was_judged(
        harness: Harness, clock: Clock):
    """Under a burst (a tournament's 300 groups answering at once) an answer waits for its
    turn: its player's time counts to its arrival."""
    await deal(harness, (3, 3, 8, 8))
    clock.now += 9.0
    await send_arrived(harness, BOB, "8/(3-8/3)", ago=6.5)
    assert "in 2.5 s" in (await harness.telegram.reply(GROUP)).text
    assert stored_seconds(harness) == pytest.approx(2.5, abs=0.05)
    assert scores_are_exact(harness) == []


async def test_an_answer_that_waited_at_telegram_is_timed_to_its_date_within_a_second(
        harness: Harness, clock: Clock):
    """A full intake leaves updates at Telegram: the message's own date (whole seconds)
    bounds how late the bot may time it."""
    await deal(harness, (3, 3, 8, 8))
    clock.now += 30.0
    await send_arrived(harness, BOB, "8/(3-8/3)", ago=0.0, dated_ago=20.0)
    assert 9.0 <= stored_seconds(harness) <= 11.0


async def test_an_answer_is_never_timed_before_its_round_began(harness: Harness,
                                                               clock: Clock):
    await deal(harness, (3, 3, 8, 8))
    clock.now += 1.0
    await send_arrived(harness, BOB, "8/(3-8/3)", ago=50.0)
    await harness.telegram.reply(GROUP)
    assert stored_seconds(harness) == 0.0


async def test_a_late_answer_that_came_as_the_winner_did_is_late_by_nothing(
        harness: Harness, clock: Clock):
    """Judged after the winner, but it came a moment before: no negative gap, and still late
    (the first judged wins; the fair queue starts a chat's updates in the order they came)."""
    await deal(harness, (3, 3, 8, 8))
    clock.now += 5.0
    await send_arrived(harness, BOB, "8/(3-8/3)", ago=0.0)
    await harness.telegram.reply(GROUP)
    await send_arrived(harness, ANN, "/a 8/(3-8/3)", ago=0.5)
    assert "less than 0.1 s before you" in (await harness.telegram.reply(GROUP)).text


def slow_deals(h: Harness, clock: Clock, seconds: float) -> None:
    """Each deal's send takes `seconds` on the game's clock (Telegram's send limit held it)."""
    publisher = h.services.outbox.publisher
    show = publisher.show

    async def slowly(outcome, target):
        if isinstance(outcome, Dealt):
            clock.now += seconds
        return await show(outcome, target)

    publisher.show = slowly  # type: ignore[method-assign]


async def test_a_rounds_clock_starts_when_its_deal_went_not_when_it_was_dealt(
        harness: Harness, clock: Clock):
    slow_deals(harness, clock, 7.0)
    scheduler, armed = harness.services.table.scheduler, []
    set_alarm = scheduler.set

    def arming(alarm, seconds):
        armed.append((alarm.kind, clock.now + seconds))  # when it will ring, on the clock
        set_alarm(alarm, seconds)

    scheduler.set = arming  # type: ignore[method-assign]
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current.started_at == clock.now  # the deal went 7 s after the round was dealt
    assert current.deadline - current.started_at == harness.app.bot_data.settings.round_seconds
    with sqlite3.connect(harness.app.bot_data.settings.database_path) as database:
        [(started, deadline)] = database.execute(
            "SELECT started_at, deadline FROM rounds WHERE id = ?", (current.id,)).fetchall()
    assert (started, deadline) == (current.started_at, current.deadline)
    assert [at for kind, at in armed if kind == ROUND_END][-1] == current.deadline
    clock.now += 3.0
    await harness.send(GROUP, BOB, solve(current.hand)[0])
    assert "in 3.0 s" in (await harness.telegram.reply(GROUP)).text


async def test_a_deal_sent_again_does_not_start_the_clock_again(harness: Harness,
                                                                clock: Clock):
    """Once its deal went, a round's clock stays (a deal sent again after a move, a restart)."""
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    current = harness.services.table.get(GROUP, 0)
    started, deadline = current.record.started_at, current.record.deadline
    clock.now += 5.0
    assert not current.sent(None, clock.now)  # forgotten (its group moved)
    assert not current.sent(999, clock.now)  # and sent again
    assert (current.record.started_at, current.record.deadline) == (started, deadline)


async def test_a_deal_never_shown_before_a_restart_starts_its_clock_when_it_goes(
        harness: Harness, clock: Clock):
    """Read back after a restart, a round keeps its clock when its deal goes; one whose deal
    was never shown (a tournament's, dealt again with its line) starts it again, then once
    more when that deal goes (it too can wait for the send limit)."""
    await deal(harness, (3, 3, 8, 8))
    kept = harness.services.table.get(GROUP, 0)
    length = kept.record.deadline - kept.record.started_at
    clock.now += 2.0
    assert not kept.sent(None, clock.now)  # not dealt by this process: its clock stays
    assert kept.restarted(clock.now)
    await harness.services.table.commit(kept)
    clock.now += 3.0
    assert kept.sent(4321, clock.now)
    assert (kept.record.started_at, kept.record.deadline) == (clock.now, clock.now + length)


async def test_a_round_someone_answered_keeps_its_clock_when_its_deal_goes(
        harness: Harness, clock: Clock):
    """An answer came before the deal went (a player who saw the hand in another group of a
    tournament): its time counted from the round's start, which then stays."""
    await deal(harness, (3, 3, 8, 8))
    current = harness.services.table.get(GROUP, 0)
    await harness.send(GROUP, BOB, "/a 3+3+8+8")
    clock.now += 2.0
    assert not current.sent(1234, clock.now)


async def test_after_a_win_other_answers_hear_the_round_is_over(harness: Harness,
                                                                clock: Clock):
    await deal(harness, (3, 3, 8, 8))
    await harness.send(GROUP, BOB, "8/(3-8/3)")
    await harness.telegram.reply(GROUP)
    before = len(sent_to(harness))
    await harness.send(GROUP, ANN, "3+3+8+8")  # a typed wrong attempt after the win: silence
    await harness.send(GROUP, BOB, "/a 8/(3-8/3)")  # the winner again: nothing to race
    assert sent_to(harness)[before:] == ["This round is over already."]
    clock.now += LATE_WITHIN + 1  # the chat has moved on
    await harness.send(GROUP, ANN, "/a 8/(3-8/3)")
    assert "No round is on here" in sent_to(harness)[-1]
    assert scores_are_exact(harness) == []


async def test_two_right_answers_at_once_make_one_winner_told_plainly(harness: Harness,
                                                                      clock: Clock):
    await deal(harness, (3, 3, 8, 8))
    await asyncio.gather(harness.send(GROUP, ANN, "/a 8/(3-8/3)"),
                         harness.send(GROUP, BOB, "8/(3-8/3)"))
    texts = await harness.telegram.replies(GROUP, 2)
    assert sum("wins" in t.text for t in texts) == 1
    assert sum("was first, less than 0.1 s before you" in t.text for t in texts) == 1
    assert scores_are_exact(harness) == []


async def test_countdown_near_answers_stand_in_the_status_not_in_messages(
        harness: Harness, clock: Clock):
    await deal(harness, COUNTDOWN_HAND, "countdown", COUNTDOWN_TARGET, 10)
    before = await with_deal_message(harness)
    await harness.send(GROUP, ANN, "/a 10*(3*25+1+7)")  # 830
    assert status_of(harness) == ("🏁 Closest: Ann 1 away (7 points)\n"
                                  "📝 Ann: 10×(3×25+1+7) = 830, 1 away")
    clock.now += 1
    await harness.send(GROUP, BOB, "/a (1+7+3*25)*10")  # the same value, later: behind her
    clock.now += 1
    await harness.send(GROUP, CAROL, "/a (10+7)*50-25-3")  # 822: scores, but behind
    assert status_of(harness).startswith(
        "🏁 Closest: Ann 1 away (7 points) · Bob 1 away (7 points) · Carol 9 away (5 points)\n")
    clock.now += 1
    await harness.send(GROUP, CAROL, "/a (3-7)*25")  # illegal, said as such
    assert status_of(harness).endswith("👎 Carol: (3−7)×25 illegal: 3−7 is negative")
    clock.now += 1
    await harness.send(GROUP, CAROL, "/a 50*10+25")  # 525: legal, far
    assert status_of(harness).endswith("📝 Carol: 50×10+25 = 525, 306 away")
    assert len(sent_to(harness)) == before and harness.telegram.reactions == []
    rounds = harness.services.rounds
    closed = await rounds.expire(rounds.open_round(GROUP).id)
    assert closed is not None and "Ann</b> was closest" in closed.text
    assert scores_are_exact(harness) == []


async def test_status_edits_come_at_most_once_a_second_and_miss_nothing(
        harness: Harness, clock: Clock):
    await deal(harness, (2, 7, 11, 13))
    await with_deal_message(harness)
    await harness.send(GROUP, BOB, "/a 2+7+11+13")
    assert status_of(harness) == "👎 Bob: 2+7+11+13 = 33, not 24"
    for answer in ("/a 2*7+11+13", "/a 13*2-7+11", "/a 12*(11-9)"):  # the same instant
        await harness.send(GROUP, ANN, answer)
    assert len(harness.telegram.edits) == 1  # coalesced: the alarm writes them
    alarm = harness.services.table.scheduler.pending("status", GROUP)
    assert alarm is not None
    clock.now += 1
    await harness.telegram.wait_for(lambda: len(harness.telegram.edits) == 2, 5.0)
    assert status_of(harness).splitlines() == [  # each miss of that second, none lost
        "👎 Ann: 2×7+11+13 = 38, not 24", "👎 Ann: 13×2−7+11 = 30, not 24",
        "👎 Ann: 12×(11−9) uses 9 and 12, not dealt, skips 2, 7 and 13"]


# --- item 3: a quiet chat ----------------------------------------------------------------------

async def test_chatter_and_partial_workings_get_no_reply(harness: Harness):
    await deal(harness, (2, 7, 11, 13))
    for text in ("nice hand lol", "11-7", "2*11 = 22", "13*11", "2+7+11+13+1", "what is 24?"):
        await harness.send(GROUP, BOB, text)
    assert sent_to(harness) == [] and harness.telegram.reactions == []
    rows = await harness.stores.rounds.db.fetch("SELECT COUNT(*) FROM answers")
    assert rows == [(0,)]  # none of them was an attempt
    before = await with_deal_message(harness)
    await harness.send(GROUP, BOB, "2*2*7*11*13")  # the hand's numbers, one too often: wrong
    assert len(sent_to(harness)) == before and harness.telegram.reactions == []
    assert status_of(harness) == "👎 Bob: 2×2×7×11×13 uses 2 twice"
    await harness.send(GROUP, BOB, "13+11")  # makes 24 with two of them: told what it skips
    await harness.telegram.wait_for(lambda: "skips" in status_of(harness), 5.0)
    assert status_of(harness) == "👎 Bob: 13+11 skips 2 and 7"


async def test_a_wrong_typed_attempt_goes_into_the_status_not_a_message(harness: Harness,
                                                                         clock: Clock):
    await deal(harness, (2, 7, 11, 13))
    before = await with_deal_message(harness)
    await harness.send(GROUP, BOB, "2+7+11+13")  # the whole hand, once each: an attempt
    assert len(sent_to(harness)) == before and harness.telegram.reactions == []
    assert status_of(harness) == "👎 Bob: 2+7+11+13 = 33, not 24"
    clock.now += 1
    await harness.send(GROUP, BOB, "/a 2*(13-7)+11")  # asked explicitly: the same
    assert status_of(harness) == "👎 Bob: 2×(13−7)+11 = 23, not 24"
    clock.now += 1
    await harness.send(GROUP, BOB, "(13-11)*(7+2)+6")  # not the hand: chatter, nothing
    assert len(harness.telegram.edits) == 2 and len(sent_to(harness)) == before


async def test_a_typed_answer_that_makes_24_but_skips_a_number_is_told_so(harness: Harness,
                                                                          clock: Clock):
    await deal(harness, (8, 7, 6, 2, 3))  # five numbers: every one is used, once
    before = await with_deal_message(harness)
    await harness.send(GROUP, BOB, "8*(7-6+2)")  # 24, typed plainly, without the 3
    assert status_of(harness) == "👎 Bob: 8×(7−6+2) skips 3"
    await harness.send(GROUP, BOB, "8*7")  # a partial working that makes no 24: chatter
    assert len(harness.telegram.edits) == 1 and len(sent_to(harness)) == before


async def test_where_the_deal_cannot_be_edited_the_verdict_is_said_instead(harness: Harness):
    await deal(harness, (2, 7, 11, 13))  # dealt by hand: no deal message to edit
    await harness.send(GROUP, BOB, "2+7+11+13")
    assert "makes 33, not 24" in (await harness.telegram.reply(GROUP)).text
    assert harness.telegram.reactions == []
    await harness.send(GROUP, ANN, "(13-11)*(2+7)")
    assert "makes 18, not 24" in (await harness.telegram.reply(GROUP)).text
    rows = await harness.stores.rounds.db.fetch("SELECT COUNT(*) FROM answers")
    assert rows == [(2,)]  # both attempts stored: nothing lost
    await harness.send(GROUP, ANN, "/a (13-7)*(2+11)")
    assert "makes 78" in (await harness.telegram.reply(GROUP)).text


async def test_countdown_typed_attempts_use_only_the_hand(harness: Harness):
    await deal(harness, COUNTDOWN_HAND, "countdown", COUNTDOWN_TARGET, 10)
    await harness.send(GROUP, BOB, "25*4")  # 4 is not dealt: chatter
    await harness.send(GROUP, BOB, "50")  # one number is no attempt
    assert sent_to(harness) == [] and harness.telegram.reactions == []
    before = await with_deal_message(harness)
    await harness.send(GROUP, BOB, "25*3")  # a valid answer, far off: in the status
    assert len(sent_to(harness)) == before and status_of(harness) == "📝 Bob: 25×3 = 75, 756 away"


@pytest.fixture
async def private_bot(telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path
                      ) -> AsyncIterator[Harness]:
    """The bot in privacy mode: getMe says it cannot read every group message."""
    telegram.privacy_mode = True
    async with running(telegram, pool, make_config(telegram, tmp_path / "bot.sqlite3")) as h:
        yield h


async def test_in_privacy_mode_deals_do_not_invite_typing(private_bot: Harness):
    assert not private_bot.services.rounds.reads_group_messages
    await private_bot.send(GROUP, ANN, "/play")
    deal_text = (await private_bot.telegram.reply(GROUP)).text
    assert "just type it" not in deal_text
    assert deal_text.endswith("Answer with /a expression or by replying to this message.")
    await private_bot.send(GROUP, ANN, "/countdown")
    assert "just type it" not in (await private_bot.telegram.reply(GROUP)).text
    await private_bot.send(ANN["id"], ANN, "/play", kind="private")  # a private chat sees all
    assert "or just type it." in (await private_bot.telegram.reply(ANN["id"])).text


async def test_privacy_mode_is_read_from_getme_and_explained_in_the_log(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path,
        caplog: pytest.LogCaptureFixture):
    for privacy in (False, True):
        telegram.privacy_mode = privacy
        config = make_config(telegram, tmp_path / f"{privacy}.sqlite3")
        caplog.clear()
        async with contextlib.AsyncExitStack() as stack:
            with caplog.at_level(logging.WARNING, logger="bot.wiring"):
                opened = await stack.enter_async_context(opening(config, pool))
                bot = await stack.enter_async_context(built(config, opened))
            assert bot.services.rounds.reads_group_messages is not privacy
            assert ("/setprivacy" in caplog.text) is privacy


async def test_in_a_normal_group_the_deal_invites_typing(harness: Harness):
    await harness.send(GROUP, ANN, "/play")
    assert (await harness.telegram.reply(GROUP)).text.endswith(
        "Answer with /a expression, by replying to this message, or just type it.")


# --- item 4: precise feedback ------------------------------------------------------------------

@pytest.mark.parametrize(("hand", "answer", "said"), [
    ((2, 3, 4, 6), "2*3*4", "❌ It leaves out 6. The numbers are 2 3 4 6."),
    ((1, 2, 3, 4), "1/0", "❌ The hand has no 0; it leaves out 2, 3 and 4."),
    ((1, 5, 6, 7), "2*3*4", "❌ The hand has no 2, 3 or 4; it leaves out 1, 5, 6 and 7."),
    ((3, 3, 8, 8), "3*3*3*8*8", "❌ 3 is used 3 times, the hand has 2."),
    ((3, 3, 8, 8), "8/(3-3)*8", "❌ That divides by zero."),
])
async def test_misused_numbers_are_named_exactly(harness: Harness, hand, answer, said):
    harness.telegram.no_reactions.add(GROUP)  # a wrong answer is then said in words
    await deal(harness, hand)
    await harness.send(GROUP, BOB, f"/a {answer}")
    assert (await harness.telegram.reply(GROUP)).text.startswith(said)


async def test_absent_numbers_come_before_overused_ones(harness: Harness):
    harness.telegram.no_reactions.add(GROUP)
    await deal(harness, (2, 3, 4, 6))
    await harness.send(GROUP, BOB, "/a 2*2*6*1")
    assert (await harness.telegram.reply(GROUP)).text == (
        "❌ The hand has no 1; 2 is used twice, the hand has one 2; it leaves out 3 and 4. "
        "The numbers are 2 3 4 6.")


@pytest.mark.parametrize(("answer", "said"), [
    ("(3-7)*25", "❌ (3−7)×25: 3−7 is below zero; every step must be a whole number above zero."),
    ("(1+3-7)*25", "(1+3−7)×25: 4−7 is below zero"),
    ("7/3*25", "7÷3 is not a whole number"),
    ("50*(7-7)", "7 is used twice, the hand has one 7."),  # the numbers first
    ("(10-3-7)*25", "7−7 is zero"),
    ("(25-(3+7+10+1))*50", "(25−(3+7+10+1))×50 = 200"),  # every step fine
])
async def test_countdown_names_the_step_that_breaks_the_rule(harness: Harness, answer, said):
    harness.telegram.no_reactions.add(GROUP)
    await deal(harness, COUNTDOWN_HAND, "countdown", COUNTDOWN_TARGET, 10)
    await harness.send(GROUP, BOB, f"/a {answer}")
    text = (await harness.telegram.reply(GROUP)).text
    assert said.lower() in text.lower(), text


@pytest.mark.parametrize(("command", "said"), [
    ("/solve 1 2 3 4 5 6 7", "❌ Too many numbers: at most 6.\nUsage: /solve"),
    ("/solve 3 8 3 8 = 99999999999", "❌ The target 99999999999 is out of range"),
    ("/solve 3 8 3 2000000", "❌ 2000000 is out of range: numbers go from 0 to 1,000,000."),
    ("/solve --closest 1 3 7 10 25 50", "❌ --closest needs a target after =.\nUsage: /solve"),
    ("/solve 3.5 8 3 8", "❌ 3.5 is not a whole number.\nUsage: /solve"),
    ("/solve 3 8 three 8", "❌ I don't understand three."),
    ("/play = 1000", "❌ The target 1000 is out of range: 1 to 999.\nUsage: /play"),
    ("/play 7", "❌ A round has 4, 5 or 6 numbers, not 7."),
    ("/play hard easy", "❌ easy repeats something given already."),
    ("/countdown 5", "❌ At most 4 large numbers, not 5.\nUsage: /countdown"),
    ("/countdown 1 3 7 10 25 50 = 100001", "❌ The target 100001 is out of range: 1 to 100,000."),
    ("/countdown 1 2 3 4 5 6 7 = 100", "❌ Too many numbers: at most 6."),
    ("/top everything", "❌ I don't understand everything.\nUsage: /top"),
    ("/solve " + "9" * 500, "❌ That is too long: 500 characters, at most 400."),
])
async def test_each_usage_mistake_says_what_was_wrong(harness: Harness, command, said):
    await harness.send(GROUP, ANN, command)
    assert (await harness.telegram.reply(GROUP)).text.startswith(said)


async def test_nothing_given_is_said_as_any_mistake_is(harness: Harness):
    """/solve alone, /solve = 24 and /countdown = say that no numbers came, what the command
    takes and an example, as every refusal does (docs/refusals.md)."""
    for command, usage, given in (("/solve", "/solve", "/solve 1 2 8 45"),
                                  ("/solve = 24", "/solve", "/solve 1 2 8 45"),
                                  ("/countdown =", "/countdown", "/countdown 2")):
        await harness.send(GROUP, ANN, command)
        said = (await harness.telegram.reply(GROUP)).text
        assert said.startswith(f"❌ No numbers were given.\nUsage: {usage} "), said
        assert said.endswith(f"\nFor example: {given}"), said


async def test_hints_go_into_the_deal_each_with_its_value(harness: Harness):
    await deal(harness, (3, 3, 8, 8), points=30)
    await harness.send(GROUP, ANN, "/play")  # the deal message, to be edited
    shown = await harness.telegram.reply(GROUP)
    await harness.services.outbox.deal_sent(harness.services.rounds.open_round(GROUP).id,
                                              shown.message_id)
    sent = len(sent_to(harness))
    await harness.send(GROUP, ANN, "/hint")
    assert harness.telegram.edits[-1].text.endswith("💡 Hints: 8÷3 (now worth 15 points)")
    await harness.send(GROUP, BOB, "/hint")  # 3−8÷3 = 1÷3 would leave the answer one step off
    assert [r.emoji for r in harness.telegram.reactions] == ["👌", "🤷"]
    assert len(harness.telegram.edits) == 1  # the deal stays
    assert len(sent_to(harness)) == sent  # not one hint was a message
    rounds = harness.services.rounds
    service, _ = new_services(harness.stores, rounds.analyses.pool, rounds.clock)  # a restart
    await load(service)
    again = await service.rounds.hint(Chat(GROUP), Player(ANN["id"], "Ann"))
    assert again.text.startswith("💡 No more hints")
    await harness.send(GROUP, BOB, "/a 8/(3-8/3)")
    assert "+15 points" in (await harness.telegram.reply(GROUP)).text
    assert scores_are_exact(harness) == []


async def test_a_hint_is_said_in_words_only_where_the_deal_cannot_be_edited(harness: Harness):
    await deal(harness, (3, 3, 8, 8), points=30)  # dealt by hand: no deal message to edit
    await harness.send(GROUP, ANN, "/hint")
    assert (await harness.telegram.reply(GROUP)).text == \
        "💡 Hint 1: 8÷3 (the round is worth 15 points now)"
    harness.telegram.no_reactions.add(GROUP)
    await harness.send(GROUP, ANN, "/hint")
    assert (await harness.telegram.reply(GROUP)).text.startswith("💡 No more hints")
