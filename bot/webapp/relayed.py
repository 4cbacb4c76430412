"""The Mini App as a role of its own (`python -m bot webapp`): it serves the page and hands
each API request, whole, to the worker that can answer it, whose own Face answers it as the one
process would. The role holds no round, no database connection and no lock: any number of them
may sit behind the HTTPS proxy, and one that dies loses nothing but the requests in flight.

A request about a round (`round`, `answer`, `next`, `start`) goes to the owner of the chat its
ticket names; a page or a card to any worker. The ticket is read here only to pick the
partition: the worker checks everything again (a forged ticket reaches a worker that then
refuses it). The worker's reply is the endpoint's answer or its refusal (status, why, the page's
word), said here in the asker's language as the one process says it. A request that is not
signed for the bot is refused here (403), so a forged flood never reaches a worker. A request
nobody answered (the partition between two owners, no worker up, no reply in time) is refused
with 503 and the page's "try again": an answer that reached a worker which died before replying
may have counted, and the page's next request shows whether it did.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Awaitable, Callable
from functools import partial
from http import HTTPStatus
from typing import Any

from bot.runtime import metrics
from bot.runtime.doors import Doors
from bot.runtime.lru import LRU
from bot.webapp import door
from bot.webapp.init_data import Unsigned, claimed, verify
from bot.webapp.refusal import Refusal
from bot.webapp.server import ACTS, Act, Face, refusal_language
from bot.webapp.tickets import read_ticket

# answered by the owner of the ticket's chat; the rest by any
ROUND_ACTS = ("round", "answer", "next", "start")
PRIVATE_ACTS = ("next", "start")  # ... of which these may name no round: the person's own chat
Ask = Callable[[int | None, bytes], Awaitable[bytes | None]]  # (chat or None, request) -> reply
HELD_KEPT = 1_024  # people and chats held past their budget (the least lately used go)


def request(act: str, body: dict[str, Any]) -> bytes:
    return json.dumps({"act": act, "body": body}, separators=(",", ":")).encode()


async def answer_request(face: Face, data: bytes) -> bytes:
    """A reply to a relayed request (a worker's, or the one process's from its page's own
    process): its Face's answer, or the refusal it raised. It draws on the asker's budget here
    too, the one their updates draw on (the relaying process drew on its own): one budget for
    a person across every door."""
    try:
        asked = json.loads(data)
        act = ACTS[asked["act"]]
        body = asked["body"]
        if not isinstance(body, dict):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        return _reply({"refused": [HTTPStatus.BAD_REQUEST, "not a relayed request", "forbidden"]})
    admitted = None
    try:
        if face.doors is not None:
            admitted = door.enter(face.doors, asked["act"], body, face.token, face.now(),
                                  claimed(body.get("init_data")))
        return _reply({"ok": await act(face, body)})
    except Refusal as refusal:
        # the line under it and whose budget it was beside the list a role of any version reads
        return _reply({"refused": [refusal.status, refusal.why, refusal.said, refusal.retry_after],
                       "after": refusal.after, "by": refusal.by})
    finally:
        if admitted is not None and face.doors is not None:
            face.doors.leave(admitted)


def _reply(content: dict[str, Any]) -> bytes:
    return json.dumps(content, separators=(",", ":")).encode()


class RelayedFace:
    """What the role's handlers serve: the refusal's language read here (the token checks the
    signature), the answers asked of the workers through `ask`."""

    def __init__(self, ask: Ask, token: str, clock: Callable[[], float] = time.time,
                 doors: Doors | None = None) -> None:
        self.ask = ask
        self.token = token
        self.clock = clock
        self.doors = doors  # the role's own budget of each asker (a chat's: its worker's)
        # a person or a chat -> until when the answering process said it is past its budget:
        # its requests are refused here meanwhile, not relayed (fifty members each within
        # their own budget here, past their group's or past what their updates left of their
        # own there, made the bot verify and refuse thousands of them)
        self._held: LRU[tuple[str, int], float] = LRU(HELD_KEPT)

    def now(self) -> float:
        return self.clock()

    def refusal_language(self, body: dict[str, Any]) -> str:
        return refusal_language(body)

    async def relay(self, act: str, body: dict[str, Any]) -> dict[str, Any]:
        try:  # here: a forged flood must cost the process that answers nothing
            signed = verify(body.get("init_data"), self.token, self.now())
        except Unsigned as error:
            raise Refusal(HTTPStatus.FORBIDDEN, str(error)) from None
        self._still_held(("person", signed.user_id))
        chat = None
        if act in PRIVATE_ACTS and body.get("round") in (None, ""):
            chat = signed.user_id  # a page from the menu: its person's own chat
        elif act in ROUND_ACTS:
            ticket = read_ticket(body.get("round"))
            if ticket is None:
                raise Refusal(HTTPStatus.BAD_REQUEST, "no round")
            chat = ticket.chat_id
            self._still_held(("chat", chat))
        data = await self.ask(chat, request(act, body))
        if data is None:
            raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "no worker answered", "try_again")
        reply = json.loads(data)
        if "refused" in reply:
            status, why, said, *wait = reply["refused"]
            refusal = Refusal(status, why, said, wait[0] if wait else None,
                              after=reply.get("after", ""), by=reply.get("by", ""))
            held = {"person": signed.user_id, "chat": chat}.get(refusal.by)
            if held is not None and refusal.retry_after:
                self._held[refusal.by, held] = self.now() + refusal.retry_after
            raise refusal
        answer: dict[str, Any] = reply["ok"]
        return answer

    def _still_held(self, whose: tuple[str, int]) -> None:
        """Refusal while the answering process last said this person or chat is past its
        budget: what it would say again, for the rest of the wait (for a chat, a stranger to
        the group hears it too, and spends nothing either way)."""
        until = self._held.get(whose)
        if until is None:
            return
        left = until - self.now()
        if left <= 0:
            del self._held[whose]
            return
        kind = whose[0]
        metrics.record_webapp_refused(kind)
        raise Refusal(HTTPStatus.TOO_MANY_REQUESTS, f"past the {kind}'s budget", "held",
                      math.ceil(left), by=kind)


async def _relayed(act: str, face: RelayedFace, body: dict[str, Any]) -> dict[str, Any]:
    return await face.relay(act, body)


RELAYED: dict[str, Act] = {name: partial(_relayed, name) for name in ACTS}
"""The role's endpoints: the bot's own (bot.webapp.server.ACTS), each relayed."""
