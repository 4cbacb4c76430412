"""What the Mini App's tests share: a round of a known hand dealt in a group (or a private chat)
of the real Application, the page's own server on a free port, initData signed as Telegram
signs it, and a JSON POST."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx

from bot.store.records import Round
from bot.webapp.init_data import sign, user_fields
from bot.webapp.server import serve, ticket_of
from tests.bot.conftest import Harness

GROUP = -7701
ANN = {"id": 771, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 772, "is_bot": False, "first_name": "Ben", "language_code": "zh-hans"}
SOLUTION = [[2, "/", 3], [1, "-", 2], [0, "/", 1]]  # (8, 3, 8, 3): 8/(3-8/3)
WRONG = [[0, "+", 1], [0, "+", 1], [0, "+", 1]]  # 8+3+8+3 = 22


async def deal_known(h: Harness, hand: tuple[int, ...], chat: int = GROUP,
                     seconds: float = 60.0) -> Round:
    """A round of 24 with this hand, open in the chat, its deal a message there."""
    kind = "private" if chat > 0 else "group"
    await h.telegram.say(chat, ANN if chat < 0 else {**ANN, "id": chat}, "hello", kind=kind)
    h.telegram.updates.clear()
    await h.stores.people.remember_chat(chat, kind, "G" if chat < 0 else None)
    await h.stores.people.remember_user(ANN["id"], ANN["first_name"])
    now = h.services.rounds.clock()
    await h.stores.rounds.open_round(chat, "24", hand, 24, "easy", 10, "en", now, now + seconds,
                                     ANN["id"])
    h.services.table.load(await h.stores.rounds.open_rounds())
    opened = h.services.table.of(chat)
    assert opened is not None
    return opened.record


def signed_for(user: dict, round_: Round | None, token: str, auth_date: float | None = None,
               start_param: str | None = "ticket") -> str:
    """initData for the user, opened now (or at auth_date), from the round's Direct Link
    (start_param "ticket") or with none (a private chat's web_app button)."""
    param = ticket_of(round_).text if start_param == "ticket" and round_ else start_param
    return sign(user_fields(user["id"], user["first_name"], int(auth_date or time.time()),
                            user["language_code"], param), token)


@asynccontextmanager
async def page_server(h: Harness) -> AsyncIterator[str]:
    """The page's own server on a free port; yields its base URL (…/webapp/)."""
    server, port = serve(h.bot.face, 0)
    try:
        yield f"http://127.0.0.1:{port}/webapp/"
    finally:
        server.stop()
        await server.close_all_connections()


async def post(base: str, path: str, body: object) -> tuple[int, dict]:
    async with httpx.AsyncClient(timeout=30) as client:
        response = await client.post(base + path, content=json.dumps(body),
                                     headers={"Content-Type": "application/json"})
    try:
        said = response.json()
    except ValueError:  # refused before the handler (the server's own bound): no JSON
        said = {}
    return response.status_code, said
