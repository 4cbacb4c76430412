"""A reply owed (docs/reliability.md): a /solve, /help, /stats, /top or /privacy claimed by a
process that died before its reply went is answered by the process given it again, once; the
claim is settled once the reply went, so a redelivery after that answers nothing. A /play,
/countdown or /yahtzee claimed by a process that died before its round was stored is dealt by
the process given it again, once: the round's insert settles the claim, so a redelivery after
it deals nothing (the rounds' outbox sends a stored deal), and a claimant that stalled while
another took its claim over stores nothing. An answer, claimed before its handler as ever,
stays once-only even when its claimant died first."""

from __future__ import annotations

import asyncio
import time

from telegram import Update

from bot.play.chats.people import Chat, Player
from bot.store.records import OwedClaim
from bot.telegram import app
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness
from tests.bot.store.test_owed_claims import owed_by

GROUP = -7901
ANN = {"id": 791, "is_bot": False, "first_name": "Ann", "language_code": "en"}
DEAD = 4_242  # the owner id of a process that claimed and died


async def given(h: Harness, update_id: int, text: str, chat: int = GROUP) -> Update:
    """The message as an update of `update_id`, not yet fed."""
    message = await h.telegram.say(chat, ANN, text)
    h.telegram.updates.clear()
    return Update.de_json({"update_id": update_id, "message": message}, h.app.bot)


def replies(h: Harness, chat: int = GROUP) -> list[str]:
    return [s.text for s in h.telegram.sent if s.chat_id == chat]


@ON_BOTH_BACKENDS
async def test_a_solve_its_claimant_died_owing_is_answered_once(harness: Harness):
    update = await given(harness, 501, "/solve 3 3 8 8")
    assert await harness.stores.updates.claim_owed(501, time.time(), owner=DEAD)  # then it died
    await harness.app.process_update(update)
    [reply] = replies(harness)
    assert "1 distinct solution" in reply and r"\frac{8}{3 - \frac{8}{3}}" in reply
    assert await owed_by(harness.stores, 501) is None  # settled
    await harness.app.process_update(update)  # delivered again: answered before
    assert replies(harness) == [reply]


@ON_BOTH_BACKENDS
async def test_every_owed_command_settles_its_claim_once_answered(harness: Harness):
    for update_id, text in enumerate(["/solve 1 2 3 4", "/help", "/stats", "/top",
                                      "/privacy", "/solve@" + harness.app.bot.username + " 4 6"],
                                     start=600):
        before = len(replies(harness))
        await harness.app.process_update(await given(harness, update_id, text))
        messages = 2 if text == "/help" else 1  # the commands, then the rules
        assert len(replies(harness)) == before + messages, text
        assert await owed_by(harness.stores, update_id) is None, text


async def test_the_same_owed_update_at_the_same_instant_is_answered_once(harness: Harness):
    update = await given(harness, 701, "/solve 4 4 10 10")
    await asyncio.gather(*(harness.app.process_update(update) for _ in range(3)))
    assert len(replies(harness)) == 1


@ON_BOTH_BACKENDS
async def test_a_deal_its_claimant_died_before_storing_is_dealt_once(harness: Harness):
    for update_id, (chat, text) in enumerate([(GROUP, "/play"), (GROUP - 1, "/countdown"),
                                              (GROUP - 2, "/yahtzee")], start=810):
        update = await given(harness, update_id, text, chat)
        assert await harness.stores.updates.claim_owed(update_id, time.time(), owner=DEAD)
        await harness.app.process_update(update)  # given again, after its claimant died
        dealt = harness.services.rounds.open_round(chat)
        assert dealt is not None and len(replies(harness, chat)) == 1, text
        assert await owed_by(harness.stores, update_id) is None, text  # settled with the round
        await harness.app.process_update(update)  # once more: handled
        assert harness.services.rounds.open_round(chat) is dealt
        assert len(replies(harness, chat)) == 1, text


@ON_BOTH_BACKENDS
async def test_a_play_stored_before_its_claimant_died_is_not_dealt_again(harness: Harness):
    """Its round's insert settled the claim: a redelivery skips the update (the outbox sends
    the stored deal), whoever is given it."""
    update = await given(harness, 820, "/play")
    await harness.app.process_update(update)
    dealt = harness.services.rounds.open_round(GROUP)
    assert dealt is not None and len(replies(harness)) == 1
    assert await owed_by(harness.stores, 820) is None  # settled by the round's insert
    await harness.stores.updates.claim_owed(820, time.time(), owner=DEAD)  # settled: no-op
    await harness.app.process_update(update)
    assert harness.services.rounds.open_round(GROUP) is dealt and len(replies(harness)) == 1


@ON_BOTH_BACKENDS
async def test_a_stalled_claimant_whose_play_was_taken_over_deals_nothing(harness: Harness):
    """It claimed the /play, stalled, and the update went to another process that took the
    claim over: when it wakes, its deal stores nothing and shows nothing."""
    services = harness.services
    assert await harness.stores.updates.claim_owed(830, time.time(), owner=services.once.owner)
    assert await harness.stores.updates.claim_owed(830, time.time(), owner=DEAD)  # taken over
    outcome = await services.rounds.play(Chat(GROUP, "group", "G"), Player(791, "Ann"), "24",
                                         claim=OwedClaim(830, services.once.owner))
    assert outcome is None and services.rounds.open_round(GROUP) is None
    assert not replies(harness)
    assert await owed_by(harness.stores, 830) == DEAD  # still the other's, who deals


async def test_a_deal_settles_with_its_round_and_a_refusal_after_its_reply(harness: Harness,
                                                                         monkeypatch):
    """A dealt /play's claim is settled by its round's insert: no settle after it (a round
    trip saved); a /play refused (a round on in the topic) is settled once its reply went."""
    settles: list[int] = []
    settle = harness.stores.updates.settle_update

    async def counted(update_id: int, owner: int) -> None:
        settles.append(update_id)
        await settle(update_id, owner)

    monkeypatch.setattr(harness.stores.updates, "settle_update", counted)
    await harness.app.process_update(await given(harness, 850, "/play"))
    assert harness.services.rounds.open_round(GROUP) is not None and settles == []
    assert await owed_by(harness.stores, 850) is None
    await harness.app.process_update(await given(harness, 851, "/play"))
    assert len(replies(harness)) == 2 and settles == [851]  # "a round is on", then settled
    assert await owed_by(harness.stores, 851) is None


async def test_the_same_play_at_the_same_instant_deals_once(harness: Harness):
    update = await given(harness, 840, "/play")
    await asyncio.gather(*(harness.app.process_update(update) for _ in range(3)))
    assert harness.services.rounds.open_round(GROUP) is not None
    assert len(replies(harness)) == 1


@ON_BOTH_BACKENDS
async def test_a_plain_claimed_play_and_answer_whose_claimant_died_stay_once_only(
        harness: Harness):
    """A plain claim (a process of the version before, which claimed a /play so) and an
    answer's: their claimant's death loses them; they never act twice."""
    play = await given(harness, 801, "/play")
    assert await harness.stores.updates.claim_update(801, time.time())  # then its claimant died
    await harness.app.process_update(play)
    assert harness.services.rounds.open_round(GROUP) is None and not replies(harness)
    await harness.app.process_update(await given(harness, 803, "/play"))
    round_ = harness.services.rounds.open_round(GROUP)
    assert round_ is not None
    right = await given(harness, 804, f"/a {solve(round_.hand)[0]}")
    assert await harness.stores.updates.claim_update(804, time.time())  # then it died
    await harness.app.process_update(right)
    assert harness.services.rounds.open_round(GROUP) is round_  # not judged: nobody won


def test_which_updates_owe_a_reply():
    def owes(text: str | None, edited: bool = False) -> bool:
        message = {"message_id": 1, "date": 0, "chat": {"id": GROUP, "type": "group"},
                   "from": ANN, **({"text": text} if text is not None else {})}
        return app.owes_reply(Update.de_json(
            {"update_id": 1, "edited_message" if edited else "message": message}, None))

    assert owes("/solve 1 2 3 4") and owes("/SOLVE 1 2 3 4") and owes("/top@TwentyFourBot week")
    assert owes("/help") and owes("/stats") and owes("/privacy")
    assert owes("/play") and owes("/play hard 5") and owes("/countdown") and owes("/yahtzee")
    for text in ("/match", "/a 1+2", "/hint", "/daily", "/start", "solve 1 2 3 4", "/", "/ solve",
                 "", None, "/solvee 1 2"):
        assert not owes(text), text
    assert not owes("/solve 1 2 3 4", edited=True) and not owes("/play", edited=True)
