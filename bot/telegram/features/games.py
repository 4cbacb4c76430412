"""The games: each registered game's command (bot.play.games: /play, and one a game) deals a round
of it, or, given a puzzle of it, solves that; /solve works out a hand's solutions, an inline query
(@bot 3 8 3 8 in any chat) offers them to share, and ◀ ▶ under a page of solutions turn it. Each
handler reads its arguments (the game's reader, or bot.telegram.grammar), calls one play method
and sends what it says; the rules live in play, and no game is named here.
"""

from __future__ import annotations

import logging

from telegram import InlineQueryResultArticle, InputTextMessageContent, Update
from telegram.error import BadRequest

from bot.play.games import GAMES, Game
from bot.play.outcomes import Said
from bot.play.solving.paging import Page
from bot.telegram import keyboards
from bot.telegram.context import Context
from bot.telegram.grammar import (
    DealRequest,
    DiceRequest,
    SolveRequest,
    UsageError,
    read_arguments,
    read_solve,
    usage_problem,
)
from bot.telegram.keyboards import PAGE, PagePress
from bot.telegram.presses import edit_pressed, notify, pressed
from bot.telegram.replies import answer_with, rich_page, usage
from bot.telegram.routes import Command, Feature, Inline, Press
from bot.telegram.speakers import (
    arguments,
    asker_of,
    chat_of,
    claim_of,
    member_check,
    player_of,
    services_of,
    settled,
    target_of,
    texts_of,
)
from bot.text.i18n import Texts, language_of, texts_for

log = logging.getLogger(__name__)
INLINE_CACHE_SECONDS = 3600


def game_command(game: Game) -> Command:
    """The command of one game: a round of it, or the puzzle of it given after the command
    solved by its rules (every solution, the nearest value, or dice scored), or what is wrong
    with the arguments."""

    async def command(update: Update, context: Context) -> None:
        """The game's command, as its reader takes what follows it."""
        request = read_arguments(game.read, arguments(context))
        if isinstance(request, UsageError):
            await usage(update, context, game.usage.key, request)
        elif isinstance(request, DealRequest):
            await deal(update, context, request)
        else:
            await solved(update, context, game, request)

    return Command((game.command,), command, owed=True)


async def solved(update: Update, context: Context, game: Game,
                 request: SolveRequest | DiceRequest) -> None:
    """A puzzle given after a game's command: every solution, a page at a time, or what the
    game's own way of solving it finds."""
    solving, texts = services_of(context).solving, await texts_of(update, context)
    member, asker = member_check(update, context), asker_of(update)
    if isinstance(request, SolveRequest) and not request.closest:
        await send_page(update, context, await solving.solve_page(request, texts, asker,
                                                                  member=member))
    else:
        await answer_with(update, context, await solving.given(game, request, texts, asker,
                                                               member))


async def deal(update: Update, context: Context, request: DealRequest) -> None:
    claim = claim_of(update, context)
    outcome = await services_of(context).rounds.play(chat_of(update), player_of(update),
                                                     request.game, request.options,
                                                     target_of(update), claim)
    if claim is not None and not isinstance(outcome, Said):
        settled(update)  # by the round's insert (or the claim is another's): no settle after


async def solve(update: Update, context: Context) -> None:
    """/solve a b c d [= target] [--closest]: every distinct solution (or the closest value)."""
    request = read_arguments(read_solve, arguments(context))
    if isinstance(request, UsageError):
        await usage(update, context, "solve_usage", request)
        return
    await send_page(update, context, await services_of(context).solving.solve_page(
        request, await texts_of(update, context), asker_of(update),
        member=member_check(update, context)))


async def send_page(update: Update, context: Context, shown: Page | str) -> None:
    """A first page of solutions, with ◀ ▶ when there are more (or the text that stands in):
    as mathematics where Telegram takes a rich message, else as text."""
    if isinstance(shown, str):
        await answer_with(update, context, shown)
    else:
        await answer_with(update, context, shown.text, keyboard=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages), rich=rich_page(shown))


async def inline_query(update: Update, context: Context) -> None:
    """'@bot 3 8 3 8' in any chat: the solutions, to share one."""
    query = update.inline_query
    assert query is not None
    texts = texts_for(language_of(query.from_user.language_code))
    found = await services_of(context).solving.inline(
        inline_request(query.query, texts), texts, context.bot.username,
        (query.from_user.id, None), member_check(update, context))
    results = [InlineQueryResultArticle(a.id, a.title, InputTextMessageContent(a.message),
                                        description=a.description or None)
               for a in found.answers]
    # Telegram serves a kept answer to everyone without asking the bot: only for a request no
    # round the bot can deal is reached by, or it would hand out a live round's solutions; the
    # rest is kept for nobody, not even the asker (whose chats' rounds change)
    try:
        await query.answer(results, cache_time=INLINE_CACHE_SECONDS if found.cacheable else 0,
                           is_personal=not found.cacheable)
    except BadRequest as error:  # answered too late (Telegram waits about 10 s): nobody waits
        log.info("could not answer an inline query: %s", error)


def inline_request(query: str, texts: Texts) -> SolveRequest | str | None:
    """What an inline query asks: a request, what is wrong with it (in words), or None when
    there is nothing to read (the usage is shown)."""
    request = read_arguments(read_solve, query)
    if not isinstance(request, UsageError):
        return request
    return usage_problem(texts, request) if query.strip() and request.code else None


async def turn_page(update: Update, context: Context) -> None:
    """◀ or ▶ under /solve: the message shows another page of the same solutions (unless the
    hand is being played right now). Only a message that shows pages of that hand turns."""
    found = await pressed(update, context, PagePress)
    if found is None:
        return
    query, message, press = found
    services, texts = services_of(context), await texts_of(update, context)
    if not keyboards.shows(message.reply_markup, press):
        await notify(query, texts("button_unknown"))
        return
    member = member_check(update, context)
    if (refused := await services.solving.refusal(press.request, texts, member)) is not None:
        await notify(query, refused, context.bot_data.refusals)
        return
    await notify(query)
    shown = await services.solving.solve_page(press.request, texts, asker_of(update),
                                              press.page, member)
    if isinstance(shown, str):  # busy or too slow now: said in the chat
        await answer_with(update, context, shown)
        return
    await edit_pressed(context, query, shown.text, keyboards.page_keyboard(
        shown.numbers, shown.target, shown.index, shown.pages), rich_page(shown))


FEATURE = Feature(
    "games",
    commands=(*(game_command(game) for game in GAMES.values()),
              Command(("solve",), solve, owed=True, alone=True)),
    inline=(Inline(inline_query),),  # every inline query another feature does not take
    presses=(Press(f"{PAGE}:", turn_page),))
