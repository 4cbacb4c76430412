"""The page in a real browser: Debian's chromium, headless, driven by Selenium through the
system's chromedriver (nothing is downloaded: `make browser` installs both with apt). Selenium
blocks, so the tests call it in a thread (`asyncio.to_thread`) while the bot's loop serves the
page."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from urllib.parse import quote

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WIDTH, HEIGHT = 360, 640  # a small phone
LIGHT = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579",
         "button_color": "#3390ec", "button_text_color": "#ffffff",
         "secondary_bg_color": "#f1f1f4"}
DARK = {"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499",
        "button_color": "#5288c1", "button_text_color": "#ffffff",
        "secondary_bg_color": "#232e3c"}


def page_address(base: str, ticket: str, init_data: str) -> str:
    """The page as Telegram opens it: initData in the hash (tgWebAppData), the round in the
    URL (a private chat's web_app button) or the start parameter inside initData."""
    return f"{base}?round={ticket}#tgWebAppData={quote(init_data, safe='')}"


class Browser:
    """One headless chromium at phone width, with a fresh profile."""

    def __init__(self) -> None:
        self.profile = tempfile.mkdtemp(prefix="webapp-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                     "--disable-background-networking", "--disable-component-update",
                     "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
                     f"--user-data-dir={self.profile}", f"--window-size={WIDTH},{HEIGHT}"):
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        self.driver.set_window_size(WIDTH, HEIGHT)
        self._stub: str | None = None  # the Telegram stand-in's script, replaced by the next
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": "window.__violations = []; document.addEventListener("
                      "'securitypolicyviolation', (e) => window.__violations.push("
                      "e.violatedDirective + ' ' + e.blockedURI));"})

    def telegram(self, init_data: str, theme: dict[str, str], scheme: str,
                 user: dict | None = None) -> None:
        """A stand-in for Telegram's WebApp object (what telegram-web-app.js gives a page inside
        Telegram), set before the page's own script runs."""
        stub = {"initData": init_data, "themeParams": theme, "colorScheme": scheme,
                "initDataUnsafe": {"user": user} if user else {}}
        self.forget_telegram()
        added = self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": f"window.Telegram = {{WebApp: Object.assign({json.dumps(stub)}, "
                      "{ready() {}, expand() {}})};"})
        self._stub = added["identifier"]

    def forget_telegram(self) -> None:
        """Take the Telegram stand-in away: the next page opens as in a plain browser."""
        if self._stub is not None:
            self.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                        {"identifier": self._stub})
            self._stub = None

    def reset(self) -> None:
        """As a fresh browser for the next test: no stand-in, a blank page, no cookies (each
        test's server listens on a port of its own, so no origin's storage is shared)."""
        self.forget_telegram()
        self.driver.get("about:blank")
        self.driver.delete_all_cookies()

    def open(self, address: str) -> None:
        """Open the page and wait until it shows its round (tiles, or the rolls) or why not."""
        self.driver.get(address)
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".tile") or
                  d.find_elements(By.CSS_SELECTOR, "#rows tr") or
                  d.find_element(By.ID, "verdict").text)

    def wait(self, condition, seconds: float = 20.0):  # type: ignore[no-untyped-def]
        return WebDriverWait(self.driver, seconds, poll_frequency=0.02).until(condition)

    def tiles(self) -> list[str]:
        """The tiles' values, read in one step of the page's script (the page redraws its
        tiles as a whole: an element found before a redraw would be gone by its reading)."""
        return [str(value) for value in self.driver.execute_script(
            "return [...document.querySelectorAll('.tile')].map((t) => t.dataset.value || '')")]

    def shown_tiles(self) -> list[str]:
        """The tiles as the page shows them (a fraction's numerator, then its denominator)."""
        return [t.text.replace("\n", "") for t in self.driver.find_elements(By.CSS_SELECTOR,
                                                                             ".tile")]

    def tap(self, steps: list[list]) -> None:
        """Tap the steps: a tile, an operation, another tile, each step."""
        for left, op, right in steps:
            count = len(self.tiles())
            self.driver.find_elements(By.CSS_SELECTOR, ".tile")[left].click()
            self.driver.find_element(By.CSS_SELECTOR, f'.op[data-op="{op}"]').click()
            self.driver.find_elements(By.CSS_SELECTOR, ".tile")[right].click()
            self.wait(lambda d, n=count: len(d.find_elements(By.CSS_SELECTOR, ".tile")) == n - 1)

    def try_step(self, left: int, op: str, right: int) -> None:
        """Tap a step the page may refuse (nothing is waited for)."""
        self.driver.find_elements(By.CSS_SELECTOR, ".tile")[left].click()
        self.driver.find_element(By.CSS_SELECTOR, f'.op[data-op="{op}"]').click()
        self.driver.find_elements(By.CSS_SELECTOR, ".tile")[right].click()

    def guess(self, number: str) -> None:
        """Type a number in the guess field and submit it."""
        field = self.driver.find_element(By.ID, "guess")
        field.clear()
        field.send_keys(number)
        self.submit()

    def rolls(self) -> list[list[str]]:
        """The rows of the rolls' table, cell by cell."""
        return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
                for row in self.driver.find_elements(By.CSS_SELECTOR, "#rows tr")]

    def violations(self) -> list[str]:
        """What the page's Content-Security-Policy blocked (nothing, if the page keeps to it)."""
        return list(self.driver.execute_script("return window.__violations"))

    def language(self) -> str:
        return str(self.driver.execute_script("return document.documentElement.lang"))

    def pick(self, index: int) -> None:
        """Tap one tile (selected: an operation comes next)."""
        self.driver.find_elements(By.CSS_SELECTOR, ".tile")[index].click()

    def submit(self) -> None:
        self.driver.find_element(By.ID, "submit").click()

    def verdict(self, seconds: float = 20.0, unlike: str = "") -> str:
        """The page's verdict once it shows one (other than `unlike`, one shown before)."""
        return str(self.wait(lambda d: (text := d.find_element(By.ID, "verdict").text) and
                             text != unlike and text, seconds))

    def verdict_kind(self) -> str:
        """How the verdict is shown: "right", "wrong" (its class)."""
        return str(self.driver.find_element(By.ID, "verdict").get_attribute("class") or "")

    def shown(self, element_id: str) -> bool:
        return bool(self.driver.find_element(By.ID, element_id).is_displayed())

    def start_mode(self, mode: str) -> None:
        """Tap the button that starts a solo mode (streak, storm, practice)."""
        self.driver.find_element(By.CSS_SELECTOR, f'.mode[data-mode="{mode}"]').click()

    def text(self, element_id: str) -> str:
        return str(self.driver.find_element(By.ID, element_id).text)

    def screenshot(self, path: Path) -> None:
        self.driver.save_screenshot(str(path))

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)
