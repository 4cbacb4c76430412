"""Rules said where they act (issue 73). A hint refused says which rule refused it: in a round
dealt without hints while the group's own setting has them (a tournament's round, dealt to every
group on the same terms, or one dealt before an admin turned hints on), the refusal says so,
rather than "Hints are off in this group" beside a /settings that shows them on; the group's own
setting off says that, and after a restart the refusal is the same. A tournament round's end
says once when its answers come."""

from __future__ import annotations

import pytest

from bot.play.chats.people import Player
from bot.play.outcomes import Dealt, Refused
from bot.play.services import Services
from bot.play.tournaments.rules import TournamentRequest
from bot.store.stores import Stores
from bot.text.i18n import texts_for
from tests.bot.conftest import Clock
from tests.bot.play.tournaments.test_service import BLUE, RED, Publisher, admin, build, started

ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
EN = texts_for("en")


@pytest.fixture
def publisher() -> Publisher:
    return Publisher()


@pytest.fixture
def wired(stores, pool, clock, publisher):
    return build(stores, pool, clock, publisher)


async def a_tournament_on(services: Services, clock: Clock) -> None:
    made = await services.tournaments.new(RED, ANN, TournamentRequest(
        name="Cup", rounds=2, seconds=60, starts_in=60), admin)
    assert made.code is not None, made.text
    await services.tournaments.join(BLUE, BEN, made.code, admin)
    await started(services, clock)
    assert services.rounds.open_round(RED.id) is not None


async def test_a_tournament_round_says_the_tournament_has_no_hints(
        services: Services, clock: Clock, stores: Stores, pool, publisher: Publisher):
    await a_tournament_on(services, clock)
    assert (await services.settings.of(RED.id)).hints  # the group's own setting: on
    refused = await services.rounds.hint(RED, ANN, admin)
    assert refused == Refused(EN("hints_off_round"))
    assert "tournament" in refused.text and "Hints are off in this group" not in refused.text
    again, _ = build(stores, pool, clock, Publisher())  # a restart: terms read back
    await again.recovery.owed()
    assert await again.rounds.hint(RED, ANN, admin) == Refused(EN("hints_off_round"))


async def test_a_group_with_hints_off_is_told_its_setting(services: Services):
    assert not isinstance(await services.settings.change(RED, ANN, admin, RED.id, "hints", "0"),
                          Refused)
    assert not (await services.settings.of(RED.id)).hints
    assert isinstance(await services.rounds.play(RED, ANN, "24"), Dealt)
    assert await services.rounds.hint(RED, ANN, admin) == Refused(EN("hints_off"))


async def test_a_tournament_rounds_time_up_says_once_when_the_answers_come(
        services: Services, clock: Clock):
    """Issue 73: a tournament round's time-up said twice, in two lines, that its answers come
    later ("the solutions stay hidden for now…" and "…come when every group has played it")."""
    await a_tournament_on(services, clock)
    red = services.rounds.open_round(RED.id)
    assert red is not None and services.rounds.open_round(BLUE.id) is not None
    clock.now = red.deadline + 1
    ended = await services.rounds.expire(red.id)
    assert ended is not None and "this group is done" in ended.text
    assert EN("answers_held_back") not in ended.text and "hidden" not in ended.text
