"""The command menus set at start-up, one per scope (private chats, groups, group admins) and
language, each with its own commands; and a private /start with an "Add to group" button."""

from __future__ import annotations

import json

from bot.telegram.app import COMMANDS
from bot.telegram.menus import GROUPS, PRIVATE, menu_languages, offered
from bot.telegram.routes import Command
from tests.bot.conftest import Harness

ANN = {"id": 291, "is_bot": False, "first_name": "Ann"}


def menus(h: Harness) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(scope type, language) -> [(command, description)] as the bot set them."""
    found = {}
    for method, params, _ in h.telegram.calls:
        if method == "setMyCommands":
            scope = params.get("scope")
            scope = json.loads(scope) if isinstance(scope, str) else scope or {"type": "default"}
            commands = params["commands"]
            commands = json.loads(commands) if isinstance(commands, str) else commands
            found[(scope["type"], params.get("language_code") or "en")] = \
                [(c["command"], c["description"]) for c in commands]
    return found


async def test_each_scope_has_its_own_menu_in_every_language(harness: Harness):
    """Four scopes in each of Telegram's language codes: English the default, zh (Simplified:
    Telegram keys menus by two letters, so Traditional Chinese apps show it too), ru, es, pt and
    the ten more."""
    set_ = menus(harness)
    codes = ("en", "zh", "ru", "es", "pt", "de", "fr", "it", "tr", "id", "uk", "uz", "hi", "ar",
             "fa")
    assert set(set_) == {(scope, language) for scope in
                         ("default", "all_private_chats", "all_group_chats",
                          "all_chat_administrators") for language in codes}
    assert all(len(code) == 2 for _, code in set_)  # ISO 639-1, as Telegram takes it
    names = {key: [name for name, _ in commands] for key, commands in set_.items()}
    private, groups = names[("all_private_chats", "en")], names[("all_group_chats", "en")]
    admins = names[("all_chat_administrators", "en")]
    assert {"start", "forget", "privacy", "daily", "play"} <= set(private)
    assert "match" not in private and "resetscores" not in private
    assert {"play", "daily", "top", "match"} <= set(groups)
    assert not {"start", "forget", "resetscores"} & set(groups)
    assert set(groups) < set(admins) and "resetscores" in admins
    assert names[("default", "en")] == private
    for scope in ("all_private_chats", "all_group_chats", "all_chat_administrators"):
        for code in codes:
            assert names[(scope, code)] == names[(scope, "en")]
    assert dict(set_[("all_group_chats", "zh")])["daily"] == "每日谜题，人人相同"
    assert dict(set_[("all_group_chats", "ru")])["daily"] == "Задача дня, одна на всех"
    assert dict(set_[("all_private_chats", "pt")])["play"] == "Quatro números: chegue a 24"
    every = {command.names[0] for command in COMMANDS}
    assert every == set(private) | set(admins)  # every command is offered somewhere


async def test_the_descriptions_are_set_in_every_language(harness: Harness):
    assert set(harness.telegram.descriptions) == set(harness.telegram.short_descriptions) == \
        {"", "zh", "ru", "es", "pt", "de", "fr", "it", "tr", "id", "uk", "uz", "hi", "ar", "fa"}
    assert harness.telegram.descriptions[""].startswith("Number puzzles for your group")
    assert "Cifras y letras" in harness.telegram.descriptions["es"]
    assert harness.telegram.short_descriptions["zh"].startswith("24 点")
    assert menu_languages() == {None: "en", "zh": "zh", "ru": "ru", "es": "es", "pt": "pt-BR",
                                **{tag: tag for tag in ("de", "fr", "it", "tr", "id", "uk",
                                                        "uz", "hi", "ar", "fa")}}


async def ignored(_update: object, _context: object) -> None:
    """A handler the menus never call."""


def test_a_command_offered_nowhere_in_particular_is_offered_everywhere():
    commands = [Command(("play",), ignored), Command(("brand_new",), ignored),
                Command(("forget",), ignored, offered=frozenset({PRIVATE}))]
    assert offered(GROUPS, commands) == ["play", "brand_new"]
    assert offered(PRIVATE, commands) == ["play", "brand_new", "forget"]


async def test_a_private_start_offers_to_add_the_bot_to_a_group(harness: Harness):
    await harness.send(ANN["id"], ANN, "/start", kind="private")
    sent = await harness.telegram.reply(ANN["id"])
    [[button]] = sent.reply_markup["inline_keyboard"]
    assert button["url"] == f"https://t.me/{harness.app.bot.username}?startgroup=true"
    assert button["text"] == "➕ Add me to a group"
    assert "/daily" in sent.text and "/play" in sent.text
    await harness.send(-2604, ANN, "/start")
    assert (await harness.telegram.reply(-2604)).reply_markup is None
    zh = {**ANN, "language_code": "zh"}
    await harness.send(ANN["id"], zh, "/start", kind="private")
    sent = await harness.telegram.reply(ANN["id"])
    assert sent.reply_markup["inline_keyboard"][0][0]["text"] == "➕ 把我加到群里"
