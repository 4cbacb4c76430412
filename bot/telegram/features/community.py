"""The community's commands: a greeting, the boards, a player's own record, the daily puzzle
(and its share: an inline query, @bot daily), what the bot keeps about a person (and deleting it,
once confirmed by a press), and a group admin's reset of the board. Apart from the round's
because they answer about people, not about a puzzle."""

from __future__ import annotations

import logging
import re

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Message,
    SwitchInlineQueryChosenChat,
    Update,
    WebAppInfo,
)
from telegram.error import BadRequest, TelegramError

from bot.play.community.privacy import Asked
from bot.play.games.help import greeting
from bot.play.ports import PageLink
from bot.telegram import keyboards
from bot.telegram.context import Context
from bot.telegram.grammar import DAILY_NAMES, UsageError, read_arguments, read_board, read_daily
from bot.telegram.presses import notify
from bot.telegram.replies import answer_with, link, took_something, usage
from bot.telegram.routes import ADMINS, PRIVATE, Command, Feature, Inline, Press
from bot.telegram.speakers import (
    admin_check,
    arguments,
    chat_of,
    player_of,
    services_of,
    texts_of,
)
from bot.text import markup
from bot.text.i18n import Texts, language_of, texts_for

log = logging.getLogger(__name__)
DAILY_START = "daily"  # the deep link's payload: /start daily (or daily_<game>) in private
CONFIRM = re.compile(r"cf:([yn]):([0-9a-f]{8})")
# The inline query the daily puzzle's Share button writes ("daily", or "daily <game>" for a
# game's): answered with the person's result of the day, without a spoiler
# (bot.play.daily.Daily.shared); personal, kept by nobody.
SHARE_QUERY = "daily"
SHARE_PATTERN = re.compile(  # case aside: the pattern goes to PTB as its text
    rf"(?i)\s*{SHARE_QUERY}(?:\s+({'|'.join(map(re.escape, DAILY_NAMES))}))?\s*\Z")


def daily_payload(game: str) -> str:
    """The deep link's payload that opens a game's daily in the private chat."""
    return DAILY_START if game == DAILY_NAMES[0] else f"{DAILY_START}_{game}"


def daily_of_payload(payload: str) -> str | None:
    """The game whose daily a /start payload opens (None: it opens none)."""
    word = payload.strip().lower()
    if word == DAILY_START:
        return DAILY_NAMES[0]
    game = word.removeprefix(f"{DAILY_START}_")
    return game if word.startswith(f"{DAILY_START}_") and game in DAILY_NAMES else None


def share_query(game: str) -> str:
    """What the Share button writes for a game's daily result."""
    return SHARE_QUERY if game == DAILY_NAMES[0] else f"{SHARE_QUERY} {game}"


def add_to_group(texts: Texts, context: Context) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        texts("start_add_to_group"), url=link(context, startgroup="true"))]])


async def start(update: Update, context: Context) -> None:
    """/start: a greeting; in a private chat, the games in brief and a button that adds the bot
    to a group; /start daily (a daily puzzle's deep link: daily_<game> for a game's) shows the
    day's hand."""
    game = daily_of_payload(arguments(context))
    if game is not None and chat_of(update).type == "private":
        await answer_daily(update, context, game, "")
        return
    texts = await texts_of(update, context)
    private = chat_of(update).type == "private"
    await answer_with(update, context,
                      greeting(texts, markup.name(player_of(update).first_name)),
                      quote=False, keyboard=add_to_group(texts, context) if private else None)


async def top(update: Update, context: Context) -> None:
    """/top [week|daily] [all] [game]: a leaderboard of this chat or of every
    chat, all time or the last 7 days; /top daily: today's daily puzzle across every chat. In
    a group, the link that opens the group's page in the Mini App, when there is one."""
    wanted = read_arguments(read_board, arguments(context))
    if isinstance(wanted, UsageError):
        await usage(update, context, "top_usage", wanted)
        return
    community = services_of(context).community
    if wanted.period == "daily":
        text = await community.daily.board(chat_of(update), player_of(update), wanted.game)
    else:
        text = await community.standings.board(chat_of(update), player_of(update), wanted)
    link = services_of(context).pages.group_link(chat_of(update).id)
    await answer_with(update, context, text, quote=False, keyboard=keyboards.opening(
        (await texts_of(update, context))("webapp_group_button"), link))


async def stats(update: Update, context: Context) -> None:
    """/stats: your points, wins, rounds, fastest win and streaks in this chat, per game; and
    the button (a link in a group) that opens your page in the Mini App, when there is one."""
    if await took_something(update, context, "stats"):
        return
    services, chat, player = services_of(context), chat_of(update), player_of(update)
    link = services.pages.player_link(chat.id, player.id)
    await answer_with(update, context, await services.community.standings.stats(chat, player),
                      keyboard=keyboards.opening(
                          (await texts_of(update, context))("webapp_player_button"), link))


async def daily(update: Update, context: Context) -> None:
    """/daily [game]: today's hand for everyone; /daily [game] <expression> answers it in a
    private chat."""
    wanted = read_arguments(read_daily, arguments(context))
    if isinstance(wanted, UsageError):
        await usage(update, context, "daily_usage", wanted)
        return
    await answer_daily(update, context, *wanted)


async def answer_daily(update: Update, context: Context, game: str, expression: str) -> None:
    """A game's day's hand (no expression), or the verdict on an answer to it."""
    service = services_of(context).community.daily
    chat, player = chat_of(update), player_of(update)
    said = await (service.answer(chat, player, expression, game) if expression.strip()
                  else service.show(chat, player, game))
    texts = await texts_of(update, context)
    card = services_of(context).pages.daily_card_link(chat.id, player.id)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton(
        texts("daily_go_private"), url=link(context, start=daily_payload(game)))]]) \
        if said.go_private else share_button(texts, card, game) if said.share else None
    if said.withdraw:  # an answer typed in a group: take it down where the bot may
        await withdraw(update.effective_message)
    await answer_with(update, context, said.text, quote=not said.withdraw,
                      keyboard=keyboard)


def share_button(texts: Texts, card: PageLink | None = None,
                 game: str = DAILY_NAMES[0]) -> InlineKeyboardMarkup:
    """Share: the person picks a chat, and the bot's inline answer there is their result of the
    day as one line, without a spoiler (`share_daily`, below); and, with the Mini App, the
    result as a picture: their page, opened on its card (tiles face down while the day lasts)."""
    rows = [[InlineKeyboardButton(
        texts("daily_share_button"), switch_inline_query_chosen_chat=SwitchInlineQueryChosenChat(
            share_query(game), allow_user_chats=True, allow_bot_chats=False, allow_group_chats=True,
            allow_channel_chats=True))]]
    if card is not None and card.web_app:  # a private chat's: the page inside Telegram
        rows.append([InlineKeyboardButton(texts("daily_card_button"),
                                          web_app=WebAppInfo(card.url))])
    return InlineKeyboardMarkup(rows)


async def withdraw(message: Message | None) -> None:
    if message is None:
        return
    try:
        await message.delete()
    except TelegramError as error:  # not an admin there: the reply asks to answer privately
        log.info("could not take down an answer to the daily puzzle: %s", error)


async def privacy(update: Update, context: Context) -> None:
    """/privacy: what the bot keeps about you, why, and how to delete it."""
    if await took_something(update, context, "privacy"):
        return
    await answer_with(update, context, await services_of(context).community.privacy.text(
        chat_of(update), player_of(update)))


async def forget(update: Update, context: Context) -> None:
    """/forget (private chat): delete everything the bot keeps about you, once confirmed."""
    if await took_something(update, context, "forget"):
        return
    asked = await services_of(context).community.privacy.ask_forget(chat_of(update),
                                                                    player_of(update))
    await ask(update, context, asked)


async def resetscores(update: Update, context: Context) -> None:
    """/resetscores (a group's admins): delete this chat's scores, once confirmed."""
    if await took_something(update, context, "resetscores"):
        return
    asked = await services_of(context).community.privacy.ask_reset(
        chat_of(update), player_of(update), admin_check(update, context))
    await ask(update, context, asked)


async def ask(update: Update, context: Context, asked: Asked | str) -> None:
    if isinstance(asked, str):
        await answer_with(update, context, asked)
        return
    texts = await texts_of(update, context)
    await answer_with(update, context, asked.text, keyboard=InlineKeyboardMarkup([[
        InlineKeyboardButton(texts("privacy_confirm"), callback_data=f"cf:y:{asked.token}"),
        InlineKeyboardButton(texts("privacy_cancel"), callback_data=f"cf:n:{asked.token}")]]))


async def confirm(update: Update, context: Context) -> None:
    """A press of a confirmation's Confirm or Cancel (only the asker's counts, in time). Only
    the question that carries the very button pressed may change: a client can send any data
    on any message (a live deal, a result, a panel), and such a press edits nothing. A reset
    is confirmed only by an admin Telegram still names one at the press (not a cached answer:
    an admin demoted after asking can't confirm)."""
    query = update.callback_query
    assert query is not None
    found = CONFIRM.fullmatch(query.data or "")
    message = query.message
    if found is None or not isinstance(message, Message) \
            or not keyboards.carries(message.reply_markup, query.data):
        await notify(query, texts_for(language_of(query.from_user.language_code))(
            "button_unknown"))
        return
    pressed = await services_of(context).community.privacy.press(
        found.group(2), found.group(1) == "y", chat_of(update), player_of(update),
        admin_check(update, context, fresh=True))
    await notify(query, pressed.notice)
    if pressed.text is not None:
        try:
            await query.edit_message_text(pressed.text, reply_markup=None)
        except TelegramError as error:
            log.info("could not close a confirmation: %s", error)


async def share_daily(update: Update, context: Context) -> None:
    """'@bot daily [game]' (a daily puzzle's Share button): the person's result of the day in
    that game's daily as one line to post, no answer in it; nothing when they have not solved
    it today."""
    query = update.inline_query
    assert query is not None
    texts = texts_for(language_of(query.from_user.language_code))
    asked = SHARE_PATTERN.match(query.query)
    game = asked.group(1).lower() if asked is not None and asked.group(1) else None
    line = await services_of(context).community.daily.shared(player_of(update), game)
    results = [] if line is None else [InlineQueryResultArticle(
        SHARE_QUERY, texts("daily_share_button"), InputTextMessageContent(line),
        description=line)]
    try:
        await query.answer(results, cache_time=0, is_personal=True)
    except BadRequest as error:
        log.info("could not answer an inline query: %s", error)


ONLY_PRIVATE = frozenset({PRIVATE})
FEATURE = Feature(
    "community",
    commands=(Command(("start",), start, offered=ONLY_PRIVATE),
              Command(("daily",), daily),
              Command(("top",), top, owed=True),
              Command(("stats",), stats, owed=True, alone=True),
              Command(("privacy",), privacy, owed=True, alone=True),
              Command(("forget",), forget, offered=ONLY_PRIVATE),
              Command(("resetscores",), resetscores, offered=frozenset({ADMINS}))),
    inline=(Inline(share_daily, SHARE_PATTERN.pattern),),
    presses=(Press("cf:", confirm),))
