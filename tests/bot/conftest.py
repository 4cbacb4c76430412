"""Fixtures for bot tests: a fake Bot API server, one solver pool, the real Application, and the
game services alone over a fresh database with a hand-moved clock and a fake scheduler. The
stores, and so the services over them, are tested on each backend: SQLite and a real
PostgreSQL server (tests/postgres)."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import random
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from telegram import Update
from telegram.ext import Application

from bot.play.daily import puzzle as daily_puzzle
from bot.play.games.game import DailyDeck
from bot.play.outcomes import Closed, Dealt, Outcome
from bot.play.ports import Alarm, Delivery, Target
from bot.play.round.open_round import OpenRound
from bot.play.services import Services, build_services
from bot.runtime.config import LEASE_RANGE, Config
from bot.runtime.doors import Doors
from bot.runtime.pool import SolverPool
from bot.store.records import Round
from bot.store.stores import Stores
from bot.webapp.settings import WebappSettings
from bot.wiring import Bot
from bot.wiring import running as running_bot
from demo.emulator import BotApiEmulator
from tests.fake_telegram import telegram as telegram
from tests.postgres import BACKENDS, emptied, migrated_sqlite, open_backend
from tests.postgres import postgres_server as postgres_server
from tests.postgres import postgres_url as postgres_url

# Each daily puzzle's hand follows the date, and no one may /solve it all day: the tests see, in
# each game's daily, hands that none of them asks to solve, so that no date makes them fail
# (tests/bot/play/daily/test_daily.py checks the real choice).
TEST_DAILY_HANDS = ((9, 11, 13, 13), (2, 11, 11, 13))
# every game's: its hands, and where each hand has its own target (Krypto's deck) those
TEST_DAILY = {"24": (TEST_DAILY_HANDS, ()), "make10": (((9, 9, 9, 9),), ()),
              "krypto": (((23, 19, 17, 17, 13),), (7,))}


def deck_of_the_tests(game: str) -> DailyDeck:
    """A game's daily deck as the tests see it: its own target, level and draws, the hands
    above."""
    deck = daily_puzzle.GAMES[game].daily
    assert deck is not None
    hands, targets = TEST_DAILY[game]
    return dataclasses.replace(deck, hands=hands, targets=targets)


@pytest.fixture(autouse=True)
def daily_hands_of_the_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily_puzzle, "daily_deck", deck_of_the_tests)


@pytest.fixture(scope="session")
def pool() -> Iterator[SolverPool]:
    shared = SolverPool(1)  # one heavy worker: what tests of queues and turns assume
    yield shared
    shared.stop_now()  # the session is over: a deal still being made is not waited for


class Harness:
    """The real Application wired to the fake server; `send` feeds an Update and waits for it."""

    def __init__(self, bot: Bot, telegram: BotApiEmulator) -> None:
        self.bot = bot
        self.app: Application = bot.application
        self.telegram = telegram
        self.ids = itertools.count(1)

    async def send(self, chat_id: int, user: dict, text: str, reply_to: int | None = None,
                   kind: str = "group", topic: int | None = None) -> None:
        message = await self.telegram.say(chat_id, user, text, reply_to, kind, topic)
        self.telegram.updates.clear()  # delivered directly, not through getUpdates
        update = Update.de_json({"update_id": next(self.ids), "message": message}, self.app.bot)
        await self.app.process_update(update)

    async def inline(self, user: dict, query: str):
        """An inline query; returns what the bot answered to it."""
        query_id = await self.telegram.inline_query(user, query)
        [update] = [u for u in self.telegram.updates if "inline_query" in u]
        self.telegram.updates.clear()
        await self.app.process_update(Update.de_json(
            {k: v for k, v in update.items() if not k.startswith("_")}, self.app.bot))
        return next(a for a in self.telegram.inline_answers if a.query_id == query_id)

    async def press(self, chat_id: int, message_id: int, user: dict, label: str):
        """The user presses a button the message shows; what the bot answered to the press."""
        query_id = await self.telegram.press_button(chat_id, message_id, user, label)
        [update] = [u for u in self.telegram.updates if "callback_query" in u]
        self.telegram.updates.clear()
        await self.app.process_update(Update.de_json(
            {k: v for k, v in update.items() if not k.startswith("_")}, self.app.bot))
        answer = self.telegram.callback_answer(query_id)
        assert answer is not None, "every press is answered"
        return answer

    @property
    def services(self) -> Services:
        return self.bot.services

    async def ring(self, kind: str, chat_id: int, topic: int = 0) -> None:
        """The chat's alarm of that kind rings now, as if its time had come."""
        scheduler = self.services.table.scheduler
        alarm = scheduler.pending(kind, chat_id, topic)
        assert alarm is not None, f"no {kind} alarm in chat {chat_id}"
        scheduler.cancel(kind, chat_id, topic)
        await self.services.alarms.ring(alarm)

    @property
    def stores(self) -> Stores:
        return self.bot.stores


def bare_application(config: Config, doors: Doors | None = None) -> Application:
    """The application as the composition root builds it — its bot, its intake, its fair
    processor drawing on `doors` — without services behind it (no update is handled)."""
    from telegram.ext import ContextTypes

    from bot.telegram.app import build_application, fair_updates, telegram_bot
    from bot.telegram.jobs import JobScheduler

    doors = doors or Doors(config.person_budget, config.chat_budget)
    return build_application(config, telegram_bot(config, doors), ContextTypes(),
                             JobScheduler(), fair_updates(config, doors))


def make_config(telegram: BotApiEmulator, database: Path, round_seconds: float = 60.0) -> Config:
    # the longest lease (LEASE_RANGE): on PostgreSQL the application in the test's own process
    # leads, and a lease lost to a loaded machine ends that process at once, as it must in
    # production (bot.store.postgres.leader.exit_now) — here it would take the test worker with
    # it. The lease's own rules are tested with processes (tests/postgres, tests/e2e).
    return Config(token=telegram.token, base_url=telegram.base_url, database_path=database,
                  round_seconds=round_seconds,
                  lengths={"COUNTDOWN_SECONDS": "60", "YAHTZEE_SECONDS": "60"},
                  solver_workers=1, rate_limit=False, solve_timeout=10.0,
                  lease_seconds=LEASE_RANGE[1])


@contextlib.asynccontextmanager
async def running(telegram: BotApiEmulator, pool: SolverPool, config: Config,
                  webapp: WebappSettings | None = None) -> AsyncIterator[Harness]:
    """The real Application started as the bot starts it (the composition root's, rounds
    resumed; the Mini App's page with `webapp`), then stopped as on SIGTERM."""
    async with running_bot(config, pool, webapp) as bot:
        yield Harness(bot, telegram)


@pytest.fixture
async def harness(telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path,
                  request: pytest.FixtureRequest) -> AsyncIterator[Harness]:
    """The real Application over SQLite, or over PostgreSQL (the session's server, emptied)
    for a test marked ON_BOTH_BACKENDS."""
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    if getattr(request, "param", "sqlite") == "postgres":
        url = request.getfixturevalue("postgres_url")
        await emptied(url)
        config = dataclasses.replace(config, database_url=url)
    else:
        await migrated_sqlite(config.database_path)
    async with running(telegram, pool, config) as h:
        yield h


# a handler test through the real Application on each backend in turn
ON_BOTH_BACKENDS = pytest.mark.parametrize("harness", BACKENDS, indirect=True)


class Clock:
    """A clock the test moves by hand (`clock.now += 120`)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class FakeScheduler:
    """The scheduler port without timers: each alarm is kept with its due time on the test's
    clock, one per kind, chat and topic; `due()` hands over (and drops) the alarms whose time
    has come."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.alarms: dict[tuple[str, int, int], tuple[Alarm, float]] = {}

    def set(self, alarm: Alarm, seconds: float) -> None:
        self.alarms[(alarm.kind, alarm.chat_id, alarm.topic)] = \
            (alarm, self.clock() + max(0.0, seconds))

    def cancel(self, kind: str, chat_id: int, topic: int = 0) -> None:
        self.alarms.pop((kind, chat_id, topic), None)

    def pending(self, kind: str, chat_id: int, topic: int = 0) -> Alarm | None:
        found = self.alarms.get((kind, chat_id, topic))
        return found[0] if found else None

    def cancel_chats(self, chats: Callable[[int], bool]) -> None:
        for key in [key for key in self.alarms if chats(key[1])]:
            del self.alarms[key]

    def when(self, kind: str, chat_id: int, topic: int = 0) -> float | None:
        """In how many seconds (from now) the topic's alarm of that kind rings."""
        found = self.alarms.get((kind, chat_id, topic))
        return None if found is None else found[1] - self.clock()

    def due(self) -> list[Alarm]:
        ready = sorted((at, key) for key, (_, at) in self.alarms.items() if at <= self.clock())
        return [self.alarms.pop(key)[0] for _, key in ready]


class FakePublisher:
    """The publisher port without Telegram: what play showed, where (`shown`). A deal or a
    result gets a message id when `sends` is set (its round's replies and status then reach
    it), else none, as when Telegram refused it."""

    def __init__(self, sends: bool = False) -> None:
        self.sends = sends
        self.fails = False  # as when the network is down: nothing shown, nothing counted
        self.shown: list[tuple[Outcome, Target]] = []
        self.ids = itertools.count(1000)

    async def show(self, outcome: Outcome, target: Target) -> Delivery:
        if self.fails:
            raise ConnectionError("the network is down")
        self.shown.append((outcome, target))
        if self.sends and isinstance(outcome, Dealt | Closed):
            return Delivery(next(self.ids))
        return Delivery()

    def texts(self) -> list[str]:
        return [getattr(outcome, "text", "") for outcome, _ in self.shown]


async def ring_due(services: Services, scheduler: FakeScheduler) -> list[tuple[int, str]]:
    """Ring the alarms whose time has come, as the bot's jobs would: (chat, text) of what each
    one says (a round's end with a match's scoreboard on it, a match's next deal, or the deal
    with its notice)."""
    said: list[tuple[int, str]] = []
    for alarm in scheduler.due():
        outcome = await services.alarms.ring(alarm)
        if outcome is not None:
            said.append((alarm.chat_id, outcome.text))
    return said


SECONDS = {"24": 60, "countdown": 60, "yahtzee": 60}


def new_services(stores: Stores, pool: SolverPool, clock: Clock, seed: int = 1,
                 publisher: FakePublisher | None = None,
                 **options) -> tuple[Services, FakeScheduler]:
    """The game services as the bot builds them, on the test's clock, a fake scheduler and a
    fake publisher (a second call over the same stores is the bot after a restart)."""
    scheduler = FakeScheduler(clock)
    options.setdefault("seconds", SECONDS)
    services = build_services(stores, pool, scheduler, publisher or FakePublisher(),
                              clock=clock, rng=random.Random(seed), **options)
    return services, scheduler


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The database the stores run on: "sqlite" or "postgres"."""
    return request.param


@pytest.fixture
async def stores(backend: str, tmp_path: Path, request: pytest.FixtureRequest
                 ) -> AsyncIterator[Stores]:
    """Every store over a fresh database of the backend."""
    opened = await open_backend(backend, tmp_path, request)
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def wired(stores: Stores, pool: SolverPool, clock: Clock) -> tuple[Services, FakeScheduler]:
    return new_services(stores, pool, clock)


@pytest.fixture
def services(wired: tuple[Services, FakeScheduler]) -> Services:
    """The game services without Telegram, over a fresh database, on a hand-moved clock."""
    return wired[0]


@pytest.fixture
def scheduler(wired: tuple[Services, FakeScheduler]) -> FakeScheduler:
    """The fake scheduler the `services` fixture sets its alarms on."""
    return wired[1]


def closed_outside(services: Services, record: Round) -> None:
    """A round a test closed in the store itself: off the table as well."""
    held = services.table.held(record.id)
    if held is not None:
        services.table.drop(held)


async def opened_outside(services: Services, record: Round, deal_text: str = "deal") -> None:
    """A round a test opened in the store itself: on the table as a deal would put it."""
    services.table.add(OpenRound(record, await services.rounds.terms(record.chat_id), deal_text,
                                 fresh=True))
