"""Every bad input named (issue 17, item 6): each example of the issue gets a reply that says
what was wrong and what to type, in English and in Chinese; ":" divides; lists read "2, 3 or 4";
every hint shows its value; a reply has one division sign; /help and /start give no answer to a
hand the bot deals; private /start shows /solve; inline with 8 numbers says "at most 6"; /help
yahtzee explains the scores."""

from __future__ import annotations

import re

import pytest

from bot.play.games import GAMES
from bot.play.games.help import greeting
from bot.play.guards.live import could_be_live
from bot.text.html_text import visible_text
from bot.text.i18n import LANGUAGES, texts_for
from tests.bot.conftest import Harness, closed_outside

GROUP = -7601
EN = {"id": 761, "is_bot": False, "first_name": "Ann", "language_code": "en"}
ZH = {"id": 762, "is_bot": False, "first_name": "李", "language_code": "zh-hans"}

# the examples: what each must now say first, in English and in Chinese
EXAMPLES = [
    ("/solve -3 8 3 8", "❌ −3 is out of range: numbers go from 0 to 1,000,000.",
     "❌ −3 超出范围：数要在 0 到 1,000,000 之间。"),
    ("/solve 3 8 3 8 =", "❌ Nothing follows =: the target goes after it.",
     "❌ = 后面什么也没有：目标要写在它后面。"),
    ("/yahtzee 1 2 3", "❌ That is 3 dice, and a game needs 65 (13 rolls of five).",
     "❌ 这是 3 颗骰子，一局需要 65 颗（掷 13 次，每次五颗）。"),
    ("/yahtzee 1 2 7", "❌ 7 is not a die: dice are the digits 1 to 6.",
     "❌ 7 不是骰子点数：骰子只有 1 到 6。"),
    ("/play = 1000000", "❌ The target 1000000 is out of range: 1 to 999.",
     "❌ 目标 1000000 超出范围：要在 1 到 999 之间。"),
    ("/play = -5", "❌ The target −5 is out of range: 1 to 999.",
     "❌ 目标 −5 超出范围：要在 1 到 999 之间。"),
    ("/play =1000", "❌ The target 1000 is out of range: 1 to 999.",
     "❌ 目标 1000 超出范围：要在 1 到 999 之间。"),
    ("/lang nl",
     "❌ I don't speak nl.\nThis chat can speak English (/lang en), العربية (/lang ar),",
     "❌ 我不会说 nl。\n本群可以用English（/lang en）、العربية（/lang ar）、"),
    ("/countdown 1 3 7 10 25 50", "❌ The target is missing: add = and a number after the six "
     "numbers.", "❌ 缺少目标：在六个数后面加上 = 和一个数。"),
]


async def ask(h: Harness, text: str, user: dict, chat: int = GROUP) -> str:
    await h.send(chat, user, text, kind="private" if chat > 0 else "group")
    return (await h.telegram.reply(chat)).text


@pytest.mark.parametrize(("command", "english", "chinese"), EXAMPLES)
async def test_each_example_says_what_was_wrong_and_what_to_type(
        harness: Harness, command: str, english: str, chinese: str):
    said = await ask(harness, command, EN)
    assert said.startswith(english), said
    assert "/lang" in said or "Usage: /" + command[1:].split()[0] in said  # what to type
    said = await ask(harness, command, ZH, chat=GROUP - 1)
    assert said.startswith(chinese), said
    assert "/lang" in said or "用法：/" in said


async def deal_known(h: Harness, hand: tuple[int, ...], starter: dict = EN) -> None:
    await h.stores.people.remember_chat(GROUP, "group", "G")
    await h.stores.people.remember_user(starter["id"], starter["first_name"])
    now = h.services.rounds.clock()
    await h.stores.rounds.open_round(GROUP, "24", hand, 24, "easy", 10, "en", now, now + 60,
                                     starter["id"])
    h.services.table.load(await h.stores.rounds.open_rounds())


@pytest.mark.parametrize(("user", "said"), [
    (EN, "❌ 13÷2×2+7 makes 20, not 24."), (ZH, "❌ 13÷2×2+7 等于 20，不是 24。")])
async def test_a_colon_divides(harness: Harness, user: dict, said: str):
    harness.telegram.no_reactions.add(GROUP)  # a wrong answer is then said in words
    await deal_known(harness, (2, 2, 7, 13))
    reply = await ask(harness, "/a 13:2*2+7", user)
    assert reply.startswith(said) and "::" not in reply
    assert (await ask(harness, "13：2*2+7", user)).startswith(said)  # full width, typed
    await deal_known_after(harness, (3, 3, 8, 8))
    await ask(harness, "8:(3-8:3)", user)
    assert harness.services.rounds.open_round(GROUP) is None  # a right answer: it won


@pytest.mark.parametrize(("user", "said"), [
    (EN, "❌ The hand has no 2, 3 or 4; it leaves out 1, 5, 6 and 7."),
    (ZH, "❌ 手里没有 2、3 或 4；漏掉了 1、5、6 和 7。")])
async def test_lists_read_as_sentences(harness: Harness, user: dict, said: str):
    harness.telegram.no_reactions.add(GROUP)
    await deal_known(harness, (1, 5, 6, 7))
    assert (await ask(harness, "/a 2*3*4", user)).startswith(said)


async def test_every_hint_shows_its_value_with_one_division_sign(harness: Harness):
    await deal_known(harness, (3, 5, 12, 12))  # the simplest solution starts with 5×12
    await harness.send(GROUP, EN, "/hint")
    assert (await harness.telegram.reply(GROUP)).text == \
        "💡 Hint 1: 5×12 = 60 (the round is worth 5 points now)"
    await deal_known_after(harness, (3, 3, 8, 8))
    await harness.send(GROUP, EN, "/hint")
    assert (await harness.telegram.reply(GROUP)).text == \
        "💡 Hint 1: 8÷3 (the round is worth 5 points now)"
    await harness.send(GROUP, EN, "/hint")  # 3−8÷3 = 1÷3 would leave the answer a step off
    assert harness.telegram.reactions[-1].emoji == "🤷"
    harness.telegram.no_reactions.add(GROUP)
    await deal_known_after(harness, (1, 2, 3, 10))
    wrong = await ask(harness, "/a 10/3+1+2", EN)
    assert wrong.startswith("❌ 10÷3+1+2 makes 19÷3, not 24.") and "/" not in wrong


async def deal_known_after(h: Harness, hand: tuple[int, ...]) -> None:
    """End the round on, then deal this hand."""
    current = h.services.rounds.open_round(GROUP)
    if current is not None:
        await h.stores.rounds.close_round(current.id, "revealed", h.services.rounds.clock())
        closed_outside(h.services, current)
    await deal_known(h, hand)


def example_hands(text: str) -> list[tuple[int, ...]]:
    """The hands an example shows (`1 2 8 45`, `/solve 3 5 14 15 36 = 100`), with targets."""
    found = []
    for numbers, target in re.findall(r"((?:\d+ ){3,5}\d+)(?: = (\d+))?", visible_text(text)):
        found.append((*map(int, numbers.split()), int(target or 24)))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_and_start_examples_are_hands_the_bot_never_deals(language: str):
    shown = []
    for private in (False, True):
        texts = texts_for(language, private)
        for key in ("help", "cmd_answer", "cmd_solve", "inline_usage", "inline_usage_title"):
            message = texts(key, bot="bot", name="Ann",
                            seconds_storm=180, **{f"seconds_{name}": 120 for name in GAMES})
            shown += example_hands(message)
        shown += example_hands(greeting(texts, "Ann"))
    assert len(shown) >= 8
    for *hand, target in shown:
        assert not could_be_live(hand, target), (hand, target)  # so its answer gives none away


@pytest.mark.parametrize(("user", "solve"), [(EN, "/solve 1 2 8 45"), (ZH, "/solve 1 2 8 45")])
async def test_private_start_shows_solve(harness: Harness, user: dict, solve: str):
    said = await ask(harness, "/start", user, chat=user["id"])
    assert solve in said


@pytest.mark.parametrize(("user", "said"), [(EN, "Too many numbers: at most 6."),
                                            (ZH, "数太多了：最多 6 个。")])
async def test_inline_with_eight_numbers_says_at_most_six(harness: Harness, user: dict,
                                                          said: str):
    answered = await harness.inline(user, "1 2 3 4 5 6 7 8")
    [result] = answered.results
    assert result["title"] == said and result["id"] == "problem"


@pytest.mark.parametrize(("user", "points"), [
    (EN, ("63 or more, 35 more", ": 50.", "four in a row): 25", "five in a row): 35",
          "or five alike): 40", "from what the rolls score in the order dealt")),
    (ZH, ("满 63 分，再加 35 分", "50 分", "25 分", "35 分", "40 分", "按发牌顺序计分的总分"))])
async def test_help_yahtzee_explains_categories_points_and_guesses(harness: Harness,
                                                                    user: dict, points):
    said = await ask(harness, "/help yahtzee", user)
    assert all(point in said for point in points), said
