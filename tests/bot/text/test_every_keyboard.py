"""Through the real Application: a Persian, an Arabic and a Hindi keyboard's digits in /solve, in
answers and in /play; Persian chats shown Persian digits with every expression kept left to right;
a numeral that is not a digit and a sign that only looks like division answered clearly."""

from __future__ import annotations

import re

import pytest

from bot.text.scripts import LRI, PDI
from solver import parse, solve
from tests.bot.conftest import Harness

GROUP = -8801
USERS = {language: {"id": 880 + i, "is_bot": False, "first_name": "Sara", "language_code": code}
         for i, (language, code) in enumerate((("en", "en"), ("fa", "fa-IR"), ("ar", "ar-EG"),
                                               ("hi", "hi-IN")))}
KEYBOARDS = {"fa": "۳ ۸ ۳ ۸", "ar": "٣ ٨ ٣ ٨", "hi": "३ ८ ३ ८"}
ISOLATED = re.compile(f"{LRI}(.*?){PDI}", re.S)


async def ask(h: Harness, text: str, user: dict, chat: int) -> str:
    await h.send(chat, user, text, kind="private" if chat > 0 else "group")
    return (await h.telegram.reply(chat)).text


@pytest.mark.parametrize("language", KEYBOARDS)
async def test_solve_reads_each_keyboards_digits(harness: Harness, language: str):
    """/solve ۳ ۸ ۳ ८ from a Persian, Arabic or Hindi keyboard lists the solution of 3 8 3 8, in the
    asker's language, as /solve 3 8 3 8 does."""
    harness.telegram.refuse_rich = True  # the text form, in the asker's digits
    user = USERS[language]
    typed = await ask(harness, f"/solve {KEYBOARDS[language]}", user, user["id"])
    ascii_ = await ask(harness, "/solve 3 8 3 8", user, user["id"])
    assert typed == ascii_
    shown = [piece for piece in ISOLATED.findall(typed) if "÷" in piece] if language != "hi" \
        else re.findall(r"8÷\(3−8÷3\)", typed)
    assert shown, typed
    plain = re.sub(r"<[^>]+>", "", shown[0])
    assert parse(plain) == parse("8/(3-8/3)")  # what is shown reads back as the solution


async def test_a_persian_chat_sees_persian_digits_and_isolated_expressions(harness: Harness):
    harness.telegram.refuse_rich = True  # the text form (a rich message's LaTeX writes 0-9)
    user = USERS["fa"]
    said = await ask(harness, "/solve ۳ ۸ ۳ ۸", user, user["id"])
    assert f"{LRI}۸÷(۳−۸÷۳){PDI}" in said
    assert not re.search("[0-9]", said.replace("/solve", ""))
    mixed = await ask(harness, "/solve 1 ۲ ٣ ४ = ۲۴", user, user["id"])  # four scripts at once
    assert mixed == await ask(harness, "/solve 1 2 3 4", user, user["id"])


@pytest.mark.parametrize("language", ["fa", "ar", "hi", "en"])
async def test_a_round_is_won_with_the_keyboard_s_own_digits(harness: Harness, language: str):
    user, chat = USERS[language], GROUP - USERS[language]["id"]
    harness.telegram.promote(chat, user["id"])
    await ask(harness, f"/lang {language}", user, chat)
    await harness.send(chat, user, "/play")
    deal = await harness.telegram.reply(chat)
    current = harness.services.rounds.open_round(chat)
    assert current is not None
    if language == "fa":  # the deal shows the hand in Persian digits, left to right
        assert all(ch not in deal.text for ch in "0123456789"), deal.text
    zero = {"fa": "۰", "ar": "٠", "hi": "०", "en": "0"}[language]
    answer = solve(list(current.hand))[0]
    typed = "".join(chr(ord(zero) + int(ch)) if ch.isdigit() else ch for ch in answer)
    await harness.send(chat, user, typed)  # a plain message, no command
    await harness.telegram.reply(chat)
    assert harness.services.rounds.open_round(chat) is None  # it won


@pytest.mark.parametrize(("typed", "english"), [
    ("三*8", "<code>三</code> is a numeral, not a digit"),
    ("8٪(3-8/3)", "<code>٪</code> is not a division sign: divide with / or ÷."),
    ("8٫3", "<code>٫</code> is not a division sign"),
    ("፫+3", "<code>፫</code> is a numeral, not a digit")])
async def test_a_numeral_or_a_mistaken_sign_gets_a_clear_answer(harness: Harness, typed: str,
                                                                english: str):
    user, chat = USERS["en"], GROUP
    await harness.send(chat, user, "/play")
    await harness.telegram.reply(chat)
    await harness.send(chat, user, f"/a {typed}")
    said = await harness.telegram.reply(chat)
    assert english in said.html, said.html
    assert harness.services.rounds.open_round(chat) is not None  # nothing lost


@pytest.mark.parametrize("language", KEYBOARDS)
async def test_an_inline_query_reads_each_keyboards_digits(harness: Harness, language: str):
    user = USERS[language]
    typed = await harness.inline(user, KEYBOARDS[language])
    plain = await harness.inline(user, "3 8 3 8")
    assert [r["title"] for r in typed.results] == [r["title"] for r in plain.results]
    assert typed.results and typed.results[0]["id"] != "problem"


async def test_an_inline_answer_in_persian_is_written_in_persian_digits(harness: Harness):
    answered = await harness.inline(USERS["fa"], "3 8 3 8")
    [first] = answered.results[:1]
    assert first["title"] == f"{LRI}۸÷(۳−۸÷۳) = ۲۴{PDI}"
    assert "←" in first["description"] and not re.search("[0-9]", first["description"])
