"""A contest nobody can game, in fewer messages (issue 17), end to end: the real bot
(`python -m bot`) over HTTP against the emulator. Live hands refused everywhere, an early end
that changes nobody's score, a round of 24 in two messages, bad input named, forum topics.
(Sealed Yahtzee guesses and the quiet chat: test_feedback_and_words.py, test_quiet_chat.py.)"""

from __future__ import annotations

import itertools

from demo.emulator import BotApiEmulator
from solver import evaluate, solve
from tests.e2e.test_bot_process import hand_of

GROUP = -2701
ANN = {"id": 271, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 272, "is_bot": False, "first_name": "Ben", "language_code": "en"}
CARL = {"id": 273, "is_bot": False, "first_name": "Carl", "language_code": "en"}
LI = {"id": 274, "is_bot": False, "first_name": "李", "language_code": "zh-hans"}
LIVE = ("🤫 That puzzle (or one a step from it) is being played in a chat you are in right now — "
        "ask again when the round ends.")
WAIT = 15.0


def in_chat(telegram: BotApiEmulator, chat: int = GROUP) -> int:
    return len([s for s in telegram.sent if s.chat_id == chat])


async def test_a_live_hand_is_refused_everywhere_until_its_round_ends(telegram: BotApiEmulator,
                                                                     make_bot):
    await make_bot().start()
    telegram.chat(GROUP)
    telegram.chat(BEN["id"], "private", None)
    await telegram.say(GROUP, ANN, "/play")
    hand = hand_of((await telegram.reply(GROUP)).text)
    numbers = " ".join(map(str, reversed(hand)))
    await telegram.say(BEN["id"], BEN, f"/solve {numbers}", kind="private")
    assert (await telegram.reply(BEN["id"])).text == LIVE
    await telegram.say(BEN["id"], BEN, f"/solve {numbers} = 24 --closest", kind="private")
    assert (await telegram.reply(BEN["id"])).text == LIVE
    query = await telegram.inline_query(BEN, numbers)
    assert await telegram.wait_for(lambda: any(a.query_id == query
                                               for a in telegram.inline_answers), WAIT)
    [answered] = [a for a in telegram.inline_answers if a.query_id == query]
    assert answered.results[0]["title"] == LIVE and int(answered.params["cache_time"]) == 0
    await telegram.say(GROUP, ANN, "/reveal")
    await telegram.reply(GROUP)
    await telegram.say(BEN["id"], BEN, f"/solve {numbers}", kind="private")
    assert "distinct solution" in (await telegram.reply(BEN["id"])).text  # back


async def test_once_others_answered_only_an_admin_ends_the_round(telegram: BotApiEmulator,
                                                                 make_bot):
    await make_bot().start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/countdown")
    deal = await telegram.reply(GROUP)
    hand = hand_of(deal.text)
    await telegram.say(GROUP, BEN, f"/a {hand[0]}+{hand[1]}")
    assert await telegram.wait_for(lambda: any("📝 Ben" in e.text for e in telegram.edits), WAIT)
    await telegram.say(GROUP, ANN, "/reveal")
    assert "or when a chat admin ends it" in (await telegram.reply(GROUP)).text
    query = await telegram.press_button(GROUP, deal.message_id, ANN, "Reveal")
    assert await telegram.wait_for(lambda: telegram.callback_answer(query) is not None, WAIT)
    assert "or when a chat admin ends it" in \
        (telegram.callback_answer(query).text or "")  # type: ignore[union-attr]
    telegram.promote(GROUP, CARL["id"])
    await telegram.say(GROUP, CARL, "/reveal")
    ended = (await telegram.reply(GROUP)).text
    assert "Ended early" in ended and "Carl ended the round early" in ended


def wrong_answers(hand: tuple[int, ...]) -> list[str]:
    """Three attempts with the whole hand that do not make 24."""
    found = []
    for order in itertools.permutations(hand):
        for signs in itertools.product("+-*", repeat=len(hand) - 1):
            text = "".join(f"{n}{s}" for n, s in zip(order, (*signs, ""), strict=True))
            if evaluate(text) != 24 and text not in found:
                found.append(text)
            if len(found) == 3:
                return found
    raise AssertionError(hand)


async def test_a_round_of_24_with_hints_and_wrong_answers_costs_two_messages(
        telegram: BotApiEmulator, make_bot):
    await make_bot().start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    hand = hand_of(deal.text)
    query = await telegram.press_button(GROUP, deal.message_id, ANN, "Hint")
    assert await telegram.wait_for(lambda: telegram.callback_answer(query) is not None, WAIT)
    await telegram.say(GROUP, ANN, "/hint")
    typed, replied, asked = wrong_answers(hand)
    await telegram.say(GROUP, BEN, typed)
    await telegram.say(GROUP, BEN, replied, reply_to=deal.message_id)
    await telegram.say(GROUP, BEN, f"/a {asked}")
    rows = await telegram.wait_for(  # the deal's status says why, within a second or so
        lambda: any("👎 Ben: " + asked.replace("*", "×").replace("-", "−") in e.text
                    for e in telegram.edits if e.message_id == deal.message_id), WAIT)
    assert rows and "👎" not in [r.emoji for r in telegram.reactions]
    await telegram.say(GROUP, CARL, solve(hand)[0])
    assert "Carl wins" in (await telegram.reply(GROUP)).text
    assert in_chat(telegram) == 2  # the deal and the result
    edits = [e for e in telegram.edits if e.message_id == deal.message_id]
    assert edits and "💡 Hints: " in edits[-1].text  # the hints went into the deal


async def test_bad_input_is_named(telegram: BotApiEmulator, make_bot):
    await make_bot().start()
    telegram.chat(GROUP)
    for command, said in (
            ("/solve -3 8 3 8", "❌ −3 is out of range: numbers go from 0 to 1,000,000."),
            ("/solve 3 8 3 8 =", "❌ Nothing follows =: the target goes after it"),
            ("/yahtzee 1 2 3", "❌ That is 3 dice, and a game needs 65"),
            ("/play = 1000000", "❌ The target 1000000 is out of range: 1 to 999."),
            ("/play = -5", "❌ The target −5 is out of range: 1 to 999."),
            ("/lang nl", "❌ I don't speak nl"),
            ("/countdown 1 3 7 10 25 50", "❌ The target is missing")):
        await telegram.say(GROUP, ANN, command)
        assert (await telegram.reply(GROUP)).text.startswith(said), command
    await telegram.say(GROUP - 1, LI, "/solve -3 8 3 8")
    assert (await telegram.reply(GROUP - 1)).text.startswith("❌ −3 超出范围")
    query = await telegram.inline_query(ANN, "1 2 3 4 5 6 7 8")
    assert await telegram.wait_for(lambda: any(a.query_id == query
                                               for a in telegram.inline_answers), WAIT)
    [answered] = [a for a in telegram.inline_answers if a.query_id == query]
    assert answered.results[0]["title"] == "Too many numbers: at most 6."


async def test_two_topics_play_at_once_and_hear_only_theirs(telegram: BotApiEmulator, make_bot):
    await make_bot(round_seconds=4).start()
    forum = -1002701
    telegram.chat(forum, title="Club", forum=True)
    first, second = telegram.topic(forum, "24"), telegram.topic(forum, "Match")
    await telegram.say(forum, ANN, "/play", topic=first)
    deal = await telegram.reply(forum, topic=first)
    await telegram.say(forum, BEN, "/match 2", topic=second)
    match_deal = await telegram.reply(forum, topic=second)
    assert "Make 24" in deal.text and "Match: round 1 of 2" in match_deal.text
    await telegram.say(forum, ANN, solve(hand_of(deal.text))[0], topic=first)
    assert "Ann wins" in (await telegram.reply(forum, topic=first)).text
    ended = await telegram.reply(forum, timeout=30, topic=second)  # the match's timer
    assert "Time is up" in ended.text and "Scores after round 1 of 2" in ended.text
    second_deal = await telegram.reply(forum, timeout=30, topic=second)
    assert "Match: round 2 of 2" in second_deal.text
    assert all(s.topic in (first, second) for s in telegram.sent if s.chat_id == forum)
    await telegram.say(forum, CARL, "/top", topic=first)  # one leaderboard for the chat
    assert "Ann" in (await telegram.reply(forum, topic=first)).text
