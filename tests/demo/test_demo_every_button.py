"""Every button of the demo works (issue 55, item 1): after every command of the bot (the root's
table, bot.telegram.app.COMMANDS, joined from its features' declarations), every button the
emulator recorded on the bot's answer is pressed, by its label without its emoji where it has
words; each press shows something, and nothing typed ends the demo. The demo runs in this
process (demo.terminal.session): the same emulator, bot and page as `python -m bot --demo`."""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from bot.telegram import app
from bot.webapp.init_data import verify
from demo.buttons import bare, lead_of
from demo.terminal import DEMO_CHAT_ID, DEMO_CHAT_TITLE, DemoChat, demo_config, session

FAILED = "(the demo could not do that"
# /solve 3 8 3 8's one solution as the demo prints its mathematical block (Bot API 10.1)
SOLVED = "8÷(3−8÷3) = 24"


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[tuple[DemoChat, io.StringIO]]:
    out = io.StringIO()
    config = demo_config({"DATABASE_PATH": str(tmp_path / "demo.sqlite3"),
                          "SOLVER_WORKERS": "1"}, env_file=None)
    async with session(config, "Ann", out) as chat:
        yield chat, out


def command_names() -> list[str]:
    """Every command the bot registers, each name (aliases too)."""
    return list(dict.fromkeys(name for command in app.COMMANDS for name in command.names))


def recorded_buttons(chat: DemoChat, sent_from: int, edits_from: int) -> list[tuple[int, dict]]:
    """The buttons on what the bot sent or edited in the demo group since those marks."""
    emulator = chat.emulator
    shown = [(s.message_id, s.reply_markup) for s in emulator.sent[sent_from:]
             if s.chat_id == DEMO_CHAT_ID]
    shown += [(e.message_id, e.reply_markup) for e in emulator.edits[edits_from:]
              if e.chat_id == DEMO_CHAT_ID]
    found: list[tuple[int, dict]] = []
    for message_id, markup in shown:
        for row in (markup or {}).get("inline_keyboard", []):
            found += [(message_id, b) for b in row if (message_id, b) not in found]
    return found


def typed(label: str) -> str:
    """What a person types to press it: its words without the emoji, in lower case, when it
    has words (else the symbol itself)."""
    return bare(label) or label


def what_it_does(chat: DemoChat, button: dict) -> str:
    """A button's action without its numbers (a round's id, a chat's, a page's, a setting's
    value in digits): the same button on the next deal, or the next page, does the same."""
    lead = lead_of(button, chat.emulator.username)
    return f"{lead.kind}:{re.sub(r'-?[0-9]+', '#', lead.target)}"


async def press_all(chat: DemoChat, out: io.StringIO, command: str, sent_from: int,
                    edits_from: int) -> set[str]:
    """Press every button recorded since the marks, and the buttons those presses bring (Play
    again under a result, the next page, the settings panel in another language), each action
    once; the ones that send the bot nothing first, as they change nothing. What was done."""
    done: set[str] = set()
    while True:
        waiting = [(m, b) for m, b in recorded_buttons(chat, sent_from, edits_from)
                   if what_it_does(chat, b) not in done
                   and b in chat.emulator.keyboard(DEMO_CHAT_ID, m)]  # still shown
        if not waiting:
            return done
        _, button = min(waiting, key=lambda mb: "press" in what_it_does(chat, mb[1]))
        done.add(what_it_does(chat, button))
        label = str(button["text"])
        before = len(out.getvalue())
        assert await chat.take(f"/press {typed(label)}")
        said = out.getvalue()[before:]
        assert f"presses [{label}]" in said, (command, label, said)
        assert said.strip().count("\n") >= 1, f"{command}: [{label}] showed nothing: {said}"
        if what_it_does(chat, button).startswith("chat:"):  # it took the speaker to the
            assert await chat.take(f"/group {DEMO_CHAT_TITLE}")  # private chat: back again


async def test_every_button_after_every_command(demo):
    chat, out = demo
    names = command_names()
    assert {"play", "daily", "stats", "top", "settings", "resetscores"} <= set(names)
    done: set[str] = set()
    for name in names:
        sent_from, edits_from = len(chat.emulator.sent), len(chat.emulator.edits)
        assert await chat.take(f"/{name}")
        done |= await press_all(chat, out, f"/{name}", sent_from, edits_from)
    shown = out.getvalue()
    assert FAILED not in shown and "(no button" not in shown
    kinds = {action.split(":")[0] for action in done}
    assert {"press", "page", "chat"} <= kinds, done  # the bot's, a Mini App's, a deep link's
    pressed = {action.split(":")[1] for action in done if action.startswith("press:")}
    # a deal's, a result's, the settings panel's and /resetscores's question's buttons
    assert {"h", "r", "n", "l", "g", "cf"} <= pressed, done


async def test_the_crash_of_the_issue_is_gone(demo):
    """`/daily`, `/press ✏️ Answer privately`, `/solve 3 8 3 8` (issue 55): the button takes the
    speaker where it leads (the private chat, issue 73), and /solve runs after it."""
    chat, out = demo
    for line in ("/daily", "/press ✏️ Answer privately", f"/group {DEMO_CHAT_TITLE}",
                 "/press ANSWER privately", "/solve 3 8 3 8"):
        assert await chat.take(line)
    shown = out.getvalue()
    # the button takes the speaker to the private chat, whose START sends /start daily there
    assert shown.count("(Ann speaks in a private chat with @twentyfour_demo_bot now") == 2
    assert shown.count("Ann: /start daily\nTwenty-Four to Ann: 📅 Daily puzzle") == 2
    assert SOLVED in shown
    assert FAILED not in shown


async def test_pages_open_signed_for_the_speaker(demo):
    """/stats and /top print their pages' local addresses, signed for whoever speaks, as a
    deal's is; the pages answer there (Bob opening Ann's page is told it is not his)."""
    chat, out = demo
    # Ann's /stats in the group's sight (a Telegram that takes no ephemeral message), so that
    # Bob sees its button: in a group it goes to Ann alone (tests/demo/test_demo_ephemeral.py)
    chat.emulator.refuse_ephemeral = True
    assert await chat.take("/stats")
    assert await chat.take("/top")
    assert await chat.take("/user Bob")
    assert await chat.take("/press my page")  # the button under Ann's /stats
    links = re.findall(r"(http://127\.0\.0\.1:\d+/webapp/\S+?)\)?$", out.getvalue(), re.M)
    assert len(links) == 3, out.getvalue()
    answers = []
    async with httpx.AsyncClient(timeout=30) as client:
        for link in links:
            parts = urlsplit(link)
            fragment = parse_qs(parts.fragment)
            body = {"init_data": fragment["tgWebAppData"][0],
                    "page": fragment["tgWebAppStartParam"][0]}
            answers.append((await client.post(link.split("#")[0] + "api/page",
                                              content=json.dumps(body))).json())
    ann = chat.users["Ann"]
    assert answers[0]["kind"] == "player" and answers[1]["kind"] == "group"
    signed = verify(parse_qs(urlsplit(links[2]).fragment)["tgWebAppData"][0],
                    chat.emulator.token, time.time())
    assert signed.first_name == "Bob" and signed.start_param == f"u{ann}"
    assert "kind" not in answers[2]  # Bob on Ann's page: refused in his words


async def test_buttons_that_send_the_bot_nothing(demo):
    """A link, a login, a copy, a Mini App's web_app and a share button, as any bot may send
    them: each says where it leads, and a share asks the bot what it would post."""
    chat, out = demo
    keyboard = {"inline_keyboard": [
        [{"text": "🌐 Site", "url": "https://example.org/rules"}],
        [{"text": "🔑 Log in", "login_url": {"url": "https://example.org/login"}}],
        [{"text": "📋 Copy", "copy_text": {"text": "8÷(3−8÷3)"}}],
        [{"text": "📊 Page", "web_app": {"url": "https://host.invalid/webapp/?page=u5"}}],
        [{"text": "📤 Share", "switch_inline_query_chosen_chat": {"query": "3 8 3 8",
                                                                  "allow_user_chats": True}}],
        [{"text": "🔎 Here", "switch_inline_query_current_chat": "1 2 3 4"}],
        [{"text": "➕ Group", "url": "https://t.me/twentyfour_demo_bot?startgroup=true"}]]}
    await chat.emulator.call("sendMessage", {"chat_id": DEMO_CHAT_ID, "text": "buttons",
                                             "reply_markup": json.dumps(keyboard)})
    for label in ("site", "LOG IN", "📋 copy", "page", "share", "[🔎 Here]", "group"):
        assert await chat.take(f"/press {label}")
    shown = out.getvalue()
    assert "([🌐 Site] opens https://example.org/rules)" in shown
    assert "([🔑 Log in] opens https://example.org/login, signed in as Ann by Telegram)" in shown
    assert "([📋 Copy] copies '8÷(3−8÷3)')" in shown
    assert re.search(r"\(\[📊 Page\] opens the Mini App: in a browser, "
                     r"http://127\.0\.0\.1:\d+/webapp/\?page=u5#tgWebAppData=", shown)
    # the bot's own inline answer: what the chat picked would get
    assert "([📤 Share] types \"@twentyfour_demo_bot 3 8 3 8\" in a chat they pick: Ann " \
           "would post: " in shown and "8÷(3−8÷3)" in shown.split("[📤 Share] types")[1]
    assert "([🔎 Here] types \"@twentyfour_demo_bot 1 2 3 4\" in this chat" in shown
    assert "([➕ Group] lets Ann pick a group to add @twentyfour_demo_bot to)" in shown
    assert FAILED not in shown


ODD_LINES = ["", "   ", "/press", "/press [", "/press []", "/press ▶", "/reply", "/user",
             "/user " + "x" * 500, "/reply " + "9" * 5000, "/press " + "é" * 300, "\x00",
             "/solve 3 8 3 8\x00", "/PRESS hint", "/start@someone_else_bot", "/ ",
             "/" + "a" * 100, "‏/play", "/a ((((((((((((((((((((((((((((((((((((1"]


async def test_no_line_ends_the_demo(demo):
    chat, out = demo
    for line in ODD_LINES:
        assert await chat.take(line), line
    assert FAILED not in out.getvalue()
    assert await chat.take("/solve 3 8 3 8")
    assert SOLVED in out.getvalue()
    assert not await chat.take("/quit") and not await chat.take(None)


async def test_a_failure_is_one_line_and_the_demo_goes_on(demo, monkeypatch):
    chat, out = demo

    async def broken(*args, **kwargs):
        raise RuntimeError("the emulator fell over")

    monkeypatch.setattr(chat.emulator, "say", broken)
    assert await chat.take("/play")
    assert "(the demo could not do that: RuntimeError: the emulator fell over)\n" in \
        out.getvalue()
    monkeypatch.undo()
    assert await chat.take("/solve 3 8 3 8")
    assert SOLVED in out.getvalue()


def test_the_demo_lifts_the_budgets_a_script_would_pass():
    """A script piped into the demo types faster than any person: at the production budget
    (5 a second, 20 after a pause) the run above was once told "too many at once" on the
    settings panel and its /resetscores then went unanswered. Set, they stay as set."""
    from bot.runtime.doors import CHAT, PERSON
    config = demo_config({}, env_file=None)
    assert config.person_budget.rate >= 1000 > PERSON.rate
    assert config.chat_budget.burst >= 10_000 > CHAT.burst
    assert demo_config({"PERSON_BUDGET": "5,20,12"}, env_file=None).person_budget == PERSON
