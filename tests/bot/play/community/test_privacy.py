"""/privacy and /forget through the real handlers: what is kept, said in a few lines; a person's
erasure asked in private only, confirmed by their own press in time, deleting their name,
scores, answers and daily results, with the boards recomputed and the rounds they won kept
without their name; and they may come back as new."""

from __future__ import annotations

from bot.play.daily.puzzle import day_of
from bot.store.retention import ANSWER_TEXTS_KEPT
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Clock, Harness
from tests.bot.telegram.test_buttons import press_data

GROUP = -2603
ANN = {"id": 281, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 282, "is_bot": False, "first_name": "Ben"}
YES = "✅ Yes, delete"


async def said(h: Harness, user: dict, text: str, chat: int = GROUP):
    await h.send(chat, user, text, kind="group" if chat < 0 else "private")
    return await h.telegram.reply(chat)


async def play_and_win(h: Harness, winner: dict, loser: dict) -> int:
    await h.send(GROUP, winner, "/play")
    await h.telegram.reply(GROUP)
    current = h.services.rounds.open_round(GROUP)
    assert current is not None
    await h.send(GROUP, loser, "/a 1+1")
    await h.send(GROUP, winner, f"/a {solve(current.hand)[0]}")
    await h.telegram.reply(GROUP)
    return current.id


@ON_BOTH_BACKENDS
async def test_privacy_says_what_is_kept_in_a_few_lines(harness: Harness):
    kept = f"{ANSWER_TEXTS_KEPT / 86400:.0f}"  # the retention's days (bot/store/retention.py)
    for chat in (GROUP, ANN["id"]):
        text = (await said(harness, ANN, "/privacy", chat)).text
        assert len(text.splitlines()) <= 8
        for word in ("first name", "answers", "scores", "daily", "/forget", "/resetscores",
                     f"after {kept} days", "backup", "Telegram itself keeps"):
            assert word in text
    zh = await said(harness, {**ANN, "language_code": "zh"}, "/privacy", ANN["id"])
    assert "我保存了什么" in zh.text and f"{kept} 天后" in zh.text and "备份" in zh.text


@ON_BOTH_BACKENDS
async def test_forget_is_asked_in_private_and_deletes_you_everywhere(harness: Harness):
    won = await play_and_win(harness, ANN, BEN)
    lost = await play_and_win(harness, BEN, ANN)
    today = Clock(1_900_000_000.0)  # the daily puzzle's day: set, not read from the wall
    harness.services.community.daily.clock = today
    harness.services.community.daily.hands.clock = today
    hand = harness.services.community.daily.hand_now()
    await said(harness, ANN, "/daily", ANN["id"])
    await said(harness, ANN, f"/daily {solve(list(hand))[0]}", ANN["id"])
    assert "Ann" in (await said(harness, BEN, "/top")).text

    in_group = await said(harness, ANN, "/forget")
    assert "private chat" in in_group.text and in_group.reply_markup is None
    asked = await said(harness, ANN, "/forget", ANN["id"])
    assert "cannot be undone" in asked.text
    privacy = harness.services.community.privacy
    holding = privacy._erasing_one.held(ANN["id"])  # the rows stay until the first pass is read
    await holding.__aenter__()
    done = await harness.press(ANN["id"], asked.message_id, ANN, YES)
    assert done.text == "Deleted."
    assert "no longer keep" in harness.telegram.message(ANN["id"], asked.message_id)["text"]

    stores = harness.stores
    for when in ("erasing", "erased"):  # hidden from the answer on; then every row gone
        if when == "erasing":
            assert ANN["id"] in await stores.rounds.answerers(lost)  # her rows are still there
        assert await stores.people.user_name(ANN["id"]) is None
        assert await stores.daily.daily_result(day_of(today()), "24", ANN["id"]) is None
        top = (await said(harness, BEN, "/top")).text
        assert "Ann" not in top and "1. Ben" in top
        assert "Ann" not in (await said(harness, BEN, "/top week")).text
        assert "Nobody has solved" in (await said(harness, BEN, "/top daily")).text
        kept = await stores.rounds.get_round(won)
        assert kept is not None and kept.status == "won"  # the round stays, naming nobody
        assert await stores.rounds.winner_name(won) is None
        ben = (await said(harness, BEN, "/stats")).text
        assert "1 win in 2 rounds" in ben  # Ben's record is what it was
        assert "no rounds played here yet" in (await said(harness, ANN, "/stats")).text
        if when == "erasing":
            await holding.__aexit__(None, None, None)
        await privacy.erased()
    assert await stores.rounds.answerers(lost) == [BEN["id"]]  # Ann's answers are gone

    await play_and_win(harness, ANN, BEN)  # Ann comes back: she starts from zero
    assert await stores.people.user_name(ANN["id"]) == "Ann"
    assert "1 win in 1 round" in (await said(harness, ANN, "/stats")).text


@ON_BOTH_BACKENDS
async def test_forget_waits_for_your_own_press_in_time(harness: Harness):
    await play_and_win(harness, ANN, BEN)
    clock = Clock(1_900_000_000.0)
    privacy = harness.services.community.privacy
    privacy.clock = clock
    asked = await said(harness, ANN, "/forget", ANN["id"])
    cancelled = await harness.press(ANN["id"], asked.message_id, ANN, "✖️ Cancel")
    assert cancelled.text == "Cancelled: nothing was deleted."
    assert await harness.stores.people.user_name(ANN["id"]) == "Ann"

    asked = await said(harness, ANN, "/forget", ANN["id"])
    token = harness.telegram.buttons(ANN["id"], asked.message_id)[0][1]
    stranger = await press_data(harness, asked.message_id, BEN, token, ANN["id"])
    assert stranger.text == "Only Ann can answer this."  # a forged press of another account
    clock.now += 61
    lapsed = await harness.press(ANN["id"], asked.message_id, ANN, YES)
    assert lapsed.text == "This question has expired."
    assert await harness.stores.people.user_name(ANN["id"]) == "Ann"
    assert "Ann" in (await said(harness, BEN, "/top")).text


# --- issue 35, item 11: confirmations only the asker, still an admin, can answer ----------------

OTHER_GROUP = -2604


async def ask_reset(h: Harness, admin: dict) -> tuple[int, str, str]:
    """An admin's /resetscores: the question's message id, and its Confirm and Cancel data."""
    h.telegram.promote(GROUP, admin["id"])
    asked = await said(h, admin, "/resetscores")
    assert asked.reply_markup is not None, asked.text
    [(_, yes), (_, no)] = h.telegram.buttons(GROUP, asked.message_id)
    return asked.message_id, yes, no


@ON_BOTH_BACKENDS
async def test_an_admin_demoted_after_asking_cannot_confirm_a_reset(harness: Harness):
    await play_and_win(harness, BEN, ANN)
    asked, yes, _ = await ask_reset(harness, ANN)
    harness.telegram.promote(GROUP, ANN["id"], "member")  # within the minute the cache keeps
    refused = await press_data(harness, asked, ANN, yes, GROUP)
    assert refused.text == "Only the group's admins can reset its leaderboard."
    assert "Ben" in (await said(harness, BEN, "/top")).text  # nothing was reset
    assert harness.telegram.buttons(GROUP, asked)  # the question stands, unanswered

    harness.telegram.promote(GROUP, ANN["id"])  # an admin again, in time: her press counts
    assert (await press_data(harness, asked, ANN, yes, GROUP)).text == "The leaderboard is reset."
    assert "Ben" not in (await said(harness, BEN, "/top")).text


@ON_BOTH_BACKENDS
async def test_presses_elsewhere_or_by_others_leave_the_question_pending(harness: Harness):
    await play_and_win(harness, BEN, ANN)
    asked, yes, no = await ask_reset(harness, ANN)
    harness.telegram.chat(OTHER_GROUP)
    elsewhere = await said(harness, BEN, "/top", OTHER_GROUP)
    for data in (no, yes):  # the token pressed in another chat, by Ben and by Ann herself
        for user in (BEN, ANN):
            answer = await press_data(harness, elsewhere.message_id, user, data, OTHER_GROUP)
            assert answer.text == "This button doesn't work (any more)."
    for data in (no, yes):  # Ben presses Ann's own question
        answer = await press_data(harness, asked, BEN, data, GROUP)
        assert answer.text == "Only Ann can answer this."
    harness.telegram.promote(GROUP, BEN["id"])  # another admin is still not the asker
    assert (await press_data(harness, asked, BEN, yes, GROUP)).text == "Only Ann can answer this."
    assert "Ben" in (await said(harness, BEN, "/top")).text
    assert (await press_data(harness, asked, ANN, yes, GROUP)).text == "The leaderboard is reset."


async def test_the_play_side_keeps_a_question_pressed_from_another_chat(harness: Harness):
    """The service itself, past the face's check: a token named from another chat, or by
    another person, drops nothing; only the asker in the asking chat answers it."""
    from bot.play.chats.people import Chat, Player

    privacy = harness.services.community.privacy
    group, other = Chat(GROUP, "group", "G"), Chat(OTHER_GROUP, "group", "H")
    ann, ben = Player(ANN["id"], "Ann"), Player(BEN["id"], "Ben")

    async def admin() -> bool:
        return True

    asked = await privacy.ask_reset(group, ann, admin)
    assert not isinstance(asked, str)
    for chat, player in ((other, ann), (other, ben), (group, ben)):
        for confirm in (False, True):
            pressed = await privacy.press(asked.token, confirm, chat, player, admin)
            assert pressed.text is None, (chat, player, confirm)
    cancelled = await privacy.press(asked.token, False, group, ann, admin)
    assert cancelled.text == "Cancelled: nothing was deleted."
