"""A close's followers (bot/play/round/events.py `Closings`): asked together, their lines under
the result in the followers' order whoever finishes first; a late close asks only the late
ones; a follower that fails fails the result only once every other has finished."""

from __future__ import annotations

import asyncio

import pytest

from bot.play.round.events import Closings, Following, FollowUp, RoundClosed
from bot.store.records import Round
from bot.text.i18n import Texts, texts_for

ROUND = Round(7, -42, "24", (3, 3, 8, 8), 24, "medium", 10, "en", 1, 100.0, 160.0, "won",
              False)


def follower(name: str, delay: float, log: list[str], fails: bool = False,
             match_on: bool = False):
    async def follow(event: RoundClosed, texts: Texts) -> FollowUp:
        log.append(f"{name} began")
        await asyncio.sleep(delay)
        log.append(f"{name} ended")
        if fails:
            raise RuntimeError(name)
        return FollowUp(f"{name}'s line", match_on=match_on)
    return follow


async def test_the_followers_run_together_and_their_lines_keep_their_order():
    log: list[str] = []
    closings = Closings([Following(follower("match", 0.05, log, match_on=True)),
                         Following(follower("tournament", 0.0, log)),
                         Following(follower("achievements", 0.02, log), late=True)])
    said = await closings.closed(RoundClosed(ROUND), texts_for("en"))
    assert said == FollowUp("match's line\ntournament's line\nachievements's line",
                            match_on=True)
    assert log[:3] == ["match began", "tournament began", "achievements began"]  # together
    assert log[3:] == ["tournament ended", "achievements ended", "match ended"]


async def test_a_late_close_asks_only_the_late_followers():
    log: list[str] = []
    closings = Closings([Following(follower("match", 0.0, log)),
                         Following(follower("achievements", 0.0, log), late=True)])
    said = await closings.closed(RoundClosed(ROUND, late=True), texts_for("en"))
    assert said == FollowUp("achievements's line")
    assert log == ["achievements began", "achievements ended"]


async def test_a_failing_follower_fails_the_result_once_the_others_ended():
    log: list[str] = []
    closings = Closings([Following(follower("match", 0.0, log, fails=True)),
                         Following(follower("achievements", 0.03, log))])
    with pytest.raises(RuntimeError, match="match"):
        await closings.closed(RoundClosed(ROUND), texts_for("en"))
    assert "achievements ended" in log  # none left running behind the error
