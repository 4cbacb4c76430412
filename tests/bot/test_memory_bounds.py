"""Memory that does not grow with chats (issue 38, item 4): every in-process cache has a bound and
drops what it no longer needs (bench/bench_memory.py measures the whole process)."""

from __future__ import annotations

import asyncio
import gc
import math
import pickle
import tracemalloc

import pytest
from cachetools import Cache
from telegram.ext import Job

from bot.play.chats import people as people_module
from bot.play.chats.people import Chat, People, Player
from bot.play.daily import daily as daily_module
from bot.play.dealing import adaptive as adaptive_module
from bot.play.dealing.analyses import ENTRY_BYTES, Analyses
from bot.play.guards.throttle import (
    BUCKETS_KEPT,
    Admission,
    Allowance,
    Throttle,
    Ticket,
    WorkBudget,
)
from bot.play.round.table import LATE_WITHIN, TEXTS_KEPT
from bot.play.rules.records import Analysis
from bot.play.services import Services
from bot.runtime.locks import KeyedLocks
from bot.runtime.lru import EVICTED_AT_ONCE, FIFO
from bot.runtime.pool import SolverPool
from bot.runtime.timed import Timed
from bot.telegram.bot_api_10 import CHATS_KEPT, EPHEMERAL, REMEMBERED, Refusals
from bot.telegram.fairness import SERVED_KEPT, SERVED_PER_PLACE, FairUpdates
from bot.telegram.members import ADMIN_CACHE_SECONDS, MEMBERS_KEPT, ChatMembers
from solver import solve
from tests.bot.conftest import Clock, Harness


class CountingPeopleStore:
    """A people store that only counts what is written."""

    def __init__(self) -> None:
        self.chats: list[int] = []
        self.users: list[int] = []

    async def remember_chat(self, chat_id: int, kind: str, title: str | None) -> None:
        self.chats.append(chat_id)

    async def remember_user(self, user_id: int, first_name: str, username: str | None) -> None:
        self.users.append(user_id)


async def test_names_are_a_bounded_cache_least_lately_seen_dropped_first(
        monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(people_module, "KEPT", 3)
    store = CountingPeopleStore()
    people = People(store)  # type: ignore[arg-type]
    for n in range(1, 6):
        await people.remember(Chat(-n, "group", f"G{n}"), Player(n, f"P{n}"))
    assert len(people._chats) == 3 and len(people._users) == 3  # the bound holds
    assert store.chats == [-1, -2, -3, -4, -5]
    await people.remember(Chat(-5, "group", "G5"), Player(5, "P5"))  # still known: no write
    await people.remember(Chat(-3, "group", "G3"), Player(3, "P3"))  # known, now the latest
    assert store.chats == [-1, -2, -3, -4, -5]
    await people.remember(Chat(-1, "group", "G1"), Player(1, "P1"))  # dropped: written again
    assert store.chats[-1] == -1 and store.users[-1] == 1
    assert set(people._chats) == {-5, -3, -1}  # -4 was seen least lately


async def test_rounds_won_are_forgotten_once_too_old_to_be_answered_late(
        services: Services, clock: Clock):
    for n in range(1, 21):  # twenty chats win a round each, a minute and more apart
        chat, player = Chat(-400 - n, "group", "G"), Player(n, f"P{n}")
        dealt = await services.rounds.play(chat, player, "24")
        await services.rounds.answer(chat, player, solve(dealt.round.hand)[0], True)
        clock.now += LATE_WITHIN / 2
    assert len(services.table._won) <= 3  # only those won in the last minute
    assert services.table.get(-420) is not None  # the latest still hears a late answer
    assert services.table.get(-401) is None


async def test_a_chats_recent_adaptive_hands_are_kept_for_the_chats_dealt_lately(
        services: Services):
    adaptive = services.rounds.adaptive
    assert adaptive is not None
    kept = adaptive_module.CHATS_KEPT
    assert adaptive._recent.maxsize == kept
    for n in range(adaptive_module.RECENT_HANDS + 5):  # more hands than a chat keeps
        adaptive._remember(-1, f"hand{n}")
    for chat in range(2, kept + 11):  # ten chats more than the bound
        adaptive._remember(-chat, "hand")
        if chat % 100 == 0:
            adaptive._remember(-1, "again")  # dealt again and again: kept (LRU)
    assert len(adaptive._recent) == kept
    assert -1 in adaptive._recent and -2 not in adaptive._recent  # -2 was dealt least lately
    assert len(adaptive._recent[-1]) == adaptive_module.RECENT_HANDS


async def test_when_the_daily_hand_was_shown_is_kept_for_the_latest_people(
        services: Services):
    daily = services.community.daily
    kept = daily_module.SHOWN_KEPT
    for user in range(1, kept + 11):
        daily._seen("2026-11-24", "24", user, 100.0 + user)
    daily._seen("2026-11-24", "24", kept + 10, 999.0)  # shown again: the first showing counts
    assert len(daily._shown) == kept and daily._shown.maxsize == kept
    assert ("2026-11-24", "24", 10) not in daily._shown  # the first shown went first
    assert daily._shown["2026-11-24", "24", kept + 10] == 100.0 + kept + 10


# --- the locks: a lock in use is never dropped, one unused never kept ---------------------------

async def test_a_keyed_lock_lives_while_held_or_waited_for_and_goes_after():
    locks = KeyedLocks()
    order: list[str] = []

    async def hold(key: int, name: str, until: asyncio.Event) -> None:
        async with locks.held(key):
            order.append(name)
            await until.wait()

    release = asyncio.Event()
    first = asyncio.create_task(hold(1, "first", release))
    await asyncio.sleep(0)
    second = asyncio.create_task(hold(1, "second", asyncio.Event()))  # waits for the first
    for key in range(2, 1002):  # a thousand other keys, each held and let go
        async with locks.held(key):
            pass
    gc.collect()  # (CPython drops them at once; a collection changes nothing)
    assert len(locks) == 1 and order == ["first"]  # the held key alone, its waiter behind it
    release.set()
    await asyncio.sleep(0.01)
    assert order == ["first", "second"] and len(locks) == 1  # the waiter holds it now
    second.cancel()
    await asyncio.gather(first, second, return_exceptions=True)
    assert len(locks) == 0


def held_at(kept: int, bound: int) -> bool:
    """A bounded map past its bound: at most the bound, the oldest batch gone at once
    (bot.runtime.lru's EVICTED_AT_ONCE), never more."""
    return bound - bound // EVICTED_AT_ONCE <= kept <= bound


# --- chats that refused an ephemeral or rich message: a while each, at most CHATS_KEPT -----------

def test_refusals_are_bounded_and_forgotten_in_time():
    now = [0.0]
    refusals = Refusals(timer=lambda: now[0])
    for chat in range(CHATS_KEPT + 10):
        refusals.refused(-chat, EPHEMERAL)
    assert held_at(len(refusals), CHATS_KEPT)  # the bound holds
    assert refusals.allows(0, EPHEMERAL)  # the first went: that chat is tried again
    assert not refusals.allows(-(CHATS_KEPT + 9), EPHEMERAL)
    now[0] += REMEMBERED + 1
    assert len(refusals) == 0  # a while on, every chat is tried again


# --- membership: a minute each, and at most MEMBERS_KEPT ----------------------------------------

class MemberBot:
    def __init__(self) -> None:
        self.asked = 0

    async def get_chat_member(self, chat_id: int, user_id: int) -> object:
        self.asked += 1
        return type("Member", (), {"status": "member"})()


async def test_membership_answers_are_bounded_and_live_a_minute():
    clock = Clock()
    members, bot = ChatMembers(clock=clock), MemberBot()
    for user in range(MEMBERS_KEPT + 10):
        assert await members.is_member(bot, -1, user)  # type: ignore[arg-type]
    assert held_at(len(members._known), MEMBERS_KEPT)  # the bound holds
    assert await members.is_member(bot, -1, MEMBERS_KEPT + 9)  # type: ignore[arg-type]
    assert bot.asked == MEMBERS_KEPT + 10  # remembered: not asked again
    assert await members.is_member(bot, -1, 0)  # type: ignore[arg-type]
    assert bot.asked == MEMBERS_KEPT + 11  # dropped by the bound: asked again, same answer
    clock.now += ADMIN_CACHE_SECONDS + 1
    assert len(members._known) == 0  # a minute on, every answer is gone


# --- the throttles: a bucket full again is no bucket -------------------------------------------

def test_reply_buckets_are_bounded_and_go_once_full_again():
    clock = Clock()
    throttle = Throttle(burst=3, per_second=1.0, clock=clock)
    for user in range(BUCKETS_KEPT + 10):
        throttle.admit(-1, user)
    assert held_at(len(throttle.buckets), BUCKETS_KEPT)
    for _ in range(4):
        throttle.admit(-1, 1)
    assert throttle.admit(-1, 1) is Admission.QUIET
    clock.now += 3.0  # three tokens back: full, the same as never seen
    assert len(throttle.buckets) == 0
    assert throttle.admit(-1, 1) is Admission.REPLY


def test_work_buckets_are_bounded_and_a_running_jobs_settle_survives_its_buckets_going():
    clock = Clock()
    budget = WorkBudget(Allowance(20.0, 1.0), Allowance(40.0, 1.0), min_charge=0.1, clock=clock)
    running = budget.take(1, -1, 20.0)
    assert isinstance(running, Ticket)
    assert budget.take(1, -1, 20.0) == 20  # empty: wait for the work to end
    for user in range(2, BUCKETS_KEPT + 10):
        budget.settle(budget.take(user, None, 1.0), 0.5)  # type: ignore[arg-type]
    assert len(budget._buckets) <= BUCKETS_KEPT
    clock.now += 41.0  # both buckets would be full by now: gone
    assert ("user", 1) not in budget._buckets
    budget.settle(running, 20.0)
    assert budget.take(1, -1, 20.0) != 20  # full, as the refill made it


# --- the rest of the bounded maps ----------------------------------------------------------------

def test_the_analyses_memo_and_the_fair_lanes_turns_are_bounded(pool: SolverPool):
    four = Analysis(solutions=("x",) * 4)
    kept = 20 * (ENTRY_BYTES + len(pickle.dumps(four, protocol=pickle.HIGHEST_PROTOCOL)))
    memo = Analyses(pool, kept=kept)
    for n in range(200):
        memo.keep("24", (n,), 24, four)
    assert memo.held <= kept and 19 <= len(memo._known) <= 20  # two go at once past it
    assert memo.known("24", (199,), 24) is not None and memo.known("24", (179,), 24) is None
    memo.keep("24", (0,), 24, Analysis(solutions=("y",) * kept))  # heavier than the memo
    assert memo.known("24", (0,), 24) is None and memo.held <= kept
    fair = FairUpdates()
    assert fair._served.maxsize == SERVED_KEPT
    for user in range(SERVED_KEPT + 10):
        fair._served["user", user] = user
        if user % 100 == 0:
            fair._served.get(("user", 0))  # served again and again: kept (LRU)
    assert len(fair._served) <= SERVED_KEPT and ("user", 0) in fair._served
    assert ("user", 1) not in fair._served  # served least lately: the first to go
    # a larger intake remembers more: a chat waiting is served within about `bound` turns
    assert FairUpdates(bound=1_000)._served.maxsize == SERVED_PER_PLACE * 1_000 > SERVED_KEPT


def test_result_heads_are_kept_for_the_latest_results(services: Services):
    table = services.table
    for round_id in range(1, TEXTS_KEPT + 11):
        table.remember_head(round_id, f"head {round_id}")
        table.head(1)  # read again and again: still the first stored (FIFO)
    assert len(table._heads) <= TEXTS_KEPT and table._heads.maxsize == TEXTS_KEPT
    assert table.head(1) == "" and table.head(TEXTS_KEPT + 10) == f"head {TEXTS_KEPT + 10}"


def test_a_full_memo_of_analyses_holds_every_hand_of_24_in_under_a_mb(pool: SolverPool):
    """Weighed by their solutions alone, puzzles of four numbers (two or three solutions each)
    filled it with 7,700 of them, 9 MB; kept as records, 2,000 of them took 3 MB; pickled, with
    each entry's own cost counted (ENTRY_BYTES), 1,400 take under a MB: the 1,362 solvable hands
    of 24 fit, so a busy bot deals none of them twice to the solver."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        memo = Analyses(pool)
        for n in range(10_000):
            a, b, c, d = n % 13 + 1, n // 13 % 13 + 1, n // 169 % 13 + 1, n // 2197 + 1
            memo.keep("24", (a, b, c, d), 24, Analysis(
                solutions=(f"{a}*{b}+{c}-{d}", f"({a}+{b})*{c}-{d}"),
                steps=((f"{a}*{b}", str(a * b)), (f"{a}*{b}+{c}", str(a * b + c)),
                       (f"{a}*{b}+{c}-{d}", "24"))))
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 1_362 <= len(memo._known) <= 1_800  # every solvable hand of 24, not many more
    assert held < 0.8 * 2**20  # 0.61 MB measured


def test_every_per_chat_and_per_player_cache_of_the_services_has_a_bound(services: Services):
    """A map that loses its bound (turned back into a dict) fails here."""
    caches = {"people: chats": services.people._chats,
              "people: users": services.people._users,
              "people: languages": services.people._languages,
              "settings: chats": services.settings._changed,
              "adaptive: recent hands": services.rounds.adaptive._recent,  # type: ignore[union-attr]
              "daily: shown": services.community.daily._shown,
              "throttle: buckets": services.rounds.throttle.buckets,
              "work budget": services.solving.budget._buckets,
              "analyses": services.rounds.analyses._known,
              "table: result heads": services.table._heads,
              "share cards drawn": services.pages.drawn._kept}
    unbounded = {name for name, cache in caches.items()
                 if not isinstance(cache, Cache | FIFO | Timed) or cache.maxsize == math.inf}
    assert unbounded == set()


class ChoicesStore:
    """What a people store keeps of chats' choices, counting its reads; a read may be held
    open (`gate`) to let a change happen meanwhile."""

    def __init__(self) -> None:
        self.languages: dict[int, str] = {}
        self.settings: dict[int, dict[str, object]] = {}
        self.reads = 0
        self.gate: asyncio.Event | None = None

    async def language(self, chat_id: int) -> str | None:
        self.reads += 1
        chosen = self.languages.get(chat_id)
        if self.gate is not None:
            await self.gate.wait()
        return chosen

    async def chat_settings(self, chat_id: int) -> dict[str, object]:
        self.reads += 1
        return dict(self.settings.get(chat_id, {}))

    async def set_language(self, chat_id: int, lang: str) -> None:
        self.languages[chat_id] = lang

    async def remember_chat(self, chat_id: int, kind: str, title: str | None) -> None:
        pass

    async def remember_user(self, user_id: int, first_name: str, username: str | None) -> None:
        pass


async def test_chats_languages_are_bounded_and_a_chat_gone_is_read_again(
        monkeypatch: pytest.MonkeyPatch):
    """Issue 54: a chat's /lang is remembered for the CHOICES_KEPT chats asked about most
    lately; one that went is read from the store again, so its words never change."""
    monkeypatch.setattr(people_module, "CHOICES_KEPT", 3)
    store = ChoicesStore()
    store.languages = {-1: "ru", -4: "zh"}
    people = People(store)  # type: ignore[arg-type]
    player = Player(7, "P", language_code="en")
    for n in range(1, 6):  # five chats, two of which chose a language
        await people.texts(Chat(-n, "group", "G"), player)
    assert len(people._languages) == 3 and store.reads == 5
    assert set(people._languages) == {-3, -4, -5}  # the least lately asked went
    assert (await people.texts(Chat(-4, "group", "G"), player)).language == "zh"
    assert store.reads == 5  # remembered: no read
    assert (await people.texts(Chat(-1, "group", "G"), player)).language == "ru"  # read again
    assert store.reads == 6
    assert (await people.chat_texts(-2, "es")).language == "es"  # chose none: the fallback
    assert len(people._languages) == 3


async def test_a_choice_made_while_the_old_one_is_read_is_not_overwritten():
    store = ChoicesStore()
    people = People(store)  # type: ignore[arg-type]
    group, admin = Chat(-1, "group", "G"), Player(7, "Ann", language_code="en")
    store.gate = asyncio.Event()
    reading = asyncio.create_task(people.chosen(group.id))  # reads "none" and waits
    await asyncio.sleep(0)
    store.gate.set()
    store.gate = None

    async def admin_check() -> bool:
        return True

    await people.set_language(group, admin, "ru", admin_check)
    assert await reading is None  # what it read, when it read it
    assert (await people.texts(group, admin)).language == "ru"  # the choice stands


async def test_chats_settings_are_bounded_and_a_chat_gone_is_read_again(
        monkeypatch: pytest.MonkeyPatch, services: Services):
    from bot.play.chats import settings as settings_module
    from bot.play.chats.settings import Settings

    monkeypatch.setattr(settings_module, "CHOICES_KEPT", 2)
    store = ChoicesStore()
    store.settings = {-1: {"count": 6}, -2: {"level": "easy", "gone": 1}}
    chats = Settings(store, services.people, services.settings.defaults,  # type: ignore
                     lambda: 0.0)
    assert (await chats.of(-1)).count == 6
    assert (await chats.of(-2)).level == "easy" and await chats.chose_level(-2)
    assert (await chats.of(-3)) == services.settings.defaults  # set nothing
    assert chats._changed[-3] is settings_module.NOTHING_SET  # one value for all such chats
    assert len(chats._changed) == 2 and store.reads == 3
    assert -1 not in chats._changed  # asked least lately: gone
    assert chats._changed[-2] == {"level": "easy"}  # a setting no longer offered is left out
    assert (await chats.of(-1)).count == 6 and store.reads == 4  # read again, the same


async def test_ptb_marks_no_chat_or_player_for_a_persistence_the_bot_does_not_have(
        harness: Harness):
    """PTB marks every update's chat and user, and every job's, for its persistence, in sets
    only a persistence empties: without one they grew by every chat and player ever seen."""
    app = harness.app
    assert app.persistence is None
    for n in range(1, 6):
        await harness.send(-100 - n, harness.telegram.user(100 + n, f"P{n}"), "nice hand")

    async def nothing(context: object) -> None:
        pass

    await Job(nothing, chat_id=-101, user_id=101).run(app)
    assert app._chat_ids_to_be_updated_in_persistence == set()
    assert app._user_ids_to_be_updated_in_persistence == set()
