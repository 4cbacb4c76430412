"""The face's own replies, which every feature's handlers share (bot.telegram.features): an answer
to whoever asked (to them alone where they wrote to the bot alone), a command's usage, a deep
link to the bot, a page of solutions as a rich message. They sit below the features, and a
feature never imports another for them.
"""

from __future__ import annotations

from telegram import InlineKeyboardMarkup, Update

from bot.play.asking.usage import read_arguments, read_nothing
from bot.play.solving.paging import Page
from bot.telegram.bot_api_10 import Rich
from bot.telegram.context import Context
from bot.telegram.delivery import Sent
from bot.telegram.grammar import UsageError
from bot.telegram.refusals import refusal
from bot.telegram.sending import reply
from bot.telegram.speakers import arguments, services_of, texts_of
from bot.text.html_text import EntityError, visible_text


async def answer_with(update: Update, context: Context, text: str, quote: bool = True,
                      keyboard: InlineKeyboardMarkup | None = None,
                      rich: Rich | None = None) -> bool:
    """The face's own reply (what no service publishes): to the asker alone where they wrote
    to the bot alone, as mathematics where `rich` and Telegram takes it; what it found of the
    chat goes to play, the one place that acts on it. Whether it was sent (a reply in parts
    sends no more once one was not)."""
    sent = await reply(update, text, quote, keyboard, context.bot_data.refusals, rich)
    await settle(context, sent)
    return sent.value is not None


async def settle(context: Context, sent: Sent) -> None:
    """What a send found of its chat (moved, gone) handed to play's places."""
    if sent.fate is not None:
        await services_of(context).places.settle(sent.fate)


async def usage(update: Update, context: Context, key: str, error: UsageError) -> None:
    """What was wrong with a command's arguments, what it takes, and an example that works."""
    await answer_with(update, context, refusal(await texts_of(update, context), key, error,
                                               arguments(context)))


async def took_something(update: Update, context: Context, command: str) -> bool:
    """Whether a command that takes nothing (bot.telegram.refusals.ALONE) was given something
    after it: then refused in the shape of every refusal, and True (the handler does nothing
    more)."""
    extra = read_arguments(read_nothing, arguments(context))
    if isinstance(extra, UsageError):
        await usage(update, context, f"{command}_alone", extra)
        return True
    return False


def link(context: Context, **query: str) -> str:
    """A deep link to the bot: https://t.me/<bot>?start=daily, ?startgroup=true."""
    asked = "&".join(f"{key}={value}" for key, value in query.items())
    return f"https://t.me/{context.bot.username}?{asked}"


def rich_page(shown: Page, head: str | None = None) -> Rich:
    """A page of solutions as a rich message: its first line (after `head`, a result's), each
    solution a mathematical block, and how many more there are."""
    return Rich.of([visible(head or ""), visible(shown.head)], shown.formulas,
                   [visible(shown.tail)])


def visible(html: str) -> str:
    """Our HTML as the plain text a rich message's paragraph holds."""
    try:
        return visible_text(html)
    except EntityError:
        return html
