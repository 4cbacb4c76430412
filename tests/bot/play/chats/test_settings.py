"""A group's own game (issue 26, items 1, 2 and 4): /settings, one panel edited in place, its
changes stored per chat on both backends and followed from the next round; /pass and the Pass
button, a round ended when everyone who answered passed; and the words the issue found wanting,
in English and Chinese."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.chats.settings import Panel
from bot.play.games import GAMES
from bot.play.games.help import no_round
from bot.play.games.yahtzee.rules import total_bounds
from bot.play.matches.scoreboard import board
from bot.play.outcomes import Closed, Edited, Marked, Said
from bot.play.round.showing import time_left
from bot.play.rules.feedback import hints_allowed
from bot.play.services import Services
from bot.play.words.places import shared_places
from bot.runtime.pool import SolverPool
from bot.store.records import MatchScore
from bot.store.stores import Stores
from bot.text.i18n import texts_for
from demo.emulator import BotApiEmulator
from tests.bot.conftest import (
    Clock,
    FakeScheduler,
    Harness,
    make_config,
    new_services,
    opened_outside,
    running,
)
from tests.bot.telegram.test_buttons import labels as labels_in
from tests.bot.telegram.test_buttons import press as press_in
from tests.bot.telegram.test_buttons import press_data as press_data_in
from tests.postgres import emptied

GROUP = -2601
ALICE = {"id": 61, "is_bot": False, "first_name": "Alice"}
BOB = {"id": 62, "is_bot": False, "first_name": "Bob"}
CAROL = {"id": 63, "is_bot": False, "first_name": "Carol"}
DAN = {"id": 64, "is_bot": False, "first_name": "Dan"}
ZHANG = {"id": 65, "is_bot": False, "first_name": "张", "language_code": "zh-hans"}
EN, ZH = texts_for("en"), texts_for("zh")


@pytest.fixture(params=["sqlite", "postgres"])
async def bot(request: pytest.FixtureRequest, telegram: BotApiEmulator, pool: SolverPool,
              tmp_path: Path) -> AsyncIterator[Harness]:
    """The real Application over either backend (the session's PostgreSQL, emptied)."""
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        await emptied(url)
        config = dataclasses.replace(config, database_url=url)
    async with running(telegram, pool, config) as harness:
        yield harness


async def ask(h: Harness, text: str, user: dict = ALICE, chat: int = GROUP, kind: str = "group"):
    await h.send(chat, user, text, kind=kind)
    return await h.telegram.reply(chat)


def labels(h: Harness, message_id: int, chat: int = GROUP) -> list[str]:
    return labels_in(h, message_id, chat)


async def press(h: Harness, message_id: int, user: dict, label: str, chat: int = GROUP):
    return await press_in(h, message_id, user, label, chat)


async def press_data(h: Harness, message_id: int, user: dict, data: str, chat: int = GROUP):
    return await press_data_in(h, message_id, user, data, chat)


def sent_count(h: Harness, chat: int = GROUP) -> int:
    return len([s for s in h.telegram.sent if s.chat_id == chat])


async def stored_settings(h: Harness) -> dict:
    rows = await h.stores.people.db.fetch(  # type: ignore[attr-defined]
        "SELECT body FROM chat_settings WHERE chat_id = " + str(GROUP))
    return json.loads(rows[0][0]) if rows else {}


# --- item 1: /settings ---------------------------------------------------------------------------

async def test_settings_are_for_admins_and_apply_from_the_next_round(bot: Harness):
    refused = await ask(bot, "/settings", BOB)
    assert refused.text == "Only a chat admin can change this group's settings."
    bot.telegram.promote(GROUP, ALICE["id"])
    panel = await ask(bot, "/settings")
    assert "A round of 24: 60 seconds" in panel.text and "Hints: on" in panel.text
    assert "24 → 2 minutes" in labels(bot, panel.message_id)
    await bot.send(GROUP, BOB, "/play")  # a round on while the setting changes keeps its time
    dealt = await bot.telegram.reply(GROUP)
    on = bot.services.rounds.open_round(GROUP)
    before = sent_count(bot)

    answer = await press(bot, panel.message_id, ALICE, "24 → 2 minutes")
    assert answer.text == "Saved."
    shown = bot.telegram.edits[-1]
    assert shown.message_id == panel.message_id  # announced in the panel itself
    assert shown.text.endswith("✅ A round of 24: 2 minutes from the next round.")
    assert "24 → 3 minutes" in labels(bot, panel.message_id)
    assert sent_count(bot) == before  # not one new message
    assert bot.services.rounds.open_round(GROUP).deadline == on.deadline
    assert await stored_settings(bot) == {"seconds_24": 120}

    for label in ("Hand → 5 numbers", "Hints → off", "Match → 15 rounds"):
        assert (await press(bot, panel.message_id, ALICE, label)).text == "Saved."
    assert await stored_settings(bot) == {"seconds_24": 120, "count": 5, "hints": False,
                                          "match": 15}
    await bot.send(GROUP, BOB, "/reveal")  # Bob started it, nobody else answered
    await bot.telegram.reply(GROUP)
    await bot.send(GROUP, BOB, "/play")
    dealt = await bot.telegram.reply(GROUP)
    assert "2 minutes" in dealt.text and "Use each of the 5 numbers exactly once." in dealt.text
    assert len(bot.services.rounds.open_round(GROUP).hand) == 5
    assert labels(bot, dealt.message_id) == ["Reveal"]  # hints off: no Hint button
    assert "Hints are off in this group" in (await ask(bot, "/hint", BOB)).text
    assert len((await _replay_4(bot)).hand) == 4  # /play 4 asks for four: it is dealt


async def _replay_4(bot: Harness):
    """The round on revealed by its starter, then /play 4: the round it deals."""
    await bot.send(GROUP, BOB, "/reveal")
    await bot.telegram.reply(GROUP)
    await bot.send(GROUP, BOB, "/play 4")
    await bot.telegram.reply(GROUP)
    return bot.services.rounds.open_round(GROUP)


async def test_a_match_and_typed_answers_follow_the_settings(harness: Harness):
    harness.telegram.promote(GROUP, ALICE["id"])
    panel = await ask(harness, "/settings")
    await press(harness, panel.message_id, ALICE, "Match → 15 rounds")
    await press(harness, panel.message_id, ALICE, "Typed answers → off")
    assert "Typed answers without /a or a reply: off" in harness.telegram.edits[-1].text
    started = await ask(harness, "/match", BOB)
    assert "round 1 of 15" in started.text
    assert "just type it" not in started.text  # the deal no longer invites typing
    current = harness.services.rounds.open_round(GROUP)
    edits = len(harness.telegram.edits)
    a, b, *_ = current.hand
    await harness.send(GROUP, CAROL, f"{a}+{b}+{a}+{b}")  # typed: not an answer here now
    assert len(harness.telegram.edits) == edits
    rows = await harness.stores.rounds.db.fetch("SELECT COUNT(*) FROM answers")
    assert rows == [(0,)]
    await harness.send(GROUP, CAROL, f"/a {a}+{b}")  # /a still is
    assert len(harness.telegram.edits) == edits + 1


async def test_settings_survive_a_restart(telegram: BotApiEmulator, pool: SolverPool,
                                          tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    async with running(telegram, pool, config) as first:
        first.telegram.promote(GROUP, ALICE["id"])
        panel = await ask(first, "/settings")
        await press(first, panel.message_id, ALICE, "Level → easy")
    async with running(telegram, pool, config) as again:
        again.ids = itertools.count(100)  # updates not handled before
        assert (await again.services.settings.of(GROUP)).level == "easy"
        dealt = await ask(again, "/play", BOB)
        assert "(easy)" in dealt.text


async def test_forged_and_stale_settings_presses_are_refused(harness: Harness):
    # the panel in the group's sight (Telegram took no ephemeral message): anyone may press it
    harness.telegram.refuse_ephemeral = True
    harness.telegram.promote(GROUP, ALICE["id"])
    panel = await ask(harness, "/settings")
    edits = len(harness.telegram.edits)
    refused = await press(harness, panel.message_id, BOB, "Hints → off")  # not an admin
    assert refused.text == "Only a chat admin can change this group's settings."
    unknown = EN("button_unknown")
    for data in (f"g:{GROUP}:count:9",  # a value no button offers
                 f"g:{GROUP}:seconds_24:7",
                 f"g:{GROUP}:owner:1",  # a setting there is not
                 "g:-999:hints:0"):  # another chat's
        assert (await press_data(harness, panel.message_id, ALICE, data)).text == unknown, data
    other = -2602  # a real button of another chat's panel, pressed here
    harness.telegram.promote(other, ALICE["id"])
    elsewhere = await ask(harness, "/settings", chat=other)
    [(_, data), *_] = harness.telegram.buttons(other, elsewhere.message_id)
    assert (await press_data(harness, panel.message_id, ALICE, data)).text == unknown
    assert len(harness.telegram.edits) == edits
    assert await harness.services.settings.of(GROUP) == harness.services.settings.defaults


async def test_in_a_private_chat_settings_set_the_persons_language(harness: Harness):
    me = ALICE["id"]
    panel = await ask(harness, "/settings", chat=me, kind="private")
    assert "Your settings" in panel.text and labels(harness, panel.message_id, me) == \
        ["العربية", "Deutsch", "Español", "فارسی", "Français", "हिन्दी", "Indonesia", "Italiano",
         "Português", "Русский", "Türkçe", "Українська", "O‘zbek", "简体中文", "繁體中文"]
    rows = panel.reply_markup["inline_keyboard"]
    assert [len(row) for row in rows] == [4, 4, 4, 3]  # a phone shows each name whole
    assert (await press(harness, panel.message_id, ALICE, "简体中文", me)).text == "已保存。"
    assert "语言：简体中文" in harness.telegram.edits[-1].text
    assert "二十四点" in (await ask(harness, "/help", chat=me, kind="private")).text
    assert "二十四点" not in (await ask(harness, "/help", BOB)).text  # the group's own


async def test_settings_are_stored_per_chat_and_follow_a_migration(services: Services,
                                                                   stores: Stores):
    admin = Player(1, "Ann")
    group, other = Chat(-11, "group", "G"), Chat(-12, "group", "H")
    panel = await services.settings.show(group, admin, None)
    assert isinstance(panel, Said)  # no admin check handed in: not an admin
    changed = await services.settings.change(group, admin, _yes, group.id, "count", "6")
    assert isinstance(changed, Panel) and changed.text.endswith(
        "✅ The hand /play deals: <b>6 numbers</b> from the next round.")
    assert (await services.settings.of(group.id)).count == 6
    assert (await services.settings.of(other.id)).count == 4
    assert await stores.people.chat_settings(group.id) == {"count": 6}
    assert await stores.people.chat_settings(other.id) == {}
    await services.places.migrate(group.id, -1000011)
    assert (await services.settings.of(-1000011)).count == 6
    assert await stores.people.chat_settings(-1000011) == {"count": 6}
    fresh, _ = new_services(stores, services.rounds.analyses.pool, Clock())
    await fresh.settings.load()
    assert (await fresh.settings.of(-1000011)).count == 6


async def _yes() -> bool:
    return True


# --- item 2: /pass -------------------------------------------------------------------------------

async def test_a_round_ends_when_everyone_who_answered_passed(bot: Harness):
    dealt = await ask(bot, "/play")
    current = bot.services.rounds.open_round(GROUP)
    a, b, *_ = current.hand
    assert labels(bot, dealt.message_id) == ["Hint", "Reveal"]  # nobody answered yet
    await bot.send(GROUP, BOB, f"/a {a}+{b}")
    assert labels(bot, dealt.message_id) == ["Hint", "Pass", "Reveal"]
    await bot.send(GROUP, CAROL, f"/a {a}*{b}")
    refused = await ask(bot, "/pass", DAN)  # he never answered
    assert refused.text.startswith("Only players who answered this round can /pass")
    assert refused.reply_to is not None
    await bot.send(GROUP, ALICE, "/pass")  # the starter, others answered: not hers to end
    assert "Only players who answered" in (await bot.telegram.reply(GROUP)).text
    before = sent_count(bot)
    await bot.send(GROUP, BOB, "/pass")
    await bot.telegram.wait_for(lambda: "Passed: Bob" in bot.telegram.edits[-1].text, 5.0)
    assert "🏳 Passed: Bob (1 of 2 who answered)" in bot.telegram.edits[-1].text
    assert sent_count(bot) == before  # the status, not a message
    again = await ask(bot, "/pass", BOB)
    assert again.text.startswith("You have passed already")
    assert bot.services.rounds.open_round(GROUP) is not None
    answer = await press(bot, dealt.message_id, CAROL, "Pass")
    assert answer.text is None
    result = await bot.telegram.reply(GROUP)
    assert result.text.startswith("⏹ Ended early: the round to make 24.\n🏳 Everyone who "
                                  "answered passed: it scored as if the time had run out.")
    assert bot.services.rounds.open_round(GROUP) is None
    assert labels(bot, dealt.message_id) == []
    rows = await bot.stores.rounds.db.fetch(  # type: ignore[attr-defined]
        f"SELECT user_id FROM round_passes WHERE round_id = {current.id} ORDER BY user_id")
    assert [r[0] for r in rows] == [BOB["id"], CAROL["id"]]


async def test_a_pass_counts_only_in_the_round_it_was_given_for(bot: Harness):
    """An answer in another chat does not make a passer of this round, and a pass sent
    elsewhere (another group, a private chat) ends nothing here."""
    other = GROUP - 1
    await ask(bot, "/play")
    await ask(bot, "/play", BOB, chat=other)
    mine = bot.services.rounds.open_round(GROUP)
    a, b, *_ = bot.services.rounds.open_round(other).hand
    await bot.send(other, BOB, f"/a {a}+{b}")  # Bob answered there, not here
    assert (await ask(bot, "/pass", BOB)).text.startswith("Only players who answered")
    c, d, *_ = mine.hand
    await bot.send(GROUP, CAROL, f"/a {c}*{d}")
    private = await ask(bot, "/pass", CAROL, chat=CAROL["id"], kind="private")
    assert private.text == no_round(EN)
    await ask(bot, "/pass", CAROL, chat=other)  # not an answerer there either
    assert bot.services.rounds.open_round(GROUP) is not None  # Carol has not passed here
    assert bot.services.rounds.open_round(other) is not None


async def test_countdown_passed_out_scores_as_at_the_time_out(services: Services,
                                                             scheduler: FakeScheduler,
                                                             clock: Clock):
    group, ann, ben = Chat(-21, "group", "G"), Player(1, "Ann"), Player(2, "Ben")
    await services.people.remember(group, ann)
    made = await services.rounds.store.open_round(group.id, "countdown", (1, 3, 7, 10, 25, 50),
                                                  831, "2", 10, "en", clock.now,
                                                  clock.now + 60, ann.id)
    assert made is not None
    await opened_outside(services, made, "deal")
    await services.outbox.deal_sent(made.id, 5)
    await services.rounds.answer(group, ann, "10*(3*25+1+7)", True)  # 830: 1 away
    clock.now += 1
    await services.rounds.answer(group, ben, "50*10", True)  # far
    clock.now += 1
    first = await services.rounds.pass_round(group, ann)
    assert isinstance(first, Edited) and first.notice == "You passed: 1 of 2 who answered have."
    assert "🏁 Closest: Ann 1 away (7 points)" in first.text
    second = await services.rounds.pass_round(group, ben)
    assert isinstance(second, Closed)
    assert "Ann</b> was closest" in second.text and "+7 points" in second.text  # her own pass
    assert "Everyone who answered passed" in second.text


async def test_a_pass_within_a_second_of_the_last_status_is_marked_then_written(
        services: Services, scheduler: FakeScheduler, clock: Clock):
    group, ann, ben = Chat(-22, "group", "G"), Player(1, "Ann"), Player(2, "Ben")
    dealt = await services.rounds.play(group, ann, "24")
    await services.outbox.deal_sent(dealt.round.id, 9)
    a, b, *_ = dealt.round.hand
    await services.rounds.answer(group, ann, f"{a}+{b}", True)
    await services.rounds.answer(group, ben, f"{a}-{b}", True)  # coalesced
    marked = await services.rounds.pass_round(group, ben)
    assert isinstance(marked, Marked) and marked.reaction == "👌"
    assert scheduler.when("status", group.id) == pytest.approx(1.0)
    clock.now += 1
    [alarm] = [a for a in scheduler.due() if a.kind == "status"]
    written = await services.rounds.status_due(alarm.round_id)
    assert written is not None and written.notice == ""
    assert written.text.endswith("🏳 Passed: Ben (1 of 2 who answered)")
    assert f"👎 Ben: <code>{a}−{b}</code>" in written.text


# --- item 4: the words ---------------------------------------------------------------------------

async def test_an_ender_who_never_answered_is_not_said_to_have_lost_their_answers(
        harness: Harness):
    await harness.send(GROUP, ALICE, "/countdown")
    await harness.telegram.reply(GROUP)
    ended = await ask(harness, "/reveal")
    assert "Alice ended the round early: it scored as if the time had run out." in ended.text
    assert "could not win" not in ended.text
    await harness.send(GROUP, ALICE, "/countdown")
    await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    # two tiles whose sum misses the target (a random deal's first two may make it)
    a, b = next((x, y) for x, y in itertools.combinations(current.hand, 2)
                if x + y != current.target)
    await harness.send(GROUP, ALICE, f"/a {a}+{b}")
    ended = await ask(harness, "/reveal")
    assert "Alice's own answers could not win it" in ended.text


async def test_a_yahtzee_guess_out_of_range_is_read_and_said_so(harness: Harness):
    await ask(harness, "/yahtzee")
    low, high = total_bounds(harness.services.rounds.open_round(GROUP).hand)
    said = await ask(harness, f"/a {low - 1}", BOB)  # read fine: below what any table scores
    assert said.text == f"❌ {low - 1} can't be the best total of these rolls.\n" \
        f"A guess is one whole number from {low} to {high}.\nFor example: /a {high}"
    zh = await ask(harness, "/a 999", ZHANG)
    assert zh.text.startswith("❌ 999 不可能是这些掷骰的最高总分")


async def test_a_reveal_refusal_answers_the_asker_as_a_hint_refusal_does(harness: Harness):
    await ask(harness, "/play")
    refused = await ask(harness, "/reveal", BOB)
    assert refused.text.startswith("Only Alice (who started it) or a chat admin")
    assert refused.reply_to is not None
    hint = await ask(harness, "/hint", BOB)
    assert hint.reply_to is not None


def test_times_left_are_said_as_a_clock_says_them():
    assert time_left(EN, 284) == "4 min 44 s" and time_left(ZH, 284) == "4 分 44 秒"
    assert time_left(EN, 45) == "45 seconds" and time_left(EN, 300) == "5 minutes"
    assert time_left(EN, 60) == "60 seconds" and time_left(EN, -3) == "0 seconds"
    assert "4 min 44 s" in EN("reveal_others_answered", left=time_left(EN, 284))
    assert "4 分 44 秒" in ZH("reveal_others_answered", left=time_left(ZH, 284))


def test_a_tie_on_the_podium_shares_its_medal():
    scores = [MatchScore(1, "Ann", 20, 2), MatchScore(2, "Ben", 20, 2), MatchScore(3, "Cy", 10, 1),
              MatchScore(4, "Di", 5, 1)]
    assert shared_places([(s.points, s.wins) for s in scores]) == [1, 1, 3, 4]
    for texts in (EN, ZH):
        lines = board(texts, scores, medals=True)
        assert lines[0].startswith("🥇") and lines[1].startswith("🥇")
        assert lines[2].startswith("🥉") and lines[3].startswith("4.")
    assert not any("🥈" in line for line in board(EN, scores, medals=True))


def test_hints_stop_before_the_answer_is_one_step_away():
    assert [hints_allowed(n) for n in (1, 2, 3, 4, 5)] == [1, 1, 1, 2, 3]


async def test_the_headlines_are_not_orders_in_either_language(services: Services):
    group, ann = Chat(-23, "group", "G"), Player(1, "Ann")
    dealt = await services.rounds.play(group, ann, "24")
    closed = await services.rounds.expire(dealt.round.id)
    assert closed is not None and \
        closed.text.startswith("⏰ Time is up for the round to make <b>24</b>.\n")
    zh_round = await services.rounds.play(Chat(-24, "group", "H"),
                                          Player(2, "李", language_code="zh"), "24")
    closed = await services.rounds.expire(zh_round.round.id)
    assert closed is not None and closed.text.startswith("⏰ 时间到：算 <b>24</b> 的这一局结束了。")


async def test_no_show_all_solutions_under_the_only_solution(harness: Harness):
    rounds = harness.services.rounds
    await harness.stores.people.remember_chat(GROUP, "group", "G")
    await harness.stores.people.remember_user(ALICE["id"], "Alice")
    now = rounds.clock()
    made = await harness.stores.rounds.open_round(GROUP, "24", (3, 3, 8, 8), 24, "hard", 30, "en",
                                                  now, now + 60, ALICE["id"])
    await opened_outside(harness.services, made, "deal")
    won = await ask(harness, "/a 8/(3-8/3)", BOB)
    assert "Bob wins" in won.text and "Show all solutions" not in json.dumps(won.reply_markup)


def test_a_deal_of_five_or_six_says_every_number_is_used_once():
    rules = GAMES["24"].words
    for texts, said in ((EN, "Use each of the 5 numbers exactly once."),
                        (ZH, "这 5 个数每个都要用，且只用一次。")):
        record = _round((1, 2, 3, 4, 5))
        assert said in rules.deal_text(record, texts)
        assert "exactly once" not in rules.deal_text(_round((1, 2, 3, 4)), EN)


def _round(hand: tuple[int, ...]):
    from bot.store.records import Round
    return Round(1, GROUP, "24", hand, 24, "easy", 10, "en", None, 0.0, 120.0, "open", False)


@pytest.mark.parametrize(("texts", "said"), [
    (EN, ["skips 13", "uses 8 twice, skips 4", "= 22, not 24",
          "illegal: <code>7−9</code> is negative", "= 825, 6 away"]),
    (ZH, ["漏了 13", "8 用了两次、漏了 4", "= 22，不是 24", "不合规则：<code>7−9</code> 是负数",
          "= 825，差 6"]),
])
def test_why_an_answer_does_not_win_in_a_few_words(texts, said):
    from bot.play.games.countdown.rules import judge as countdown_judge
    from bot.play.games.twentyfour.rules import judge as judge_24
    twenty_four, countdown = GAMES["24"].words, GAMES["countdown"].words
    why = []
    for hand, answer in (((11, 9, 12, 13), "12*(11-9)"), ((8, 3, 1, 4), "(8+8)*(3-1)"),
                         ((11, 9, 13, 11), "11+9+13-11")):
        why.append(twenty_four.why_text(judge_24(answer, hand, 24, True), _round(hand), texts))
    tiles = dataclasses.replace(_round((7, 9, 25, 50, 100, 3)), game="countdown", target=831)
    for answer in ("(7-9)*25", "100*9-50-25"):
        why.append(countdown.why_text(countdown_judge(answer, tiles.hand, 831, True), tiles,
                                      texts))
    assert why == said


async def test_a_groups_language_is_one_of_its_settings(harness: Harness):
    harness.telegram.promote(GROUP, ALICE["id"])
    panel = await ask(harness, "/settings")
    assert "Language: English" in panel.text
    assert (await press(harness, panel.message_id, ALICE, "简体中文")).text == "已保存。"
    shown = harness.telegram.edits[-1].text
    assert shown.startswith("⚙️ 这个群的设置") and shown.endswith("✅ 语言：简体中文，从下一局起。")
    assert labels(harness, panel.message_id)[-15] == "English"
    assert "算出" in (await ask(harness, "/play", BOB)).text  # the next deal, in Chinese


async def test_a_yahtzee_round_all_its_guessers_passed_ends_at_once(harness: Harness):
    dealt = await ask(harness, "/yahtzee")
    assert labels(harness, dealt.message_id) == ["Pass", "Reveal"]  # guesses write no status
    _, high = total_bounds(harness.services.rounds.open_round(GROUP).hand)
    await harness.send(GROUP, BOB, f"/a {high}")
    await harness.send(GROUP, CAROL, f"/a {high - 1}")
    assert [r.emoji for r in harness.telegram.reactions] == ["✍", "✍"]  # sealed, as before
    refused = await press(harness, dealt.message_id, ALICE, "Pass")  # she never guessed
    assert refused.text.startswith("Only players who answered this round can /pass")
    assert (await press(harness, dealt.message_id, BOB, "Pass")).text == \
        "You passed: 1 of 2 who answered have."
    before = sent_count(harness)
    await harness.send(GROUP, CAROL, "/pass")
    result = await harness.telegram.reply(GROUP)
    assert sent_count(harness) == before + 1 and "Everyone who answered passed" in result.text
    assert harness.services.rounds.open_round(GROUP) is None
