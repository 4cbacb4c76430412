"""Telegram's stand-ins for a chat: senders that write for a chat, not for a person, under one id
in every chat. Every limit or memory kept per person (the open rounds one may start, solver
time, a rare deal in the making) counts such a sender as one person per chat it writes in, never
one across chats. It holds the rule alone: no limit, no store, no words.
"""

from __future__ import annotations

# Every group's anonymous admins (GroupAnonymousBot, the message's sender_chat the group),
# whoever writes as a channel (Channel_Bot, sender_chat the channel) and a linked channel's posts
# forwarded into its discussion group (Telegram's own account). Each is counted as the chat it
# writes in, not by the sender_chat, which a stored round does not keep: a group's anonymous
# admins and whoever writes there as a channel count as one there (as strict as the chat's own
# bounds already are), and nothing any of them does in one chat counts in another.
FOR_A_CHAT = frozenset({1087968824, 136817688, 777000})


def speaks_for_a_chat(user_id: int) -> bool:
    """Whether the id is a stand-in for whatever chat it writes in, no person's."""
    return user_id in FOR_A_CHAT


def counted_as(chat_id: int | None, user_id: int) -> int:
    """Whom a limit kept per person counts the sender in this chat as: the person; a stand-in
    (FOR_A_CHAT) as the chat it writes in, by the chat's id, which is never a person's (a
    group's, a supergroup's and a channel's ids are negative, a person's positive). Counted
    as one across chats, the anonymous admins of three groups with a round open each would
    keep every other group's from /play."""
    if chat_id is not None and speaks_for_a_chat(user_id):
        return chat_id
    return user_id


assert counted_as(-1001, 1087968824) == -1001 and counted_as(-1002, 1087968824) == -1002
assert counted_as(-1001, 42) == 42 and counted_as(None, 1087968824) == 1087968824
