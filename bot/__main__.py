"""`python -m bot`: the bot with long polling, or a webhook server when WEBHOOK_URL is set."""

from __future__ import annotations

import logging
import sys

from bot.app import ALLOWED_UPDATES, build_application
from bot.config import Config, ConfigError

WEBHOOK_PATH = "telegram"  # never the token: paths end up in proxy logs


def main() -> int:
    try:
        config = Config.from_env()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("httpx", "httpcore"):  # their request lines carry the token in the URL
        logging.getLogger(noisy).setLevel(logging.WARNING)
    application = build_application(config)
    if config.webhook_url:
        application.run_webhook(listen="0.0.0.0", port=config.webhook_port,
                                url_path=WEBHOOK_PATH, webhook_url=config.webhook_url,
                                secret_token=config.webhook_secret,
                                allowed_updates=ALLOWED_UPDATES)
    else:
        application.run_polling(allowed_updates=ALLOWED_UPDATES, poll_interval=0.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
