"""Rounds per forum topic (issue 17, item 7): in a forum supergroup a round, a match and their
timers belong to the topic where they began, every message of theirs goes to that topic, two
topics each hold a round at once, and the leaderboard stays the chat's. The stores keep one open
round and one match per topic (migration 7)."""

from __future__ import annotations

import pytest

from bot.store.schema import LATEST
from bot.store.sqlite import open_sqlite
from solver import solve
from tests.bot.conftest import Harness

FORUM = -1007701
ANN = {"id": 771, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 772, "is_bot": False, "first_name": "Ben", "language_code": "en"}


def forum(h: Harness) -> tuple[int, int]:
    """A forum with two topics."""
    h.telegram.chat(FORUM, title="Puzzle club", forum=True)
    return h.telegram.topic(FORUM, "24"), h.telegram.topic(FORUM, "Countdown")


def in_topic(h: Harness, topic: int) -> list[str]:
    return [s.text for s in h.telegram.sent if s.chat_id == FORUM and s.topic == topic]


async def test_two_topics_each_hold_a_round_and_hear_only_theirs(harness: Harness):
    first, second = forum(harness)
    await harness.send(FORUM, ANN, "/play", topic=first)
    await harness.send(FORUM, BEN, "/countdown", topic=second)
    rounds = harness.services.rounds
    mine, theirs = rounds.open_round(FORUM, first), rounds.open_round(FORUM, second)
    assert mine.game == "24" and theirs.game == "countdown" and (mine.topic, theirs.topic) == \
        (first, second)
    assert rounds.open_round(FORUM) is None  # General has none
    [deal] = in_topic(harness, first)
    assert "Make 24" in deal and "Countdown" in in_topic(harness, second)[0]
    await harness.send(FORUM, BEN, "/play", topic=second)  # that topic's round is shown
    assert "A round of Countdown is on" in in_topic(harness, second)[-1]
    await harness.send(FORUM, BEN, solve(mine.hand)[0], topic=second)  # no round of it there
    assert rounds.open_round(FORUM, first) is not None
    await harness.send(FORUM, BEN, f"/a {solve(mine.hand)[0]}", topic=first)
    assert "Ben wins" in in_topic(harness, first)[-1]
    assert rounds.open_round(FORUM, first) is None and rounds.open_round(FORUM, second)
    await harness.send(FORUM, ANN, "/top", topic=second)  # the chat's leaderboard
    assert "Ben" in in_topic(harness, second)[-1]
    assert all(s.topic in (first, second) for s in harness.telegram.sent)  # nothing to General


async def test_a_topics_timer_ends_its_round_in_that_topic(harness: Harness):
    first, second = forum(harness)
    await harness.send(FORUM, ANN, "/play", topic=first)
    await harness.send(FORUM, ANN, "/play", topic=second)
    await harness.ring("round", FORUM, second)
    assert "Time is up" in in_topic(harness, second)[-1]
    assert len(in_topic(harness, first)) == 1  # the first topic heard nothing
    assert harness.services.rounds.open_round(FORUM, first) is not None
    assert harness.services.table.scheduler.pending("round", FORUM, first)


async def test_a_match_deals_scores_and_warns_in_its_topic(harness: Harness):
    first, second = forum(harness)
    await harness.send(FORUM, ANN, "/match 2", topic=second)
    deal = harness.telegram.sent[-1]
    assert deal.topic == second and "Match: round 1 of 2" in deal.text
    await harness.send(FORUM, ANN, "/play", topic=first)  # another topic plays on beside it
    await harness.ring("warn", FORUM, second)
    assert harness.telegram.edits[-1].message_id == deal.message_id  # under its deal
    current = harness.services.rounds.open_round(FORUM, second)
    await harness.send(FORUM, BEN, f"/a {solve(current.hand)[0]}", topic=second)
    result = harness.telegram.sent[-1]
    assert result.topic == second and "Scores after round 1 of 2" in result.text
    await harness.ring("match", FORUM, second)
    assert harness.telegram.sent[-1].topic == second
    assert "Match: round 2 of 2" in harness.telegram.sent[-1].text
    assert not await harness.services.matches.is_on(FORUM, first)
    await harness.send(FORUM, ANN, "/match stop", topic=first)  # none in this topic
    assert "No match is on" in in_topic(harness, first)[-1]


async def test_a_reply_thread_in_a_plain_supergroup_is_no_topic(harness: Harness):
    group = -1007702
    harness.telegram.chat(group, "supergroup")
    await harness.send(group, ANN, "/play", kind="supergroup")
    deal = harness.telegram.sent[-1]
    current = harness.services.rounds.open_round(group)
    # a reply carries the thread of its chain of replies, which is not a topic
    await harness.send(group, BEN, solve(current.hand)[0], reply_to=deal.message_id,
                       kind="supergroup")
    message = harness.telegram.message(group, harness.telegram.sent[-1].reply_to or 0)
    assert message is not None and message.get("message_thread_id") and \
        not message.get("is_topic_message")
    assert "Ben wins" in harness.telegram.sent[-1].text and harness.telegram.sent[-1].topic == 0


async def test_after_a_restart_results_go_to_their_topic(harness: Harness):
    _, second = forum(harness)
    await harness.send(FORUM, ANN, "/play", topic=second)
    current = harness.services.rounds.open_round(FORUM, second)
    await harness.stores.rounds.record_answer(  # the bot stopped before closing it
        current.id, ANN["id"], solve(current.hand)[0], True, current.started_at + 2)
    await harness.services.recovery.resume()
    late = harness.telegram.sent[-1]
    assert "Sent after a restart" in late.text and late.topic == second


async def test_the_stores_keep_one_round_and_one_match_per_topic(tmp_path):
    old = await open_sqlite(tmp_path / "t.sqlite3", migrate_to=6)
    await old.people.remember_chat(FORUM, "supergroup", "F")
    before = await old.rounds.db.insert(  # a round of a bot from before topics
        "INSERT INTO rounds (chat_id, game, hand, target, level, points, lang, started_at, "
        "deadline) VALUES (?, '24', '[1, 2, 3, 4]', 24, 'easy', 10, 'en', 1.0, 61.0)", (FORUM,))
    await old.close()
    stores = await open_sqlite(tmp_path / "t.sqlite3")  # migrated to 7
    assert await stores.rounds.db.version() == LATEST >= 7
    assert (await stores.rounds.open_round_of(FORUM)).id == before  # type: ignore[union-attr]
    made = [await stores.rounds.open_round(FORUM, "24", (1, 2, 3, 4), 24, "easy", 10, "en", 1.0,
                                           61.0, topic=topic) for topic in (0, 5, 5, 9)]
    assert made[0] is None and made[2] is None  # one open round per topic
    assert (made[1].topic, made[3].topic) == (5, 9)  # type: ignore[union-attr]
    assert (await stores.rounds.open_round_of(FORUM, 9)).id == made[3].id  # type: ignore
    matches = [await stores.matches.open_match(FORUM, 3, None, "en", 1.0, topic)
               for topic in (5, 5, 9)]
    assert matches[1] is None and matches[0].topic == 5  # type: ignore[union-attr]
    assert (await stores.matches.match_on(FORUM, 9)).id == matches[2].id  # type: ignore
    assert await stores.matches.match_on(FORUM) is None
    await stores.close()


@pytest.mark.parametrize("topic", [0, 7])
def test_job_names_are_the_old_ones_without_a_topic(topic: int):
    from bot.telegram.jobs import job_name

    assert job_name("round", -5, topic) == ("round:-5" if not topic else "round:-5:7")


async def test_even_an_apology_goes_to_the_topic(harness: Harness):
    first, _ = forum(harness)

    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    harness.services.community.standings.stats = broken  # type: ignore[method-assign]
    await harness.send(FORUM, ANN, "/stats", topic=first)
    apology = harness.telegram.sent[-1]
    assert "something went wrong" in apology.text and apology.topic == first
