"""Keeps secrets out of the logs: a filter on the root handlers that masks them in every record.

The bot token travels in every Bot API URL, so python-telegram-bot logs it at DEBUG ("Set Bot API
URL: .../bot<token>"), httpx in each request line and InvalidToken in its message. Masking at the
handlers catches them all, whichever logger wrote them: the message with its arguments, the
exception text of a traceback and a stack; uncaught exceptions can be sent through the log too.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections.abc import Iterable
from types import TracebackType

MASK = "[secret]"
SHORTEST = 6  # shorter strings are not masked: they would blank out ordinary words


def secret_parts(token: str) -> list[str]:
    """What to mask for a bot token: the part after "123456:" (the bot's id is public, and the
    part alone also catches a token whose colon was URL-encoded), or all of a malformed one."""
    bot_id, colon, secret = token.partition(":")
    return [secret] if colon and bot_id.isdigit() and secret else [token]


class SecretMask(logging.Filter):
    """Replaces each secret by MASK in a record's message, exception text and stack text.

    The message is formatted here (its arguments folded in) and the traceback rendered here, so
    no handler or formatter downstream sees the raw values.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        # longest first, so a secret that contains another is masked whole
        self.secrets = sorted({s for s in secrets if s and len(s) >= SHORTEST}, key=len,
                              reverse=True)

    def mask(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # arguments that don't fit the format: show both, masked
            message = f"{record.msg} {record.args!r}"
        record.msg, record.args = self.mask(message), None
        if record.exc_info:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
            record.exc_info = None  # the masked text stands for it
        if record.exc_text:
            record.exc_text = self.mask(record.exc_text)
        if record.stack_info:
            record.stack_info = self.mask(record.stack_info)
        return True


def install(secrets: Iterable[str], logger: logging.Logger | None = None) -> SecretMask:
    """Put the mask on every handler of `logger` (the root one by default, so every record of
    every library passes it: a logger's own filters would not see its children's records)."""
    mask = SecretMask(secrets)
    for handler in (logger or logging.getLogger()).handlers:
        handler.addFilter(mask)
    return mask


def log_uncaught_exceptions() -> None:
    """Uncaught exceptions (main thread and others) go to the log, where the mask applies,
    instead of straight to stderr."""
    log = logging.getLogger("bot")

    def uncaught(kind: type[BaseException], error: BaseException,
                 trace: TracebackType | None) -> None:
        log.critical("uncaught exception", exc_info=(kind, error, trace))

    def uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            log.critical("uncaught exception in thread %s", args.thread and args.thread.name,
                         exc_info=(args.exc_type, args.exc_value, args.exc_traceback))

    sys.excepthook = uncaught
    threading.excepthook = uncaught_in_thread
