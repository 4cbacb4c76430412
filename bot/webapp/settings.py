"""The Mini App's settings, read from the environment (and .env) like bot.runtime.config, with
its helpers and its ConfigError (one line for the operator; `python -m bot` exits 2 on it):

- WEBAPP_URL: the public https:// URL the page is served at (Telegram opens Mini Apps over
  HTTPS only). Unset: no Mini App, no button under the deals, no server.
- WEBAPP_SHORT_NAME: the Mini App's short name registered with @BotFather (/newapp); groups get
  a Direct Link to it (https://t.me/<bot>/<short name>?startapp=...). Unset: private chats only.
- WEBAPP_PORT, WEBAPP_LISTEN: where the page's own server listens when the bot polls (with a
  webhook the page is served by the webhook's server).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from bot.runtime.config import PORT_RANGE, ConfigError, _whole, read_env_file

SHORT_NAME_FORM = re.compile(r"[A-Za-z0-9_]{3,30}")  # what @BotFather accepts
DEFAULT_PORT = 8444


@dataclass(frozen=True)
class WebappSettings:
    url: str  # where the page is: https://host/webapp/
    short_name: str | None = None
    port: int = DEFAULT_PORT
    listen: str = "127.0.0.1"


def read_settings(environ: Mapping[str, str] | None = None,
                  env_file: Path | None = Path(".env")) -> WebappSettings | None:
    """The Mini App's settings, or None when WEBAPP_URL is not set; a malformed one raises
    ConfigError."""
    values = read_env_file(env_file) if env_file is not None else {}
    values.update(os.environ if environ is None else environ)
    url = (values.get("WEBAPP_URL") or "").strip()
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname:
        raise ConfigError("WEBAPP_URL must be an https:// URL with a host name (Telegram opens "
                          f"Mini Apps over HTTPS only), not {url!r}")
    short_name = (values.get("WEBAPP_SHORT_NAME") or "").strip() or None
    if short_name is not None and not SHORT_NAME_FORM.fullmatch(short_name):
        raise ConfigError("WEBAPP_SHORT_NAME must be the Mini App's short name from @BotFather "
                          f"(3 to 30 of A-Z a-z 0-9 _), not {short_name!r}")
    return WebappSettings(
        url=url, short_name=short_name,
        port=_whole(values, "WEBAPP_PORT", DEFAULT_PORT, *PORT_RANGE) or DEFAULT_PORT,
        listen=(values.get("WEBAPP_LISTEN") or "127.0.0.1").strip())
