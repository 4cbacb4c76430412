"""A match of any game (`/match 5 countdown`): its first round is of the game named (the first
game's when none is), every next round of the game its first round was; two games named are
refused with the usage, and nothing is dealt."""

from __future__ import annotations

import pytest

from bot.play.outcomes import Dealt
from bot.text.html_text import visible_text
from solver import solve
from tests.bot.conftest import Harness

GROUP = -7951
ANN = {"id": 795, "is_bot": False, "first_name": "Ann", "language_code": "en"}


@pytest.mark.parametrize(("asked", "game"), [("/match 2 countdown", "countdown"),
                                             ("/match countdown 2", "countdown"),
                                             ("/match 2", "24")])
async def test_a_match_deals_the_game_named_round_after_round(harness: Harness, asked: str,
                                                               game: str):
    h = harness
    await h.send(GROUP, ANN, asked)
    await h.telegram.reply(GROUP)
    first = h.services.rounds.open_round(GROUP)
    assert first is not None and first.game == game
    if game == "24":
        await h.send(GROUP, ANN, f"/a {solve(first.hand, first.target)[0]}")
    else:
        await h.send(GROUP, ANN, "/reveal")
    await h.telegram.reply(GROUP)
    assert h.services.rounds.open_round(GROUP) is None
    second = await h.services.matches.deal_next(GROUP)  # what the pause's alarm does
    assert isinstance(second, Dealt) and second.round.game == game


async def test_two_games_named_are_refused(harness: Harness):
    await harness.send(GROUP, ANN, "/match countdown yahtzee")
    said = visible_text((await harness.telegram.reply(GROUP)).text)
    assert "Usage:" in said and "yahtzee" in said
    assert harness.services.rounds.open_round(GROUP) is None
