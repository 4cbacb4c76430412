"""Start-up's first contact with the Bot API: getMe, tried again for a while, then one line.

PTB's own bootstrap counts tries rather than time and logs its last failure with a whole
traceback. Here the bot is initialized (getMe) under a deadline, before anything is built over
it (the composition root needs its name and its privacy mode): a rejected token stops
at once (TokenRejected), a network error, a timeout or an answer that is not the Bot API's is
tried again with growing pauses (1 s, 2 s, 4 s, ... at most 8 s), and when `seconds` have
passed the last reason is raised as TelegramUnreachable, in one line without the token.
The first failure is logged once (WARNING), the tries after it at DEBUG.
"""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlsplit

from telegram import Bot
from telegram.error import InvalidToken, TelegramError, TimedOut

log = logging.getLogger(__name__)

FIRST_PAUSE, LONGEST_PAUSE = 1.0, 8.0  # seconds between tries
REASON_LENGTH = 160  # characters of a server's message kept in the line


class TokenRejected(Exception):
    """The Bot API answered 401 or 404 to getMe: the token is wrong (or revoked)."""


class TelegramUnreachable(Exception):
    """No usable answer from the Bot API within the start-up time; the message is one line."""


def where(base_url: str) -> str:
    """The Bot API's address without the token (the scheme and host of TELEGRAM_BASE_URL)."""
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else "TELEGRAM_BASE_URL"


def reason(error: BaseException) -> str:
    """Why a try failed, in a few words: a timeout, the network's own error, or the HTTP status
    of an answer that is not the Bot API's (an HTML page, a proxy's error)."""
    if isinstance(error, TimeoutError | TimedOut):
        return "no answer in time"
    text = str(error.message if isinstance(error, TelegramError) else error)
    if ". Parsing the server response" in text:  # PTB quotes the whole page after this
        text = text.split(". Parsing the server response")[0] + ", and not the Bot API's JSON"
    text = text.removeprefix("httpx.").replace("\n", " ")
    return text if len(text) <= REASON_LENGTH else text[:REASON_LENGTH] + "..."


async def reach_telegram(bot: Bot, seconds: float, base_url: str) -> None:
    """Initialize `bot` (its requests, and getMe), trying for up to `seconds`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    pause, tries = FIRST_PAUSE, 0
    while True:
        tries += 1
        try:
            await asyncio.wait_for(bot.initialize(),
                                   max(deadline - loop.time(), FIRST_PAUSE))
            return
        except InvalidToken:
            log.debug("getMe was refused", exc_info=True)  # PTB's own words, token masked
            raise TokenRejected from None
        except (TelegramError, TimeoutError) as error:
            why = reason(error)
        if loop.time() + pause > deadline:
            raise TelegramUnreachable(f"cannot reach the Bot API at {where(base_url)}: {why} "
                                      f"({tries} tries in {seconds:g} s)")
        log.log(logging.WARNING if tries == 1 else logging.DEBUG,
                "the Bot API at %s: %s; trying again for up to %.0f s", where(base_url), why,
                deadline - loop.time())
        await asyncio.sleep(pause)
        pause = min(2 * pause, LONGEST_PAUSE)
