"""What the Mini App's tests share: a round of a known puzzle of any game dealt in a group (or a
private chat) of the real Application, the game's time made the test's own (a hand-moved clock),
the page's own server on a free port, initData signed as Telegram signs it, and a JSON POST."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from fractions import Fraction
from itertools import permutations

import httpx

from bot.store.records import Round
from bot.telegram.lean_request import authorities
from bot.webapp.init_data import sign, user_fields
from bot.webapp.server import serve
from bot.webapp.tickets import ticket_of
from solver.yahtzee import best_assignment
from tests.bot.conftest import Clock, Harness

GROUP = -7701
ANN = {"id": 771, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 772, "is_bot": False, "first_name": "Ben", "language_code": "zh-hans"}
EVE = {"id": 779, "is_bot": False, "first_name": "Eve", "language_code": "ru"}
SOLUTION = [[2, "/", 3], [1, "-", 2], [0, "/", 1]]  # (8, 3, 8, 3): 8/(3-8/3)
WRONG = [[0, "+", 1], [0, "+", 1], [0, "+", 1]]  # 8+3+8+3 = 22
# Countdown: 100 25 75 50 6 3 for 952, ((100+6)*3*75-50)/25, every step whole and above zero
TILES, TARGET = (100, 25, 75, 50, 6, 3), 952
EXACT = [[0, "+", 4], [4, "*", 3], [3, "*", 1], [2, "-", 1], [1, "/", 0]]
NEAR = [[0, "+", 4], [4, "*", 3]]  # (100+6)*3 = 318, on the last tile: 634 away
# Yahtzee: 13 rolls, a guess counting from 104 to 380 (their best total, 309, is the solver's)
ROLLS = ((5, 5, 3, 3, 3), (2, 3, 4, 5, 6), (1, 2, 3, 4, 6), (4, 4, 4, 4, 4), (1, 3, 3, 3, 3),
         (2, 2, 2, 6, 6), (6, 5, 4, 3, 3), (6, 6, 6, 3, 3), (5, 5, 5, 5, 2), (4, 4, 4, 1, 2),
         (3, 3, 3, 3, 1), (2, 2, 2, 5, 6), (1, 1, 1, 2, 3))
BEST = best_assignment(ROLLS).total
START = 1_800_000_000.0  # the tests' game time: a fixed moment that only a test moves


def hand_clock(h: Harness) -> Clock:
    """The game's time of the bot under test made the test's: a clock at START that moves only
    when the test moves it (the round table's, which the rounds and the page read)."""
    clock = Clock(START)
    h.services.table.clock = clock
    return clock


async def deal_known(h: Harness, hand: tuple = (8, 3, 8, 3), chat: int = GROUP,
                     seconds: float = 60.0, game: str = "24", target: int = 24) -> Round:
    """A round of the game with this hand and target, open in the chat, its deal a message
    there; its clock is the bot's game time."""
    kind = "private" if chat > 0 else "group"
    await h.telegram.say(chat, ANN if chat < 0 else {**ANN, "id": chat}, "hello", kind=kind)
    h.telegram.updates.clear()
    await h.stores.people.remember_chat(chat, kind, "G" if chat < 0 else None)
    await h.stores.people.remember_user(ANN["id"], ANN["first_name"])
    now = h.services.rounds.clock()
    level, points = {"24": ("easy", 10), "countdown": ("2", 10), "yahtzee": ("", 20)}[game]
    await h.stores.rounds.open_round(chat, game, hand, target, level, points, "en", now,
                                     now + seconds, ANN["id"])
    h.services.table.load(await h.stores.rounds.open_rounds())
    opened = h.services.table.of(chat)
    assert opened is not None
    return opened.record


async def deal_game(h: Harness, game: str, chat: int = GROUP) -> Round:
    """A round of the game with the known puzzle above."""
    if game == "countdown":
        return await deal_known(h, TILES, chat, game=game, target=TARGET)
    if game == "yahtzee":
        return await deal_known(h, ROLLS, chat, game=game, target=BEST)
    return await deal_known(h, (8, 3, 8, 3), chat)


def signed_for(user: dict, round_: Round, token: str, auth_date: float | None = None,
               start_param: str | None = "ticket") -> str:
    """initData for the user, opened as the round began (or at auth_date), from the round's
    Direct Link (start_param "ticket") or with none (a private chat's web_app button)."""
    param = ticket_of(round_).text if start_param == "ticket" else start_param
    opened = round_.started_at if auth_date is None else auth_date
    return sign(user_fields(user["id"], user["first_name"], int(opened),
                            user["language_code"], param), token)


@asynccontextmanager
async def page_server(h: Harness) -> AsyncIterator[str]:
    """The page's own server on a free port; yields its base URL (…/webapp/)."""
    server, port = await serve(h.bot.face, 0)
    try:
        yield f"http://127.0.0.1:{port}/webapp/"
    finally:
        server.stop()
        await server.close_all_connections()


async def post(base: str, path: str, body: object) -> tuple[int, dict]:
    # the bot's one TLS context: httpx would load certifi's authorities into a new one for each
    # client (about 40 ms; the page's tests make hundreds, each posting to plain HTTP)
    async with httpx.AsyncClient(timeout=30, verify=authorities()) as client:
        response = await client.post(base + path, content=json.dumps(body),
                                     headers={"Content-Type": "application/json"})
    try:
        said = response.json()
    except ValueError:  # refused before the handler (the server's own bound): no JSON
        said = {}
    return response.status_code, said


def sent_to(h: Harness, chat: int = GROUP) -> int:
    """How many messages the bot has sent the chat so far."""
    return len([s for s in h.telegram.sent if s.chat_id == chat])


OPERATIONS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
              "/": lambda a, b: a / b if b else None}


def steps_to(hand: tuple[int, ...] | list[int], target: int = 24) -> list[list]:
    """Taps on the page that make the target from every tile of the hand: each step two
    tiles' indexes and an operation, its result put at the end of the row
    (bot/webapp/steps.py)."""
    def search(tiles: list[Fraction]) -> list[list] | None:
        if len(tiles) == 1:
            return [] if tiles[0] == target else None
        for i, j in permutations(range(len(tiles)), 2):
            for name, operation in OPERATIONS.items():
                made = operation(tiles[i], tiles[j])
                if made is None:
                    continue
                rest = [tile for k, tile in enumerate(tiles) if k not in (i, j)] + [made]
                if (after := search(rest)) is not None:
                    return [[i, name, j], *after]
        return None

    found = search([Fraction(n) for n in hand])
    assert found is not None, f"no steps make {target} from {hand}"
    return found
