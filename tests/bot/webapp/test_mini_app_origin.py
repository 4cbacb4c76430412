"""The Mini App under Telegram's origin protection (issue 59, item 4; docs/pages.md): nothing the
page does needs another origin than its own — scripts, requests, fonts, the share card, links —
but Telegram's own script, loaded inside Telegram only and run in the page's document."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.webapp.server import CSP

STATIC = Path(__file__).resolve().parents[3] / "bot" / "webapp" / "static"
FILES = sorted(STATIC.iterdir())
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # a name, never fetched
ADDRESS = re.compile(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"'`)]*", re.IGNORECASE)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_page_names_no_other_origin(path: Path):
    found = set(ADDRESS.findall(path.read_text(encoding="utf-8")))
    assert found <= {TELEGRAM_SCRIPT, SVG_NAMESPACE}, found


def test_what_the_page_loads_and_asks_stays_on_its_origin():
    code = "\n".join(p.read_text(encoding="utf-8") for p in FILES)
    assert "@font-face" not in code and "@import" not in code  # the system's fonts only
    fetched = re.findall(r"fetch\(\s*([^,)]+)", code)
    assert fetched and all(not re.search(r"https?:|//", target) for target in fetched), fetched
    assert "window.open" not in code and "<iframe" not in code
    assert "connect-src 'self'" in CSP and "font-src" not in CSP  # default-src 'none' holds
    assert "script-src 'self' https://telegram.org" in CSP
    loader = (STATIC / "app.js").read_text(encoding="utf-8")
    assert 'if (webApp() || !hash.get("tgWebAppVersion")) return;' in loader  # Telegram only


def test_the_share_card_is_a_data_url():
    pages = (STATIC / "pages.js").read_text(encoding="utf-8")
    assert "`data:image/png;base64,${data.png}`" in pages
