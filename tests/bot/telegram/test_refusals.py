"""One voice for every refusal (issue 55, item 6): docs/refusals.md's table, walked in all sixteen
languages through the real Application. Each row is typed where it says; the answer must have the
three lines of the language's `refusal` message (what was wrong, what is allowed, an example) and
no number written two ways; then the example it gave is typed back in the same place and must be
taken: a command answered with something other than a refusal, an answer stored among the round's
answers, an inline query answered with results. An empty board names its own game's command."""

from __future__ import annotations

import html
import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.numbers import get_group_symbol

from bot.play.asking.numbers import MAX_ARGUMENTS
from bot.play.asking.usage import read_nothing
from bot.play.games import GAMES
from bot.play.games.help import read_topic
from bot.play.guards.live import could_be_live
from bot.telegram import grammar
from bot.telegram.features.tournaments.grammar import read_tournament
from bot.telegram.refusals import ALONE, USAGES, example
from bot.text.html_text import visible_text
from bot.text.i18n import LANGUAGES, Texts, texts_for
from solver.digits import plain_digits
from tests.bot.conftest import Harness
from tests.conftest import ROOT

TABLE = ROOT / "docs" / "refusals.md"
LRI, PDI = "\u2066", "\u2069"
DEALS = {"a round of 24": "/play", "a round of Countdown": "/countdown",
         "a round of Yahtzee": "/yahtzee"}
ids = itertools.count(1)


@dataclass(frozen=True)
class Row:
    typed: str
    where: str
    example: str | None  # the English refusal's example, when the table gives one


def expand(cell: str) -> str:
    """`(1 )×201`: "1 " two hundred and one times."""
    return re.sub(r"\((.+?)\)×(\d+)", lambda m: m.group(1) * int(m.group(2)), cell)


def rows(path: Path = TABLE) -> list[Row]:
    """The table of docs/refusals.md, row by row."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[0].startswith("`"):
            continue
        typed, where, *_, given = cells
        shown = re.fullmatch(r"`([^`]+)`", given)
        found.append(Row(expand(typed.strip("`")), where, shown.group(1) if shown else None))
    return found


ROWS = rows()


def shape(texts: Texts) -> re.Pattern[str]:
    """The language's refusal as a pattern: its ❌, its three lines, its "For example:" and the
    example in <code> (kept left to right in a right-to-left language)."""
    marked = texts("refusal", problem="\x01", allowed="\x02", example="\x03")
    pattern = re.escape(marked).replace("\x01", "(?P<problem>[^\n]+)")
    pattern = pattern.replace("\x02", "(?P<allowed>[^\n]+)")
    return re.compile(pattern.replace(
        "\x03", f"{LRI}?<code>(?P<example>[^<]+)</code>{PDI}?") + "$")


def numbers_written_two_ways(texts: Texts, message: str) -> set[int]:
    """Numbers of the message written both grouped ("1,000,000") and not ("1000000")."""
    group = get_group_symbol(texts.locale, numbering_system="default")
    text = plain_digits(visible_text(message))
    grouped = {int(n.replace(group, "")) for n in re.findall(
        rf"(?<![\d{re.escape(group)}])\d{{1,3}}(?:{re.escape(group)}\d{{2,3}})+(?!\d)", text)}
    plain = {int(n) for n in re.findall(r"(?<![\d.,\u00a0\u202f٬])\d{4,}(?![\d])", text)}
    return grouped & plain


def tag_of(language: str) -> str:
    return language.lower()


async def dealt(h: Harness, chat: int, user: dict, command: str) -> int:
    await h.send(chat, user, command)
    await h.telegram.reply(chat)
    record = h.services.rounds.open_round(chat)
    assert record is not None, f"{command} dealt nothing"
    return record.id


async def answered(h: Harness, chat: int, user: dict, text: str) -> str:
    await h.send(chat, user, text, kind="private" if chat > 0 else "group")
    return (await h.telegram.reply(chat)).html


def refused(texts: Texts, message: str) -> re.Match[str] | None:
    return shape(texts).match(message)


async def walk(h: Harness, language: str, row: Row) -> None:
    texts = texts_for(language)
    number = next(ids)
    user = {"id": 5_000_000 + number, "is_bot": False, "first_name": "Ann",
            "language_code": tag_of(language)}
    if row.where == "inline":
        query = row.typed.removeprefix("@bot ")
        results = (await h.inline(user, query)).results
        message = results[0]["input_message_content"]["message_text"]
    else:
        chat = user["id"] if row.where == "a private chat" else -5_000_000 - number
        round_id = await dealt(h, chat, user, DEALS[row.where]) if row.where in DEALS else None
        message = await answered(h, chat, user, row.typed)
    found = refused(texts, message)
    assert found is not None, f"{language} {row.typed!r}: not a refusal's shape: {message!r}"
    assert not numbers_written_two_ways(texts, message), (language, row.typed, message)
    given = html.unescape(found.group("example"))
    if language == "en" and row.example is not None:
        assert given.replace(h.telegram.username, "bot") == row.example, message
    if row.where == "inline":
        taken = (await h.inline(user, given.split(" ", 1)[1])).results
        assert taken and taken[0]["id"] not in ("problem", "usage"), (language, given, taken)
    elif round_id is not None:
        before = len([s for s in h.telegram.sent if s.chat_id == chat])
        await h.send(chat, user, given)
        assert user["id"] in await h.stores.rounds.answerers(round_id), (language, given)
        said = [s.html for s in h.telegram.sent if s.chat_id == chat][before:]
        assert not any(refused(texts, s) for s in said), (language, given, said)
    else:
        again = await answered(h, chat, user, given)  # answered, not refused again
        assert refused(texts, again) is None and found.group("allowed") not in again, \
            (language, given, again)


def test_the_table_is_read():
    """Every kind of place, every command that refuses, and the issue's examples."""
    assert {row.where for row in ROWS} == {"a group", "a private chat", "inline", *DEALS}
    typed = {row.typed for row in ROWS}
    assert {"/solve 3.5 8 3 8", "/countdown =", "/solve = 24", "/a 11 11 6 7",
            "/solve 1 2 3 4 5 6 7"} <= typed
    assert any(len(t) > MAX_ARGUMENTS for t in typed)  # 200 numbers
    commands = {t.split()[0] for t in typed}
    assert {"/solve", "/play", "/countdown", "/yahtzee", "/match", "/top", "/lang", "/a",
            "/daily", "@bot"} <= commands


# English in the inner loop; the other fifteen (12 s each on two cores) with the slow tests
IN_EVERY_LANGUAGE = [language if language == "en" else
                     pytest.param(language, marks=pytest.mark.slow)
                     for language in LANGUAGES]


@pytest.mark.parametrize("language", IN_EVERY_LANGUAGE)
async def test_every_refusal_in_every_language(harness: Harness, language: str):
    for row in ROWS:
        await walk(harness, language, row)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_an_empty_board_names_its_own_game(harness: Harness, language: str):
    user = {"id": 6_000_000 + LANGUAGES.index(language), "is_bot": False, "first_name": "Bo",
            "language_code": tag_of(language)}
    chat = -6_000_000 - LANGUAGES.index(language)
    for asked, start in (("/top yahtzee", "/yahtzee"), ("/top week countdown", "/countdown"),
                         ("/top all yahtzee", "/yahtzee"), ("/top rating countdown", "/countdown"),
                         ("/top", "/play"), ("/top rating", "/play")):
        said = visible_text(await answered(harness, chat, user, asked))
        assert start in said and (start == "/play") == ("/play" in said), (language, said)


def every_example() -> list[str]:
    return [given for usage in USAGES.values()
            for given in (usage.example, *usage.examples_for.values(), usage.several_words)
            if given]


READERS = {**{game.start: game.read for game in GAMES.values()},
           "/solve": grammar.read_solve, "/match": grammar.read_match, "/top": grammar.read_board,
           "/daily": grammar.read_daily,
           "/tournament": lambda given: read_tournament(given.split()[1:]), "/help": read_topic,
           "/storm": grammar.read_solo, "/streak": grammar.read_solo,
           **{f"/{name}": read_nothing for name in ALONE}}


def test_every_example_reads():
    """The examples refusals give are commands their readers take: every game's, and every
    other command's."""
    examples = every_example()
    assert {given.partition(" ")[0] for given in examples} == set(READERS)
    for given in examples:
        command, _, arguments = given.partition(" ")
        READERS[command](arguments)  # raises UsageError if it does not read


def test_the_examples_are_hands_the_bot_never_deals():
    """As /help's: a refusal's example is never itself refused for touching a live round."""
    solving = []
    for given in every_example():
        command, _, arguments = given.partition(" ")
        request = READERS[command](arguments)
        if isinstance(request, grammar.SolveRequest):
            solving.append(given)
            assert not could_be_live(request.numbers, request.target), given
    assert len(solving) >= 5


def test_a_countdown_refusal_offers_what_was_meant():
    """One word after /countdown is a count of large numbers; more are a game to solve."""
    error = grammar.UsageError("unknown_word", word="x")
    assert example("countdown_usage", error, "x") == "/countdown 2"
    assert example("countdown_usage", error, "1 2 x = 5").startswith("/countdown 2 8 25")
    assert example("solve_usage", grammar.UsageError("no_target", rules="closest_usage"),
                   "--closest 1 2") == USAGES["closest_usage"].example


def test_the_two_ways_check_catches_a_number_written_two_ways():
    english, persian = texts_for("en"), texts_for("fa")
    assert numbers_written_two_ways(english, "0 to 1000000 and 0 to 1,000,000") == {1_000_000}
    assert not numbers_written_two_ways(english, "2000000 is out: 0 to 1,000,000")
    assert numbers_written_two_ways(persian, persian.number(5000) + " و ۵۰۰۰") == {5000}
    assert not numbers_written_two_ways(english, "/solve 3 8 3 8 and 1,000")
