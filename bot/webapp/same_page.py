"""A page asked again while the same page still waits for its turn in the slack is answered with
that one (issue 70): fifty members each reloading their own page a dozen times at once had the
bot work out the same page a dozen times each, 897 pages and 4.7 s of its core in one flood.

Only a page not yet begun is shared. Its reads start after every request that joined it came in,
so each asker gets what a page worked out for them alone would show; a request that comes once
the page has begun waits for the next one (queued afresh, which later askers join in turn). At
most one page of a kind is being worked out and one waiting, whatever the number of askers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Hashable
from http import HTTPStatus
from typing import Any, TypeVar

from bot.webapp.refusal import Refusal
from bot.webapp.slack import Submit, in_slack

T = TypeVar("T")


class SamePage:
    """The pages waiting for their turn, by what tells them apart (their kind, whose, the
    words): each a future every asker of it awaits."""

    def __init__(self) -> None:
        self._waiting: dict[Hashable, asyncio.Future[Any]] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    async def asked(self, key: Hashable, submit: Submit, user_id: int,
                    make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """The page `make` works out, run in the asker's lane of pages (`in_slack`), or the
        one of the same `key` that waits for its turn already."""
        waiting = self._waiting.get(key)
        if waiting is not None:
            return await asyncio.shield(waiting)  # (an asker gone leaves it to the others)
        shared: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        shared.add_done_callback(_retrieved)
        self._waiting[key] = shared

        async def work() -> T:
            if self._waiting.get(key) is shared:
                del self._waiting[key]  # begun: whoever asks from now on waits for a fresh one
            return await make()

        try:
            found = await in_slack(submit, user_id, work())
        except BaseException as error:
            if self._waiting.get(key) is shared:
                del self._waiting[key]
            if not shared.done():
                shared.set_exception(error if isinstance(error, Exception) else Refusal(
                    HTTPStatus.SERVICE_UNAVAILABLE, "stopping", "try_again"))
            raise
        shared.set_result(found)
        return found


def _retrieved(future: asyncio.Future[Any]) -> None:
    """An error nobody else waited for is the first asker's, raised to them already."""
    if not future.cancelled():
        future.exception()
