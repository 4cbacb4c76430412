"""What the emulator answers with and keeps: Telegram's limits and error shape, and the records of
what the bot sent, edited, answered and reacted, which tests and the demo read."""

from __future__ import annotations

from dataclasses import dataclass

from telegram.constants import ReactionEmoji

BOT_ID = 7_000_000_001
BOT_USERNAME = "twentyfour_test_bot"
BOT_NAME = "Twenty-Four"
TEXT_LIMIT = 4096
# Bot API 10.2's "Ephemeral messages and commands": any bot may answer within 15 seconds of the
# eligible action (a press, an ephemeral message); a bot that is a chat administrator at any time
EPHEMERAL_WINDOW = 15.0
INLINE_RESULTS_LIMIT = 50
CALLBACK_TEXT_LIMIT = 200
CALLBACK_DATA_LIMIT = 64  # bytes
ALLOWED_REACTIONS = frozenset(e.value for e in ReactionEmoji)  # what a bot may react with
ADMIN_RIGHTS = ("can_be_edited", "is_anonymous", "can_manage_chat", "can_delete_messages",
                "can_manage_video_chats", "can_restrict_members", "can_promote_members",
                "can_change_info", "can_invite_users", "can_post_stories", "can_edit_stories",
                "can_delete_stories")
QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = ("Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message")
# what getUpdates delivers when allowed_updates is not given or empty (Telegram's default)
DEFAULT_UPDATE_TYPES = frozenset({
    "message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
    "business_message", "edited_business_message", "deleted_business_messages", "inline_query",
    "chosen_inline_result", "callback_query", "shipping_query", "pre_checkout_query",
    "purchased_paid_media", "poll", "poll_answer", "my_chat_member", "chat_join_request",
    "chat_boost", "removed_chat_boost"})


class TelegramError(Exception):
    """An error answer: HTTP status and error_code `code`, Telegram's `description`."""

    def __init__(self, code: int, description: str, retry_after: int | None = None,
                 migrate_to: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to = migrate_to  # the supergroup a migrated group's id now names


@dataclass(frozen=True)
class Request:
    """One Bot API request as it arrived: wall-clock time (time.time(), comparable with the
    database's clock on this machine), method, and the caller's User-Agent (the bot's names
    its process: bot.telegram.metered_request)."""

    at: float
    method: str
    agent: str

    @property
    def pid(self) -> int | None:
        """The bot process that sent it, when its User-Agent says (`twentyfour/<pid>`)."""
        _, found, rest = self.agent.partition("twentyfour/")
        digits = rest.split(" ", 1)[0]
        return int(digits) if found and digits.isdigit() else None


@dataclass
class Sent:
    """A message the bot sent, as the emulator stored it (`text` is what the chat shows)."""

    chat_id: int
    message_id: int
    html: str
    text: str
    reply_to: int | None
    at: float
    parse_mode: str | None = None
    reply_markup: dict | None = None
    topic: int = 0  # the forum topic it went to (0: General, or a chat without topics)
    pid: int | None = None  # the bot process that sent it, when its User-Agent says
    receiver: int | None = None  # an ephemeral message's one receiver (None: the chat's)
    reply_to_ephemeral: int | None = None  # the ephemeral message it answers
    rich: dict | None = None  # a rich message's InputRichMessage (`text`: its blocks' text)
    method: str = "sendMessage"

    @property
    def formulas(self) -> list[str]:
        """The LaTeX of a rich message's mathematical blocks, in order."""
        return [block["expression"] for block in (self.rich or {}).get("blocks", [])
                if block.get("type") == "mathematical_expression"]


@dataclass
class Edit:
    """A text the bot replaced with editMessageText (in a chat, or of an inline message)."""

    chat_id: int | None
    message_id: int | None
    inline_message_id: str | None
    html: str
    text: str
    at: float
    parse_mode: str | None = None
    reply_markup: dict | None = None
    receiver: int | None = None  # an ephemeral message's receiver
    rich: dict | None = None  # the rich message it now shows


@dataclass
class Deletion:
    """An ephemeral message the bot deleted (deleteEphemeralMessage)."""

    chat_id: int
    message_id: int
    receiver: int
    at: float


@dataclass
class MarkupEdit:
    """Buttons the bot replaced with editMessageReplyMarkup (`reply_markup` None: removed)."""

    chat_id: int
    message_id: int
    reply_markup: dict | None
    at: float


@dataclass
class InlineAnswer:
    """What the bot answered to an inline query."""

    query_id: str
    results: list[dict]
    params: dict
    at: float


@dataclass
class CallbackAnswer:
    """What the bot answered to a button press (its toast text, if any)."""

    query_id: str
    text: str | None
    show_alert: bool
    at: float


@dataclass
class Reaction:
    """A reaction the bot set on a message (`emoji` empty: it removed its reaction)."""

    chat_id: int
    message_id: int
    emoji: str
    at: float


def busiest(times: list[float], span: float = 1.0) -> int:
    """The most of `times` in any window [t, t + span): a sliding window, not a calendar's —
    how the benches and the tests read a rate out of the calls recorded here."""
    times = sorted(times)
    most, low = 0, 0
    for high, at in enumerate(times):
        while at - times[low] >= span:
            low += 1
        most = max(most, high - low + 1)
    return most


@dataclass
class FloodLimits:
    """Telegram's limits on sending: per bot per second, per group per minute."""

    per_second: int = 30
    per_chat_minute: int = 20
