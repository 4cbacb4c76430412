"""The README's transcripts are the demo's real output (issue 73, item 5): each is played again
here, in the demo (demo.terminal.session, as `python -m bot --demo` runs it), its typed lines
read back from the transcript itself (`Ben: …` typed as Ben, `(Ben speaks now)` as `/user Ben`,
`…, replying to the deal: …` as `/reply`, `… presses [X]` as `/press X`), with a pause between
lines as the script that printed it had, and the hands the transcript shows dealt (the demo deals
at random; the answers typed were computed from those hands). What the demo prints must be the
transcript, message for message, but for what the README says it leaves out (the Mini App's
button under a deal and its local address) and what no two runs share: the seconds a win took,
and a round's length where the test plays it shorter. The bot's messages that answer one typed
line may come in either order (a press's notice and the deal's edit race): compared as a set."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.play.dealing.stock import Stock
from bot.play.rules.base import Rules
from bot.play.rules.records import Deal, PlayOptions
from bot.text.i18n import texts_for
from demo.terminal import demo_config, session
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
PAUSE = 1.0  # between typed lines: a deal's status edits come at most about once a second
TAP = texts_for("en")("button_tap")  # the Mini App's button, which the README leaves out
SPEAKER = re.compile(r"^(?P<who>\w+)(?P<how>: |, replying to the deal: | presses \[)(?P<what>.*)$")
SPOKEN = re.compile(r"^\((?P<who>\w+) speaks now\)$")
# what no two runs share: a win's seconds, and (the match, played with shorter rounds) a round's
TIMES = [(re.compile(r"\b\d+\.\d s\b"), "#.# s")]
ROUND = [(re.compile(r"\b\d+ seconds\b"), "# seconds"),
         (re.compile(r"⏳ \d+ s left"), "⏳ # s left"),
         (re.compile(r"Next round in \d+ s"), "Next round in # s")]


def transcript(heading: str) -> list[str]:
    """The first ```text block after the README's heading, line by line."""
    rest = README[README.index(heading):]
    start = rest.index("```text\n") + len("```text\n")
    return rest[start:rest.index("```", start)].rstrip("\n").split("\n")


def typed(line: str) -> str | None:
    """What was typed for a line the demo echoes; None for the bot's."""
    if spoken := SPOKEN.match(line):
        return f"/user {spoken['who']}"
    said = SPEAKER.match(line)
    if said is None:
        return None
    if said["how"] == ", replying to the deal: ":
        return f"/reply {said['what']}"
    if said["how"] == " presses [":
        return f"/press {said['what'].rstrip(']')}"
    return said["what"]


def turns(lines: list[str], masks: list) -> list[tuple[str, list[str]]]:
    """The lines as (a line typed, the bot's messages after it: each its lines, masked, one
    string), the demo's own leaving-outs taken out."""
    found: list[tuple[str, list[str]]] = []
    for line in lines:
        if f"[{TAP}]" in line:
            line = line.replace(f" [{TAP}]", "").replace(f"[{TAP}]", "")
            if not line.strip() or " in a browser: " in line:
                continue
        for pattern, shown in masks:
            line = pattern.sub(shown, line)
        if typed(line) is not None or not found:
            found.append((line, []))
        elif line.startswith(("  ", "\t")) and found[-1][1]:
            found[-1][1][-1] += "\n" + line
        else:
            found[-1][1].append(line)
    return [(line, sorted(messages)) for line, messages in found]


def dealing(hands: list[tuple[int, ...]], level: str) -> Callable:
    """Stock.take dealing these hands of 24 first, each analysed as a deal of the pool is."""
    original = Stock.take

    async def take(self: Stock, rules: Rules, options: PlayOptions, budget: float = 3.0,
                   who: int | None = None) -> tuple[Deal | None, float]:
        if rules.name == "24" and hands:
            hand = hands.pop(0)
            points = {"easy": 10, "medium": 20, "hard": 30}[level]
            return Deal("24", hand, 24, level, points, rules.analyser()(hand, 24)), 0.0
        return await original(self, rules, options, budget, who)

    return take


async def played(tmp_path: Path, lines: list[str], until: str | None = None,
                 patience: float = 60.0, **settings: str) -> list[str]:
    """The transcript's typed lines typed into the demo, a pause after each; then (`until`)
    the wait for the bot's line that ends it. What the demo printed."""
    out = io.StringIO()
    config = demo_config({"DATABASE_PATH": str(tmp_path / "demo.sqlite3"),
                          "SOLVER_WORKERS": "1", **settings}, env_file=None)
    first = SPEAKER.match(lines[0])
    assert first is not None
    async with session(config, first["who"], out) as chat:
        for line in lines:
            if (text := typed(line)) is not None:
                await chat.take(text)
                await asyncio.sleep(PAUSE)
                chat.show_new()
        if until is not None:
            async with asyncio.timeout(patience):
                while until not in out.getvalue():
                    await asyncio.sleep(0.2)
                    chat.show_new()
            await asyncio.sleep(PAUSE)
    return out.getvalue().rstrip("\n").split("\n")


def hands_of(lines: list[str]) -> list[tuple[int, ...]]:
    """The hands the transcript shows dealt, in order."""
    return [tuple(map(int, found.group(1).split())) for line in lines
            if (found := re.match(r"^Twenty-Four: (\d+ \d+ \d+ \d+)$", line))]


@pytest.mark.slow
async def test_the_round_of_24_in_the_readme_is_what_the_demo_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    shown = transcript("## A round of 24 (the demo, as printed)")
    monkeypatch.setattr(Stock, "take", dealing(hands_of(shown), "easy"))
    printed = await played(tmp_path, shown)
    assert turns(printed, TIMES) == turns(shown, TIMES)


@pytest.mark.slow
async def test_the_match_in_the_readme_is_what_the_demo_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Played with rounds of 8 seconds rather than the README's 60 (its lengths masked)."""
    start = README.index("A match (`/match 2`")
    shown = transcript(README[start:start + 60])
    monkeypatch.setattr(Stock, "take", dealing(hands_of(shown), "medium"))
    printed = await played(tmp_path, shown, until="Match over", ROUND_SECONDS="8")
    assert turns(printed, TIMES + ROUND) == turns(shown, TIMES + ROUND)
