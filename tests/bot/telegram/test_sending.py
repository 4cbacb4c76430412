"""`deliver` (bot.telegram.sending) falls back from an ephemeral or a rich message only for a
refusal (issue 70): the refusals the Bot API's rules give (bot_api_10.REFUSALS, a Bot API without
the method) send the next way and a chat's refusal is remembered; a refusal of this message alone
(the 15 seconds past) falls back without marking the chat; any other error goes the plain
message's way — another 400 is logged and nothing goes public, a 403 or a chat gone is the
chat's fate, a migrated group is followed, the network's failure is the caller's."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    TelegramError,
    TimedOut,
)

from bot.play.ports import Gone, Moved
from bot.runtime import arrivals
from bot.telegram.bot_api_10 import EPHEMERAL, REFUSALS, RICH, WHISPER_WITHIN, Refusals
from bot.telegram.delivery import Attempt, deliver, tried
from bot.telegram.fairness import came

GROUP, SUPERGROUP = -3001, -1003001
Send = Callable[[int], Awaitable[str]]


class Ways:
    """The ways to send one reply, each recorded when tried: a way raises what the test says
    (for every chat, or only the first), else it is taken."""

    def __init__(self) -> None:
        self.tried: list[tuple[str, int]] = []

    def way(self, name: str, error: Exception | None = None, once: bool = False) -> Send:
        async def send(to: int) -> str:
            self.tried.append((name, to))
            if error is not None and (not once or len(self.tried) == 1):
                raise error
            return name
        return send

    def attempts(self, first: Exception | None, *, rich: bool = False,
                 once: bool = False) -> list[Attempt[str]]:
        """An ephemeral way (rich and ephemeral with `rich`, then ephemeral, then rich) that
        meets `first`, and the plain message."""
        found: list[Attempt[str]] = []
        if rich:
            found.append((frozenset({EPHEMERAL, RICH}), self.way("rich alone", first, once)))
            found.append((frozenset({EPHEMERAL}), self.way("alone")))
            found.append((frozenset({RICH}), self.way("rich")))
        else:
            found.append((frozenset({EPHEMERAL}), self.way("alone", first, once)))
        found.append((frozenset(), self.way("plain")))
        return found

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.tried]


CHATS_REFUSE = [(words, feature) for words, feature, chats in REFUSALS if chats]


@pytest.mark.parametrize(("words", "feature"), CHATS_REFUSE)
async def test_a_chats_refusal_falls_back_and_is_remembered(words: str, feature: str):
    refusals, ways = Refusals(), Ways()
    attempts: list[Attempt[str]] = [(frozenset({feature}), ways.way("new", BadRequest(words))),
                                    (frozenset(), ways.way("plain"))]
    sent = await deliver(GROUP, 0, refusals, attempts)
    assert (sent.value, sent.fate, ways.names) == ("plain", None, ["new", "plain"])
    assert not refusals.allows(GROUP, feature) and refusals.allows(-1, feature)
    again = Ways()  # remembered: the chat is not asked again meanwhile
    attempts = [(frozenset({feature}), again.way("new")), (frozenset(), again.way("plain"))]
    assert (await deliver(GROUP, 0, refusals, attempts)).value == "plain"
    assert again.names == ["plain"]


async def test_a_bot_api_without_the_method_is_put_down_to_the_feature_it_needed():
    """sendRichMessage unknown (404): the rich ways are declined, the ephemeral text goes, and
    the chat is remembered as taking no rich message."""
    refusals, ways = Refusals(), Ways()
    missing = EndPointNotFound("Endpoint 'sendRichMessage' not found in Bot API")
    attempts: list[Attempt[str]] = [
        (frozenset({EPHEMERAL, RICH}), ways.way("rich alone", missing)),
        (frozenset({EPHEMERAL}), ways.way("alone")),
        (frozenset(), ways.way("plain"))]
    assert (await deliver(GROUP, 0, refusals, attempts)).value == "alone"
    assert not refusals.allows(GROUP, RICH) and refusals.allows(GROUP, EPHEMERAL)


async def test_past_the_fifteen_seconds_the_answer_goes_to_the_chat_and_nothing_is_marked():
    """"No eligible action": this message alone was refused. The other ephemeral way is not
    tried for it, the rich one goes to the chat, and the next message is tried ephemeral."""
    refusals, ways = Refusals(), Ways()
    late = BadRequest("No eligible action to answer with an ephemeral message")
    sent = await deliver(GROUP, 0, refusals, ways.attempts(late, rich=True))
    assert (sent.value, ways.names) == ("rich", ["rich alone", "rich"])
    assert refusals.allows(GROUP, EPHEMERAL) and refusals.allows(GROUP, RICH)
    assert len(refusals) == 0


@pytest.mark.parametrize(("waited", "asked"), [
    (WHISPER_WITHIN + 1.0, ["rich"]),  # past the window: no ephemeral way is asked
    (WHISPER_WITHIN, ["rich"]),
    (WHISPER_WITHIN - 1.0, ["rich alone"]),  # within it: asked as ever
    (None, ["rich alone"])])  # outside an update's handling (a job): asked as ever
async def test_an_update_that_waited_past_the_fifteen_seconds_is_not_whispered(
        waited: float | None, asked: list[str]):
    """Telegram refuses an ephemeral message more than 15 s after the action it answers, and
    the action came before its update reached the bot: one that waited WHISPER_WITHIN here
    goes the next way at once, and the chat is not marked (its next reply is whispered)."""
    refusals, ways = Refusals(), Ways()
    now = time.monotonic()
    with contextlib.ExitStack() as handling:
        if waited is not None:
            handling.enter_context(arrivals.arrived(now - waited))
        sent = await deliver(GROUP, 0, refusals, ways.attempts(None, rich=True))
    assert (sent.value, ways.names) == (asked[-1], asked)
    assert len(refusals) == 0 and refusals.allows(GROUP, EPHEMERAL)


async def test_a_workers_update_counts_its_wait_in_the_stream_for_the_window():
    """In a cluster the worker says when the update reached the broker (its stored time), and
    the fair processor's own `arrived` after it changes nothing: 20 s in the stream and a
    moment here is past the window."""
    refusals, ways = Refusals(), Ways()
    with arrivals.arrived(time.monotonic() - 20.0), arrivals.arrived():
        sent = await deliver(GROUP, 0, refusals, ways.attempts(None))
    assert (sent.value, ways.names) == ("plain", ["plain"])


async def test_a_workers_update_that_waited_at_telegram_first_is_past_the_window():
    """The worker says the broker stored the update a second ago, but Telegram dated its
    message 20 s ago (the gateway's intake was full): the fair processor's earlier time
    counts, and no ephemeral way is asked."""
    refusals, ways = Refusals(), Ways()
    message = SimpleNamespace(date=datetime.now(UTC) - timedelta(seconds=20), edit_date=None)
    with arrivals.arrived(time.monotonic() - 1.0), \
            arrivals.arrived(came(SimpleNamespace(message=message))):
        sent = await deliver(GROUP, 0, refusals, ways.attempts(None))
    assert (sent.value, ways.names) == ("plain", ["plain"])


@pytest.mark.parametrize("words", [
    "Message is too long", "Can't parse entities: unsupported start tag", "Wrong file identifier",
    "Message to be replied not found", "Can't parse EphemeralMessageParameters"])
async def test_another_400_makes_nothing_public_and_marks_no_chat(
        words: str, caplog: pytest.LogCaptureFixture):
    refusals, ways = Refusals(), Ways()
    caplog.set_level(logging.INFO)
    sent = await deliver(GROUP, 0, refusals, ways.attempts(BadRequest(words), rich=True))
    assert (sent.value, sent.fate, ways.names) == (None, None, ["rich alone"])
    assert len(refusals) == 0
    assert any(words in record.getMessage() for record in caplog.records)  # logged


@pytest.mark.parametrize("error", [Forbidden("Forbidden: bot was kicked from the group chat"),
                                   BadRequest("Chat not found"),
                                   BadRequest("Message thread not found")])
async def test_the_chat_gone_is_its_fate_as_for_the_plain_message(error: TelegramError):
    refusals, ways = Refusals(), Ways()
    sent = await deliver(GROUP, 5, refusals, ways.attempts(error))
    assert sent.value is None and isinstance(sent.fate, Gone) and ways.names == ["alone"]
    topic_only = "thread" in str(error)
    assert sent.fate == Gone(GROUP, 5 if topic_only else None)
    assert len(refusals) == 0


async def test_a_migrated_group_is_followed_as_the_plain_message_is():
    refusals, ways = Refusals(), Ways()
    sent = await deliver(GROUP, 0, refusals,
                         ways.attempts(ChatMigrated(SUPERGROUP), once=True))
    assert (sent.value, sent.fate) == ("alone", Moved(GROUP, SUPERGROUP))
    assert ways.tried == [("alone", GROUP), ("alone", SUPERGROUP)]
    assert len(refusals) == 0


async def test_the_networks_failure_is_the_callers_as_for_the_plain_message():
    refusals, ways = Refusals(), Ways()
    with pytest.raises(TimedOut):
        await deliver(GROUP, 0, refusals, ways.attempts(TimedOut()))
    assert ways.names == ["alone"] and len(refusals) == 0


async def test_an_edit_in_a_new_form_is_declined_only_by_a_refusal():
    """`tried` (a page turned as mathematics): None for a refusal, so the text stands in; an
    edit pressed twice is done; another error is the edit's own, logged."""
    ways = Ways()
    assert await tried(GROUP, 0, ways.way("edit", BadRequest(
        "Rich messages can't be sent to this chat")), frozenset({RICH})) is None
    done = await tried(GROUP, 0, ways.way("edit", BadRequest(
        "Message is not modified: specified new message content")), frozenset({RICH}))
    assert done is not None and done.value is None
    other = await tried(GROUP, 0, ways.way("edit", BadRequest("Message to edit not found")),
                        frozenset({RICH}))
    assert other is not None and other.value is None and other.fate is None
