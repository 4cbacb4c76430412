"""The send budget of one process (bot.runtime.send_budget, bot.telegram.rate_limiter's
RateLimiter), on a fake clock: no sliding window of arrivals holds more than a limit allows,
after a quiet spell or a backlog too (PTB's AIORateLimiter, a bucket refilled by the time
elapsed, let twice the rate into one sliding second); every call that names a chat counts,
whatever its method; a chat's calls keep their order; a 429 pauses every call to a chat and the
call is tried again. Look-ups (getChatMember...) are no messages: they keep a rate of their own
and leave a group's share and the overall rate to its messages; a 429 on one pauses the
look-ups alone."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from telegram.error import RetryAfter

from bot.runtime import send_budget
from bot.runtime.config import LOOKUP_RATE, Config, ConfigError
from bot.runtime.send_budget import (
    GROUP_SHARE,
    KEEP_CHATS,
    PRIVATE_SHARE,
    TRAVEL,
    ChatShares,
    LocalBudget,
    Window,
    is_lookup,
)
from bot.telegram.rate_limiter import RateLimiter
from demo.emulator.records import busiest

RATE = 30


class FakeClock:
    """It stands still until someone waits; a wait moves it on to its end (waits begun
    together end together, as on a real clock)."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        end = self.now + seconds
        await asyncio.sleep(0)
        self.now = max(self.now, end)


def test_a_refilled_bucket_lets_twice_the_rate_into_one_second_and_the_window_does_not():
    """Why a window: a bucket of a second's worth, refilled by the time elapsed, after a quiet
    spell lets RATE through at once and RATE more within the second (it refills as it goes)."""
    bucket, arrivals = float(RATE), []
    now, last = 0.0, 0.0
    while now < 1.0:  # a backlog released at 0: a send whenever the bucket holds a token
        bucket = min(RATE, bucket + (now - last) * RATE)
        last = now
        if bucket >= 1:
            bucket -= 1
            arrivals.append(now)
        else:
            now += 0.001
    assert busiest(arrivals) >= 2 * RATE - 1
    window, granted, now = Window(), [], 0.0
    while now < 1.0:
        taken, wait = window.grant(now, 1, RATE)
        granted += [now] * taken
        now += wait
    assert busiest(granted) == RATE


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 3), st.integers(1, 60), st.floats(0, TRAVEL)),
                min_size=1, max_size=30))
def test_no_second_of_arrivals_holds_more_than_the_rate(spells):
    """Quiet spells of up to 3 s, each followed by a backlog of up to 60 calls asked at once,
    each arriving up to TRAVEL after its grant: no one second of arrivals holds more than the
    rate, and the calls are not held back more than the rate needs."""
    clock = FakeClock()
    budget = LocalBudget(RATE, clock, clock.sleep)
    arrivals: list[float] = []

    async def play() -> None:
        for quiet, backlog, late in spells:
            clock.now += quiet
            for granted in await asyncio.gather(*(budget.take() for _ in range(backlog))):
                arrivals.append(granted + late)

    asyncio.run(play())
    assert busiest(arrivals) <= RATE
    assert len(arrivals) == sum(backlog for _, backlog, _ in spells)


async def test_calls_wait_their_turn_in_the_order_asked():
    clock = FakeClock()
    budget = LocalBudget(2, clock, clock.sleep)
    order: list[int] = []

    async def call(number: int) -> None:
        await budget.take()
        order.append(number)

    await asyncio.gather(*(call(n) for n in range(7)))
    assert order == list(range(7))


@pytest.mark.parametrize(("chat", "share"), [(-100123, GROUP_SHARE), (42, PRIVATE_SHARE),
                                             ("@channel", GROUP_SHARE)])
async def test_a_chat_gets_its_share_in_any_window_and_its_calls_keep_their_order(chat, share):
    clock = FakeClock()
    shares = ChatShares(clock, clock.sleep)
    calls, seconds = share
    granted: list[tuple[float, int]] = []

    async def call(number: int) -> None:
        await shares.take(chat)
        granted.append((clock(), number))

    await asyncio.gather(*(call(n) for n in range(3 * calls + 1)))
    assert [number for _, number in granted] == list(range(3 * calls + 1))
    times = [at for at, _ in granted]
    assert busiest(times, seconds) == calls  # used to the full, never over
    # and one chat's waits hold no other chat back
    other = -7 if isinstance(chat, int) and chat > 0 else 7
    before = clock()
    await shares.take(other)
    assert clock() == before


async def test_idle_chats_are_forgotten_past_the_bound(monkeypatch):
    monkeypatch.setattr(send_budget, "KEEP_CHATS", 10)
    clock = FakeClock()
    shares = ChatShares(clock, clock.sleep)
    for chat in range(1, 11):
        await shares.take(-chat)
    assert len(shares.windows) == 10
    clock.now += GROUP_SHARE[1] + TRAVEL + 0.01  # every window idle now
    await shares.take(-99)
    assert set(shares.windows) == {-99}
    assert KEEP_CHATS == 512  # the bound itself, unpatched


async def test_a_chat_whose_window_still_counts_is_kept():
    clock = FakeClock()
    shares = ChatShares(clock, clock.sleep)
    for _ in range(GROUP_SHARE[0]):
        await shares.take(-5)
    clock.now += 1.0
    shares.forget_idle()
    assert -5 in shares.windows  # forgotten, the chat would get 20 more at once
    before = clock()
    await shares.take(-5)
    assert clock() >= before + GROUP_SHARE[1] + TRAVEL - 1.0 - 1e-9


def limiter_on(clock: FakeClock, rate: int = RATE, lookups: int = LOOKUP_RATE) -> RateLimiter:
    limiter = RateLimiter(rate, lookups)
    limiter.budget = LocalBudget(rate, clock, clock.sleep)
    limiter.chats = ChatShares(clock, clock.sleep)
    limiter.lookups = LocalBudget(lookups, clock, clock.sleep)
    return limiter


async def answer(**_kwargs: Any) -> dict:
    return {"ok": True}


@pytest.mark.parametrize("method", ["sendMessage", "editMessageText", "editMessageReplyMarkup",
                                    "setMessageReaction", "sendChatAction", "deleteMessage",
                                    "sendPhoto", "sendRichMessage", "editEphemeralMessageText"])
async def test_every_method_naming_a_chat_counts(method):
    """RATE calls of one method to RATE private chats use the whole second; the next call,
    of whatever method, waits for the window."""
    clock = FakeClock()
    limiter = limiter_on(clock)
    for chat in range(1, RATE + 1):
        await limiter.process_request(answer, (), {}, method, {"chat_id": chat}, None)
    before = clock()
    await limiter.process_request(answer, (), {}, "sendMessage", {"chat_id": 999}, None)
    assert clock() > before
    # a call naming no chat (a press answered, an inline query) draws nothing
    before = clock()
    await limiter.process_request(answer, (), {}, "answerCallbackQuery", {"callback_query_id": 1},
                                  None)
    assert clock() == before


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # RetryAfter's
async def test_a_429_pauses_every_call_to_a_chat_and_is_tried_again():
    clock = FakeClock()
    limiter = limiter_on(clock)
    tries: list[float] = []

    async def flooded(**_kwargs: Any) -> dict:
        tries.append(clock())
        if len(tries) == 1:
            raise RetryAfter(timedelta(seconds=3))
        return {"ok": True}

    started = clock()
    assert await limiter.process_request(flooded, (), {}, "sendMessage", {"chat_id": -1},
                                         None) == {"ok": True}
    assert tries == [started, started + 3]
    await limiter.process_request(answer, (), {}, "sendMessage", {"chat_id": 5}, None)
    assert clock() >= started + 3  # another chat's call waited it out too


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_a_429_past_the_retries_is_raised():
    clock = FakeClock()
    limiter = limiter_on(clock)

    async def always(**_kwargs: Any) -> dict:
        raise RetryAfter(timedelta(seconds=1))

    with pytest.raises(RetryAfter):
        await limiter.process_request(always, (), {}, "sendMessage", {"chat_id": -1}, 2)


# --- look-ups apart from messages (issue 70) ---------------------------------------------------

@pytest.mark.parametrize(("method", "reads"), [
    ("getChatMember", True), ("getChat", True), ("getChatAdministrators", True),
    ("getchatmembercount", True), ("sendMessage", False), ("setMessageReaction", False),
    ("deleteMessage", False), ("editMessageText", False)])
def test_a_lookup_is_a_read(method, reads):
    assert is_lookup(method) == reads


async def test_lookups_leave_a_groups_twenty_messages_free():
    """25 members of one group open the Mini App in a minute: their 25 look-ups leave the
    group's 20 messages a minute (and the overall rate) whole; the deal, the result and the
    board go at once."""
    clock = FakeClock()
    limiter = limiter_on(clock)
    group = -100123
    for user in range(25):
        await limiter.process_request(answer, (), {}, "getChatMember",
                                      {"chat_id": group, "user_id": user}, None)
    assert limiter.budget.window.grants == []  # type: ignore[attr-defined]
    assert group not in limiter.chats.windows
    asked = clock()
    for _ in range(GROUP_SHARE[0]):
        await limiter.process_request(answer, (), {}, "sendMessage", {"chat_id": group}, None)
    assert clock() == asked  # its twenty went at once
    await limiter.process_request(answer, (), {}, "sendMessage", {"chat_id": group}, None)
    assert clock() >= asked + GROUP_SHARE[1]  # the twenty-first waits for the minute


async def test_lookups_keep_a_rate_of_their_own():
    """Past LOOKUP_RATE look-ups in a second the next waits for the window, whatever the
    messages do; no sliding second holds more than the rate."""
    clock = FakeClock()
    limiter = limiter_on(clock, lookups=5)
    granted: list[float] = []
    for user in range(16):
        await limiter.process_request(answer, (), {}, "getChatMember",
                                      {"chat_id": -7 - user % 3, "user_id": user}, None)
        granted.append(clock())
    assert busiest(granted) == 5
    assert granted[5] > granted[0]  # the sixth waited
    before = clock()
    await limiter.process_request(answer, (), {}, "sendMessage", {"chat_id": -7}, None)
    assert clock() == before  # a message does not wait behind look-ups


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # RetryAfter's
async def test_a_429_on_a_lookup_pauses_lookups_and_no_message():
    clock = FakeClock()
    limiter = limiter_on(clock)
    tries: list[float] = []

    async def flooded(**_kwargs: Any) -> dict:
        tries.append(clock())
        if len(tries) == 1:
            raise RetryAfter(timedelta(seconds=4))
        return {"ok": True}

    started = clock()
    assert await limiter.process_request(flooded, (), {}, "getChatMember",
                                         {"chat_id": -1, "user_id": 2}, None) == {"ok": True}
    assert tries == [started, started + 4]  # the look-up waited what Telegram said
    assert limiter.lookups.window.paused_until == started + 4  # type: ignore[attr-defined]
    assert limiter.budget.window.paused_until == 0.0  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", ["0", "1001", "fast"])
def test_lookup_rate_out_of_range_is_refused_in_one_line(value):
    with pytest.raises(ConfigError) as refused:
        Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "LOOKUP_RATE": value}, env_file=None)
    said = str(refused.value)
    assert said.startswith("LOOKUP_RATE") and value in said and "\n" not in said


def test_lookup_rate_is_a_setting_and_reaches_the_limiter():
    assert Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x"}, env_file=None).lookup_rate == 30
    config = Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "LOOKUP_RATE": "12"}, env_file=None)
    assert config.lookup_rate == 12
    assert RateLimiter(config.send_rate, config.lookup_rate).lookups.rate == 12  # type: ignore[attr-defined]
