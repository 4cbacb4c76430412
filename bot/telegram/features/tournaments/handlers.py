"""Tournaments between groups, the Telegram side: /tournament and its words (new, join, follow,
unfollow, leave, cancel, start: read by .grammar), and the links that join a group
(t.me/<bot>?startgroup=t_CODE: the group the bot is added to, or already in, gets /start
t_CODE) or follow one in a private chat (?start=f_CODE). Each handler reads its words, calls one
play method and sends what it says, with the join and follow links under a tournament still
open. Whoever steers a group's part (new, join, leave, cancel, start, follow, unfollow) must be
its admin: each hands play the admin check, which play asks only where it matters."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from bot.play.chats.people import Chat, Player
from bot.play.guards.permissions import AdminCheck
from bot.play.ports import PageLink
from bot.play.tournaments.service import Announced, Tournaments
from bot.telegram import keyboards
from bot.telegram.context import Context
from bot.telegram.features.tournaments.grammar import Asked, read_command
from bot.telegram.grammar import UsageError
from bot.telegram.replies import answer_with, link, usage
from bot.telegram.routes import Command, Feature, Link
from bot.telegram.speakers import admin_check, chat_of, player_of, services_of, texts_of
from bot.text.i18n import Texts

JOIN, FOLLOW = "t_", "f_"  # a deep link's payload: join with a group, follow in private
LINKED = "[tTfF]_"  # what starts either's payload, in any case


async def tournament(update: Update, context: Context) -> None:
    """/tournament [new …|join CODE|follow CODE|unfollow [CODE]|leave|cancel|start]: alone,
    this group's."""
    try:
        asked = read_command(list(context.args or []))
    except UsageError as error:
        await usage(update, context, "tournament_usage", error)
        return
    said = await steer(services_of(context).tournaments, asked, chat_of(update),
                       player_of(update), admin_check(update, context, fresh=True))
    await say(update, context, said)


async def steer(service: Tournaments, asked: Asked, chat: Chat, player: Player,
                is_admin: AdminCheck) -> Announced:
    """The one play method what was asked calls."""
    match asked.verb:
        case "new" if asked.request is not None:
            return await service.new(chat, player, asked.request, is_admin)
        case "join":
            return await service.join(chat, player, asked.code, is_admin)
        case "follow":
            return await service.follow(chat, player, asked.code, is_admin)
        case "unfollow":
            return await service.unfollow(chat, player, asked.code or None, is_admin)
        case "leave":
            return await service.leave(chat, player, is_admin)
        case "cancel":
            return await service.cancel(chat, player, is_admin)
        case "start":
            return await service.start_now(chat, player, is_admin)
    return await service.show(chat, player)


async def linked(update: Update, context: Context) -> None:
    """/start t_CODE in a group (its join link: an admin added the bot, or followed the link
    to a group it is in) joins it; /start f_CODE follows it (in a group, as its admin asks)."""
    payload = (context.args or [""])[0]
    service = services_of(context).tournaments
    chat, player = chat_of(update), player_of(update)
    is_admin = admin_check(update, context, fresh=True)
    if payload[:2].lower() == JOIN and chat.type != "private":
        said = await service.join(chat, player, payload[2:], is_admin)
    else:
        said = await service.follow(chat, player, payload[2:], is_admin)
    await say(update, context, said)


async def say(update: Update, context: Context, said: Announced) -> None:
    """What play said, with the join and follow links of a tournament still open, and its
    page in the Mini App (where there is one)."""
    page = None if said.tournament_id is None else \
        await services_of(context).pages.tournament_link(said.tournament_id, chat_of(update).id)
    await answer_with(update, context, said.text, quote=False,
                      keyboard=links(await texts_of(update, context), context, said.code, page))


def links(texts: Texts, context: Context, code: str | None,
          page: PageLink | None) -> InlineKeyboardMarkup | None:
    """Join with another group (Telegram asks which: the bot is added there, or told there),
    follow it in a private chat, open its page."""
    rows = []
    if code is not None:
        rows += [[InlineKeyboardButton(texts("tournament_join_button"),
                                       url=link(context, startgroup=JOIN + code))],
                 [InlineKeyboardButton(texts("tournament_follow_button"),
                                       url=link(context, start=FOLLOW + code))]]
    opening = keyboards.opening(texts("tournament_page_button"), page)
    if opening is not None:
        rows += [list(row) for row in opening.inline_keyboard]
    return InlineKeyboardMarkup(rows) if rows else None


FEATURE = Feature("tournaments", commands=(Command(("tournament",), tournament),),
                  links=(Link(LINKED, linked),))
