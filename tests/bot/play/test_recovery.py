"""After a crash: results stored but never sent are sent once, rounds that already had a right
answer are closed in its favour, and an update Telegram delivers again is not handled twice."""

from __future__ import annotations

import pytest
from telegram import Update

from bot.play.chats.people import Chat, Player
from bot.play.ports import ROUND_END
from bot.play.recovery import ANNOUNCE_WITHIN
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import prettify, solve
from tests.bot.conftest import Clock, FakeScheduler, Harness, new_services

GROUP = Chat(-42, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")


def restart(stores: Stores, pool: SolverPool, clock: Clock) -> tuple[Services, FakeScheduler]:
    """New services over the same database, as the bot's start-up builds them."""
    return new_services(stores, pool, clock, seed=2)


async def unannounced(stores: Stores) -> list[int]:
    rows = await stores.rounds.db.fetch(
        "SELECT id FROM rounds WHERE announced = 0 AND status != 'open'")
    return [row[0] for row in rows]


async def test_a_stored_right_answer_wins_after_a_restart(services: Services, stores: Stores,
                                                         pool: SolverPool, clock: Clock):
    dealt = (await services.rounds.play(GROUP, ANN, "24")).round
    assert dealt is not None
    answer = solve(dealt.hand)[0]
    await stores.people.remember_user(BEN.id, BEN.first_name)
    # the bot stored these answers, then died before closing the round
    await stores.rounds.record_answer(dealt.id, BEN.id, answer, True, 1007.0)
    await stores.rounds.record_answer(dealt.id, ANN.id, answer, True, 1005.0)
    await stores.rounds.record_answer(dealt.id, ANN.id, "1+1", False, 1001.0)
    clock.now += 120  # and stayed down past the deadline

    again, scheduler = restart(stores, pool, clock)
    results = await again.recovery.resume()
    assert scheduler.pending(ROUND_END, GROUP.id) is None
    assert again.rounds.open_round(GROUP.id) is None
    [result] = results
    assert result.round.chat_id == GROUP.id and result.round.id == dealt.id
    assert "Sent after a restart" in result.text and "<b>Ann</b> wins" in result.text
    assert "5.0 s" in result.text and f"+{dealt.points} points" in result.text
    assert "Ann" in await again.community.standings.stats(GROUP, ANN) and "1 win in 1 round" in \
        await again.community.standings.stats(GROUP, ANN)
    assert "0 wins in 1 round" in await again.community.standings.stats(GROUP, BEN)


async def test_results_never_sent_are_sent_once(services: Services, stores: Stores,
                                                pool: SolverPool, clock: Clock):
    won = (await services.rounds.play(GROUP, ANN, "24")).round
    clock.now += 3
    services.outbox.publisher.fails = True  # type: ignore[attr-defined]  # the network
    with pytest.raises(ConnectionError):
        await services.rounds.answer(GROUP, BEN, solve(won.hand)[0], explicit=True)
    # the win was stored, the reply never sent: at start-up it is
    again, _ = restart(stores, pool, clock)
    results = await again.recovery.resume()
    assert [r.round.id for r in results] == [won.id]
    assert "<b>Ben</b> wins" in results[0].text and "3.0 s" in results[0].text
    results = await restart(stores, pool, clock)[0].recovery.resume()
    assert results == []


async def test_ancient_results_are_only_marked(services: Services, stores: Stores,
                                               pool: SolverPool, clock: Clock):
    dealt = (await services.rounds.play(GROUP, ANN, "24")).round
    await services.rounds.reveal(GROUP, ANN)
    clock.now += ANNOUNCE_WITHIN + 1
    results = await restart(stores, pool, clock)[0].recovery.resume()
    assert results == [] and await unannounced(stores) == []
    assert dealt is not None


async def test_late_results_of_each_kind(services: Services, stores: Stores, pool: SolverPool,
                                         clock: Clock):
    await stores.people.remember_chat(GROUP.id, GROUP.type, GROUP.title)
    countdown = await stores.rounds.open_round(GROUP.id, "countdown", (1, 3, 7, 10, 25, 50),
                                               831, "", 10, "en", 1000.0, 1060.0)
    await services.people.load()  # the round stored by hand is loaded, as at start-up
    services.table.load(await stores.rounds.open_rounds())
    assert countdown is not None
    await services.rounds.answer(GROUP, ANN, "10*(3*25+1+7)", explicit=True)
    publisher = services.outbox.publisher
    publisher.fails = True  # type: ignore[attr-defined]  # its message never sent
    with pytest.raises(ConnectionError):
        await services.rounds.expire(countdown.id)
    publisher.fails = False  # type: ignore[attr-defined]
    plain = (await services.rounds.play(GROUP, BEN, "24")).round
    publisher.fails = True  # type: ignore[attr-defined]
    with pytest.raises(ConnectionError):
        await services.rounds.reveal(GROUP, BEN)
    results = await restart(stores, pool, clock)[0].recovery.resume()
    assert [r.round.id for r in results] == [countdown.id, plain.id]  # in the order they ended
    assert "<b>Ann</b> was closest" in results[0].text and "1 away" in results[0].text
    assert "the closest is <b>830</b>" in results[0].text
    assert "distinct solution" in results[1].text and "wins" not in results[1].text


async def test_the_normal_path_marks_results_sent(harness: Harness):
    group, alice = -1001, {"id": 11, "is_bot": False, "first_name": "Alice"}
    await harness.send(group, alice, "/play")
    await harness.telegram.reply(group)
    current = harness.services.rounds.open_round(group)
    await harness.send(group, alice, f"/a {solve(current.hand)[0]}")
    assert "wins" in (await harness.telegram.reply(group)).text
    await harness.send(group, alice, "/play")
    await harness.telegram.reply(group)
    await harness.send(group, alice, "/reveal")
    assert "Ended early" in (await harness.telegram.reply(group)).text
    assert await unannounced(harness.stores) == []


async def test_start_up_sends_what_it_owes_and_marks_it(harness: Harness):
    group, alice = -1001, {"id": 11, "is_bot": False, "first_name": "Alice"}
    await harness.send(group, alice, "/play")
    await harness.telegram.reply(group)
    current = harness.services.rounds.open_round(group)
    stores = harness.stores
    await stores.rounds.record_answer(current.id, alice["id"], solve(current.hand)[0], True,
                                      current.started_at + 2)
    await stores.people.remember_chat(-999, "group", "left")
    gone = await stores.rounds.open_round(-999, "24", (1, 2, 3, 4), 24, "", 10, "en", 1.0, 2.0)
    assert gone is not None  # ran out long ago, in a chat the bot was removed from

    await harness.services.recovery.resume()
    late = await harness.telegram.reply(group)
    assert "Sent after a restart" in late.text and "Alice" in late.text
    assert await unannounced(harness.stores) == []  # sent, or refused for good ("chat not found")
    await harness.services.recovery.resume()  # a second start-up owes nothing
    assert len([s for s in harness.telegram.sent if s.chat_id == group]) == 2


async def test_an_update_delivered_twice_is_handled_once(harness: Harness):
    group, alice = -1001, {"id": 11, "is_bot": False, "first_name": "Alice"}
    await harness.send(group, alice, "/play")
    await harness.telegram.reply(group)
    current = harness.services.rounds.open_round(group)
    message = await harness.telegram.say(group, alice, f"/a {solve(current.hand)[0]}")
    harness.telegram.updates.clear()
    for _ in range(2):  # as Telegram does when the bot died before confirming it
        await harness.app.process_update(Update.de_json({"update_id": 5000, "message": message},
                                                        harness.app.bot))
    assert "wins" in (await harness.telegram.reply(group)).text
    await harness.send(group, alice, "/play")  # the next reply is the new deal, not a repeat
    assert "Make" in (await harness.telegram.reply(group)).text
    rows = await harness.stores.rounds.db.fetch(
        "SELECT COUNT(*) FROM answers WHERE round_id = ?", (current.id,))
    assert rows[0][0] == 1


async def test_a_take_over_says_late_with_the_winning_answer(services: Services, stores: Stores,
                                                            pool: SolverPool, clock: Clock):
    """Another process takes the chats over (a cluster's worker after the owner froze): what is
    owed says "🔁 Late" with the answer that won, never "after a restart" — for the chat,
    nothing restarted. The bot's own start still says it restarted."""
    won = (await services.rounds.play(GROUP, ANN, "24")).round
    settled = (await services.rounds.play(Chat(-43, "group", "H"), ANN, "24")).round
    assert won is not None and settled is not None
    answer = solve(won.hand)[0]
    clock.now += 3
    services.outbox.publisher.fails = True  # type: ignore[attr-defined]  # the frozen owner
    with pytest.raises(ConnectionError):
        await services.rounds.answer(GROUP, BEN, answer, explicit=True)
    await stores.people.remember_user(BEN.id, BEN.first_name)  # stored, then the owner froze
    await stores.rounds.record_answer(settled.id, BEN.id, solve(settled.hand)[0], True,
                                      settled.started_at + 4)
    taker, _ = restart(stores, pool, clock)
    results = await taker.recovery.resume(lambda chat: chat in (GROUP.id, -43))
    assert sorted(r.round.id for r in results) == sorted([won.id, settled.id])
    for result in results:
        assert result.text.startswith("🔁 Late: how this round of 24 ended."), result.text
        assert "restart" not in result.text and "<b>Ben</b> wins with <code>" in result.text
    shown = {r.round.id: r.text for r in results}
    assert f"<code>{prettify(answer)}</code>" in shown[won.id]
    assert f"<code>{prettify(solve(settled.hand)[0])}</code>" in shown[settled.id]


async def test_a_late_result_quotes_the_answer_even_when_the_close_lost_it(
        services: Services, stores: Stores, pool: SolverPool, clock: Clock):
    """A close stored without its winning answer (written before the answer's text was kept
    with it): the late result quotes the first right answer stored."""
    won = (await services.rounds.play(GROUP, ANN, "24")).round
    assert won is not None
    answer = solve(won.hand)[0]
    services.outbox.publisher.fails = True  # type: ignore[attr-defined]
    with pytest.raises(ConnectionError):
        await services.rounds.answer(GROUP, BEN, answer, explicit=True)
    await stores.rounds.db.run(  # type: ignore[attr-defined]
        f"UPDATE rounds SET winning_answer = NULL WHERE id = {int(won.id)}")
    [late] = await restart(stores, pool, clock)[0].recovery.resume()
    assert late.text.startswith("🔁 Sent after a restart")
    assert f"<b>Ben</b> wins with <code>{prettify(answer)}</code>" in late.text
