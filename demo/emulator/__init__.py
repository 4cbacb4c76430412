"""A local Telegram Bot API emulator: real HTTP on 127.0.0.1, Telegram's wire format, no network.

The demo (`python -m bot --demo`) runs the real bot against it, and the tests do too. Requests are
POST or GET /bot<token>/<method>, form-encoded, multipart or JSON (python-telegram-bot sends form
fields, JSON for objects); answers are {"ok": true, "result": ...} or Telegram's error shape. It
checks what Telegram checks for the methods the bot uses (HTML entities, 4096 characters, empty
text, inline results), serves getUpdates long polling with offsets and allowed_updates, can enforce
Telegram's flood limits (429 with retry_after), answers getChatMember (everyone is a member unless
its owner made them an admin with `promote`, or had them `leave`; `member_changes` changes a
status and tells an admin bot in a chat_member update), takes reactions
(setMessageReaction, with Telegram's list of emoji; a chat in `no_reactions` refuses them), has the
bot's privacy mode (`privacy_mode`: getMe says so, and a group's plain messages that are neither
replies to the bot nor mention it are not delivered), has forum topics (`topic` opens one in a
supergroup; a message in it carries its message_thread_id, and, as Telegram does, replies to the
topic's opening message; the bot's messages go to the topic it names, or the topic of the message
it replies to, else to General; an unknown topic is refused), has the bot's own membership
(`remove_bot`: kicked, removed or blocked, then a my_chat_member update and Telegram's 403 for what
the bot sends there; `add_bot`; a group `migrate`d to a supergroup answers a send to its old id
with 400 and migrate_to_chat_id), and lets its owner inject users' messages, inline queries and
button presses, then read or await what the bot sent. It speaks Bot API 10.3: command lists by
scope, where a command declared ephemeral (`is_ephemeral`) makes a user's message seen by the bot
alone; ephemeral messages to one receiver (answering a press or an ephemeral message of the last
15 seconds, or from an admin bot), edited and deleted with their own methods, pressed only by
their receiver (`seen_by` says what a user sees); rich messages with mathematical blocks; and,
with `refuse_ephemeral` and `refuse_rich`, a Telegram that refuses both. It keeps everything in
memory.

One module per side: `records` (limits and what is kept), `state` (the memory both sides share),
`bot_api` (the methods the bot calls), `bot_api_10` (what 10.1 to 10.3 added), `wire` (HTTP and
Telegram's checks on what is sent), `owner` (`BotApiEmulator`: what a test or the demo does).
"""

from demo.emulator.owner import BotApiEmulator
from demo.emulator.records import (
    BOT_ID,
    BOT_NAME,
    BOT_USERNAME,
    CallbackAnswer,
    Deletion,
    Edit,
    FloodLimits,
    InlineAnswer,
    MarkupEdit,
    Reaction,
    Request,
    Sent,
    TelegramError,
)

__all__ = ["BOT_ID", "BOT_NAME", "BOT_USERNAME", "BotApiEmulator", "CallbackAnswer", "Deletion",
           "Edit",
           "FloodLimits", "InlineAnswer", "MarkupEdit", "Reaction", "Request", "Sent",
           "TelegramError"]
