"""No help with a live puzzle (issues 17 and 24): while a round is open in a chat, /solve (with or
without --closest), /countdown and /yahtzee with the puzzle given, inline queries and the buttons
refuse its chat's members whatever reaches it (the rule: bot.play.guards.live) — in groups and
private chats alike; other hands are answered, and everything is back the moment the round
ends. The cheater tests (test_cheaters.py) try every way around it."""

from __future__ import annotations

import pytest

from bot.play.guards.live import LivePuzzles, could_be_live
from bot.store.records import Round
from bot.text.html_text import visible_text
from bot.text.i18n import Texts
from solver import solve
from tests.bot.conftest import Harness

GROUP, OTHER, PRIVATE = -7101, -7102, 7103
ANN = {"id": 71, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 72, "is_bot": False, "first_name": "Ben", "language_code": "en"}
LI = {"id": 73, "is_bot": False, "first_name": "李", "language_code": "zh-hans"}
LIVE = visible_text(Texts("en")("live_puzzle"))
ROLLS = ((1, 2, 3, 4, 5), (6, 6, 6, 6, 6), (2, 2, 3, 3, 3), (1, 1, 1, 2, 2), (3, 4, 5, 6, 6),
         (1, 3, 3, 5, 6), (2, 4, 4, 4, 6), (5, 5, 5, 5, 1), (1, 2, 3, 4, 6), (2, 3, 4, 5, 6),
         (6, 6, 5, 5, 4), (1, 1, 4, 4, 4), (3, 3, 3, 3, 2))


def round_of(game: str, hand: tuple, target: int, round_id: int = 1) -> Round:
    return Round(round_id, GROUP, game, hand, target, "", 10, "en", None, 0.0, 60.0, "open",
                 False)


def reached(live: LivePuzzles, numbers: tuple, target: int) -> bool:
    return bool(live.reaching(numbers, target))


def test_a_24_hand_is_reached_in_any_order_with_extras_or_less_one_for_any_target():
    live = LivePuzzles()
    live.add(round_of("24", (6, 7, 10, 10), 24))
    assert reached(live, (10, 6, 10, 7), 24) and reached(live, (7, 10, 6, 10), 24)
    for target in (0, 1, 22, 48, -24, 999):  # the hand's solutions for any target
        assert reached(live, (6, 7, 10, 10), target), target
    assert reached(live, (6, 7, 10, 10, 0), 24) and reached(live, (6, 7, 10, 10, 1), 25)
    assert reached(live, (6, 7, 10, 10, 3, 9), 100)  # with any extras
    assert reached(live, (6, 7, 10), 14) and reached(live, (10, 10, 7), 1)  # less one
    assert not reached(live, (6, 7), 24)  # less two: two steps from an answer
    assert not reached(live, (6, 7, 10, 12), 24) and not reached(live, (6, 7, 10, 11, 12), 24)


def test_a_countdown_draw_is_reached_by_its_parts_one_step_from_the_target():
    live = LivePuzzles()
    live.add(round_of("countdown", (50, 100, 25, 75, 10, 2), 390, 2))
    assert reached(live, (2, 10, 75, 25, 100, 50), 1)  # the draw, any target
    assert reached(live, (100, 25, 2, 75, 10), 7)  # less one tile, any target
    assert reached(live, (100, 25, 2, 75), 390)  # a part for the target: an answer already
    assert reached(live, (100, 25, 2, 75), 390 - 50) and reached(live, (100, 25, 2, 75), 380)
    assert reached(live, (100, 25, 2), 390 + 10) and reached(live, (100, 25, 2), 39)  # ÷10
    assert not reached(live, (100, 25, 2, 75), 391)  # two steps from it at best
    assert not reached(live, (100, 25, 2, 75, 10, 3), 390)  # not a part of the draw


def test_yahtzee_rolls_are_reached_with_up_to_three_dice_changed():
    live = LivePuzzles()
    live.add(round_of("yahtzee", ROLLS, 200, 3))
    shuffled = tuple(tuple(reversed(roll)) for roll in reversed(ROLLS))
    assert live.reaching_rolls(shuffled) == [GROUP]
    changed = [list(roll) for roll in ROLLS]
    for i in range(3):  # one die in each of three rolls
        changed[i][0] = 6 if changed[i][0] != 6 else 1
        assert live.reaching_rolls(changed) == [GROUP], i
    changed[3][0] = 6 if changed[3][0] != 6 else 1
    assert live.reaching_rolls(changed) == []  # four rolls changed: another game
    assert live.reaching_rolls([(1, 1, 1, 1, 1)] * 13) == []


def test_two_rounds_of_one_hand_count_twice_and_end_one_at_a_time():
    live = LivePuzzles()
    first, second = round_of("24", (1, 2, 3, 4), 24, 1), round_of("24", (4, 3, 2, 1), 24, 2)
    live.add(first)
    assert not live.elsewhere(first)
    live.add(second)
    assert live.elsewhere(first) and live.elsewhere(second)
    live.remove(first)
    assert reached(live, (1, 2, 3, 4), 24) and not live.elsewhere(second)
    live.remove(second)
    live.remove(second)  # twice: nothing changes
    assert not reached(live, (1, 2, 3, 4), 24) and live.count() == 0


def test_only_requests_no_dealable_round_is_reached_by_are_kept_for_everyone():
    assert could_be_live((1, 4, 12, 13), 24) and could_be_live((1, 2, 3, 4, 5, 6), 999)
    assert could_be_live((1, 2, 3, 4), 1000)  # a hand of 24, for any target
    assert could_be_live((1, 2, 3), 24)  # a hand less one
    assert could_be_live((1, 4, 12, 13, 500), 7)  # a hand with an extra
    assert could_be_live((25, 50, 3), 765)  # part of a Countdown draw
    assert not could_be_live((1, 2, 8, 45), 24)  # 45: no game's card, tile or digit
    assert not could_be_live((25, 25, 3), 765)  # one 25 in the draw
    assert not could_be_live((200, 300), 5)


async def deal_known(h: Harness, chat: int, game: str, hand: tuple, target: int,
                     starter: dict = ANN) -> Round:
    """A round of a known puzzle, stored as /play stores it, then loaded."""
    await h.stores.people.remember_chat(chat, "group", "G")
    await h.stores.people.remember_user(starter["id"], starter["first_name"])
    now = h.services.rounds.clock()
    level = "easy" if game == "24" else "2" if game == "countdown" else ""
    made = await h.stores.rounds.open_round(chat, game, hand, target, level, 10, "en", now,
                                            now + 60, starter["id"])
    assert made is not None
    await h.services.people.load()
    h.services.table.load(await h.stores.rounds.open_rounds())
    return made


async def ask(h: Harness, chat: int, text: str, user: dict = BEN) -> str:
    await h.send(chat, user, text, kind="private" if chat > 0 else "group")
    return (await h.telegram.reply(chat)).text


@pytest.mark.parametrize("chat", [GROUP, OTHER, PRIVATE])
async def test_solving_commands_refuse_a_live_24_hand_anywhere(harness: Harness, chat: int):
    # solutions as text, so that the search for a leak below reads every form they take (the
    # mathematical form: tests/bot/telegram/test_bot_api_10.py)
    harness.telegram.refuse_rich = True
    await deal_known(harness, GROUP, "24", (6, 7, 10, 10), 24)
    for command in ("/solve 6 7 10 10", "/solve 10 6 10 7 = 24", "/solve 10,7,6,10",
                    "/solve 6 7 10 10 = 24 --closest"):
        assert await ask(harness, chat, command) == LIVE, command
    assert "10×(10−7)−6" not in " ".join(s.text for s in harness.telegram.sent)
    assert "distinct solution" in await ask(harness, chat, "/solve 6 7 10 12")  # another hand
    assert await ask(harness, chat, "/solve 6 7 10 10 = 22") == LIVE  # any target (issue 24)
    await harness.send(GROUP, ANN, "/reveal")  # the round ends: the hand is anyone's again
    await harness.telegram.reply(GROUP)
    assert "10×(10−7)−6" in await ask(harness, chat, "/solve 10 10 7 6")


async def test_countdown_and_yahtzee_commands_refuse_their_live_puzzles(harness: Harness):
    await deal_known(harness, GROUP, "countdown", (50, 100, 25, 75, 10, 2), 390)
    for command in ("/countdown 2 10 75 25 100 50 = 390", "/solve 50 100 25 75 10 2 = 390 "
                    "--closest", "/solve --closest 100 25 75 10 2 = 390"):
        assert await ask(harness, PRIVATE, command) == LIVE, command
    assert "exactly" in await ask(harness, PRIVATE, "/countdown 50 100 25 75 10 3 = 390")
    await deal_known(harness, OTHER, "yahtzee", ROLLS, 150)
    shuffled = " ".join("".join(map(str, reversed(r))) for r in reversed(ROLLS))
    assert await ask(harness, PRIVATE, f"/yahtzee {shuffled}") == LIVE
    other = " ".join(["12345"] * 13)
    assert "total" in await ask(harness, PRIVATE, f"/yahtzee {other}")
    said = await ask(harness, PRIVATE, f"/yahtzee {shuffled}", LI)
    assert "这手牌（或离它一步的题）正在你所在的聊天里进行" in said


async def test_inline_queries_refuse_a_live_hand_and_are_never_kept(harness: Harness):
    await deal_known(harness, GROUP, "24", (6, 7, 10, 10), 24)
    answered = await harness.inline(BEN, "10 7 10 6")
    [result] = answered.results
    assert result["id"] == "live" and result["title"] == LIVE
    assert int(answered.params["cache_time"]) == 0
    assert "10×(10−7)−6" not in str(answered.results)
    answered = await harness.inline(BEN, "6 7 10 12")
    assert answered.results[0]["id"] == "0" and int(answered.params["cache_time"]) == 0


async def test_page_buttons_refuse_a_live_hand_with_a_notice(harness: Harness):
    await harness.send(PRIVATE, BEN, "/solve 1 2 3 4 6", kind="private")  # before the round
    pages = await harness.telegram.reply(PRIVATE)
    await deal_known(harness, GROUP, "24", (6, 4, 3, 2, 1), 24)
    sent = len(harness.telegram.sent)
    assert (await harness.press(PRIVATE, pages.message_id, BEN, "▶")).text == LIVE
    assert len(harness.telegram.sent) == sent and not harness.telegram.edits


async def test_a_result_keeps_its_solutions_back_while_the_hand_is_live_elsewhere(
        harness: Harness):
    """Two chats were dealt one hand: the first to end does not give the other its answers,
    and its Show all solutions waits for the other round to end."""
    first = await deal_known(harness, GROUP, "24", (1, 2, 3, 4, 6), 24)
    await deal_known(harness, OTHER, "24", (6, 4, 3, 2, 1), 24)
    harness.services.table.load(await harness.stores.rounds.open_rounds())
    await harness.send(GROUP, ANN, "/reveal")
    ended = await harness.telegram.reply(GROUP)
    assert "The solutions stay hidden for now" in ended.text and "= 24" not in ended.text
    assert [label for label, _ in harness.telegram.buttons(GROUP, ended.message_id)] == \
        ["Play again", "Same level", "Show all solutions"]
    assert (await harness.press(GROUP, ended.message_id, BEN, "Show all solutions")).text == LIVE
    await harness.send(OTHER, ANN, f"/a {solve((1, 2, 3, 4, 6))[0]}")
    won = await harness.telegram.reply(OTHER)
    assert "Ann wins" in won.text  # the last round of that hand: nothing is held back now
    assert (await harness.stores.rounds.get_round(first.id)).status == "revealed"
