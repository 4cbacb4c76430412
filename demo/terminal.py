"""The demo: the real bot against the local Bot API emulator, played from a terminal.

`python -m bot --demo` (and `python -m bot` without a token) starts demo.emulator on
127.0.0.1 and the application of bot.telegram.app against it, with the same handlers and storage
as production (in its own database file, data/demo.sqlite3, unless DATABASE_PATH is set).
Each line read from standard input becomes a message of the current speaker in a demo group
(`/group NAME` moves the conversation to another group, made at once with the speaker as its
admin: a tournament between groups can be made in one and joined from another), and every
message the bot sends is printed, to any group. Nothing here reaches Telegram or any other
host.

The Mini App's page (bot.webapp) is served on a local port too, as a bot with WEBAPP_URL and
WEBAPP_SHORT_NAME serves it: the bot's messages carry their Mini App buttons (a deal's "Tap to
solve", the pages under /stats and /top), and each is followed by a line with that page's local
address for a desktop browser, signed for the demo's current speaker as Telegram would sign it
(the demo holds the emulator's token): answer there, and the win is printed here like any other.
`/press` presses any button: one the bot reads (callback data) goes to the bot; a link, a Mini
App, a login or a share button says where it leads (demo.buttons), as Telegram's client
would go there instead. No line typed ends the demo but /quit and the end of input.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import dataclasses
import logging
import os
import sys
import threading
import time
import zlib
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from telegram import Update
from telegram.ext import Application, ContextTypes, TypeHandler

from bot.runtime import log_mask
from bot.runtime.config import Config, ConfigError, read_env_file
from bot.telegram.app import ALLOWED_UPDATES
from bot.telegram.keyboards import REVEAL, action_of
from bot.text.html_text import EntityError, terminal_text
from bot.webapp.init_data import sign, user_fields
from bot.webapp.settings import WebappSettings
from bot.wiring import running
from demo.buttons import Lead, lead_of, names, part_of
from demo.emulator import (
    BOT_NAME,
    BotApiEmulator,
    CallbackAnswer,
    Edit,
    Reaction,
    Sent,
)
from demo.mathematics import readable

log = logging.getLogger(__name__)

DEMO_TOKEN = "1000000000:DEMO-local-emulator-no-telegram"  # shaped like a token, worth nothing
DEMO_USERNAME = "twentyfour_demo_bot"
DEMO_CHAT_ID = -1000
DEMO_DATABASE = "data/demo.sqlite3"
DEMO_CHAT_TITLE = "Twenty-Four demo"
# the demo's Mini App, as @BotFather would register it: groups get its Direct Link; its page is
# served on a free local port (the URL is what a private chat's web_app button would carry: the
# demo opens every page on the local port whatever the button names)
DEMO_APP = WebappSettings(url="https://twentyfour.invalid/webapp/", short_name="play", port=0)
INLINE_WAIT = 5.0  # seconds the demo waits for the bot's answer to an inline query
DEFAULT_SPEAKER = "Ann"
NAME_LIMIT = 64  # Telegram's limit on a first name
OBSERVER_GROUP = 1_000_000  # after every handler group of the app: the update is fully handled
SETTLE_SECONDS = 0.05  # for a message sent just after its update was handled
# ...and, on a busy machine, for as long as the bot goes on sending (a reply sent by a task the
# handler started), at most this long: then what it sent since shows together
SETTLE_MOST = 2.0
QUIT = ("/quit", "/exit")
# a second, after a pause, in hand: a speaker whose every line is waited for is never past it
DEMO_BUDGET = "1000,10000,64"
HELP = ("/user NAME switches the speaker; /group NAME speaks in another group (a new one: "
        "its admin); /private speaks in the speaker's private chat with the bot (the daily's "
        "answers, /forget); @bot QUERY is an inline query; /reply TEXT answers by replying to "
        "the deal; /press LABEL presses a button of the bot's; /quit or end of input (Ctrl-D) "
        "ends the demo")

Message = Sent | Edit | Reaction
Shown = Sent | Edit | CallbackAnswer | Reaction


def demo_config(environ: Mapping[str, str] | None = None,
                env_file: Path | None = Path(".env")) -> Config:
    """The production settings (round length, workers...) with the demo's token and no rate
    limiter; logging at WARNING unless LOG_LEVEL is set. base_url comes with the emulator.
    The budgets of a person and a chat (docs/fairness.md) are DEMO_BUDGET unless set: a script
    piped in types faster than any person, and its lines, each waited for, are no flood.

    The database is the same kind (same storage, same migrations) but, unless DATABASE_PATH says
    otherwise, its own file: resuming real chats' open rounds inside a demo would close them
    where their players never see it."""
    values = dict(os.environ if environ is None else environ)
    if environ is None and env_file is not None:
        values = {**read_env_file(env_file), **values}
    values.setdefault("LOG_LEVEL", "WARNING")
    values.setdefault("DATABASE_PATH", DEMO_DATABASE)
    values.setdefault("PERSON_BUDGET", DEMO_BUDGET)
    values.setdefault("CHAT_BUDGET", DEMO_BUDGET)
    values.setdefault("INLINE_BUDGET", DEMO_BUDGET)
    values.setdefault("PRESS_BUDGET", DEMO_BUDGET)
    values.update(TELEGRAM_BOT_TOKEN=DEMO_TOKEN, RATE_LIMIT="off")
    return Config.from_env(values, env_file)


def user_id(name: str) -> int:
    """The same id for the same name in every demo session, so scores add up across runs."""
    return 100_000 + zlib.crc32(name.encode()) % 900_000_000


def speaker_name(text: str) -> str:
    """A name as Telegram would hold it: single spaces, at most 64 characters."""
    return " ".join(text.split())[:NAME_LIMIT]


class DemoChat:
    """One terminal session: who speaks, what they type, and everything the bot sends back."""

    def __init__(self, emulator: BotApiEmulator, out: TextIO, speaker: str,
                 interactive: bool, ansi: bool, reply_timeout: float) -> None:
        self.emulator = emulator
        self.out = out
        self.speaker = speaker
        self.interactive = interactive  # a person at a terminal: prompt, and no echo
        self.ansi = ansi
        self.reply_timeout = reply_timeout
        self.users: dict[str, int] = {}
        self.chat_id = DEMO_CHAT_ID  # the group the lines are said in
        self.titles: dict[int, str] = {DEMO_CHAT_ID: DEMO_CHAT_TITLE}  # the demo's groups
        # the messages (by id) and button presses (by query id) the application is done with
        self.handled: set[int | str] = set()
        self.handled_changed = asyncio.Condition()
        self.shown_sent = 0
        self.shown_edits = 0
        self.shown_answers = 0
        self.shown_reactions = 0
        self.pressed_by: dict[str, str] = {}  # query id -> who pressed
        self.last_deal: int | None = None  # the bot's latest deal message: what /reply answers
        self.prompting = False
        self.page_base: str | None = None  # the Mini App's page on the local port

    def page_address(self, lead: Lead) -> str | None:
        """A Mini App page's local address, signed for the current speaker, opened as Telegram
        opens it: a Direct Link's start parameter (a round's ticket, a player's or a group's
        page) signed with the user and passed as tgWebAppStartParam, a web_app button's URL
        with its query (None without the local page)."""
        if self.page_base is None:
            return None
        user = self.user()
        start = None if lead.target.startswith("?") else lead.target
        data = sign(user_fields(user["id"], user["first_name"], int(time.time()),
                                user.get("language_code", "en"), start), self.emulator.token)
        query, fragment = (lead.target, "") if start is None else \
            ("", f"&tgWebAppStartParam={quote(start, safe='')}")
        return f"{self.page_base}{query}#tgWebAppData={quote(data, safe='')}{fragment}"

    # --- input -------------------------------------------------------------------------------

    async def converse(self, lines: asyncio.Queue[str | None]) -> None:
        """Send each line as the current speaker until /quit or the end of input."""
        while True:
            self.prompt()
            line = await lines.get()
            self.prompting = False
            if not await self.take(line):
                return

    async def take(self, line: str | None) -> bool:
        """One line typed (None: the end of input); False once the demo is to end. Whatever
        goes wrong with a line is said in one line, and the demo goes on."""
        if line is None:
            if self.interactive:
                self.write("\n")
            return False
        text = line.strip()
        command = text.split()[0].lower() if text else ""
        if command in QUIT:
            return False
        try:
            await self.act(command, text)
        except Exception as error:  # the demo's own mistake: said, never a traceback
            log.debug("the demo could not take %r", text, exc_info=True)
            self.write(f"(the demo could not do that: {type(error).__name__}: {error})\n")
        return True

    async def act(self, command: str, text: str) -> None:
        """A line that is not /quit: the demo's own commands, else a message of the speaker."""
        if await self.own_command(command, text[len(command):].strip()):
            return
        if command == "/user":
            self.switch(text[len(command):])
        elif command == "/group":
            self.switch_group(text[len(command):])
        elif command == "/private":
            self.switch_private()
        elif command == "/reply":
            await self.reply_to_deal(text[len(command):].strip())
        elif command == "/press":
            await self.press(text[len(command):].strip())
        elif command in ("@bot", f"@{self.emulator.username}".lower()):
            await self.inline(text[len(command):].strip())
        elif text:
            if not self.interactive:
                self.write(f"{self.speaker}: {text}\n")
            await self.send(text)

    async def own_command(self, command: str, rest: str) -> bool:
        """A command of a demo built on this one (the cluster's /kill), done here: True; the
        terminal demo has none of its own."""
        return False

    def switch(self, name: str) -> None:
        """/user NAME: NAME speaks from now on (in a private chat: in their own)."""
        name = speaker_name(name)
        if name:
            self.speaker = name
            self.write(f"({name} speaks now)\n")
            if self.chat_id > 0:
                self.switch_private()
        else:
            self.write(f"({self.speaker} speaks; {HELP})\n")

    def switch_private(self) -> None:
        """/private: the lines are said in the speaker's private chat with the bot, as a player
        who pressed a button that leads there goes (the daily's answers, /forget, answering
        privately); /group NAME goes back to a group."""
        user = self.user()["id"]
        if user not in self.titles:
            self.emulator.chat(user, "private")
            self.titles[user] = f"{self.speaker}'s private chat"
        self.chat_id = user
        self.last_deal = None
        self.write(f"({self.speaker} speaks in a private chat with "
                   f"@{self.emulator.username} now; /group NAME goes back to a group)\n")

    def switch_group(self, name: str) -> None:
        """/group NAME: the lines are said in that group from now on; a new one is made, the
        speaker its creator (an admin: a tournament is made and joined by admins)."""
        name = " ".join(name.split())[:NAME_LIMIT]
        if not name:
            groups = ", ".join(title for chat, title in self.titles.items() if chat < 0)
            self.write(f"(in {self.titles[self.chat_id]}; the groups: {groups})\n")
            return
        found = next((chat for chat, title in self.titles.items()
                      if chat < 0 and title.casefold() == name.casefold()), None)
        if found is None:
            found = min(chat for chat in self.titles if chat < 0) - 1
            self.titles[found] = name
            self.emulator.chat(found, "group", name)
            self.emulator.promote(found, self.user()["id"], "creator")
        self.chat_id = found
        self.last_deal = None
        self.write(f"({self.speaker} speaks in {self.titles[found]} now)\n")

    def user(self) -> dict:
        """The speaker as a Telegram user; a new name gets an id no other name has."""
        if self.speaker not in self.users:
            number = user_id(self.speaker)
            while number in self.users.values():
                number += 1
            self.users[self.speaker] = number
        return self.emulator.user(self.users[self.speaker], self.speaker)

    async def send(self, text: str, reply_to: int | None = None) -> None:
        """Say it in the demo group, wait (bounded) until the bot has handled it, show replies."""
        message = await self.emulator.say(self.chat_id, self.user(), text[:4096], reply_to)
        await self.settle(message["message_id"])

    async def settle(self, key: int | str) -> None:
        """Wait (bounded) until the bot is done with this message or press; show what it sent."""
        with contextlib.suppress(TimeoutError):  # replies that come later show when they come
            async with asyncio.timeout(self.reply_timeout), self.handled_changed:
                await self.handled_changed.wait_for(lambda: key in self.handled)
        deadline = asyncio.get_running_loop().time() + SETTLE_MOST
        while True:  # until the bot has sent, edited and answered nothing for SETTLE_SECONDS
            before = self.sending()
            await asyncio.sleep(SETTLE_SECONDS)
            if self.sending() == before or asyncio.get_running_loop().time() > deadline:
                break
        self.show_new()

    def sending(self) -> tuple[int, int, int]:
        """How much the bot has sent, edited and answered so far."""
        emulator = self.emulator
        return len(emulator.sent), len(emulator.edits), len(emulator.callback_answers)

    async def reply_to_deal(self, text: str) -> None:
        """/reply TEXT: the speaker replies to the bot's latest deal with TEXT."""
        if not text:
            self.write("(/reply TEXT answers by replying to the bot's latest deal)\n")
        elif self.last_deal is None:
            self.write("(no deal to reply to yet: /play first)\n")
        else:
            if not self.interactive:
                self.write(f"{self.speaker}, replying to the deal: {text}\n")
            await self.send(text, reply_to=self.last_deal)

    async def press(self, label: str) -> None:
        """/press LABEL: the speaker presses the button so labelled (any case, brackets or not,
        with or without its emoji) on the newest of the bot's messages that shows one; else the
        one button of the newest such message that LABEL is a part of ("/press yes" for
        "✅ Yes, delete"); several there are named, none pressed."""
        shown = [(sent.message_id, button) for sent in reversed(self.emulator.sent)
                 if sent.chat_id == self.chat_id and sent.receiver in (None, self.user()["id"])
                 for button in self.emulator.keyboard(self.chat_id, sent.message_id)]
        for message_id, button in shown:
            if names(label, str(button.get("text", ""))):
                await self.use(message_id, button)
                return
        parts = [(message_id, button) for message_id, button in shown
                 if part_of(label, str(button.get("text", "")))]
        newest = [(m, b) for m, b in parts if m == parts[0][0]] if parts else []
        if len(newest) == 1:
            await self.use(*newest[0])
        elif newest:
            named = " ".join(f"[{button.get('text', '')}]" for _, button in newest)
            self.write(f"('{label}' is part of {named}: type more of the one to press)\n")
        else:
            # quoted as typed: a repr would print a Persian label's joiner as \u200c
            self.write(f"(no button '{label}' to press; {self.buttons_now()})\n")

    async def use(self, message_id: int, button: dict) -> None:
        """A press of this button of that message: the bot's to answer, or where it leads."""
        shown = str(button.get("text", ""))
        if not self.interactive:
            self.write(f"{self.speaker} presses [{shown}]\n")
        lead = lead_of(button, self.emulator.username)
        if lead.kind == "press":
            query_id = await self.emulator.press(self.chat_id, message_id, self.user(),
                                                 lead.target)
            self.pressed_by[query_id] = self.speaker
            await self.settle(query_id)
        elif lead.kind in ("share", "share_here"):
            await self.share(shown, lead)
        elif lead.kind == "chat":  # Telegram opens the private chat; its START sends /start
            self.switch_private()
            start = f"/start {lead.target}".strip()
            self.write(f"{self.speaker}: {start}\n")
            await self.send(start)
        else:
            self.show(f"({self.leads(shown, lead)})")

    def leads(self, shown: str, lead: Lead) -> str:
        """Where a button the bot does not hear about leads, in a sentence."""
        bot = f"@{self.emulator.username}"
        if lead.kind == "page":
            where = self.page_address(lead)
            return f"[{shown}] opens the Mini App: in a browser, {where}" if where else \
                f"[{shown}] opens the bot's Mini App, which this demo does not serve"
        if lead.kind == "group":
            return f"[{shown}] lets {self.speaker} pick a group to add {bot} to"
        if lead.kind == "link":
            return f"[{shown}] opens {lead.target}"
        if lead.kind == "login":
            return f"[{shown}] opens {lead.target}, signed in as {self.speaker} by Telegram"
        if lead.kind == "copy":
            return f"[{shown}] copies '{lead.target}'"
        return f"[{shown}] is Telegram's own (a game or a payment): nothing the demo plays"

    async def inline(self, query: str) -> None:
        """`@bot QUERY` (or the bot's @username): an inline query, as typed in any chat; its
        results are listed as Telegram lists them above the message box, each with what
        choosing it would post."""
        if not self.interactive:
            self.write(f"{self.speaker}: @{self.emulator.username} {query}".rstrip() + "\n")
        results = await self.inline_results(query)
        if not results:
            self.show(f"(no results for \"{query}\")")
            return
        lines = [f"(inline results for \"{query}\", {len(results)}:"]
        for number, result in enumerate(results, 1):
            title = " — ".join(str(result.get(key)) for key in ("title", "description")
                               if result.get(key))
            content = result.get("input_message_content", {})
            posts = content.get("message_text", "")
            if posts and content.get("parse_mode") == "HTML":
                with contextlib.suppress(EntityError):
                    posts = terminal_text(posts, self.ansi)
            lines.append(f"  {number}. {title}" + (f"\n     posts: {posts}" if posts else ""))
        self.show("\n".join(lines) + ")")

    async def inline_results(self, query: str) -> list[dict]:
        """The bot's answer to an inline query of the speaker's (none if it did not answer)."""
        query_id = await self.emulator.inline_query(self.user(), query)
        answered = await self.emulator.wait_for(
            lambda: self.emulator.inline_answer(query_id) is not None, INLINE_WAIT)
        answer = self.emulator.inline_answer(query_id)
        return list(answer.results) if answered and answer is not None else []

    async def share(self, shown: str, lead: Lead) -> None:
        """A share button: the bot's inline answer to its query, as the chat the speaker picks
        would get it (its first result)."""
        where = "this chat" if lead.kind == "share_here" else "a chat they pick"
        results = await self.inline_results(lead.target)
        content = results[0].get("input_message_content", {}) if results else {}
        first = content.get("message_text")
        if first and content.get("parse_mode") == "HTML":
            with contextlib.suppress(EntityError):  # as the chat would show it
                first = terminal_text(first, self.ansi)
        said = f"would post: {first}" if first else "has nothing to post"
        self.show(f"([{shown}] types \"@{self.emulator.username} {lead.target}\" in {where}: "
                  f"{self.speaker} {said})")

    def buttons_now(self) -> str:
        """The buttons the bot's newest messages with buttons show, to say what can be pressed."""
        labels: list[str] = []
        for sent in reversed(self.emulator.sent):
            if sent.chat_id != self.chat_id:
                continue
            labels += [f"[{label}]" for label, _ in self.emulator.buttons(self.chat_id,
                                                                          sent.message_id)
                       if f"[{label}]" not in labels]
        return f"buttons: {' '.join(labels)}" if labels else "no buttons now"

    async def observe(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The last handler of every update: the bot has done what it does with this message
        (or button press)."""
        key: int | str | None = None
        if update.callback_query is not None:
            key = update.callback_query.id
        elif update.effective_message is not None:
            key = update.effective_message.message_id
        if key is not None:
            async with self.handled_changed:
                self.handled.add(key)
                self.handled_changed.notify_all()

    # --- output ------------------------------------------------------------------------------

    async def follow(self) -> None:
        """Show messages nobody waits for (a round's time running out) as they come."""
        while True:
            await self.emulator.wait_for(self.unseen, timeout=1.0)
            self.show_new()

    def unseen(self) -> bool:
        return (len(self.emulator.sent) > self.shown_sent
                or len(self.emulator.edits) > self.shown_edits
                or len(self.emulator.callback_answers) > self.shown_answers
                or len(self.emulator.reactions) > self.shown_reactions)

    def show_new(self) -> None:
        new: list[Shown] = [*self.emulator.sent[self.shown_sent:],
                            *self.emulator.edits[self.shown_edits:],
                            *self.emulator.callback_answers[self.shown_answers:],
                            *self.emulator.reactions[self.shown_reactions:]]
        self.shown_sent, self.shown_edits = len(self.emulator.sent), len(self.emulator.edits)
        self.shown_answers = len(self.emulator.callback_answers)
        self.shown_reactions = len(self.emulator.reactions)
        for message in sorted(new, key=lambda m: m.at):
            if isinstance(message, CallbackAnswer):
                if message.text:  # a press answered without a notice shows nothing
                    name = self.pressed_by.get(message.query_id, "you")
                    self.show(f"{BOT_NAME} (notice to {name}): {message.text}")
                continue
            self.show(self.render(message))
            if isinstance(message, Sent) and message.chat_id == self.chat_id:
                self.follow_up(message)

    def follow_up(self, message: Sent) -> None:
        """After a message of the bot's in the demo group: a deal (it has a Reveal button) is
        what /reply answers; each Mini App button is followed by its page's local address."""
        buttons = [b for row in (message.reply_markup or {}).get("inline_keyboard", [])
                   for b in row]
        if any(action_of(b.get("callback_data")) == REVEAL for b in buttons):
            self.last_deal = message.message_id
        for button in buttons:
            lead = lead_of(button, self.emulator.username)
            if lead.kind == "page" and (where := self.page_address(lead)):
                self.show(f"  [{button.get('text', '')}] in a browser: {where}")

    def render(self, message: Message) -> str:
        """`Twenty-Four to Ann: first line`, further lines indented, then a line of buttons per
        row of the keyboard: `[Hint] [Reveal]`; a reaction as one line in parentheses."""
        if isinstance(message, Reaction):
            return self.render_reaction(message)
        header = BOT_NAME
        alone = self.name_of(message.receiver) if message.receiver is not None else None
        if isinstance(message, Edit):
            header += f" (edited, only {alone} sees this)" if alone else " (edited)"
        elif alone is not None:  # an ephemeral message: its receiver alone sees it
            header += f" to {alone} (only {alone} sees this)"
        elif message.reply_to is not None:
            replied = self.emulator.message(message.chat_id, message.reply_to)
            if replied is not None and not replied["from"].get("is_bot"):
                header += f" to {replied['from']['first_name']}"
        chat = message.chat_id
        if chat != self.chat_id:  # another of the demo's groups, or an old chat's
            header += f" in {self.titles[chat]}" if chat in self.titles else f" in chat {chat}"
        body = message.text
        if message.rich is not None:  # mathematics: each block on a line of its own, as a
            blocks = message.rich.get("blocks", [])  # person writes it, in the text's digits
            words = " ".join(b.get("text", "") for b in blocks if b.get("type") == "paragraph")
            body = "\n".join(block.get("text", "") if block.get("type") == "paragraph"
                             else f"  {readable(block.get('expression', ''), words)}"
                             for block in blocks)
        elif message.parse_mode == "HTML":
            with contextlib.suppress(EntityError):  # the emulator refused it: keep its text
                body = terminal_text(message.html, self.ansi)
        first, *rest = body.split("\n")
        rest += [" ".join(f"[{button.get('text', '')}]" for button in row)
                 for row in (message.reply_markup or {}).get("inline_keyboard", []) if row]
        if self.ansi:
            header = f"\x1b[1m{header}\x1b[0m"
        return "\n".join([f"{header}: {first}", *(f"  {line}" for line in rest)])

    def name_of(self, user_id: int) -> str:
        """A demo speaker's name by their id."""
        return next((name for name, number in self.users.items() if number == user_id), "?")

    def render_reaction(self, reaction: Reaction) -> str:
        """`(Twenty-Four reacts 👎 to Ann's "1+2+3+4")`: a reaction is not a message."""
        marked = self.emulator.message(reaction.chat_id, reaction.message_id) or {}
        who = marked.get("from", {}).get("first_name", "?")
        return f"({BOT_NAME} reacts {reaction.emoji or 'no more'} to {who}'s " \
               f"\"{marked.get('text', '')[:40]}\")"

    def prompt(self) -> None:
        if self.interactive and not self.prompting:
            self.write(f"{self.speaker}: ")
            self.prompting = True

    def show(self, block: str) -> None:
        """Print a block of lines; at a terminal, above the prompt the person is typing at."""
        if self.prompting:
            self.write("\r\x1b[K" if self.ansi else "\n")
        self.write(block + "\n")
        if self.prompting:
            self.write(f"{self.speaker}: ")

    def write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()


def read_lines(fd: int, loop: asyncio.AbstractEventLoop,
               lines: asyncio.Queue[str | None]) -> threading.Thread:
    """Read lines from a file descriptor in a thread (pipes, files and terminals alike); None at
    the end. Raw os.read, not sys.stdin, so that a read still blocked at exit holds no lock."""

    def put(line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the demo is over
            loop.call_soon_threadsafe(lines.put_nowait, line)

    def run() -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        try:
            while chunk := os.read(fd, 65536):
                *complete, pending = (pending + decoder.decode(chunk)).split("\n")
                for line in complete:
                    put(line.rstrip("\r"))
            pending += decoder.decode(b"", final=True)
            if pending:
                put(pending)
        except OSError:
            pass
        finally:
            put(None)

    thread = threading.Thread(target=run, name="demo-input", daemon=True)
    thread.start()
    return thread


async def start_polling(application: Application) -> None:
    """What run_polling does after the start: PTB's own poller, which the demo keeps."""
    assert application.updater is not None
    await application.updater.start_polling(poll_interval=0.0, allowed_updates=ALLOWED_UPDATES)


@contextlib.asynccontextmanager
async def session(config: Config, speaker: str, out: TextIO, interactive: bool = False,
                  ansi: bool = False) -> AsyncIterator[DemoChat]:
    """The emulator, the bot (as the composition root runs it in one process) and its local
    Mini App page, running; the demo's chat to type into (`take`), everything stopped in order
    at the end."""
    emulator = BotApiEmulator(token=config.token, username=DEMO_USERNAME, open_chats=True)
    await emulator.start()
    try:
        emulator.chat(DEMO_CHAT_ID, "group", DEMO_CHAT_TITLE)
        chat = DemoChat(emulator, out, speaker, interactive=interactive, ansi=ansi,
                        reply_timeout=config.solve_timeout + 10.0)
        emulator.promote(DEMO_CHAT_ID, chat.user()["id"], "creator")  # the first speaker's group
        follower = asyncio.create_task(chat.follow())
        try:
            async with running(dataclasses.replace(config, base_url=emulator.base_url),
                               webapp=DEMO_APP) as bot:
                # before the first poll: the demo sees every update the bot handles
                bot.application.add_handler(TypeHandler(Update, chat.observe),
                                            group=OBSERVER_GROUP)
                await start_polling(bot.application)
                chat.page_base = f"http://127.0.0.1:{bot.page_port}/webapp/"
                yield chat
        finally:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
            chat.show_new()
    finally:
        await emulator.stop()


async def run_demo(config: Config, speaker: str, out: TextIO, stdin_fd: int = 0) -> None:
    """The whole demo: emulator, bot, conversation, then everything stopped in order."""
    async with session(config, speaker, out, interactive=os.isatty(stdin_fd),
                       ansi=out.isatty() and "NO_COLOR" not in os.environ
                       and os.environ.get("TERM") != "dumb") as chat:
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        read_lines(stdin_fd, asyncio.get_running_loop(), lines)
        await chat.converse(lines)


def main(speaker: str | None = None) -> int:
    """`python -m bot --demo [--user NAME]`: 0 at /quit or the end of input."""
    try:
        config = demo_config()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log_mask.install(log_mask.secret_parts(config.token))  # the emulator's, but a token still
    logging.getLogger("tornado.access").setLevel(logging.ERROR)
    speaker = speaker_name(speaker or "") or DEFAULT_SPEAKER
    print(f"Twenty-Four demo: the bot on a local Bot API emulator, no Telegram (database "
          f"{config.database_path}). You are {speaker} in the group \"{DEMO_CHAT_TITLE}\": "
          f"try /help, /play, /solve 3 8 3 8. {HELP}.", file=sys.stderr)
    try:
        asyncio.run(run_demo(config, speaker, sys.stdout))
    except KeyboardInterrupt:
        return 130
    return 0
