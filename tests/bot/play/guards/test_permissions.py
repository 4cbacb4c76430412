"""Fair play: who may end a round early, take the hint or set the language (the round's starter
or a chat admin); an early reveal never crowns the closest Countdown answer; a right answer is
never lost to the answer throttle."""

from __future__ import annotations

import asyncio

from telegram import Update

from bot.play.chats.people import Chat, Player
from bot.play.guards.throttle import Admission, Throttle
from bot.play.outcomes import Closed, Dealt
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from bot.telegram.members import ChatMembers
from solver import solve
from tests.bot.conftest import Clock, Harness, new_services

GROUP = -1101
ALICE = {"id": 31, "is_bot": False, "first_name": "Alice"}
BOB = {"id": 32, "is_bot": False, "first_name": "Bob"}
CAROL = {"id": 33, "is_bot": False, "first_name": "Carol"}
HAND, TARGET = (1, 3, 7, 10, 25, 50), 831  # Countdown: 830 is the closest


async def countdown_by_hand(h: Harness, starter: dict) -> None:
    """A Countdown round on a known hand, started by `starter` (as /countdown would)."""
    await h.stores.people.remember_chat(GROUP, "group", "G")
    await h.stores.people.remember_user(starter["id"], starter["first_name"])
    now = h.services.rounds.clock()
    made = await h.stores.rounds.open_round(GROUP, "countdown", HAND, TARGET, "2", 10, "en", now,
                                            now + 60, starter["id"])
    assert made is not None
    await load(h.services, h.stores)


async def load(services: Services, stores: Stores) -> None:
    """Read the chats' languages and the open rounds into memory, as at start-up."""
    await services.people.load()
    services.table.load(await stores.rounds.open_rounds())


def getchatmember_calls(h: Harness) -> int:
    return sum(1 for call in h.telegram.calls if call[0] == "getChatMember")


async def test_ending_a_round_early_never_takes_points_from_the_leader(harness: Harness):
    await countdown_by_hand(harness, ALICE)
    await harness.send(GROUP, BOB, "/a 10*(3*25+1+7)")  # 830: 1 away
    assert "1 away" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, BOB, "/reveal")  # not his round to end
    refused = await harness.telegram.reply(GROUP)
    assert "Only Alice (who started it) or a chat admin can end this round early" in refused.text
    await harness.send(GROUP, ALICE, "/reveal")  # the cheat of the issue: the starter, behind
    refused = await harness.telegram.reply(GROUP)
    assert refused.text.startswith("Others have answered this round: it ends early once "
                                   "everyone who answered sends /pass")
    assert harness.services.rounds.open_round(GROUP) is not None
    harness.telegram.promote(GROUP, CAROL["id"])
    await harness.send(GROUP, CAROL, "/reveal")  # an admin may: it scores as time's up would
    ended = await harness.telegram.reply(GROUP)
    assert "Ended early" in ended.text and "Bob</b> was closest" in ended.html
    assert "+7 points" in ended.text and "Carol ended the round early" in ended.text
    assert harness.services.rounds.open_round(GROUP) is None
    await harness.send(GROUP, BOB, "/stats")
    assert "7 points, 1 win in 1 round" in (await harness.telegram.reply(GROUP)).text


async def test_the_starter_cannot_farm_points_by_revealing(harness: Harness):
    await countdown_by_hand(harness, ALICE)
    await harness.send(GROUP, ALICE, "/a 10*(3*25+1+7)")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, ALICE, "/giveup")  # alone in it: she may end it...
    ended = await harness.telegram.reply(GROUP)
    assert "Nobody came within 10" in ended.text and "+7 points" not in ended.text
    assert "Alice's own answers could not win it" in ended.text  # ... but not win it so
    await harness.send(GROUP, ALICE, "/top")
    assert "No scores yet" in (await harness.telegram.reply(GROUP)).text


async def test_an_admin_ending_early_cannot_win_with_their_own_answer(harness: Harness):
    await countdown_by_hand(harness, ALICE)
    harness.telegram.promote(GROUP, CAROL["id"])
    await harness.send(GROUP, BOB, "/a 50*(10+7)-25-3")  # 822: 9 away
    await harness.send(GROUP, CAROL, "/a 10*(3*25+1+7)")  # 830: 1 away, the admin's
    await harness.telegram.replies(GROUP, 2)
    await harness.send(GROUP, CAROL, "/reveal")
    ended = await harness.telegram.reply(GROUP)
    assert "Bob</b> was closest" in ended.html and "9 away" in ended.text  # not Carol's 830
    assert "+5 points" in ended.text


async def test_an_admin_may_end_someone_elses_round_and_is_asked_once(harness: Harness):
    await countdown_by_hand(harness, ALICE)
    harness.telegram.promote(GROUP, CAROL["id"])
    harness.app.bot_data.members.clock = lambda: 0.0  # within the minute, however slow
    await harness.send(GROUP, CAROL, "/hint")
    assert "No hints" in (await harness.telegram.reply(GROUP)).text  # no admin question needed
    assert getchatmember_calls(harness) == 0
    await harness.send(GROUP, CAROL, "/lang en")
    assert "speaks English" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, CAROL, "/reveal")
    assert "Ended early" in (await harness.telegram.reply(GROUP)).text
    assert getchatmember_calls(harness) == 1  # the second check came from the cache


async def test_the_admin_cache_expires():
    class FakeBot:
        def __init__(self) -> None:
            self.status, self.asked = "administrator", 0

        async def get_chat_member(self, chat_id: int, user_id: int):
            self.asked += 1
            return type("Member", (), {"status": self.status})()

    now = [0.0]
    cache, bot = ChatMembers(seconds=60, clock=lambda: now[0]), FakeBot()
    assert await cache.is_admin(bot, GROUP, 1)  # type: ignore[arg-type]
    bot.status = "member"  # demoted: still an admin for what is left of the minute
    now[0] = 59.0
    assert await cache.is_admin(bot, GROUP, 1)  # type: ignore[arg-type]
    now[0] = 60.5
    assert not await cache.is_admin(bot, GROUP, 1)  # type: ignore[arg-type]
    assert bot.asked == 2


async def test_hint_is_the_starters_then_anyones(harness: Harness):
    await harness.send(GROUP, ALICE, "/play")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, BOB, "/hint")
    refused = await harness.telegram.reply(GROUP)
    assert "Only Alice (who started it) or a chat admin can ask for a hint" in refused.text
    assert not harness.services.rounds.open_round(GROUP).hint_used
    await harness.send(GROUP, ALICE, "/hint")
    assert "💡 Hints: " in harness.telegram.edits[-1].text  # into the deal
    await harness.send(GROUP, BOB, "/hint")  # once taken, hints are anyone's: the next step
    assert [r.emoji for r in harness.telegram.reactions][-1] in ("👌", "🤷")


async def test_language_is_for_admins_in_groups_and_anyone_in_private(harness: Harness):
    await harness.send(GROUP, BOB, "/lang zh")
    assert "Only a chat admin can change" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, BOB, "/lang")  # the usage needs no rights
    assert "Usage: /lang" in (await harness.telegram.reply(GROUP)).text
    await harness.send(BOB["id"], BOB, "/lang zh", kind="private")
    assert "中文" in (await harness.telegram.reply(BOB["id"])).text


async def test_an_anonymous_admin_speaks_as_the_group(harness: Harness):
    await harness.send(GROUP, ALICE, "/play")
    await harness.telegram.reply(GROUP)
    message = await harness.telegram.say(GROUP, {"id": 1087968824, "is_bot": True,
                                                 "first_name": "Group"}, "/reveal")
    message["sender_chat"] = message["chat"]
    harness.telegram.updates.clear()
    await harness.app.process_update(Update.de_json({"update_id": 9001, "message": message},
                                                    harness.app.bot))
    assert "Ended early" in (await harness.telegram.reply(GROUP)).text
    assert getchatmember_calls(harness) == 0


async def test_three_wrong_then_right_at_once_wins(harness: Harness):
    harness.services.rounds.throttle.clock = lambda: 100.0  # all in the same instant, however slow
    for trial in range(5):
        await harness.send(GROUP, ALICE, "/play")
        await harness.telegram.reply(GROUP)
        current = harness.services.rounds.open_round(GROUP)
        right = solve(current.hand)[0]
        a, b, c, d = current.hand
        wrong = [f"/a {a}+{b}+{c}+{d}+{d}", f"/a {a}+{b}", f"/a {a}*{b}*{c}*{d}*{a}"]
        sends = [harness.send(GROUP, BOB, text) for text in wrong]
        sends.insert(trial % 4, harness.send(GROUP, BOB, f"/a {right}"))
        before = len(harness.telegram.sent)
        await asyncio.gather(*sends)  # each returns once its update is handled
        assert harness.services.rounds.open_round(GROUP) is None, trial
        replies = [s.text for s in harness.telegram.sent[before:]]
        assert sum("Bob wins" in text for text in replies) == 1, replies
        harness.services.rounds.throttle.buckets.clear()


async def test_a_throttled_user_gets_one_note_per_burst():
    now = [0.0]
    throttle = Throttle(burst=3, per_second=1.0, clock=lambda: now[0])
    burst = [throttle.admit(1, 1) for _ in range(6)]
    assert burst == [Admission.REPLY] * 3 + [Admission.NOTE] + [Admission.QUIET] * 2
    assert throttle.admit(1, 2) is Admission.REPLY  # others are not held up
    now[0] = 1.0
    assert throttle.admit(1, 1) is Admission.REPLY
    assert throttle.admit(1, 1) is Admission.NOTE  # a new burst, a new note


async def test_a_throttled_countdown_answer_still_competes(stores: Stores, pool: SolverPool,
                                                          clock: Clock):
    services, _ = new_services(stores, pool, clock, seed=3)
    services.rounds.throttle.clock = lambda: 5.0
    answer = services.rounds.answer
    chat, ann, ben = Chat(GROUP), Player(1, "Ann"), Player(2, "Ben")
    await stores.people.remember_chat(GROUP, "group", "G")
    made = await stores.rounds.open_round(GROUP, "countdown", HAND, TARGET, "2", 10, "en",
                                          clock.now, clock.now + 60)
    await load(services, stores)
    for _ in range(3):
        await answer(chat, ben, "50*10", explicit=True)
    note = await answer(chat, ben, "10*(3*25+1+7)", explicit=True)  # 1 away, throttled
    assert note is not None and "slow down" in note.text
    assert await answer(chat, ann, "50*10+1", explicit=True) is not None
    clock.now += 60
    closed = await services.rounds.expire(made.id)
    assert closed is not None and "Ben" in closed.text and "+7 points" in closed.text


async def test_the_starter_is_stored_and_known_after_a_restart(stores: Stores, pool: SolverPool,
                                                               clock: Clock):
    services, _ = new_services(stores, pool, clock, seed=4)
    chat, ann, ben = Chat(GROUP), Player(1, "Ann"), Player(2, "Ben")
    dealt = await services.rounds.play(chat, ann, "24")
    assert isinstance(dealt, Dealt) and dealt.round.started_by == ann.id
    again, _ = new_services(stores, pool, clock, seed=5)  # a restart: nothing in memory
    await load(again, stores)
    assert again.rounds.open_round(GROUP).started_by == ann.id
    refused = await again.rounds.reveal(chat, ben)
    assert "Only <b>Ann</b> (who started it)" in refused.text and not isinstance(refused, Closed)
    assert isinstance(await again.rounds.reveal(chat, ann), Closed)


async def test_the_reveal_button_follows_the_same_rule(harness: Harness):
    await harness.send(GROUP, ALICE, "/countdown")
    deal = await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    await harness.send(GROUP, BOB, f"/a {current.hand[0]}+{current.hand[1]}")
    sent = len(harness.telegram.sent)
    refused = await harness.press(GROUP, deal.message_id, ALICE, "Reveal")
    assert refused.text.startswith("Others have answered this round: it ends early once "
                                   "everyone who answered sends /pass")
    assert len(harness.telegram.sent) == sent and harness.services.rounds.open_round(GROUP)
    harness.telegram.promote(GROUP, CAROL["id"])
    assert (await harness.press(GROUP, deal.message_id, CAROL, "Reveal")).text is None
    ended = harness.telegram.sent[-1]  # (Bob's answer may have had a line of its own)
    assert "Carol ended the round early" in ended.text


async def test_match_stop_follows_the_same_rule(harness: Harness):
    await harness.send(GROUP, ALICE, "/match 3")
    await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    a, b, *_ = current.hand
    await harness.send(GROUP, BOB, f"/a {a}+{b}")  # Bob plays the round
    await harness.send(GROUP, ALICE, "/match stop")
    refused = await harness.telegram.reply(GROUP)
    assert refused.text.startswith("Others have answered this round, so only a chat admin can "
                                   "stop the match now")
    assert await harness.services.matches.is_on(GROUP)
    harness.telegram.promote(GROUP, CAROL["id"])
    await harness.send(GROUP, CAROL, "/match stop")
    stopped = await harness.telegram.reply(GROUP)
    assert "Ended early" in stopped.text and "Match stopped after 1 of 3 rounds" in stopped.text
    assert not await harness.services.matches.is_on(GROUP)
