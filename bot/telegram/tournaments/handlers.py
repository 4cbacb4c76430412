"""Tournaments between groups, the Telegram side: /tournament and its words (new, join, follow,
leave, cancel, start), and the links that join a group (t.me/<bot>?startgroup=t_CODE: the
group the bot is added to, or already in, gets /start t_CODE) or follow one in a private chat
(?start=f_CODE). Each handler reads its words, calls one play method and sends what it says,
with the join and follow links under a tournament still open."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import BaseHandler, CommandHandler, filters

from bot.play.ports import PageLink
from bot.play.tournaments.rules import TournamentRequest
from bot.play.tournaments.service import Announced
from bot.telegram import keyboards
from bot.telegram.community import link
from bot.telegram.context import Context
from bot.telegram.grammar import SHOWN_WORD, UsageError
from bot.telegram.handlers import answer_with, usage
from bot.telegram.speakers import admin_check, chat_of, player_of, services_of, texts_of
from bot.telegram.tournaments.grammar import read_tournament
from bot.text.i18n import Texts

JOIN, FOLLOW = "t_", "f_"  # a deep link's payload: join with a group, follow in private
LINKED = filters.Regex(r"^/start(@\w+)?\s+[tTfF]_")


async def tournament(update: Update, context: Context) -> None:
    """/tournament [new …|join CODE|follow CODE|leave|cancel|start]: alone, this group's."""
    words = list(context.args or [])
    asked = words[0].lower() if words else ""
    service = services_of(context).tournaments
    chat, player = chat_of(update), player_of(update)
    code = words[1] if len(words) > 1 else ""
    if asked == "new":
        request = read_or_usage(words[1:])
        if isinstance(request, UsageError):
            await usage(update, context, "tournament_usage", request)
            return
        said = await service.new(chat, player, request, admin_check(update, context, fresh=True))
    elif asked == "join" and code:
        said = await service.join(chat, player, code, admin_check(update, context, fresh=True))
    elif asked == "follow" and code:
        said = await service.follow(chat, player, code)
    elif asked == "leave":
        said = await service.leave(chat, player, admin_check(update, context, fresh=True))
    elif asked == "cancel":
        said = await service.cancel(chat, player, admin_check(update, context, fresh=True))
    elif asked == "start":
        said = await service.start_now(chat, player, admin_check(update, context, fresh=True))
    elif not asked:
        said = await service.show(chat, player)
    elif asked in ("join", "follow"):  # no code after it: say that, not "don't understand"
        await usage(update, context, "tournament_usage", UsageError("no_code", word=asked))
        return
    else:
        await usage(update, context, "tournament_usage",
                    UsageError("unknown_word", word=" ".join(words)[:SHOWN_WORD]))
        return
    await say(update, context, said)


def read_or_usage(words: list[str]) -> TournamentRequest | UsageError:
    try:
        return read_tournament(words)
    except UsageError as error:
        return error


async def linked(update: Update, context: Context) -> None:
    """/start t_CODE in a group (its join link: an admin added the bot, or followed the link
    to a group it is in) joins it; /start f_CODE follows it."""
    payload = (context.args or [""])[0]
    service = services_of(context).tournaments
    chat, player = chat_of(update), player_of(update)
    if payload[:2].lower() == JOIN and chat.type != "private":
        said = await service.join(chat, player, payload[2:],
                                  admin_check(update, context, fresh=True))
    else:
        said = await service.follow(chat, player, payload[2:])
    await say(update, context, said)


async def say(update: Update, context: Context, said: Announced) -> None:
    """What play said, with the join and follow links of a tournament still open, and its
    page in the Mini App (where there is one)."""
    page = None if said.tournament_id is None else \
        services_of(context).pages.tournament_link(said.tournament_id, chat_of(update).id)
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


# the root's table: the command, and the deep links, ahead of /start's own handler
COMMANDS = [(("tournament",), tournament)]
LINKS: list[BaseHandler] = [CommandHandler("start", linked, filters=LINKED)]
