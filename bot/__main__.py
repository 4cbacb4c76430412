"""`python -m bot`: the bot with long polling, or a webhook server when WEBHOOK_URL is set;
`python -m bot --demo` (or no token, at a terminal): the bot on a local emulator, played there.

It fails fast, with one line saying why: exit status 2 for a missing token (without a terminal)
or a malformed setting, 1 for a database that cannot be opened, migrated or written. With
DATABASE_URL (PostgreSQL) any number of these processes may run: one leads, the others stand by
until it dies. A leader that loses the lead exits with status 3 (LOST_LEAD), for its supervisor
to start it again as a standby."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
from urllib.parse import urlsplit

from telegram.error import InvalidToken

from bot.runtime import log_mask
from bot.runtime.config import Config, ConfigError, MissingTokenError
from bot.telegram import webhook
from bot.telegram.app import ALLOWED_UPDATES, build_application
from bot.telegram.lifecycle import DatabaseUnavailable
from bot.telegram.webhook import WEBHOOK_PATH

__all__ = ["BAD_SETTINGS", "LOST_LEAD", "NO_DATABASE", "WEBHOOK_PATH", "main", "run"]
NO_DATABASE, BAD_SETTINGS, LOST_LEAD = 1, 2, 3  # exit statuses
NO_TOKEN_SERVICE = ("TELEGRAM_BOT_TOKEN is not set: export TELEGRAM_BOT_TOKEN=<token from "
                    "@BotFather> (or put it in .env, /etc/twentyfour.env for systemd, "
                    "deploy/.env for compose), or run `python -m bot --demo` for the terminal demo")
NO_TOKEN = ("TELEGRAM_BOT_TOKEN is not set, so this is the demo: the bot on a local Bot API "
            "emulator, played in this terminal (to run it on Telegram, export "
            "TELEGRAM_BOT_TOKEN=<token from @BotFather> or put it in .env)")


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--demo", action="store_true",
                        help="run against a local Bot API emulator and chat in this terminal")
    parser.add_argument("--user", metavar="NAME",
                        help="the demo's first speaker (/user NAME switches later)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.demo:
        return run_demo(arguments.user)
    try:
        config = Config.from_env()
    except MissingTokenError:
        if not sys.stdin.isatty():  # a service or a container: the demo would end at once
            print(f"error: {NO_TOKEN_SERVICE}", file=sys.stderr)
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
        return run(config)
    except InvalidToken:
        print("error: Telegram rejected TELEGRAM_BOT_TOKEN; copy it again from @BotFather",
              file=sys.stderr)
        return BAD_SETTINGS
    except DatabaseUnavailable as error:  # the stores closed what they opened: exit now
        logging.getLogger("bot").critical("not starting: %s", error)
        return NO_DATABASE


def run_demo(speaker: str | None) -> int:
    from bot import demo  # the emulator is only loaded when it is used

    return demo.main(speaker)


def configure_logging(config: Config) -> None:
    """Logging to stderr, with the token, the webhook secret and the database password masked
    in every record."""
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    password = urlsplit(config.database_url).password if config.database_url else None
    log_mask.install([*log_mask.secret_parts(config.token), config.webhook_secret or "",
                      password or ""])
    log_mask.log_uncaught_exceptions()
    if config.log_level != "DEBUG":  # a line per HTTP request or job run: only when debugging
        for noisy in ("httpx", "httpcore", "apscheduler"):
            logging.getLogger(noisy).setLevel(logging.WARNING)


def run(config: Config) -> int:
    """The bot on Telegram until SIGINT or SIGTERM (exit status 0), or until it loses the lead
    to another process on the same PostgreSQL database (LOST_LEAD)."""
    generated = bool(config.webhook_url and not config.webhook_secret)
    if generated:  # made before logging starts, so that the mask knows it
        config = dataclasses.replace(config, webhook_secret=webhook.new_secret())
    configure_logging(config)
    if generated:
        logging.getLogger("bot").info("WEBHOOK_SECRET is not set: this run uses a random "
                                      "secret, registered with Telegram at start-up")
    application = build_application(config)
    if config.webhook_url:
        webhook.run(application, config)
    else:
        application.run_polling(allowed_updates=ALLOWED_UPDATES, poll_interval=0.0)
    return LOST_LEAD if application.bot_data.lost_lead else 0


if __name__ == "__main__":
    sys.exit(main())
