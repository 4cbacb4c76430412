"""A chat's own settings: /settings (a group's, one message with buttons, for its admins; in a
private chat, the person's language), a press of its panel, and /lang. A press of the panel
changes one setting and the panel says so in place; a press naming another chat, a value no
button offers, or pressed by someone not an admin is refused with a notice. Answers unseen
(`unseen`) change the group's own command menus too (bot.telegram.menus).
"""

from __future__ import annotations

from telegram import Update

from bot.play.chats.settings import Panel
from bot.play.outcomes import Refused
from bot.telegram import keyboards
from bot.telegram.context import Context
from bot.telegram.keyboards import SETTING, SettingPress
from bot.telegram.menus import UNSEEN
from bot.telegram.presses import edit_pressed, notify, pressed
from bot.telegram.replies import answer_with, took_something
from bot.telegram.routes import ADMINS, PRIVATE, Command, Feature, Press
from bot.telegram.speakers import admin_check, arguments, chat_of, player_of, services_of, texts_of


async def settings(update: Update, context: Context) -> None:
    """/settings: a group's own settings, one message with buttons (its admins); in a private
    chat, the person's language."""
    if await took_something(update, context, "settings"):
        return
    shown = await services_of(context).settings.show(chat_of(update), player_of(update),
                                                     admin_check(update, context))
    if isinstance(shown, Panel):
        await answer_with(update, context, shown.text, quote=False,
                          keyboard=keyboards.settings_keyboard(shown))
    else:
        await answer_with(update, context, shown.text)


async def lang(update: Update, context: Context) -> None:
    """/lang en|zh: the chat's language."""
    await answer_with(update, context, await services_of(context).people.set_language(
        chat_of(update), player_of(update), arguments(context), admin_check(update, context)))


async def change_setting(update: Update, context: Context) -> None:
    """A press of the /settings panel: the setting changed, and the panel, edited in place,
    says so. Only a button the pressed message shows counts (else the press was forged)."""
    found = await pressed(update, context, SettingPress)
    if found is None:
        return
    query, message, press = found
    services = services_of(context)
    if not keyboards.carries(message.reply_markup, query.data):
        await notify(query, (await texts_of(update, context))("button_unknown"))
        return
    panel = await services.settings.change(chat_of(update), player_of(update),
                                           admin_check(update, context), press.chat_id,
                                           press.key, press.value)
    if isinstance(panel, Refused):
        await notify(query, panel.text)
        return
    await notify(query, (await texts_of(update, context))("settings_saved"))
    await edit_pressed(context, query, panel.text, keyboards.settings_keyboard(panel))
    if press.key == UNSEEN:  # /a is declared seen by the bot alone there, or no more
        await context.bot_data.menus.set_chat(
            context.bot, press.chat_id, (await services.settings.of(press.chat_id)).unseen)


FEATURE = Feature(
    "settings",
    commands=(Command(("lang",), lang, alone=True),
              Command(("settings",), settings, alone=True, offered=frozenset({PRIVATE, ADMINS}))),
    presses=(Press(f"{SETTING}:", change_setting),))
