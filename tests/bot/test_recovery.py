"""After a crash: results stored but never sent are sent once, rounds that already had a right
answer are closed in its favour, and an update Telegram delivers again is not handled twice."""

from __future__ import annotations

import random

from telegram import Update

from bot.play.rounds import ANNOUNCE_WITHIN, Chat, Game, Player
from bot.telegram.app import resume_rounds
from solver import solve
from tests.bot.conftest import Harness

GROUP = Chat(-42, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")


async def restart(game: Game) -> Game:
    """A new service over the same database, as the bot's start-up builds it."""
    return Game(game.storage, game.pool, game.seconds, clock=game.clock, rng=random.Random(2))


async def unannounced(game: Game) -> list[int]:
    rows = await game.storage.db.execute_fetchall(
        "SELECT id FROM rounds WHERE announced = 0 AND status != 'open'")
    return [row[0] for row in rows]


async def test_a_stored_right_answer_wins_after_a_restart(game: Game):
    dealt = (await game.play(GROUP, ANN, "24")).dealt
    assert dealt is not None
    answer = solve(dealt.hand)[0]
    await game.storage.remember_user(BEN.id, BEN.first_name)
    # the bot stored these answers, then died before closing the round
    await game.storage.record_answer(dealt.id, BEN.id, answer, True, 1007.0)
    await game.storage.record_answer(dealt.id, ANN.id, answer, True, 1005.0)
    await game.storage.record_answer(dealt.id, ANN.id, "1+1", False, 1001.0)
    game.clock.now += 120  # and stayed down past the deadline

    again = await restart(game)
    running, results = await again.resume()
    assert running == [] and again.open_round(GROUP.id) is None
    [result] = results
    assert result.chat_id == GROUP.id and result.round_id == dealt.id
    assert "Sent after a restart" in result.text and "<b>Ann</b> wins" in result.text
    assert "5.0 s" in result.text and f"+{dealt.points} points" in result.text
    assert "Ann" in await again.stats(GROUP, ANN) and "1 win in 1 round" in \
        await again.stats(GROUP, ANN)
    assert "0 wins in 1 round" in await again.stats(GROUP, BEN)


async def test_results_never_sent_are_sent_once(game: Game):
    won = (await game.play(GROUP, ANN, "24")).dealt
    game.clock.now += 3
    reply = await game.answer(GROUP, BEN, solve(won.hand)[0], explicit=True)
    assert reply is not None and reply.ended == won.id
    # the win was stored, the reply never sent: at start-up it is
    again = await restart(game)
    _, results = await again.resume()
    assert [r.round_id for r in results] == [won.id]
    assert "<b>Ben</b> wins" in results[0].text and "3.0 s" in results[0].text
    await again.announced(won.id)
    _, results = await (await restart(game)).resume()
    assert results == []


async def test_ancient_results_are_only_marked(game: Game):
    dealt = (await game.play(GROUP, ANN, "24")).dealt
    await game.reveal(GROUP, ANN)
    game.clock.now += ANNOUNCE_WITHIN + 1
    _, results = await (await restart(game)).resume()
    assert results == [] and await unannounced(game) == []
    assert dealt is not None


async def test_late_results_of_each_kind(game: Game):
    await game.storage.remember_chat(GROUP.id, GROUP.type, GROUP.title)
    countdown = await game.storage.open_round(GROUP.id, "countdown", (1, 3, 7, 10, 25, 50),
                                              831, "", 10, "en", 1000.0, 1060.0)
    await game.load()
    assert countdown is not None
    await game.answer(GROUP, ANN, "10*(3*25+1+7)", explicit=True)
    closed = await game.expire(countdown.id)  # its message was never sent
    assert closed is not None
    plain = (await game.play(GROUP, BEN, "24")).dealt
    await game.reveal(GROUP, BEN)
    _, results = await (await restart(game)).resume()
    assert [r.round_id for r in results] == [countdown.id, plain.id]  # in the order they ended
    assert "<b>Ann</b> was closest" in results[0].text and "1 away" in results[0].text
    assert "the closest is <b>830</b>" in results[0].text
    assert "distinct solution" in results[1].text and "wins" not in results[1].text


async def test_the_normal_path_marks_results_sent(harness: Harness):
    group, alice = -1001, {"id": 11, "is_bot": False, "first_name": "Alice"}
    await harness.send(group, alice, "/play")
    await harness.telegram.reply(group)
    current = harness.game.open_round(group)
    await harness.send(group, alice, f"/a {solve(current.hand)[0]}")
    assert "wins" in (await harness.telegram.reply(group)).text
    await harness.send(group, alice, "/play")
    await harness.telegram.reply(group)
    await harness.send(group, alice, "/reveal")
    assert "Round over" in (await harness.telegram.reply(group)).text
    assert await unannounced(harness.game) == []


async def test_start_up_sends_what_it_owes_and_marks_it(harness: Harness):
    group, alice = -1001, {"id": 11, "is_bot": False, "first_name": "Alice"}
    await harness.send(group, alice, "/play")
    await harness.telegram.reply(group)
    current = harness.game.open_round(group)
    storage = harness.app.bot_data["storage"]
    await storage.record_answer(current.id, alice["id"], solve(current.hand)[0], True,
                                current.started_at + 2)
    await storage.remember_chat(-999, "group", "left")
    gone = await storage.open_round(-999, "24", (1, 2, 3, 4), 24, "", 10, "en", 1.0, 2.0)
    assert gone is not None  # ran out long ago, in a chat the bot was removed from

    await resume_rounds(harness.app)
    late = await harness.telegram.reply(group)
    assert "Sent after a restart" in late.text and "Alice" in late.text
    assert await unannounced(harness.game) == []  # sent, or refused for good ("chat not found")
    await resume_rounds(harness.app)  # a second start-up owes nothing
    assert len([s for s in harness.telegram.sent if s.chat_id == group]) == 2


async def test_an_update_delivered_twice_is_handled_once(harness: Harness):
    group, alice = -1001, {"id": 11, "is_bot": False, "first_name": "Alice"}
    await harness.send(group, alice, "/play")
    await harness.telegram.reply(group)
    current = harness.game.open_round(group)
    message = await harness.telegram.say(group, alice, f"/a {solve(current.hand)[0]}")
    harness.telegram.updates.clear()
    for _ in range(2):  # as Telegram does when the bot died before confirming it
        await harness.app.process_update(Update.de_json({"update_id": 5000, "message": message},
                                                        harness.app.bot))
    assert "wins" in (await harness.telegram.reply(group)).text
    await harness.send(group, alice, "/play")  # the next reply is the new deal, not a repeat
    assert "Make" in (await harness.telegram.reply(group)).text
    rows = await harness.game.storage.db.execute_fetchall(
        "SELECT COUNT(*) FROM answers WHERE round_id = ?", (current.id,))
    assert rows[0][0] == 1
