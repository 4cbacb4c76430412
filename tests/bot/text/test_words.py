"""The bot's words: catalogs that agree, plurals, "−", private-chat wording, /lang tags, /start and
/help, and a reveal that names its round. Catalog checks are pure; the rest goes through the real
Application."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path

import pytest
from babel.numbers import format_decimal

from bot.runtime.pool import SolverPool
from bot.text import i18n, markup
from bot.text.catalogs import read_catalog
from bot.text.i18n import LANGUAGES, PRIVATE, Texts, language_of, parse_language, texts_for
from demo.emulator import BotApiEmulator
from solver import solve
from tests.bot.conftest import Harness, make_config, running
from tests.bot.telegram.test_buttons import press
from tests.bot.text.test_catalogs import sample_values

GROUP = -1001
ALICE = {"id": 11, "is_bot": False, "first_name": "Alice", "language_code": "en"}
BOB = {"id": 12, "is_bot": False, "first_name": "Bob", "language_code": "en"}
ZHANG = {"id": 13, "is_bot": False, "first_name": "张", "language_code": "zh-hans"}


# --- the words ----------------------------------------------------------------------------------
# (The catalogs' completeness, every message rendered, CLDR's forms:
# tests/bot/text/test_catalogs.py.)

@pytest.mark.parametrize("private", [False, True])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("number", [1, 2, -3])
def test_every_message_fills_in_with_numbers(language: str, private: bool, number: int):
    """Each plural noun and `duration` a message names exists in its language; no hyphen minus
    is left in a number."""
    texts = texts_for(language, private)
    for key, message in texts.messages.items():
        values = sample_values(message + texts.messages.get(key + PRIVATE, ""), number)
        values.pop("languages", None)
        filled = texts(key, **values)
        assert "{" not in filled and "-3" not in filled, (language, key)


def test_plurals_in_english_and_none_in_chinese():
    en, zh = Texts("en"), Texts("zh")
    assert [en.plural("wins", n) for n in (0, 1, 2)] == ["0 wins", "1 win", "2 wins"]
    assert [en.plural("points", n) for n in (1, 7)] == ["1 point", "7 points"]
    assert [en.plural("rounds", n) for n in (1, 3)] == ["1 round", "3 rounds"]
    assert [en.count(1), en.count(3), en.count(12, 10)] == \
        ["1 distinct solution", "3 distinct solutions", "12 distinct solutions, 10 shown"]
    assert [zh.plural("wins", n) for n in (1, 3)] == ["1 胜", "3 胜"]
    assert zh.count(1) == "1 种不同的解法"
    assert en("top_line", rank=1, name="Ann", points=1, wins=1) == "1. Ann — 1 point, 1 win"
    assert en("top_line", rank=2, name="Ben", points=30, wins=3) == "2. Ben — 30 points, 3 wins"
    assert en("usage_dice_count", count="3").startswith("That is 3 dice,")  # a count as text
    assert en("usage_dice_count", count="1").startswith("That is 1 die,")


def test_durations():
    en, zh, hant = Texts("en"), Texts("zh"), Texts("zh-Hant")
    assert [en.duration(s) for s in (1, 1.2, 45, 60, 90, 120, 300, 330)] == \
        ["1 second", "1 second", "45 seconds", "60 seconds", "90 seconds", "2 minutes",
         "5 minutes", "330 seconds"]
    assert [zh.duration(s) for s in (1, 300)] == ["1秒钟", "5分钟"]  # CLDR's Chinese
    assert [hant.duration(s) for s in (1, 300)] == ["1 秒", "5 分鐘"]


def test_negative_numbers_are_shown_with_a_minus_sign():
    en = Texts("en")
    assert "<b>−6</b>" in en("solve_none", numbers="<code>1</code>", target=-6)
    assert en("top_line", rank=1, name="A", points=-2, wins=0) == "1. A — −2 points, 0 wins"
    assert Texts("ru")("top_line", rank=1, name="A", points=-2, wins=0) == \
        "1. A — −2 очка, 0 побед"


def test_numbers_written_from_the_memo_are_babel_s_and_the_memo_is_bounded(monkeypatch):
    """A number is written once a language and remembered: what is remembered is what Babel
    writes for that very value (its type and its text: -0.0, 1.50 and 1.5 apart), and the
    memo starts again at its bound."""
    monkeypatch.setattr(i18n, "NUMBERS_KEPT", 5)
    values = [0, -0.0, 0.0, 7, 7.0, 1234567, -3, Decimal("1.50"), Decimal("1.5"),
              Decimal("-2.25"), 1.05, 0.1 + 0.2, 10 ** 12]
    for language in ("en", "ru", "fa", "ar", "de", "hi"):
        texts = Texts(language)
        for _ in range(3):  # written, then read back, past the bound more than once
            for value in values:
                assert texts.number(value) == texts.script.number_digits(markup.signed(
                    format_decimal(value, locale=texts.locale, numbering_system="default")))
                seconds = float(value) / 7
                assert texts.seconds(seconds) == texts("seconds", seconds=format_decimal(
                    round(seconds, 1), format="#,##0.0", locale=texts.locale,
                    numbering_system="default"))
                assert len(texts._written) <= 5


def test_private_chats_are_worded_as_such():
    group, private = texts_for("zh"), texts_for("zh", private=True)
    assert "本群" in group("busy", seconds=3) and "本群" not in private("busy", seconds=3)
    assert "本群" in group("lang_set") and "这里" in private("lang_set")
    assert "本群" in group("stats_title", name="张") and "这里" in private("stats_title", name="张")
    assert "or this chat" in texts_for("en")("busy", seconds=3)
    assert "or this chat" not in texts_for("en", private=True)("busy", seconds=3)
    group_only = {"lang_not_allowed", "settings_admins_only", "settings_head", "hints_off",
                  "greet_privacy", "play_too_many_topics", "coach_off",  # said in groups alone
                  "webapp_page_group", "webapp_hands_title", "webapp_weeks_title",
                  "webapp_board_title", "webapp_group_button",  # a group's page, its button
                  # a tournament's words for a group that made, joined or plays one: a private
                  # chat is refused before any (it may follow one, and hears none of these)
                  "tournament_this_group", "tournament_admins_only", "tournament_already_in",
                  "tournament_joined", "tournament_leave_own", "tournament_left",
                  "tournament_round_done", "tournament_here_won", "tournament_here_nobody",
                  "tournament_own_players", "tournament_own_place",
                  # a group's follow refused to one not its admin: a private chat is its own
                  "tournament_follow_admins_only",
                  # a group's own board of storms: /storm top in a private chat is everyone's
                  "storm_board_day_group", "storm_board_season_group",
                  "streak_board_season_group", "streak_board_all_group"}
    for language, this_group in (("zh", "本群"), ("zh-Hant", "這個群組")):
        texts = texts_for(language, private=True)  # no "this group" in a private chat
        for key, message in texts.messages.items():
            if key in group_only:
                continue
            values = sample_values(message + texts.messages.get(key + PRIVATE, ""), 1)
            values.pop("languages", None)
            assert this_group not in texts(key, **values), (language, key)


def test_lang_accepts_language_tags_and_names():
    for tag in ("zh", "ZH", "zh-CN", "zh_CN", "zh-Hans", "zh-hans-cn", "ZH_cn", "zh-SG", "中文",
                "简体中文", "Chinese", "Simplified Chinese", "chino simplificado"):
        assert parse_language(tag) == "zh", tag
    for tag in ("zh-TW", " zh-TW ", "zh-HK", "zh_Hant", "zh-hant", "繁體中文",
                "Traditional Chinese"):
        assert parse_language(tag) == "zh-Hant", tag
    for tag in ("ru", "RU", "ru-RU", "русский", "Русский", "Russian"):
        assert parse_language(tag) == "ru", tag
    for tag in ("es", "es-MX", "es_419", "español", "Espanol", "Spanish", "испанский"):
        assert parse_language(tag) == "es", tag
    for tag in ("pt", "pt-BR", "pt-PT", "pt_br", "português", "Portuguese"):
        assert parse_language(tag) == "pt-BR", tag
    for tag in ("en", "EN", "en-US", "en_us", "en-GB", "English", "inglés"):
        assert parse_language(tag) == "en", tag
    for tag in ("", "nl", "ja-JP", "pl", "zh-", "zh--cn", "zhCN", "en us", "english please",
                "z", "nederlands"):
        assert parse_language(tag) is None, tag


def test_a_telegram_language_code_gets_the_nearest_language():
    nearest = {"zh-TW": "zh-Hant", "zh-HK": "zh-Hant", "zh-MO": "zh-Hant", "zh-Hant": "zh-Hant",
               "zh-hant": "zh-Hant", "zh": "zh", "zh-CN": "zh", "zh-SG": "zh", "zh-Hans": "zh",
               "zh-hans": "zh", "pt": "pt-BR", "pt-PT": "pt-BR", "pt-BR": "pt-BR",
               "pt-br": "pt-BR", "es": "es", "es-ES": "es", "es-MX": "es", "es-419": "es",
               "ru": "ru", "ru-RU": "ru", "en": "en", "en-GB": "en", "nl": "en", "ja": "en",
               "fr-CA": "fr", "de-AT": "de", "uk": "uk", "fa-IR": "fa", "fa-AF": "fa",
               "ar-EG": "ar", "ar-SA": "ar", "hi-IN": "hi", "uz-Latn-UZ": "uz", "uz-Cyrl": "uz",
               "id-ID": "id", "tr-TR": "tr", "it-CH": "it", "": "en", None: "en", "not a tag": "en"}
    assert {code: language_of(code) for code in nearest} == nearest


def test_a_language_code_remembered_gets_the_same_language_and_the_memory_is_bounded():
    codes = {"pt-br": "pt-BR", "zh-hk": "zh-Hant", "zh-TW": "zh-Hant", "zh-SG": "zh",
             "ru-RU": "ru", "nl": "en", "de": "de", None: "en"}
    for _ in range(2):  # read, then remembered
        assert {code: language_of(code) for code in codes} == codes
    assert language_of.cache_info().maxsize is not None
    for n in range(language_of.cache_info().maxsize + 10):  # more codes than it keeps
        language_of(f"x{n}")
    assert language_of.cache_info().currsize <= language_of.cache_info().maxsize
    assert {code: language_of(code) for code in codes} == codes


# --- through the Application ---------------------------------------------------------------------

@pytest.fixture
async def timed(telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path
                ) -> AsyncIterator[Harness]:
    """The bot with round lengths other than the defaults (and a 24 round of one second)."""
    config = dataclasses.replace(make_config(telegram, tmp_path / "bot.sqlite3"),
                                 round_seconds=1.0,
                                 lengths={"COUNTDOWN_SECONDS": "90", "YAHTZEE_SECONDS": "600"})
    async with running(telegram, pool, config) as h:
        yield h


async def ask(h: Harness, text: str, user: dict = ALICE, chat: int = GROUP,
              kind: str = "group") -> str:
    await h.send(chat, user, text, kind=kind)
    return (await h.telegram.reply(chat)).text


async def win(h: Harness, user: dict, chat: int = GROUP) -> None:
    await ask(h, "/play", user, chat)
    current = h.services.rounds.open_round(chat)
    assert current is not None
    assert "wins with" in await ask(h, f"/a {solve(current.hand)[0]}", user, chat)


async def help_of(h: Harness, user: dict = ALICE, chat: int = GROUP) -> str:
    """/help's two messages, the commands then the rules, as one text."""
    await h.send(chat, user, "/help")
    return "\n".join(sent.text for sent in await h.telegram.replies(chat, 2))


async def test_help_shows_the_configured_round_lengths(timed: Harness):
    text = await help_of(timed)
    assert "1 second a round" in text and "in 90 seconds" in text and "in 10 minutes" in text
    for command in ("/play", "/answer", "/hint", "/reveal", "/countdown", "/yahtzee", "/solve",
                    "/top", "/stats", "/lang", "/help"):
        assert command in text, command
    assert "10分钟内" in await help_of(timed, ZHANG, chat=-5)  # CLDR writes no space
    await timed.send(GROUP, ALICE, "/countdown")
    deal = await timed.telegram.reply(GROUP)
    assert "90 seconds;" in deal.text
    await timed.send(GROUP, ALICE, "/countdown")
    assert "\n1 min 30 s left." in (await timed.telegram.reply(GROUP)).text  # as a clock says


async def test_the_end_of_a_round_names_its_game_and_target(timed: Harness):
    await timed.send(GROUP, ALICE, "/play")
    deal = await timed.telegram.reply(GROUP)
    assert "1 second," in deal.text  # one second, not "1 seconds"
    ended = await timed.telegram.reply(GROUP)  # the timer
    assert ended.text.startswith("⏰ Time is up for the round to make 24.")  # not an order
    assert "(24)" not in ended.text


async def test_reveal_names_each_game(harness: Harness):
    await harness.send(GROUP, ALICE, "/play 4 = 36")
    await harness.telegram.reply(GROUP)
    revealed = await ask(harness, "/reveal")
    assert revealed.startswith("⏹ Ended early: the round to make 36.") and "(24)" not in revealed
    await harness.send(GROUP, ALICE, "/countdown")
    await harness.telegram.reply(GROUP)
    target = harness.services.rounds.open_round(GROUP).target
    revealed = await ask(harness, "/reveal")
    assert revealed.startswith(
        f"⏹ Ended early: the Countdown round (as close to {target} as you can).")
    await harness.send(GROUP, ALICE, "/yahtzee")
    await harness.telegram.reply(GROUP)
    revealed = await ask(harness, "/reveal")
    assert revealed.startswith(
        "⏹ Ended early: the Yahtzee round (the best total of 13 rolls).")
    await harness.send(-5, ZHANG, "/countdown")
    await harness.telegram.reply(-5)
    target = harness.services.rounds.open_round(-5).target
    revealed = await ask(harness, "/reveal", ZHANG, chat=-5)
    assert revealed.startswith(f"⏹ 提前结束：数字挑战（目标 {target}）这一局。")


async def test_counts_are_plural_only_when_many(harness: Harness):
    await win(harness, ALICE)
    assert "1 win in 1 round." in await ask(harness, "/stats")
    assert re.search(r"— \d+ points, 1 win$", await ask(harness, "/top"))
    await harness.send(GROUP, ALICE, "/play")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, BOB, "/a 1+2")  # Bob plays this round, and loses it
    assert "👎 Bob: 1+2 " in harness.telegram.edits[-1].text  # in the deal's status
    await win(harness, ALICE)
    assert "0 wins in 1 round." in await ask(harness, "/stats", BOB)
    assert "2 wins in 2 rounds." in await ask(harness, "/stats")
    assert re.search(r"Alice — \d+ points, 2 wins$", await ask(harness, "/top"), re.M)
    assert "3 8 3 8 → 24: 1 distinct solution\n" in await ask(harness, "/solve 3 8 3 8")
    assert "1 2 3 4 → 24: 3 distinct solutions\n" in await ask(harness, "/solve 1 2 3 4")


async def test_negative_targets_and_values_use_a_minus_sign(harness: Harness):
    harness.telegram.refuse_rich = True  # the text form (LaTeX writes its minus as -)
    text = await ask(harness, "/solve 3 4 = -1")
    assert "3 4 → −1: 1 distinct solution\n3−4 = −1" in text and "-" not in text
    assert "→ −5" in await ask(harness, "/solve 1 1 = -5")
    harness.telegram.no_reactions.add(GROUP)  # a wrong answer is then said in words
    await harness.send(GROUP, ALICE, "/play")
    await harness.telegram.reply(GROUP)
    low, *rest = sorted(harness.services.rounds.open_round(GROUP).hand)
    await harness.send(GROUP, ALICE, "/a " + "-".join(map(str, [low, *rest])))
    assert f"= −{sum(rest) - low}, not 24" in harness.telegram.edits[-1].text  # the status


async def test_start_greets_in_private_and_points_to_play_in_a_group(harness: Harness):
    private = await ask(harness, "/start", BOB, chat=BOB["id"], kind="private")
    assert private.startswith("👋 Hi Bob!") and "Countdown" in private and "Yahtzee" in private
    assert "/help" in private and "right here" in private
    group = await ask(harness, "/start")
    assert "/play" in group and "/help" in group and "this group" in group and "•" not in group
    private = await ask(harness, "/start", ZHANG, chat=ZHANG["id"], kind="private")
    assert private.startswith("👋 张，你好！") and "数字挑战" in private and "本群" not in private
    assert "本群" in await ask(harness, "/start", ZHANG, chat=-5)


async def test_chinese_wording_follows_the_chat_type(harness: Harness):
    private = await ask(harness, "/lang zh-CN", ZHANG, chat=ZHANG["id"], kind="private")
    assert private == "从现在起这里使用简体中文。"
    harness.telegram.promote(-5, ZHANG["id"])
    assert await ask(harness, "/lang zh_CN", ZHANG, chat=-5) == "本群从现在起使用简体中文。"
    assert "这里现在使用的语言：简体中文" in await ask(harness, "/lang", ZHANG, chat=ZHANG["id"],
                                       kind="private")
    assert "本群现在使用的语言：简体中文" in await ask(harness, "/lang", ZHANG, chat=-5)


async def test_lang_takes_tags_in_any_case(harness: Harness):
    harness.telegram.promote(GROUP, ALICE["id"])
    for tag, said in (("zh-Hans", "中文"), ("EN-us", "English"), ("ZH_cn", "中文"),
                      ("en_GB", "English"), ("中文", "中文")):
        assert said in await ask(harness, f"/lang {tag}"), tag
    for wrong in ("en us", "nl", "zh-", "chinese please"):  # the chat speaks Chinese now
        said = await ask(harness, f"/lang {wrong}")
        assert said.startswith(f"❌ 我不会说 {wrong}。") and said.endswith("例如：/lang zh"), wrong


# --- every language through the Application -----------------------------------------------------

# words the English catalog uses that may stand in any language: the games' and tools' own names,
# and the words /play, /top and the scores' table take as they are
UNTRANSLATED = {"Yahtzee", "BotFather", "Disable", "UVa", "UTC", "easy", "medium", "hard",
                "week", "daily", "all", "countdown", "yahtzee", "English", "Espanol", "Русский"}


def english_words(language: str) -> set[str]:
    """Words of three letters or more the English catalog has and the language's own catalog
    (without English standing in for what it lacks) does not."""
    def words(language: str) -> set[str]:
        catalog = read_catalog(language)
        written = [*catalog.messages.values(), *(" ".join(f) for f in catalog.plurals.values())]
        return set(re.findall(r"[A-Za-z]{3,}", " ".join(written)))
    return words("en") - words(language) - UNTRANSLATED


def english_left(language: str, shown: str) -> set[str]:
    """English words in what a chat shows, but for commands, code and names."""
    text = re.sub(r"/[a-z]+(@\w+)?|@\w+", " ", shown)
    return set(re.findall(r"[A-Za-z]{3,}", text)) & english_words(language)


TOURISTS = {language: {"id": 700 + i, "is_bot": False, "first_name": "Zoe",
                       "language_code": code}
            for i, (language, code) in enumerate((("zh", "zh-hans"), ("zh-Hant", "zh-tw"),
                                                  ("ru", "ru"), ("es", "es"), ("pt-BR", "pt-br"),
                                                  ("de", "de"), ("fr", "fr-FR"), ("it", "it"),
                                                  ("tr", "tr"), ("id", "id"), ("uk", "uk"),
                                                  ("uz", "uz"), ("hi", "hi"), ("ar", "ar-EG"),
                                                  ("fa", "fa-IR")))}


@pytest.mark.parametrize("language", TOURISTS)
async def test_a_round_in_every_language_has_no_english_word(harness: Harness, language: str):
    """/lang, then /help, /play, a wrong answer, a hint, a right answer, /solve of hands with 1, 2
    and 5 solutions, /top, /stats and /settings: no English word outside commands, numbers,
    code and names (the text forms: a rich message's mathematics is LaTeX, its paragraphs the
    same catalog words)."""
    harness.telegram.refuse_rich = True
    user, chat = TOURISTS[language], -7000 - TOURISTS[language]["id"]
    harness.telegram.promote(chat, user["id"])
    shown = [await ask(harness, f"/lang {language}", user, chat), await ask(harness, "/help",
                                                                            user, chat)]
    await harness.send(chat, user, "/play")
    deal = await harness.telegram.reply(chat)
    shown.append(deal.text)
    current = harness.services.rounds.open_round(chat)
    assert current is not None
    await harness.send(chat, user, "/a " + "+".join(map(str, current.hand[:3])))
    shown.append(harness.telegram.edits[-1].text)  # the deal's status: the wrong answer
    await harness.send(chat, user, "/hint")
    shown.append(harness.telegram.edits[-1].text)  # the deal with its hint
    shown.append(await ask(harness, f"/a {solve(list(current.hand))[0]}", user, chat))
    for hand in ("3 8 3 8", "1 1 2 6", "2 2 4 6"):  # 1, 2 and 5 solutions
        shown.append(await ask(harness, f"/solve {hand}", user, chat))
    shown += [await ask(harness, command, user, chat) for command in ("/top", "/stats")]
    await harness.send(chat, user, "/settings")
    panel = await harness.telegram.reply(chat)
    shown += [panel.text, *(label for label, _ in harness.telegram.buttons(chat,
                                                                          panel.message_id))]
    assert not {text for text in shown if english_left(language, text)}, language
    # the /lang answer names the language, as a sentence writes it ("français", "русском")
    assert texts_for(language)("lang_name").casefold()[:5] in shown[0].casefold() or \
        language in ("ru", "es", "pt-BR")


async def test_the_settings_panel_offers_every_language_by_its_own_name(harness: Harness):
    """The panel's language buttons carry tags like zh-Hant, and a press sets it."""
    harness.telegram.promote(GROUP, ALICE["id"])
    await harness.send(GROUP, ALICE, "/settings")
    panel = await harness.telegram.reply(GROUP)
    offered = [label for label, _ in harness.telegram.buttons(GROUP, panel.message_id)]
    assert {"简体中文", "繁體中文", "Русский", "Español", "Português"} <= set(offered)
    assert (await press(harness, panel.message_id, ALICE, "繁體中文", GROUP)).text == "已儲存。"
    assert harness.telegram.edits[-1].text.endswith("✅ 語言：<b>繁體中文</b>，從下一局開始。"
                                                    .replace("<b>", "").replace("</b>", ""))
    assert "湊出" in await ask(harness, "/play", BOB)  # the next deal, in Traditional Chinese
