"""Match mode without Telegram: rounds in a row, scoreboards, the podium, stop, restart."""

from __future__ import annotations

import random

import pytest

from bot.play.matches import DEFAULT_ROUNDS, Matches, parse_match
from bot.play.rounds import Chat, Game, Player
from bot.store.storage import Round, Storage
from solver import solve
from tests.bot.conftest import Clock

GROUP = Chat(-42, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
LI = Player(3, "李", language_code="zh-hans")


async def admin() -> bool:
    return True


async def not_admin() -> bool:
    return False


def service(storage: Storage, pool, clock: Clock, seed: int = 1) -> Matches:
    game = Game(storage, pool, {"24": 60}, clock=clock, rng=random.Random(seed))
    return Matches(game, pause=5.0, warn=30.0)


@pytest.fixture
async def matches(tmp_path, pool):
    storage = await Storage.open(tmp_path / "m.sqlite3")
    yield service(storage, pool, Clock())
    await storage.close()


async def restart(matches: Matches) -> Matches:
    """A new service over the same database, as after a restart; the rounds resumed first."""
    again = service(matches.storage, matches.game.pool, matches.game.clock, seed=2)  # type: ignore[arg-type]
    await again.game.resume()
    return again


async def win(matches: Matches, player: Player) -> Round:
    current = matches.game.open_round(GROUP.id)
    assert current is not None
    won = await matches.game.answer(GROUP, player, solve(current.hand)[0], explicit=True)
    assert won is not None and won.closed
    return current


def test_parse_match():
    assert parse_match("") == DEFAULT_ROUNDS == 10
    assert parse_match(" 2 ") == 2 and parse_match("20") == 20
    assert parse_match("stop") == "stop" and parse_match("STOP") == "stop"
    for bad in ("1", "21", "0", "ten", "-3", "５", "3 4"):
        assert parse_match(bad) is None, bad


async def test_a_match_from_first_deal_to_podium(matches: Matches):
    first = await matches.start(GROUP, ANN, 3)
    assert first.dealt is not None and "Match: round 1 of 3" in first.text
    assert "Make <b>24</b>" in first.text  # an ordinary round of 24, numbered
    played = await win(matches, BEN)
    step = await matches.after_round(GROUP.id, played.id)
    assert step is not None and step.next_in == 5.0 and step.text is not None
    assert "Scores after round 1 of 3" in step.text and "1. Ben" in step.text
    assert f"{played.points} points, 1 win" in step.text and "Next round in 5 s" in step.text
    assert await matches.deal_next(GROUP.id) is not None
    assert await matches.deal_next(GROUP.id) is None  # one round at a time

    second = matches.game.open_round(GROUP.id)
    assert second is not None and second.started_by == ANN.id  # dealt for the match's starter
    matches.game.clock.now += 61  # type: ignore[attr-defined]
    assert await matches.game.expire(second.id) is not None
    step = await matches.after_round(GROUP.id, second.id)
    assert step is not None and "Scores after round 2 of 3" in (step.text or "")
    third = await matches.deal_next(GROUP.id)
    assert third is not None and "round 3 of 3" in third.text
    last = await win(matches, ANN)

    podium = await matches.after_round(GROUP.id, last.id)
    assert podium is not None and podium.next_in is None and podium.text is not None
    assert "Match over: 3 of 3 rounds played" in podium.text
    lines = podium.text.splitlines()
    assert {lines[1][0], lines[2][0]} == {"🥇", "🥈"}
    best = max((played.points, "Ben"), (last.points, "Ann"), key=lambda p: p[0])
    if played.points != last.points:
        assert best[1] in lines[1]
    else:  # a tie goes to whoever got there first
        assert "Ben" in lines[1]
    assert await matches.after_round(GROUP.id, last.id) is None  # the match is over
    assert await matches.deal_next(GROUP.id) is None
    assert "No match is on" in (await matches.stop(GROUP, ANN)).text


async def test_one_match_at_a_time_and_not_over_a_round(matches: Matches):
    await matches.game.play(GROUP, BEN, "24")
    refused = await matches.start(GROUP, ANN, 5)
    assert refused.dealt is None and "finish it" in refused.text
    await matches.game.reveal(GROUP, BEN)
    assert (await matches.start(GROUP, ANN, 5)).dealt is not None
    again = await matches.start(GROUP, BEN, 5)
    assert again.dealt is None and "A match is on here (round 1 of 5)" in again.text


async def test_a_round_outside_the_match_delays_the_next(matches: Matches):
    await matches.start(GROUP, ANN, 2)
    first = await win(matches, BEN)
    await matches.after_round(GROUP.id, first.id)
    other = await matches.game.play(GROUP, BEN, "countdown")  # in the pause
    assert other.dealt is not None
    assert await matches.deal_next(GROUP.id) is None
    await matches.game.reveal(GROUP, BEN)
    step = await matches.after_round(GROUP.id, other.dealt.id)
    assert step is not None and step.text is None and step.next_in == 5.0
    second = await matches.deal_next(GROUP.id)
    assert second is not None and "round 2 of 2" in second.text


async def test_stop_is_for_the_starter_or_an_admin(matches: Matches):
    await matches.start(GROUP, ANN, 4)
    refused = await matches.stop(GROUP, BEN, not_admin)
    assert "Only <b>Ann</b> (who started it) or a chat admin" in refused.text
    assert matches.game.open_round(GROUP.id) is not None
    stopped = await matches.stop(GROUP, BEN, admin)
    assert stopped.closed and stopped.ended is not None
    assert "Round over" in stopped.text and "Match stopped after 1 of 4 rounds" in stopped.text
    assert matches.game.open_round(GROUP.id) is None
    assert await matches.deal_next(GROUP.id) is None


async def test_the_starter_stops_between_rounds(matches: Matches):
    await matches.start(GROUP, ANN, 4)
    played = await win(matches, BEN)
    await matches.after_round(GROUP.id, played.id)
    stopped = await matches.stop(GROUP, ANN, not_admin)
    assert not stopped.closed and "Match stopped after 1 of 4 rounds" in stopped.text
    assert "🥇 Ben — " in stopped.text


async def test_the_notice_before_the_end(matches: Matches):
    first = await matches.start(GROUP, ANN, 2)
    current = first.dealt
    assert current is not None
    assert matches.warning_delay(current) == 30.0  # 60 s rounds: at 30 s left
    short = Round(9, GROUP.id, "24", (1, 2, 3, 4), 24, "easy", 10, "en", None, 0.0, 4.0, "open",
                  False)
    assert matches.warning_delay(short) == 2.0  # short rounds: halfway
    matches.game.clock.now += 30  # type: ignore[attr-defined]
    notice = matches.warning(GROUP.id, current.id)
    assert notice is not None and "30 s left" in notice
    await win(matches, BEN)
    assert matches.warning(GROUP.id, current.id) is None  # over: no notice


async def test_a_match_resumes_after_a_restart(matches: Matches):
    await matches.start(GROUP, ANN, 3)
    running = matches.game.open_round(GROUP.id)
    again = await restart(matches)  # mid-round: the round goes on, its notice re-armed
    rounds, steps = await again.resume()
    assert [r.id for r in rounds] == [running.id] and steps == []

    played = await win(again, BEN)  # the bot stops before the next deal
    third = await restart(again)
    rounds, steps = await third.resume()
    assert rounds == [] and len(steps) == 1
    chat_id, step = steps[0]
    assert chat_id == GROUP.id and step.next_in == 5.0 and step.text is not None
    assert "round 2 of 3 is next" in step.text and "Ben" in step.text
    second = await third.deal_next(GROUP.id)
    assert second is not None and "round 2 of 3" in second.text
    assert second.dealt is not None and second.dealt.id != played.id


async def test_a_finished_match_ends_on_resume(matches: Matches):
    await matches.start(GROUP, ANN, 2)
    await matches.after_round(GROUP.id, (await win(matches, BEN)).id)
    await matches.deal_next(GROUP.id)
    second = matches.game.open_round(GROUP.id)
    matches.game.clock.now += 120  # type: ignore[attr-defined]  # runs out while the bot is down
    again = await restart(matches)
    assert again.game.open_round(GROUP.id) is None and second is not None
    rounds, steps = await again.resume()
    assert rounds == [] and len(steps) == 1 and steps[0][1].next_in is None
    assert "Match over: 2 of 2 rounds played" in (steps[0][1].text or "")


async def test_the_match_speaks_the_chats_language(matches: Matches):
    first = await matches.start(GROUP, LI, 2)
    assert "比赛：第 1 局，共 2 局" in first.text
    played = await win(matches, BEN)
    step = await matches.after_round(GROUP.id, played.id)
    assert step is not None and "第 1 局后的比分" in (step.text or "")
    nxt = await matches.deal_next(GROUP.id)
    assert nxt is not None and "第 2 局" in nxt.text


async def test_a_match_follows_its_group_into_a_supergroup(matches: Matches):
    await matches.start(GROUP, ANN, 2)
    moved = await matches.game.migrate_chat(GROUP.id, -100042)
    assert moved is not None
    assert await matches.storage.match_on(GROUP.id) is None
    match = await matches.storage.match_on(-100042)
    assert match is not None and [r.round_id for r in
                                  await matches.storage.match_rounds(match.id)] == [moved.id]
