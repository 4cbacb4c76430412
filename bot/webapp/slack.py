"""Where the Mini App's work for a person waits its turn (bot.telegram.fairness): an answer in its
round's chat's turn, as that chat's typed answers; a page or a card in the person's lane of pages,
in the bot's slack — read, not played, so a crowd reading pages takes no chat's turn and no chat's
share of the core (issue 70)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Coroutine
from http import HTTPStatus
from typing import Any, Protocol, TypeVar

from bot.webapp.refusal import Refusal

T = TypeVar("T")


class Submit(Protocol):
    """Run a user's submission about a chat (user, chat, work) in that chat's fair turn, or a
    page's in the person's lane of pages (`page`); admitted at the door already
    (bot.telegram.fairness.submit_as)."""

    def __call__(self, user_id: int, chat_id: int, work: Coroutine[Any, Any, None],
                 page: bool = False) -> Awaitable[None]: ...


async def in_slack(submit: Submit, user_id: int, work: Coroutine[Any, Any, T]) -> T:
    """A page's work (a player's, a group's or a tournament's page, a card) run in its person's
    lane of pages; what it returns or raises, as if awaited here."""
    done: list[T] = []
    failed: list[Exception] = []

    async def run() -> None:
        try:
            done.append(await work)
        except Exception as error:  # the page's Refusal, or a fault: raised to the asker
            failed.append(error)

    try:
        await submit(user_id, user_id, run(), page=True)
    except BaseException:  # the asker gone (cancelled) before its turn: never to run
        if inspect.getcoroutinestate(work) == inspect.CORO_CREATED:
            work.close()
        raise
    if failed:
        raise failed[0]
    if not done:  # closed unrun: the process is stopping
        work.close()
        raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "stopping", "try_again")
    return done[0]
