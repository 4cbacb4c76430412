"""A tournament group's result said late, on each backend: the bot restarted, or another process
took the group over, between the group's win (or its end with a closest answer) and its result.
While another group still plays the same hand, the late result quotes neither the answer that won
or came closest nor any solution — a take-over has no tournament's live hand in memory, so the
round's own seat is what tells; once every group closed the round, a late result quotes it as
any does. A Countdown round's closest answer is kept back on time as well."""

from __future__ import annotations

import pytest

from bot.play.outcomes import Closed
from bot.play.rules import Deal
from bot.play.services import Services
from bot.play.tournaments.rules import TournamentRequest
from bot.play.tournaments.schedule import Schedule
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import prettify, solve
from tests.bot.conftest import Clock, FakeScheduler, ring_due
from tests.bot.play.tournaments.test_service import (
    ANN,
    BLUE,
    RED,
    Publisher,
    admin,
    build,
    deals,
    look,
    made,
    started,
)

# Countdown: 100 25 75 50 6 3 for 952; (100+6)*3*75/25 makes 954, two away (7 points)
TILES, TARGET, NEAR = (100, 25, 75, 50, 6, 3), 952, "(100+6)*3*75/25"


@pytest.fixture
def publisher() -> Publisher:
    return Publisher()


@pytest.fixture
def wired(stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher
          ) -> tuple[Services, FakeScheduler]:
    """The services as test_service builds them: sending, a second's pause, a fast deal."""
    return build(stores, pool, clock, publisher)


def quotes(result: Closed, answer: str) -> bool:
    """Whether the result shows this answer, as typed or as the bot writes it."""
    return answer in result.text or prettify(answer) in result.text


def late_in(results: list, chat_id: int) -> Closed:
    [late] = [r for r in results if isinstance(r, Closed) and r.round.chat_id == chat_id]
    return late


async def won_unsent(services: Services, publisher: Publisher, clock: Clock) -> str:
    """Red's Ann wins round 1 three seconds in, and the process stops before its result went
    (the send fails): the win is stored, the result owed. The answer."""
    await made(services)
    await started(services, clock)
    answer = solve(deals(publisher, RED)[0].round.hand)[0]
    clock.now += 3
    publisher.fails = True
    with pytest.raises(ConnectionError):
        await services.rounds.answer(RED, ANN, answer, explicit=True)
    publisher.fails = False
    return answer


async def blue_closes(services: Services, scheduler: FakeScheduler, clock: Clock) -> None:
    """Blue's round runs out, and the schedule closes the round in every group."""
    clock.now += 60
    await ring_due(services, scheduler)
    await look(services)
    assert not await services.tournaments.store.live_rounds()


async def test_a_restart_between_a_groups_win_and_its_result_keeps_the_answer(
        stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher,
        services: Services):
    answer = await won_unsent(services, publisher, clock)
    again, _ = build(stores, pool, clock, Publisher(), seed=2)
    late = late_in(await again.recovery.resume(), RED.id)
    assert "Sent after a restart" in late.text and "<b>Ann</b> solves it in 3.0 s" in late.text
    assert not quotes(late, answer), late.text
    assert "every group has played it" in late.text and "solutions" not in late.actions


async def test_a_take_over_between_a_groups_win_and_its_result_keeps_the_answer_until_the_end(
        stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher,
        services: Services, scheduler: FakeScheduler):
    """The taker holds no tournament in memory; the round is a tournament's still live, so its
    win is said without its answer. Once Blue's round closed too, a late result quotes it."""
    answer = await won_unsent(services, publisher, clock)
    down = Publisher()
    down.fails = True  # the taker's send fails too: the result stays owed
    taker, _ = build(stores, pool, clock, down, seed=2)
    assert not taker.table.live.shared.keys(), "nothing in memory knows the live hand"
    late = late_in(await taker.recovery.resume(lambda chat: chat == RED.id), RED.id)
    assert late.text.startswith("🔁 Late") and "<b>Ann</b> solves it in 3.0 s" in late.text
    assert not quotes(late, answer), late.text
    await blue_closes(services, scheduler, clock)
    after, _ = build(stores, pool, clock, Publisher(), seed=3)
    late = late_in(await after.recovery.resume(lambda chat: chat == RED.id), RED.id)
    assert f"<b>Ann</b> wins with <code>{prettify(answer)}</code>" in late.text, late.text


async def test_a_right_answer_stored_and_settled_by_a_take_over_keeps_its_answer(
        stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher,
        services: Services):
    """The process stored Ann's right answer and stopped before closing Red's round: the taker
    settles it in her favour, and says so without her answer while Blue plays."""
    await made(services)
    await started(services, clock)
    red = deals(publisher, RED)[0].round
    answer = solve(red.hand)[0]
    await stores.rounds.record_answer(red.id, ANN.id, answer, True, red.started_at + 4)
    taker, _ = build(stores, pool, clock, Publisher(), seed=2)
    late = late_in(await taker.recovery.resume(lambda chat: chat == RED.id), RED.id)
    assert "<b>Ann</b> solves it in 4.0 s" in late.text and not quotes(late, answer), late.text


@pytest.fixture
def countdown_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tournament deals the known Countdown draw."""
    async def draw(self: Schedule, tournament: object, level: str, used: set) -> Deal:
        return Deal("countdown", TILES, TARGET, "2", 10)
    monkeypatch.setattr(Schedule, "_draw", draw)


async def countdown_near(services: Services, publisher: Publisher, clock: Clock) -> Closed:
    """A Countdown tournament: Ann comes two away in Red, whose round then runs out while
    Blue's plays on. Red's round."""
    said = await services.tournaments.new(RED, ANN, TournamentRequest(
        name="Cup", game="countdown", rounds=2, seconds=60, starts_in=60), admin)
    assert said.code is not None
    await services.tournaments.join(BLUE, ANN, said.code, admin)
    await started(services, clock)
    red = deals(publisher, RED)[0]
    await services.rounds.answer(RED, ANN, NEAR, explicit=True)
    clock.now += 60
    return red


@pytest.mark.usefixtures("countdown_drawn")
async def test_a_countdown_groups_closest_answer_is_kept_back_while_another_group_plays(
        services: Services, publisher: Publisher, clock: Clock):
    red = await countdown_near(services, publisher, clock)
    ended = await services.rounds.expire(red.round.id)  # Blue's round still open
    assert isinstance(ended, Closed) and "<b>Ann</b> was closest, 2 away" in ended.text
    assert not quotes(ended, NEAR) and "954" not in ended.text, ended.text


@pytest.mark.usefixtures("countdown_drawn")
async def test_a_countdown_groups_closest_answer_said_late_is_kept_back(
        stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher,
        services: Services):
    red = await countdown_near(services, publisher, clock)
    publisher.fails = True
    with pytest.raises(ConnectionError):
        await services.rounds.expire(red.round.id)  # its result owed
    publisher.fails = False
    taker, _ = build(stores, pool, clock, Publisher(), seed=2)
    late = late_in(await taker.recovery.resume(lambda chat: chat == RED.id), RED.id)
    assert "<b>Ann</b> was closest, 2 away" in late.text and not quotes(late, NEAR), late.text
    assert "954" not in late.text and "stay hidden" not in late.text  # said once, below:
    assert "every group has played it" in late.text
