"""Between a match's rounds the topic is the match's (issue 73): a /play or a Play again there
is refused, saying the match's next round comes, instead of dealing an ordinary round that
scored outside the match and held the match's next round back until it ended; after a restart
in the pause too. Another chat, another topic, the match's own next deal and a /play after the
match stopped are not."""

from __future__ import annotations

from bot.play.chats.people import Chat
from bot.play.outcomes import Dealt, Refused, Said
from bot.play.ports import NEXT_DEAL
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from bot.text.i18n import texts_for
from tests.bot.conftest import Clock, FakeScheduler
from tests.bot.play.matches.test_matches import (
    ANN,
    BEN,
    GROUP,
    admin,
    deal_next,
    restart,
    win,
)

BETWEEN = texts_for("en")("match_between")
OTHER_CHAT = Chat(-43, "group", "H")
OTHER_TOPIC = Chat(GROUP.id, "supergroup", "G", topic=7)


async def test_play_between_a_matchs_rounds_is_the_matchs(services: Services,
                                                          scheduler: FakeScheduler):
    first = await services.matches.start(GROUP, ANN, 3)
    assert isinstance(first, Dealt)
    ended = await win(services, BEN)
    assert scheduler.pending(NEXT_DEAL, GROUP.id) is not None  # the pause
    for player in (ANN, BEN):  # the match's starter too: the match deals, not a /play
        refused = await services.rounds.play(GROUP, player, "24")
        assert refused == Said(BETWEEN)
        assert await services.rounds.play(GROUP, player, "countdown") == Said(BETWEEN)
    assert services.rounds.open_round(GROUP.id) is None
    again = await services.rounds.replay(GROUP, BEN, ended.round.id, same_level=False)
    assert again == Refused(BETWEEN)
    assert services.rounds.open_round(GROUP.id) is None

    second = await deal_next(services, scheduler)  # the match's own deal is never refused
    assert isinstance(second, Dealt) and "round 2 of 3" in second.text


async def test_elsewhere_and_after_the_match_a_play_deals(services: Services,
                                                          scheduler: FakeScheduler):
    await services.matches.start(GROUP, ANN, 3)
    await win(services, BEN)
    assert isinstance(await services.rounds.play(OTHER_CHAT, BEN, "24"), Dealt)
    assert isinstance(await services.rounds.play(OTHER_TOPIC, BEN, "24"), Dealt)
    stopped = await services.matches.stop(GROUP, ANN, admin)
    assert "stopped" in stopped.text.lower() or "over" in stopped.text.lower()
    assert scheduler.pending(NEXT_DEAL, GROUP.id) is None
    assert isinstance(await services.rounds.play(GROUP, BEN, "24"), Dealt)


async def test_after_a_restart_in_the_pause_the_pause_is_still_the_matchs(
        services: Services, stores: Stores, pool: SolverPool, clock: Clock):
    """The bot stops between two rounds: once the match resumes (its next deal set again), a
    /play there is refused as before, and the match deals its round."""
    await services.matches.start(GROUP, ANN, 3)
    await win(services, BEN)
    again, alarms = await restart(stores, pool, clock)
    assert len(await again.matches.resume()) == 1
    assert alarms.pending(NEXT_DEAL, GROUP.id) is not None
    assert await again.rounds.play(GROUP, BEN, "24") == Said(BETWEEN)
    assert again.rounds.open_round(GROUP.id) is None
    second = await deal_next(again, alarms)
    assert isinstance(second, Dealt) and "round 2 of 3" in second.text
