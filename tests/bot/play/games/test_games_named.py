"""Every line that lists the games names each game the registry holds, in the chat's language
(issue 72): the greeting, "no round is on here", and the usage lines of /top, /match and
/tournament, which once listed the first three games and missed Make 10 and Krypto."""

from __future__ import annotations

import pytest

from bot.play.games import FIRST, GAMES
from bot.play.games.help import greeting, no_round
from bot.play.tournaments.rules import GAMES as TOURNAMENT_GAMES
from bot.text.html_text import visible_text
from bot.text.i18n import LANGUAGES, Texts, texts_for
from tests.bot.conftest import Harness

GROUP = -7931
ANN = {"id": 793, "is_bot": False, "first_name": "Ann", "language_code": "en"}


async def said(harness: Harness, text: str, chat: int = GROUP, kind: str = "group") -> str:
    await harness.send(chat, ANN, text, kind=kind)
    return visible_text((await harness.telegram.reply(chat)).text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lines_that_list_the_games_name_every_game(language: str):
    for private in (False, True):
        texts = texts_for(language, private)
        started = visible_text(no_round(texts))
        assert all(game.start in started for game in GAMES.values()), (language, started)
        greeted = visible_text(greeting(texts, "Ann"))
        assert all(game.start in greeted for game in GAMES.values()), (language, greeted)


def test_the_games_are_joined_as_the_language_joins_a_list():
    assert visible_text(no_round(Texts("en"))) == \
        "No round is on here. Start one with /play, /countdown, /yahtzee, /make10, or /krypto."
    assert "/countdown, /yahtzee, /make10 und /krypto sind die anderen Spiele" in \
        visible_text(greeting(Texts("de"), "Ann"))
    assert "/play、/countdown、/yahtzee、/make10 或 /krypto" in visible_text(no_round(Texts("zh")))
    assert visible_text(greeting(Texts("en"), "Ann")).count(FIRST.start) == 1  # 24 said once


async def test_an_answer_with_no_round_on_names_every_game(harness: Harness):
    reply = await said(harness, "/hint")
    assert all(game.start in reply for game in GAMES.values()), reply


async def test_the_private_greeting_has_a_line_for_each_game(harness: Harness):
    reply = await said(harness, "/start", chat=ANN["id"], kind="private")
    lines = reply.splitlines()
    for game in GAMES.values():
        assert any(line.startswith("•") and game.start in line for line in lines), game.name
    assert "Make 10: four digits make ten (/make10)" in reply


@pytest.mark.parametrize(("command", "games"), [
    ("/top nonsense", tuple(GAMES)),
    ("/match nonsense", tuple(GAMES)),
    ("/tournament nonsense", TOURNAMENT_GAMES),
])
async def test_a_usage_line_offers_the_games_its_command_reads(
        harness: Harness, command: str, games: tuple[str, ...]):
    reply = await said(harness, command)
    assert f"[{'|'.join(games)}]" in reply, reply
    offered = reply.split(f"[{'|'.join(games)}]")[0]
    assert all(f"{name}|" not in offered for name in GAMES if name not in games)


async def test_every_game_a_usage_line_offers_is_read_by_its_command(harness: Harness):
    """The names shown are the words the readers take: each game named after /top and /match
    is read as that game, not refused."""
    for name in GAMES:
        assert "Usage:" not in await said(harness, f"/top {name}"), name
    reply = await said(harness, f"/match 3 {list(GAMES)[-1]}")
    assert "Usage:" not in reply and harness.services.rounds.open_round(GROUP).game == \
        list(GAMES)[-1]
