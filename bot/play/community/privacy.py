"""What a person may see and delete of what the bot keeps (/privacy, /forget), and a group
admin's reset of the chat's board (/resetscores). Both deletions wait for a press of the asker's
own confirmation button, which lapses after CONFIRM_SECONDS; the pending confirmations live in
memory only (a restart lets them lapse: nothing is deleted unasked). A press by anyone else, or
naming the token in another chat, leaves the asker's question pending; a reset is confirmed
only by someone who still administers the group at the press (Telegram asked again then)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from bot.play.chats.people import Chat, People, Player
from bot.play.guards.permissions import AdminCheck
from bot.store.score_store import ForgetStore
from bot.text import markup

CONFIRM_SECONDS = 60.0
FORGET, RESET = "forget", "reset"


@dataclass(frozen=True)
class Pending:
    kind: str  # FORGET | RESET
    chat_id: int
    user_id: int
    name: str
    until: float


@dataclass(frozen=True)
class Asked:
    """A question with confirm and cancel buttons carrying `token`."""

    text: str
    token: str


@dataclass(frozen=True)
class Pressed:
    """What a press on a confirmation does: `text` replaces the question (its buttons gone),
    or, with `notice` only, the question stays and the presser alone is told why."""

    text: str | None
    notice: str


class Privacy:
    def __init__(self, store: ForgetStore, people: People, clock: Callable[[], float]) -> None:
        self.store = store
        self.people = people
        self.clock = clock
        self._pending: dict[str, Pending] = {}

    def text(self, chat: Chat, player: Player) -> str:
        """/privacy: what is kept, why, and how to delete it."""
        return self.people.texts(chat, player)("privacy_text")

    def ask_forget(self, chat: Chat, player: Player) -> Asked | str:
        """/forget: in a private chat, the question; elsewhere, where to ask it."""
        texts = self.people.texts(chat, player)
        if chat.type != "private":
            return texts("forget_private_only")
        return Asked(texts("forget_ask", seconds=round(CONFIRM_SECONDS)),
                     self._ask(FORGET, chat, player))

    async def ask_reset(self, chat: Chat, player: Player, is_admin: AdminCheck) -> Asked | str:
        """/resetscores: in a group, for its admins, the question."""
        texts = self.people.texts(chat, player)
        if chat.type == "private":
            return texts("reset_group_only")
        if not await is_admin():
            return texts("reset_admins_only")
        return Asked(texts("reset_ask", name=markup.name(player.first_name),
                           seconds=round(CONFIRM_SECONDS)), self._ask(RESET, chat, player))

    async def press(self, token: str, confirm: bool, chat: Chat, player: Player,
                    is_admin: AdminCheck) -> Pressed:
        """A press of Confirm or Cancel on the question that carries `token`: only the asker's
        counts, only in time, and a reset only while the asker still administers the group
        (`is_admin` must ask Telegram now, not a minute-old answer). Nobody else's press, and
        no press in another chat, drops the asker's question: only its lapse does."""
        texts = self.people.texts(chat, player)
        self._drop_lapsed(self.clock())
        pending = self._pending.get(token)
        if pending is None:  # lapsed, or asked before a restart: it can't be answered now
            return Pressed(texts("privacy_confirm_expired"),
                           texts("privacy_confirm_expired_notice"))
        if pending.chat_id != chat.id:  # the token of a question asked elsewhere
            return Pressed(None, texts("button_unknown"))
        if pending.user_id != player.id:
            return Pressed(None, texts("privacy_confirm_not_yours", name=pending.name))
        if not confirm:
            del self._pending[token]
            return Pressed(texts("privacy_confirm_cancelled"), texts("privacy_confirm_cancelled"))
        if pending.kind == RESET and not await is_admin():  # demoted since asking
            return Pressed(None, texts("reset_admins_only"))
        if self._pending.pop(token, None) is None:  # a second press, while the first asked
            return Pressed(None, texts("privacy_confirm_expired_notice"))
        if pending.kind == FORGET:
            await self.store.forget_user(player.id)
            self.people.forget(player.id)
            return Pressed(texts("forget_done"), texts("forget_done_notice"))
        await self.store.reset_chat(chat.id)
        return Pressed(texts("reset_done", name=markup.name(player.first_name)),
                       texts("reset_done_notice"))

    def _ask(self, kind: str, chat: Chat, player: Player) -> str:
        now = self.clock()
        self._drop_lapsed(now)
        token = secrets.token_hex(4)
        self._pending[token] = Pending(kind, chat.id, player.id,
                                       markup.name(player.first_name), now + CONFIRM_SECONDS)
        return token

    def _drop_lapsed(self, now: float) -> None:
        for token in [t for t, p in self._pending.items() if p.until < now]:
            del self._pending[token]
