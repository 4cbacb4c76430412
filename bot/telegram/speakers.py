"""Who speaks, where, and in which words: an Update turned into the game services' Chat, Player
and Asker, once, for command handlers, button presses and inline queries alike."""

from __future__ import annotations

from contextvars import ContextVar

from telegram import Message, Update

from bot.play.chats.people import Chat, Player
from bot.play.guards.permissions import AdminCheck, MemberCheck
from bot.play.ports import OwedClaim, Target
from bot.play.services import Services
from bot.play.solving.solving import Asker
from bot.runtime import arrivals
from bot.telegram import bot_api_10
from bot.telegram.context import Context
from bot.text.i18n import Texts

OWED: ContextVar[int | None] = ContextVar("owed", default=None)  # the update this task owes


def services_of(context: Context) -> Services:
    return context.bot_data.services


def claim_of(update: Update, context: Context) -> OwedClaim | None:
    """The owed claim this task holds on the update (bot.telegram.app.handle_once), if any:
    what it writes for the update it writes only while the claim is still this process's."""
    if OWED.get() != update.update_id:
        return None
    return OwedClaim(update.update_id, services_of(context).once.owner)


def settled(update: Update) -> None:
    """The task's owed claim on the update needs no settle after its handlers: what it wrote
    settled it (a round's insert), or it is another process's now."""
    if OWED.get() == update.update_id:
        OWED.set(None)


def player_of(update: Update) -> Player:
    """Who speaks, as Telegram names them. A group's anonymous admins, a channel and a linked
    channel's posts come as one account in every chat (GroupAnonymousBot, Channel_Bot,
    Telegram's own), the chat they speak for in the message's sender_chat: play needs no more
    than the account and the chat written in to count such a sender as one person a chat
    (bot.play.guards.stand_ins), so the sender_chat stays here."""
    user = update.effective_user
    assert user is not None
    return Player(user.id, user.first_name or "", user.username, user.language_code)


def chat_of(update: Update) -> Chat:
    """The chat, and the forum topic the message (or the pressed message) is in: a round
    and a match belong to the topic where they began."""
    chat = update.effective_chat
    assert chat is not None
    return Chat(chat.id, chat.type, chat.title, topic_of(update.effective_message))


def topic_of(message: object) -> int:
    """A message's forum topic (message_thread_id), or 0. Only a topic message has one that
    names a topic: in other supergroups a reply's thread id is just the first message of its
    chain of replies."""
    if isinstance(message, Message) and message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


def thread(topic: int) -> int | None:
    """The message_thread_id to send to a topic with (None: the chat itself)."""
    return topic or None


def target_of(update: Update, quote: bool = True) -> Target:
    """Where what answers this update goes: its chat's topic, replying to its message; for a
    message only the bot saw (an ephemeral command), what is for its sender goes to them
    alone, and play keeps what they wrote from the chat (`alone`)."""
    chat = chat_of(update)
    message = update.effective_message
    user = update.effective_user
    whisper = bot_api_10.whisper_of(message, user.id if user else None)
    if whisper is not None:
        return bot_api_10.WhisperTarget(chat.id, chat.topic, None, False, alone=True,
                                        whisper=whisper)
    return Target(chat.id, chat.topic, message.message_id if message else None, quote)


def waited_of(update: Update) -> float:
    """Seconds since the update's message reached the bot, or since Telegram dated it where
    it waited there longer (an edit by its edit's date): an answer is timed from then."""
    return arrivals.waited(arrivals.dated(update))


def press_target(update: Update) -> Target:
    """Where what answers a button press goes: the chat sees what all must see (a deal, a
    result, the deal rewritten); the presser's own words are the press's notice."""
    chat = chat_of(update)
    return Target(chat.id, chat.topic, public_only=True)


def asker_of(update: Update) -> Asker:
    """Whose solver time a request spends: the user's, and the chat's."""
    return player_of(update).id, chat_of(update).id


async def texts_of(update: Update, context: Context) -> Texts:
    """The messages in the language of this chat (or of this speaker)."""
    return await services_of(context).people.texts(chat_of(update), player_of(update))


def arguments(context: Context) -> str:
    return " ".join(context.args or [])


def admin_check(update: Update, context: Context, fresh: bool = False) -> AdminCheck:
    """Asks Telegram (through a short cache; `fresh`: past it, for a power that must not
    outlive a demotion by a minute) whether the speaker administers the chat. An anonymous
    admin writes as the group itself, and is one."""
    chat_id, user_id = chat_of(update).id, player_of(update).id
    message = update.effective_message
    anonymous = bool(message and message.sender_chat and message.sender_chat.id == chat_id)
    members = context.bot_data.members

    async def check() -> bool:
        return anonymous or await members.is_admin(context.bot, chat_id, user_id, fresh)

    return check


def member_check(update: Update, context: Context) -> MemberCheck:
    """Asks Telegram (through the same cache) whether whoever speaks is in a chat: a message
    sent on behalf of a chat (an anonymous admin, a channel) is in that chat, and answers for
    no other person's membership, so it counts as in every chat (refused every live puzzle)."""
    user = update.effective_user
    user_id = user.id if user is not None else 0
    message = update.effective_message
    on_behalf = message.sender_chat.id if message and message.sender_chat else None
    members = context.bot_data.members

    async def check(chat_id: int) -> bool:
        if on_behalf is not None or not user_id:
            return True
        return await members.is_member(context.bot, chat_id, user_id)

    return check
