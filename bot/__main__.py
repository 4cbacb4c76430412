"""`python -m bot`: the bot with long polling, or a webhook server when WEBHOOK_URL is set;
`python -m bot --demo` (or no token, at a terminal): the bot on a local emulator, played there;
`python -m bot --version`: the versions, and whether the solver's native core is in use.
`python -m bot ingress`, `python -m bot worker` and `python -m bot webapp`: the cluster's roles
(docs/scaling.md, "Past one process"): webhooks published to the NATS broker, the bot fed from
it, and the Mini App's page, its requests relayed to the worker owning each round.

It fails fast, with one line saying why: exit status 2 for a missing token (without a terminal),
a malformed setting or a token Telegram rejects; 1 for a database that cannot be opened,
migrated or written; 4 (NO_TELEGRAM) when the Bot API gave no usable answer for STARTUP_SECONDS
(30 s by default: refused, unknown host, no answer, an answer that is not the Bot API's).
With DATABASE_URL (PostgreSQL) any number of these processes may run: one leads, the others
stand by until it dies. A leader that loses the lead exits with status 3 (LOST_LEAD), for its
supervisor to start it again as a standby; a role whose broker (NATS_URL) cannot be reached at
start-up exits with status 5 (NO_BROKER). SIGTERM or SIGINT stop it cleanly (status 0)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import shlex
import signal
import sys
from collections.abc import Callable
from urllib.parse import urlsplit

from telegram.error import InvalidToken, NetworkError, TelegramError

from bot.roles import BrokerUnreachable, serve_ingress, serve_one, serve_webapp, serve_worker
from bot.runtime import log_mask, metrics, skipped_runs
from bot.runtime.allocator import settle_allocator
from bot.runtime.config import (
    ROLES,
    WEBAPP,
    WORKER,
    Config,
    ConfigError,
    MissingTokenError,
    check_role,
)
from bot.telegram import webhook
from bot.telegram.startup import TelegramUnreachable, TokenRejected, where
from bot.telegram.webhook import WEBHOOK_PATH
from bot.webapp.settings import read_settings as read_webapp_settings
from bot.wiring import DatabaseUnavailable, check_settings

__all__ = ["BAD_SETTINGS", "LOST_LEAD", "NO_BROKER", "NO_DATABASE", "NO_TELEGRAM", "WEBHOOK_PATH",
           "main", "run", "version"]
NO_DATABASE, BAD_SETTINGS, LOST_LEAD, NO_TELEGRAM, NO_BROKER = 1, 2, 3, 4, 5  # exit statuses
INTERRUPTED = 130  # Ctrl-C before the bot was up (the shell's 128 + SIGINT)
REJECTED_TOKEN = "Telegram rejected TELEGRAM_BOT_TOKEN; copy it again from @BotFather"
# PTB's loggers that log a failure with its whole traceback where the one line here says it:
# the bootstrap's retry loop, and the updater's stop while a long poll is cut short (the demo
# polls with PTB's updater).
QUIET_TRACEBACKS = ("telegram.ext._utils.networkloop", "telegram.ext.Updater")
NO_TOKEN_SERVICE = ("TELEGRAM_BOT_TOKEN is not set: export TELEGRAM_BOT_TOKEN=<token from "
                    "@BotFather> (or put it in .env, /etc/twentyfour.env for systemd, "
                    "deploy/.env for compose), or run the terminal demo: `make run ARGS=--demo` "
                    "in a clone, or `{python} -m bot --demo` as this was run")
NO_TOKEN = ("TELEGRAM_BOT_TOKEN is not set, so this is the demo: the bot on a local Bot API "
            "emulator, played in this terminal (to run it on Telegram, export "
            "TELEGRAM_BOT_TOKEN=<token from @BotFather> or put it in .env)")


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("role", nargs="?", choices=ROLES,
                        help="a role of the cluster (none: the one process that does all)")
    parser.add_argument("--demo", action="store_true",
                        help="run against a local Bot API emulator and chat in this terminal")
    parser.add_argument("--user", metavar="NAME",
                        help="the demo's first speaker (/user NAME switches later)")
    parser.add_argument("--version", action="store_true",
                        help="print the versions and whether the solver's native core is in use")
    return parser.parse_args(argv)


def version() -> str:
    """Three lines: this project's version, python-telegram-bot's, and the native core's state."""
    found = metrics.versions()
    return (f"twentyfour {found['version']}\npython-telegram-bot {found['python_telegram_bot']}"
            f"\nnative core: {found['native_core']}")


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.version:
        print(version())
        return 0
    settle_allocator()  # before any thread: a burst's memory goes back (bot.runtime.allocator)
    if arguments.demo:
        if arguments.role is not None:
            print("error: --demo is the one process; it takes no role", file=sys.stderr)
            return BAD_SETTINGS
        return run_demo(arguments.user)
    try:
        config = Config.from_env()
        check_settings(config)
        page = read_webapp_settings()  # checked here, where a bad one is one line and exit 2
        if arguments.role is not None:
            check_role(config, arguments.role)
        if arguments.role == WEBAPP and page is None:
            raise ConfigError("python -m bot webapp needs WEBAPP_URL (the page's public "
                              "https:// address, as the workers have it)")
    except MissingTokenError:
        # a role, a service or a container: the demo would not do
        if arguments.role is not None or not sys.stdin.isatty():
            print("error: " + NO_TOKEN_SERVICE.format(python=shlex.quote(sys.executable)),
                  file=sys.stderr)
            return BAD_SETTINGS
        print(NO_TOKEN, file=sys.stderr)
        return run_demo(arguments.user)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return BAD_SETTINGS
    if arguments.user is not None:
        print("error: --user is for the demo (python -m bot --demo --user NAME)", file=sys.stderr)
        return BAD_SETTINGS
    try:
        return run(config, arguments.role)
    except (InvalidToken, TokenRejected):
        logging.getLogger("bot").critical("not starting: %s", REJECTED_TOKEN)
        return BAD_SETTINGS
    except DatabaseUnavailable as error:  # the stores closed what they opened: exit now
        logging.getLogger("bot").critical("not starting: %s", error)
        return NO_DATABASE
    except TelegramUnreachable as error:
        logging.getLogger("bot").critical("not starting: %s", error)
        return NO_TELEGRAM
    except TelegramError as error:  # after getMe: the menus, deleteWebhook, setWebhook
        logging.getLogger("bot").critical("not starting: the Bot API at %s failed at start-up: "
                                          "%s", where(config.base_url), error.message[:200])
        return NO_TELEGRAM
    except ConfigError as error:  # METRICS_PORT taken
        logging.getLogger("bot").critical("not starting: %s", error)
        return BAD_SETTINGS
    except BrokerUnreachable as error:
        logging.getLogger("bot").critical("not starting: %s", error)
        return NO_BROKER
    except KeyboardInterrupt:  # Ctrl-C while it was still reaching Telegram
        return INTERRUPTED


NO_DEMO = ("error: the demo is not installed here: it lives beside the bot in the source tree "
           "(demo/), not in the package an image installs; run it from a clone with `make run`, "
           "or set TELEGRAM_BOT_TOKEN")


def run_demo(speaker: str | None) -> int:
    """The demo, loaded only when it is used, and only where it is: a clone has it beside the
    bot, a production image (bot/ and solver/ alone) does not."""
    try:
        import demo
    except ModuleNotFoundError as error:
        if error.name != "demo":
            raise
        print(NO_DEMO, file=sys.stderr)
        return BAD_SETTINGS
    return demo.main(speaker)


def configure_logging(config: Config) -> None:
    """Logging to stderr, with the token, the webhook secret, the database's and the broker's
    passwords (or the broker's token) masked in every record."""
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if config.log_level != "DEBUG":  # before the mask, which then masks the line made here
        for handler in logging.getLogger().handlers:
            handler.addFilter(network_one_line)
    password = urlsplit(config.database_url).password if config.database_url else None
    brokers = [urlsplit(server.strip()) for server in (config.nats_url or "").split(",")]
    log_mask.install([*log_mask.secret_parts(config.token), config.webhook_secret or "",
                      password or "", *(part.password or part.username or "" for part in brokers)])
    log_mask.log_uncaught_exceptions()
    skipped_runs.install()
    if config.log_level != "DEBUG":  # a line per HTTP request or job run: only when debugging
        for noisy in ("httpx", "httpcore", "apscheduler"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
        for name in QUIET_TRACEBACKS:
            logging.getLogger(name).addFilter(one_line)
        logging.getLogger("telegram.request.BaseRequest").addFilter(no_page)


def no_page(record: logging.LogRecord) -> bool:
    """Drop PTB's copy of an answer that is not JSON (a proxy's whole HTML page): the error it
    raises says the status, and is logged where it is handled."""
    return not str(record.msg).startswith("Can not load invalid JSON data")


def network_one_line(record: logging.LogRecord) -> bool:
    """A network error (Telegram unreachable, a timeout), whoever logs it, is one line: its
    traceback only ever shows python-telegram-bot's and httpx's insides."""
    if record.exc_info and isinstance(record.exc_info[1], NetworkError):
        return one_line(record)
    return True


def one_line(record: logging.LogRecord) -> bool:
    """Keep the record, without its traceback: the reason is in the line (and, at start-up, in
    the line the bot itself logs when it gives up); LOG_LEVEL=DEBUG shows the tracebacks."""
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
        record.args = None
        record.exc_info = None
        record.exc_text = None
    return True


def run(config: Config, role: str | None = None) -> int:
    """The bot on Telegram until SIGINT or SIGTERM (exit status 0), or until it loses the lead
    to another process on the same PostgreSQL database (LOST_LEAD); a `role` of the cluster
    instead (check_role first): the ingress, a worker (which exits with LOST_LEAD too when its
    lease ended) or the Mini App."""
    generated = role is None and bool(config.webhook_url and not config.webhook_secret)
    if generated:  # made before logging starts, so that the mask knows it
        config = dataclasses.replace(config, webhook_secret=webhook.new_secret())
    configure_logging(config)
    if generated:
        logging.getLogger("bot").info("WEBHOOK_SECRET is not set: this run uses a random "
                                      "secret, registered with Telegram at start-up")
    stop_metrics = serve_metrics(config)
    try:
        lost = asyncio.run(until_signalled(config, role))
    finally:
        stop_metrics()
    return LOST_LEAD if lost else 0


async def until_signalled(config: Config, role: str | None) -> bool:
    """The role's process (bot.roles) until SIGINT or SIGTERM sets its stop, on a loop that
    ends with every task of it ended (asyncio.run); whether it lost its lease."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(stop_signal, stop.set)
    if role is None:
        return await serve_one(config, read_webapp_settings(), stop)
    if role == WORKER:
        return await serve_worker(config, read_webapp_settings(), stop)
    if role == WEBAPP:
        await serve_webapp(config, read_webapp_settings(), stop)
    else:
        await serve_ingress(config, stop)
    return False


def serve_metrics(config: Config) -> Callable[[], None]:
    """The /metrics server of METRICS_PORT, if set (the webhook server has /metrics too); the
    function returned stops it."""
    if config.metrics_port is None:
        return lambda: None
    try:
        stop = metrics.serve(config.metrics_port, config.metrics_listen)
    except OSError as error:
        raise ConfigError(f"METRICS_PORT {config.metrics_port} on {config.metrics_listen}: "
                          f"{error.strerror or error}") from None
    logging.getLogger("bot").info("metrics on http://%s:%d/metrics", config.metrics_listen,
                                  config.metrics_port)
    return stop


if __name__ == "__main__":
    sys.exit(main())
