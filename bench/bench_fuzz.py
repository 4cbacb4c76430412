"""A fuzz of the real bot: `python -m bot` (its own process) against the Bot API emulator on
127.0.0.1, fed random and malformed updates of every type Telegram sends (and a few kinds it
never does) through getUpdates, as Telegram would deliver them.

What is fed: people's messages in groups, supergroups, forum topics and private chats (commands
of the bot with random arguments, answers, garbage, 4,096-character texts, replies to the bot's
messages, edits, service messages), a channel's posts, business and guest messages, presses of
real and forged buttons on the bot's messages and on made-up, inaccessible and inline ones, inline
queries, the bot's own membership changing, reactions, boosts, join requests, polls, payments,
groups that become supergroups while both ids play (a /play in each before either service
message) — and updates PTB cannot read at all (required fields missing, wrong types). Bursts from
one person pass the fair processor's bound.

What is counted: tracebacks in the bot's log (0), presses that can be read and were never answered
(0, but those the bot refused past their sender's budget after its first notice, which it leaves
unanswered by design: its /metrics count them, docs/fairness.md), whether the bot process is
still running and still answers a /help at the end, and what it sent.
`python bench/bench_fuzz.py [--updates 100000] [--rate 400] [--seed 1] [--postgres]`
(`--rate`: updates a second, under the bot's capacity: this is a fuzz of what it is sent, not a
load test); the PostgreSQL run starts its own server (tests/postgres/server.py). Loopback only;
every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import string
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from telegram import Update  # noqa: E402

from bench.bench_bot_load import free_port  # noqa: E402
from bench.bench_flood import scrape  # noqa: E402
from bot.play.games import GAMES  # noqa: E402
from demo.emulator import BotApiEmulator  # noqa: E402
from demo.emulator.records import ADMIN_RIGHTS  # noqa: E402
from tests.e2e.conftest import BotProcess  # noqa: E402

ROUND_SECONDS = 5.0
QUIET_MOST = 20.0  # seconds the run waits, at most, for the bot to fall quiet after the last update
BACKLOG = 600  # updates waiting in the emulator at most: fed as fast as the bot takes them
COMMANDS = ["/play", "/a", "/answer", "/hint", "/reveal", "/giveup", "/pass", "/solve",
            "/countdown", "/yahtzee", "/match", "/lang", "/settings", "/start", "/daily", "/top",
            "/stats", "/privacy", "/forget", "/resetscores", "/help", "/nothing"]
ARGUMENTS = ["", "easy", "hard", "5", "6", "4 = 36", "= 999999999999", "stop", "3", "all",
             "week", "daily", "countdown", "yahtzee", "en", "zh", "ru", "pt-BR", "xx", "--closest",
             "1 2 3 4", "3 8 3 8", "1 3 7 10 25 50 = 765", "1 2 3 4 5 6 7 = 24", "(((", "²",
             "9" * 300, "1/0", "8/(3-8/3)", "daily", "-1", "0", "\u202e", "<b>x</b>", "&amp;"]
BUTTONS = ["h:{r}", "r:{r}", "n:{r}", "l:{r}", "s:{r}", "s:{r}:{p}", "x:{r}", "c:{r}", "c:{r}:{p}",
           "p:3,8,3,8:24:{p}", "p:1,2,3,4,5:15:{p}", "g:{c}:count:5", "g:{c}:hints:off",
           "g:{c}:lang:ru", "g:{c}:seconds_24:30", "g:{c}:coach:0", "cf:y:{h}", "cf:n:{h}", "",
           "x" * 64, "h:99999999999999999999", "s:{r}:99999", "g:{c}:nope:1", "p:{r}:{r}:{p}",
           "☃" * 20]
KINDS = ["message"] * 40 + ["callback_query"] * 18 + ["edited_message"] * 5 + \
    ["inline_query"] * 5 + ["reply"] * 8 + ["service"] * 3 + ["migration"] * 2 + \
    ["channel_post"] * 2 + \
    ["edited_channel_post", "business_message", "edited_business_message", "guest_message",
     "deleted_business_messages", "business_connection", "message_reaction",
     "message_reaction_count", "chosen_inline_result", "shipping_query", "pre_checkout_query",
     "purchased_paid_media", "poll", "poll_answer", "my_chat_member", "chat_member",
     "chat_join_request", "chat_boost", "removed_chat_boost", "unknown_type"] + \
    ["unreadable"] * 3
BURSTS = 0.002  # of the draws: a burst of 70 to 150 updates from one person


class FuzzEmulator(BotApiEmulator):
    """The emulator as a Bot API server that ignores allowed_updates (every type reaches the
    bot), counting what getUpdates delivered."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.delivered: set[int] = set()

    def _wanted(self, update: dict) -> bool:
        return True

    async def api_getupdates(self, params: dict) -> list:
        batch = await super().api_getupdates(params)
        self.delivered.update(u["update_id"] for u in batch)
        return batch


@dataclass
class Figures:
    fed: Counter[str] = field(default_factory=Counter)
    presses: set[str] = field(default_factory=set)  # ids of readable callback queries fed
    unanswered: int = 0
    unanswered_past_budget: int = 0  # presses left unanswered by design (/metrics)
    tracebacks: int = 0
    errors: int = 0  # log lines at ERROR or CRITICAL
    skipped_unreadable: int = 0  # "does not read" lines: updates the bot skipped by their id
    sent: int = 0
    edits: int = 0
    answers: int = 0
    running: bool = False
    help_answered: bool = False
    seconds: float = 0.0
    feeding: float = 0.0
    delivered: int = 0  # updates getUpdates handed to the bot
    unreadable_ids: list[int] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)


class Fuzzer:
    """Random updates over a world of chats and people the emulator knows (and some it does
    not: the bot's sends there are refused, as Telegram refuses them)."""

    def __init__(self, emulator: BotApiEmulator, rng: random.Random) -> None:
        self.emulator = emulator
        self.rng = rng
        self.people = [{"id": 5000 + i, "is_bot": False, "first_name": self.name(),
                        "language_code": rng.choice(["en", "zh-hans", "ru", "es", "pt-br", "",
                                                     "xx", "zh-hant"])}
                       for i in range(120)]
        for person in self.people:
            if not person["language_code"]:
                del person["language_code"]
        self.groups = [emulator.chat(-600_000 - i, "group", self.name()) for i in range(25)]
        self.supergroups = [emulator.chat(-1_000_600_000 - i, "supergroup", self.name())
                            for i in range(10)]
        self.forums = [emulator.chat(-1_000_700_000 - i, "supergroup", self.name(), forum=True)
                       for i in range(4)]
        self.channels = [emulator.chat(-1_000_800_000 - i, "channel", self.name())
                         for i in range(3)]
        self.unknown = [{"id": -900_000 - i, "type": "group", "title": "?"} for i in range(5)]
        self.topics = {forum["id"]: [emulator.topic(forum["id"], f"t{j}") for j in range(3)]
                       for forum in self.forums}
        for person in self.people[:60]:
            emulator.chat(person["id"], "private")
        self.message_ids = iter(range(10_000_000, 10**9))
        self.query_ids = iter(range(1, 10**9))

    def name(self) -> str:
        pick = self.rng.choice(["Ann", "Бен", "赵", "O'Hara", "<b>", "&", "😀" * 3, "x" * 64,
                                "\u200f", "Ma\u0301ria"])
        return pick + str(self.rng.randint(0, 99))

    # --- the pieces ----------------------------------------------------------------------------

    def chat(self) -> dict:
        pools = [self.groups, self.supergroups, self.forums, self.unknown,
                 [self.private(p) for p in self.rng.sample(self.people, 2)]]
        return dict(self.rng.choice(self.rng.choices(pools, weights=[5, 3, 2, 1, 3])[0]))

    def private(self, person: dict) -> dict:
        return {"id": person["id"], "type": "private", "first_name": person["first_name"]}

    def text(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.5:
            command = rng.choice(COMMANDS)
            if rng.random() < 0.2:
                command += rng.choice(["@twentyfour_test_bot", "@other_bot", "@"])
            return f"{command} {rng.choice(ARGUMENTS)}".strip()
        if roll < 0.75:
            numbers = [str(rng.randint(0, 14)) for _ in range(rng.randint(1, 7))]
            operators = "+-*/×÷:−()"
            return "".join(n + rng.choice(operators) for n in numbers)[:-1]
        if roll < 0.85:
            return "".join(rng.choice(string.printable + "²³½①٣Ⅻ（）＋") for _ in
                           range(rng.randint(0, 40)))
        if roll < 0.9:
            return rng.choice(["8/(3-8/3)", "(" * 500, "9" * 5000, "", " ", "\n" * 10])
        return rng.choice(string.ascii_letters) * rng.randint(1000, 4096)

    def message(self, chat: dict | None = None, sender: dict | None = None,
                text: str | None = None) -> dict:
        rng = self.rng
        chat = chat or self.chat()
        person = sender or (self.private_owner(chat) if chat["type"] == "private"
                            else rng.choice(self.people))
        text = self.text() if text is None else text
        message: dict[str, Any] = {"message_id": next(self.message_ids), "chat": chat,
                                   "date": int(time.time()) + rng.choice([0, 0, 0, -5, -4000, 9]),
                                   "from": person, "text": text}
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0,
                                    "length": len(text.split()[0])}]
        if chat["id"] in self.topics and rng.random() < 0.7:
            message["message_thread_id"] = rng.choice(self.topics[chat["id"]])
            message["is_topic_message"] = True
        if chat["type"] != "private" and rng.random() < 0.05:  # an anonymous admin, a channel
            message["sender_chat"] = chat if rng.random() < 0.5 else rng.choice(self.channels)
            message["from"] = {"id": 1087968824, "is_bot": True, "first_name": "Group"}
        return message

    def private_owner(self, chat: dict) -> dict:
        return next((p for p in self.people if p["id"] == chat["id"]), self.people[0])

    def bot_message(self) -> dict:
        """One of the bot's messages (with its buttons), or a made-up one."""
        sent = self.emulator.sent
        if sent and self.rng.random() < 0.85:
            mine = sent[-self.rng.randint(1, min(len(sent), 300))]
            found = self.emulator.message(mine.chat_id, mine.message_id)
            if found is not None:
                return found
        return {"message_id": next(self.message_ids), "date": int(time.time()),
                "chat": self.chat(), "from": self.emulator.bot_user, "text": "made up"}

    def data(self, message: dict) -> str:
        rng = self.rng
        buttons = [b.get("callback_data") for row in
                   (message.get("reply_markup") or {}).get("inline_keyboard", []) for b in row]
        buttons = [b for b in buttons if b]
        if buttons and rng.random() < 0.6:
            return rng.choice(buttons)
        return rng.choice(BUTTONS).format(r=rng.randint(1, 400), p=rng.randint(0, 30),
                                          c=message["chat"]["id"],
                                          h="".join(rng.choices("0123456789abcdef", k=8)))

    def press(self) -> dict:
        rng = self.rng
        query_id = f"fz{next(self.query_ids)}"
        self.emulator._open_queries.add(query_id)
        query: dict[str, Any] = {"id": query_id, "from": rng.choice(self.people),
                                 "chat_instance": str(rng.randint(1, 10**6))}
        roll = rng.random()
        if roll < 0.85:
            query["message"] = message = self.bot_message()
            query["data"] = self.data(message)
        elif roll < 0.9:
            query["inline_message_id"] = "im" + str(rng.randint(1, 99))
            query["data"] = self.data({"chat": {"id": 0}})
        elif roll < 0.95:  # a message the bot can no longer reach: Telegram sends its date as 0
            query["message"] = {"chat": self.chat(), "message_id": rng.randint(1, 10**6),
                                "date": 0}
            query["data"] = self.data({"chat": query["message"]["chat"]})
        else:
            query["message"] = self.bot_message()
            if rng.random() < 0.5:
                query["game_short_name"] = "g"
        return {"callback_query": query}

    def member(self, user: dict, status: str) -> dict:
        found: dict[str, Any] = {"user": user, "status": status}
        if status == "administrator":
            found.update(dict.fromkeys(ADMIN_RIGHTS, False), can_manage_chat=True)
        if status == "kicked":
            found["until_date"] = 0
        if status == "restricted":
            found.update(until_date=0, is_member=True, can_send_messages=False,
                         **dict.fromkeys(RESTRICTED_RIGHTS, False))
        return found

    # --- an update of each kind ----------------------------------------------------------------

    def update(self, kind: str) -> list[dict]:
        rng, now = self.rng, int(time.time())
        person, chat = rng.choice(self.people), self.chat()
        if kind == "message":
            return [{"message": self.message()}]
        if kind == "reply":
            replied = self.bot_message()
            message = self.message(replied["chat"], text=self.text())
            message["reply_to_message"] = replied
            return [{"message": message}]
        if kind == "edited_message":
            return [{"edited_message": {**self.message(), "edit_date": now}}]
        if kind == "service":
            message = self.message()
            del message["text"]
            message.pop("entities", None)
            message.update(rng.choice([
                {"new_chat_members": [person, {**self.emulator.bot_user}]},
                {"left_chat_member": person}, {"new_chat_title": "t"},
                {"group_chat_created": True}, {"pinned_message": self.bot_message()},
                {"migrate_to_chat_id": rng.choice(self.supergroups)["id"]},
                {"migrate_from_chat_id": rng.choice(self.groups)["id"]},
                {"sticker": {"file_id": "f", "file_unique_id": "u", "width": 1, "height": 1,
                             "is_animated": False, "is_video": False, "type": "regular"}}]))
            return [{"message": message}]
        if kind == "migration":
            return self.migration()
        if kind == "callback_query":
            return [self.press()]
        if kind == "burst":  # one person, many at once: past the fair processor's bound
            return [self.press() if rng.random() < 0.5 else
                    {"message": self.message(sender=person)} for _ in range(rng.randint(70, 150))]
        if kind == "inline_query":
            query_id = f"iq{next(self.query_ids)}"
            self.emulator._open_queries.add(query_id)
            return [{"inline_query": {"id": query_id, "from": person, "offset": "",
                                      "query": rng.choice([*ARGUMENTS, self.text()[:256]])}}]
        if kind in ("channel_post", "edited_channel_post"):
            channel = rng.choice(self.channels)
            post = self.message(channel, text=self.text())
            del post["from"]
            post["sender_chat"] = channel
            if kind == "edited_channel_post":
                post["edit_date"] = now
            return [{kind: post}]
        if kind in ("business_message", "edited_business_message", "guest_message"):
            message = self.message(self.private(person), rng.choice(self.people))
            if kind != "guest_message":
                message["business_connection_id"] = "bc"
            if kind == "edited_business_message":
                message["edit_date"] = now
            return [{kind: message}]
        if kind == "deleted_business_messages":
            return [{kind: {"business_connection_id": "bc", "chat": self.private(person),
                            "message_ids": [1, 2]}}]
        if kind == "business_connection":
            return [{kind: {"id": "bc", "user": person, "user_chat_id": person["id"],
                            "date": now, "is_enabled": rng.random() < 0.5}}]
        if kind == "message_reaction":
            return [{kind: {"chat": chat, "message_id": rng.randint(1, 10**6), "date": now,
                            "user": person, "old_reaction": [],
                            "new_reaction": [{"type": "emoji", "emoji": "👍"}]}}]
        if kind == "message_reaction_count":
            return [{kind: {"chat": chat, "message_id": 5, "date": now, "reactions": [
                {"type": {"type": "emoji", "emoji": "🔥"}, "total_count": 2}]}}]
        if kind == "chosen_inline_result":
            return [{kind: {"result_id": "r", "from": person, "query": "1 2 3 4"}}]
        if kind == "shipping_query":
            return [{kind: {"id": "s", "from": person, "invoice_payload": "p",
                            "shipping_address": {"country_code": "DE", "state": "", "city": "B",
                                                 "street_line1": "s", "street_line2": "",
                                                 "post_code": "1"}}}]
        if kind == "pre_checkout_query":
            return [{kind: {"id": "pc", "from": person, "currency": "XTR", "total_amount": 1,
                            "invoice_payload": "p"}}]
        if kind == "purchased_paid_media":
            return [{kind: {"from": person, "paid_media_payload": "p"}}]
        if kind == "poll":
            return [{kind: {"id": "p", "question": "?", "options": [
                {"persistent_id": "o", "text": "a", "voter_count": 1}], "total_voter_count": 1,
                "is_closed": False, "is_anonymous": True, "type": "regular",
                "allows_multiple_answers": False, "allows_revoting": False,
                "members_only": False}}]
        if kind == "poll_answer":
            return [{kind: {"poll_id": "p", "option_ids": [0], "option_persistent_ids": ["o"],
                            "user": person}}]
        if kind in ("my_chat_member", "chat_member"):
            who = self.emulator.bot_user if kind == "my_chat_member" else person
            old, new = rng.sample(["member", "left", "kicked", "administrator", "restricted"], 2)
            return [{kind: {"chat": chat, "from": person, "date": now,
                            "old_chat_member": self.member(who, old),
                            "new_chat_member": self.member(who, new)}}]
        if kind == "chat_join_request":
            return [{kind: {"chat": chat, "from": person, "user_chat_id": person["id"],
                            "date": now}}]
        if kind == "chat_boost":
            return [{kind: {"chat": chat, "boost": {
                "boost_id": "b", "add_date": now, "expiration_date": now + 1,
                "source": {"source": "premium", "user": person}}}}]
        if kind == "removed_chat_boost":
            return [{kind: {"chat": chat, "boost_id": "b", "remove_date": now,
                            "source": {"source": "premium", "user": person}}}]
        if kind == "unknown_type":  # a type from a Bot API newer than this bot
            return [{"something_new": {"x": 1}}]
        return [self.unreadable()]

    def migration(self) -> list[dict]:
        """A group becomes a supergroup while both ids play: a /play (or /match) in each, then
        Telegram's two service messages, the group's and the supergroup's, in either order,
        or only one of them, or one twice (the bot takes them side by side with the /play)."""
        rng = self.rng
        group, supergroup = rng.choice(self.groups), rng.choice(self.supergroups)
        plays = [self.message(group, text="/play"),
                 self.message(supergroup, text=rng.choice(["/play", "/match 3", "/countdown"]))]
        sides = [self.service(group, {"migrate_to_chat_id": supergroup["id"]}),
                 self.service(supergroup, {"migrate_from_chat_id": group["id"]})]
        told = rng.choice([sides, sides[::-1], sides[:1], sides[1:], [sides[0]] * 2,
                           [sides[1]] * 2])
        return [{"message": message} for message in [*plays, *told]]

    def service(self, chat: dict, said: dict) -> dict:
        """A service message of Telegram's in the chat (no text)."""
        message = self.message(chat, text="")
        del message["text"]
        message.pop("entities", None)
        message.pop("sender_chat", None)
        return {**message, **said}

    def unreadable(self) -> dict:
        """An update PTB cannot read (Telegram never sends these)."""
        rng = self.rng
        return rng.choice([
            {"message": {"message_id": "x", "chat": 5, "date": "today"}},
            {"message": "text"},
            {"callback_query": {"id": "c", "from": rng.choice(self.people)}},
            {"poll": {"id": "p", "question": "?"}},
            {"my_chat_member": {"chat": self.chat()}},
            {"inline_query": {"id": 5}},
            {"message": {"chat": self.chat(), "date": 0, "message_id": 1,
                         "entities": [{"type": "bot_command"}], "text": "/help"}},
        ])


RESTRICTED_RIGHTS = ("can_send_audios", "can_send_documents", "can_send_photos",
                     "can_send_videos", "can_send_video_notes", "can_send_voice_notes",
                     "can_send_polls", "can_send_other_messages", "can_add_web_page_previews",
                     "can_change_info", "can_invite_users", "can_pin_messages",
                     "can_manage_topics", "can_edit_tag", "can_react_to_messages")


async def feed(emulator: BotApiEmulator, fuzzer: Fuzzer, count: int, figures: Figures,
               rate: float) -> None:
    """`count` updates (a burst counts as many) at `rate` a second, never more than BACKLOG
    waiting at once."""
    fed, began = 0, time.monotonic()
    while fed < count:
        if (ahead := began + fed / rate - time.monotonic()) > 0:
            await asyncio.sleep(ahead)
        if len(emulator.updates) > BACKLOG:
            await emulator.wait_for(lambda: len(emulator.updates) <= BACKLOG // 2, 30)
            continue
        kind = "burst" if fuzzer.rng.random() < BURSTS else fuzzer.rng.choice(KINDS)
        for update in fuzzer.update(kind)[:count - fed]:
            readable = reads(update)
            if readable and "callback_query" in update:
                figures.presses.add(update["callback_query"]["id"])
            label = kind if kind != "unreadable" else "odd but readable"
            figures.fed[label if readable else "unreadable"] += 1
            await emulator._queue(update)
            if not readable:
                figures.unreadable_ids.append(update["update_id"])
            fed += 1
            if fed % 10_000 == 0:
                print(f"{fed} fed in {time.monotonic() - began:.0f} s", file=sys.stderr)


def reads(update: dict) -> bool:
    """Whether PTB reads the update (as Telegram would have sent it, with an id)."""
    try:
        Update.de_json({"update_id": 1, **update}, None)
    except Exception:
        return False
    return True


async def run(updates: int, seed: int, folder: Path, database_url: str | None = None,
              keep_log: Path | None = None, rate: float = 400.0) -> Figures:
    figures = Figures()
    emulator = FuzzEmulator()
    await emulator.start()
    bot = BotProcess(emulator, folder / "fuzz.sqlite3", ROUND_SECONDS)
    metrics_port = free_port()
    # every game's rounds but 24's end within seconds, so the run's end waits on none of them
    bot.env.update({game.seconds_setting: "5" for game in GAMES.values()
                    if game.seconds_setting != "ROUND_SECONDS"})
    bot.env.update(SOLVE_TIMEOUT="2", METRICS_PORT=str(metrics_port))
    if database_url is not None:
        bot.env["DATABASE_URL"] = database_url
    fuzzer = Fuzzer(emulator, random.Random(seed))
    started = time.monotonic()
    try:
        await bot.start()
        await feed(emulator, fuzzer, updates, figures, rate)
        figures.feeding = time.monotonic() - started
        await drained(emulator, bot)
        # the run's own rounds end within seconds; a chat the fuzz gave long rounds (/settings)
        # or a long /match would keep the bot busy for minutes: it is stopped with them open,
        # as a restart finds them (the run took 23 s or 68 s for one seed, by that alone)
        await quiet(emulator, most=QUIET_MOST)
        last = fuzzer.groups[0]["id"]
        emulator._refusing.pop(last, None)
        before = len([s for s in emulator.sent if s.chat_id == last])
        await emulator.say(last, {"id": 4999, "is_bot": False, "first_name": "Last"}, "/help")
        figures.help_answered = await emulator.wait_for(
            lambda: any("/play" in s.text for s in emulator.sent[-50:] if s.chat_id == last)
            and len([s for s in emulator.sent if s.chat_id == last]) > before, 60)
        figures.running = bot.process is not None and bot.process.returncode is None
        if figures.running:
            figures.unanswered_past_budget = int(sum(
                value for name, value in scrape(metrics_port).items()
                if 'reason="over_budget_unanswered"' in name))
    finally:
        await bot.stop()
        await emulator.stop()
    figures.seconds = time.monotonic() - started
    answered = {a.query_id for a in emulator.callback_answers}
    figures.unanswered = len(figures.presses - answered)
    figures.delivered = len(emulator.delivered)
    figures.sent, figures.edits = len(emulator.sent), len(emulator.edits)
    figures.answers = len(emulator.callback_answers)
    log = bot.log.read_text(errors="replace")
    if keep_log is not None:
        keep_log.write_text(log)
    figures.tracebacks = log.count("Traceback (most recent call last)")
    lines = log.splitlines()
    figures.errors = sum(" ERROR " in line or " CRITICAL " in line for line in lines)
    figures.skipped_unreadable = sum("does not read" in line for line in lines)
    figures.samples = samples(lines)[:10]
    return figures


def samples(lines: list[str]) -> list[str]:
    """The log's ERROR and CRITICAL lines, and each traceback as its last frame and the error it
    ended in: what a failed run must say to be fixed without running it again."""
    found: list[str] = []
    for number, line in enumerate(lines):
        if " ERROR " in line or " CRITICAL " in line:
            found.append(line)
        elif line.startswith("Traceback"):
            rest = lines[number + 1:]
            end = next((n for n, later in enumerate(rest) if not later.startswith(" ")),
                       len(rest))
            frame = next((later.strip() for later in reversed(rest[:end])
                          if later.strip().startswith("File ")), "")
            error = rest[end] if end < len(rest) else "(the log ended)"
            found.append(f"Traceback: {frame} -> {error}")
    return found


async def drained(emulator: FuzzEmulator, bot: BotProcess, stuck: float = 30.0) -> None:
    """Until the bot has taken every update fed, it died, or it took none for `stuck` seconds:
    a bot that stopped reading ends the run at once (the figures say so), never after minutes."""
    taken, since = len(emulator.delivered), time.monotonic()
    while emulator.updates and bot.process is not None and bot.process.returncode is None:
        await emulator.wait_for(lambda: not emulator.updates, 1.0)
        if len(emulator.delivered) != taken:
            taken, since = len(emulator.delivered), time.monotonic()
        elif time.monotonic() - since > stuck:
            return


async def quiet(emulator: BotApiEmulator, still: float = 3.0, most: float = 120.0) -> None:
    """Until the bot has called nothing for `still` seconds (at most `most`)."""
    deadline = time.monotonic() + most
    count, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        if len(emulator.calls) != count:
            count, since = len(emulator.calls), time.monotonic()
        elif time.monotonic() - since > still:
            return


def table(figures: Figures, backend: str) -> str:
    rows = [
        ("backend", backend),
        ("updates fed / delivered by getUpdates",
         f"{sum(figures.fed.values())} / {figures.delivered}"),
        ("of them unreadable (PTB cannot read them)", figures.fed["unreadable"]),
        ("update kinds fed", len(figures.fed)),
        ("tracebacks in the bot's log", figures.tracebacks),
        ("ERROR / CRITICAL lines in the log", figures.errors),
        ("unreadable updates skipped by their id", figures.skipped_unreadable),
        ("button presses fed (readable)", len(figures.presses)),
        ("presses never answered", figures.unanswered),
        ("of them refused past a budget, after its notice", figures.unanswered_past_budget),
        ("messages sent / edits / press answers",
         f"{figures.sent} / {figures.edits} / {figures.answers}"),
        ("bot still running; answers /help at the end",
         f"{figures.running}; {figures.help_answered}"),
        ("seconds: feeding / in all", f"{figures.feeding:.0f} / {figures.seconds:.0f}"),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"| {'measure':<{width}} | value |", f"| {'-' * width} | --- |"]
    lines += [f"| {name:<{width}} | {value} |" for name, value in rows]
    return "\n".join(lines)


async def main(updates: int, seed: int, postgres: bool, keep_log: Path | None = None,
               rate: float = 400.0) -> tuple[Figures, str]:
    with tempfile.TemporaryDirectory() as folder:
        if not postgres:
            return await run(updates, seed, Path(folder), keep_log=keep_log, rate=rate), "SQLite"
        from bot.store.postgres import open_postgres
        from tests.postgres.server import PostgresServer, major_version

        with PostgresServer() as server:
            url = server.url()
            await (await open_postgres(url)).close()  # migrated before the bot starts
            return await run(updates, seed, Path(folder), url, keep_log, rate), \
                f"PostgreSQL {major_version(server.binaries)}"


if __name__ == "__main__":
    logging.getLogger("tornado.access").setLevel(logging.ERROR)  # the emulator's 4xx lines
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--log", type=Path, help="keep the bot's log in this file")
    parser.add_argument("--rate", type=float, default=400.0,
                        help="updates fed a second (the bot's capacity is about 1,000)")
    arguments = parser.parse_args()
    result, backend = asyncio.run(main(arguments.updates, arguments.seed, arguments.postgres,
                                       arguments.log, arguments.rate))
    print(table(result, backend))
    print("fed:", dict(sorted(result.fed.items())))
    for line in result.samples:
        print("  ", line[:300])
