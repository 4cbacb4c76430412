"""Odd characters through the real Application: the usage line or a clear refusal, never the
"something went wrong" apology (issue 9, item 5)."""

from __future__ import annotations

import pytest

from bot.text.i18n import LANGUAGES, catalog
from solver import ParseError
from tests.bot.conftest import Harness

GROUP = -1051
ANN = {"id": 51, "is_bot": False, "first_name": "Ann"}
ZHANG = {"id": 52, "is_bot": False, "first_name": "张", "language_code": "zh-hans"}


@pytest.mark.parametrize(("command", "usage"), [
    ("/play ²", "Usage: /play"), ("/play 4 ¹", "Usage: /play"), ("/play = ²⁴", "Usage: /play"),
    ("/countdown ²", "Usage: /countdown"), ("/countdown 1 3 7 10 25 ⑳ = 765", "Usage: /countdown"),
    ("/solve 3 8 3 ⁸", "Usage: /solve"), ("/solve 3 8 3 8 = " + "9" * 5000, "Usage: /solve"),
])
async def test_styled_digits_in_commands_get_the_usage_line(harness: Harness, command, usage):
    await harness.send(GROUP, ANN, command)
    sent = await harness.telegram.reply(GROUP)
    assert usage in sent.text  # after what was wrong, when that is known
    assert "9999" not in sent.text


async def test_full_width_digits_in_a_command_work(harness: Harness):
    await harness.send(GROUP, ANN, "/solve ３ ８ ３ ８")
    assert (await harness.telegram.reply(GROUP)).formulas == [r"\frac{8}{3 - \frac{8}{3}} = 24"]
    harness.telegram.refuse_rich = True  # and as text
    await harness.send(GROUP, ANN, "/solve ３ ８ ３ ８")
    assert "8÷(3−8÷3) = 24" in (await harness.telegram.reply(GROUP)).text


async def test_a_styled_digit_in_an_answer_is_refused_by_name(harness: Harness):
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, ANN, "/a 3²+⑳")
    refused = await harness.telegram.reply(GROUP)
    assert "² only looks like 2" in refused.text and "superscript" in refused.text
    assert harness.services.rounds.open_round(GROUP) is not None  # nothing lost: the round goes on
    await harness.send(GROUP, ZHANG, "/a ⑳+4")
    refused = await harness.telegram.reply(GROUP)
    assert "⑳ 只是看起来像 20" in refused.text


def test_every_parse_error_has_its_message_in_both_languages():
    def subclasses(cls):
        return [cls, *(c for sub in cls.__subclasses__() for c in subclasses(sub))]

    codes = {cls.code for cls in subclasses(ParseError)}
    assert "styled_character" in codes
    for language in LANGUAGES:
        assert {f"parse_{code}" for code in codes} <= set(catalog(language)), language
