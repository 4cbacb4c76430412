"""A reply owed (docs/reliability.md): a /solve, /help, /stats, /top or /privacy claimed by a
process that died before its reply went is answered by the process given it again, once; the
claim is settled once the reply went, so a redelivery after that answers nothing; a /play or an
answer, claimed before their handlers as ever, stay once-only even when their claimant died
first (their own rows, not a reply, are what they owe)."""

from __future__ import annotations

import asyncio
import time

from telegram import Update

from bot.telegram import app
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness
from tests.bot.store.test_owed_claims import owed_by

GROUP = -7901
ANN = {"id": 791, "is_bot": False, "first_name": "Ann", "language_code": "en"}
DEAD = 4_242  # the owner id of a process that claimed and died


async def given(h: Harness, update_id: int, text: str) -> Update:
    """The message as an update of `update_id`, not yet fed."""
    message = await h.telegram.say(GROUP, ANN, text)
    h.telegram.updates.clear()
    return Update.de_json({"update_id": update_id, "message": message}, h.app.bot)


def replies(h: Harness) -> list[str]:
    return [s.text for s in h.telegram.sent if s.chat_id == GROUP]


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
        assert len(replies(harness)) == before + 1, text
        assert await owed_by(harness.stores, update_id) is None, text


async def test_the_same_owed_update_at_the_same_instant_is_answered_once(harness: Harness):
    update = await given(harness, 701, "/solve 4 4 10 10")
    await asyncio.gather(*(harness.app.process_update(update) for _ in range(3)))
    assert len(replies(harness)) == 1


@ON_BOTH_BACKENDS
async def test_a_play_and_an_answer_whose_claimant_died_stay_once_only(harness: Harness):
    play = await given(harness, 801, "/play")
    assert await harness.stores.updates.claim_update(801, time.time())  # then its claimant died
    await harness.app.process_update(play)
    assert harness.services.rounds.open_round(GROUP) is None and not replies(harness)
    # an owed claim a dead process left on a /play (no process writes one) is not a licence
    play_again = await given(harness, 802, "/play")
    assert await harness.stores.updates.claim_owed(802, time.time(), owner=DEAD)
    await harness.app.process_update(play_again)
    assert harness.services.rounds.open_round(GROUP) is None
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
    for text in ("/play", "/a 1+2", "/hint", "/daily", "/start", "solve 1 2 3 4", "/", "/ solve",
                 "", None, "/solvee 1 2"):
        assert not owes(text), text
    assert not owes("/solve 1 2 3 4", edited=True)
