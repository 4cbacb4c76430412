"""The secret mask on log handlers: message, arguments, tracebacks, stacks, uncaught exceptions."""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from collections.abc import Iterator

import pytest

from bot.runtime import log_mask
from tests.conftest import ROOT

SECRET = "AAH3kq9Zx_b7-Yt2LmQpW4vRcE8sN1uJd0o"
TOKEN = f"5829144031:{SECRET}"


class Url:
    """Stands for httpx.URL: an object whose str() holds the token, passed as an argument."""

    def __str__(self) -> str:
        return f"https://api.telegram.org/bot{TOKEN}/getMe"


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    owner = logging.getLogger("test_log_mask")
    owner.handlers, owner.propagate = [handler], False
    log_mask.install(log_mask.secret_parts(TOKEN), owner)
    child = logging.getLogger("test_log_mask.library")  # a library's logger, propagating up
    child.setLevel(logging.DEBUG)
    yield child, stream
    owner.handlers = []


def test_secret_parts_keep_the_public_bot_id():
    assert log_mask.secret_parts(TOKEN) == [SECRET]
    assert log_mask.secret_parts("not-a-token-at-all") == ["not-a-token-at-all"]


def test_message_and_arguments_are_masked(logged):
    log, stream = logged
    log.debug("Set Bot API URL: https://api.telegram.org/bot%s", TOKEN)
    log.info("HTTP Request: %s %s %r", "POST", Url(), {"token": TOKEN})
    log.info(f"already formatted {TOKEN.replace(':', '%3A')}")
    text = stream.getvalue()
    assert SECRET not in text
    assert text.count("5829144031:[secret]") == 3 and "5829144031%3A[secret]" in text


def test_tracebacks_and_stacks_are_masked(logged):
    log, stream = logged
    try:
        raise ValueError(f"The token `{TOKEN}` was rejected by the server.")
    except ValueError:
        log.exception("Network Retry Loop: Invalid token")
    log.warning("here %s", "now", stack_info=True)
    try:
        try:
            raise KeyError(TOKEN)
        except KeyError as error:
            raise RuntimeError("wrapped") from error
    except RuntimeError:
        log.error("chained", exc_info=True)
    text = stream.getvalue()
    assert "Traceback (most recent call last)" in text and "Stack (most recent call last)" in text
    assert "The above exception was the direct cause" in text
    assert SECRET not in text and text.count("[secret]") == 2


def test_a_record_whose_arguments_do_not_fit_is_still_masked(logged):
    log, stream = logged
    log.info("two %s %s", TOKEN)  # one argument short: logged, masked, not raised
    assert SECRET not in stream.getvalue() and "[secret]" in stream.getvalue()


def test_uncaught_exceptions_go_through_the_mask():
    program = ("import logging, threading\n"
               "from bot.runtime import log_mask\n"
               "logging.basicConfig()\n"
               f"log_mask.install([{SECRET!r}])\n"
               "log_mask.log_uncaught_exceptions()\n"
               f"t = threading.Thread(target=lambda: {{}}[{TOKEN!r}]); t.start(); t.join()\n"
               f"raise RuntimeError({TOKEN!r})\n")
    result = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 1
    assert "uncaught exception in thread" in result.stderr and "KeyError" in result.stderr
    assert "RuntimeError: 5829144031:[secret]" in result.stderr
    assert SECRET not in result.stderr + result.stdout
