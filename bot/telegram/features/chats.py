"""What Telegram says of a chat itself, which nobody typed: a group became a supergroup, the bot's
own status in a chat changed (removed, banned, blocked, muted, added), someone's status in a
group changed. None is a command; each goes to play's places or to the membership cache
(bot.telegram.members).
"""

from __future__ import annotations

from telegram import ChatMember, Update
from telegram.constants import ChatType
from telegram.ext import ApplicationHandlerStop, ChatMemberHandler, MessageHandler, filters

from bot.telegram.context import Context
from bot.telegram.members import OUT_STATUSES, standing
from bot.telegram.replies import settle
from bot.telegram.routes import Feature
from bot.telegram.sending import say
from bot.telegram.speakers import chat_of, player_of, services_of


async def migrate(update: Update, context: Context) -> None:
    """A group became a supergroup: its rounds, scores, match and timers move to the new id.
    Telegram says so in the group and in the supergroup, in either order: either moves it."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id and message.chat.type == ChatType.GROUP:
        await services_of(context).places.migrate(message.chat.id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id and message.chat.type == ChatType.SUPERGROUP:
        await services_of(context).places.migrate(message.migrate_from_chat_id, message.chat.id)


def may_write(member: ChatMember) -> bool:
    """Whether the bot may post in the chat with this status (a muted member may not, nor
    one that left while restricted)."""
    if standing(member) in OUT_STATUSES:
        return False
    return member.status != ChatMember.RESTRICTED or \
        bool(getattr(member, "can_send_messages", False))


async def member_status(update: Update, context: Context) -> None:
    """The bot's own status in a chat changed (my_chat_member): what it knows of the chat's
    members follows (bot.telegram.members); removed, banned, blocked or muted, the chat's
    rounds and matches end quietly; added to a group, a short greeting."""
    changed = update.my_chat_member
    if changed is None:
        return
    chat = changed.chat
    context.bot_data.members.bot_changed(chat.id, changed.new_chat_member)
    if not may_write(changed.new_chat_member):
        await services_of(context).places.abandon(chat.id, None,
                                                  str(changed.new_chat_member.status))
        return
    if chat.type in (ChatType.GROUP, ChatType.SUPERGROUP) and \
            changed.old_chat_member.status in OUT_STATUSES:  # added (not unmuted, not promoted)
        services = services_of(context)
        await settle(context, await say(context.bot, chat.id, 0, await services.people.greeting(
            chat_of(update), player_of(update), services.rounds.reads_group_messages)))


async def member_changed(update: Update, context: Context) -> None:
    """Someone's status in a group changed (chat_member: Telegram sends it to an admin bot
    that asked for it): what the bot remembered of them is replaced, so one who left is
    refused from now on. Nothing else: no reply, and no claim (the update-once gate is after
    this), since replacing it twice is the same as once."""
    changed = update.chat_member
    if changed is not None:
        context.bot_data.members.changed(changed.chat.id, changed.new_chat_member)
    raise ApplicationHandlerStop


# before the update-once gate (group -2 in bot.telegram.app): news, neither claimed nor answered
MEMBER_CHANGES = ChatMemberHandler(member_changed, ChatMemberHandler.CHAT_MEMBER)

FEATURE = Feature("chats", updates=(
    MessageHandler(filters.UpdateType.MESSAGE & filters.StatusUpdate.MIGRATE, migrate),
    ChatMemberHandler(member_status, ChatMemberHandler.MY_CHAT_MEMBER)))
