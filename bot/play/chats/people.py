"""Who plays and where: the chats and players the services are told about, their names, and the
language each chat speaks (its /lang choice, else the speaker's Telegram language).

Chats' languages and the names already stored are kept in memory as well (this process is the
database's only writer), so a reply costs no read. The names are a bounded cache (KEPT chats and
KEPT players, LRU: one seen again after it went is written again, an UPSERT). Where other
processes write names too (a cluster's workers, each seeing some of a person's chats), a
remembered name may have been overwritten meanwhile — a name changed on one worker and changed
back on another — so each is remembered for SHARED_NAMES_SECONDS only: a stale name is stored
again by the person's next message after that. The language each chat chose (or that it chose
none) is a bounded cache too (CHOICES_KEPT chats, LRU): a chat gone from it is read from the
store again when its words are next asked for, so the words a reader gets are always the chat's
choice (the readers are asynchronous for that).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass

from bot.play.guards.permissions import AdminCheck, may_steer
from bot.runtime.lru import LRU
from bot.runtime.timed import Timed
from bot.runtime.together import together
from bot.store.protocols import PeopleStore
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts, language_of, parse_language, texts_for

# Under half an hour of a busy bot's chats and players (bench/bench_soak.py: 2,300 chats an hour),
# the time a conversation lasts: at 5,000 each map kept filling for four hours, and at 2,500 for
# two, a day's memory growth; one seen again after it went costs one UPSERT (or one read)
KEPT = 1_000  # chats, and players, whose stored names are remembered
CHOICES_KEPT = 1_000  # chats whose language choice (or lack of one) is remembered
SHARED_NAMES_SECONDS = 60.0  # how long a name is trusted as stored where others write names too
Names = tuple[str, str | None]  # a chat's kind and title, or a player's first name and username


@dataclass(frozen=True)
class Chat:
    """Where a message came from: the chat, and in a forum the topic (message_thread_id) it
    was written in (0: no topic). Rounds and matches belong to a topic; scores and languages
    to the chat."""

    id: int
    type: str = "group"
    title: str | None = None
    topic: int = 0


@dataclass(frozen=True)
class Player:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None


class People:
    """Chats and players in many chats. One instance for the whole bot, built at start-up."""

    def __init__(self, store: PeopleStore, shared: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """`shared`: other processes write names to the same database."""
        self.store = store
        # chat -> its /lang choice (None: it chose none); the least lately asked go first
        self._languages: LRU[int, str | None] = LRU(CHOICES_KEPT)
        self._changes = 0  # choices changed or moved: a read begun before is not remembered
        self._chats: MutableMapping[int, Names] = _names(shared, clock)  # chat -> kind, title
        self._users: MutableMapping[int, Names] = _names(shared, clock)  # player -> names
        # players whose row is being stored: in flight only, gone once it is written
        self._storing: dict[int, asyncio.Event] = {}

    async def load(self) -> None:
        """Finish the moves to a supergroup a kill interrupted (before anything reads a chat's
        rounds or settings), and forget the choices remembered (the store may have moved or
        changed them: another process played those chats meanwhile)."""
        for old_id, new_id in await self.store.unfinished_moves():
            await self.store.migrate_chat(old_id, new_id)
        self._changes += 1
        self._languages.clear()

    async def chosen(self, chat_id: int) -> str | None:
        """The language the chat chose with /lang (None: none), from memory or the store."""
        try:
            return self._languages[chat_id]
        except KeyError:
            pass
        changes = self._changes
        chosen = await self.store.language(chat_id)
        if changes == self._changes:  # else a choice changed while it was read: ask again
            self._languages[chat_id] = chosen
        return chosen

    async def texts(self, chat: Chat, player: Player | None = None) -> Texts:
        """The chat's language if it chose one, else the speaker's Telegram language; worded
        for a private chat or a group."""
        chosen = await self.chosen(chat.id)
        return texts_for(chosen or language_of(player.language_code if player else None),
                         private=chat.type == "private")

    async def chat_texts(self, chat_id: int, fallback: str) -> Texts:
        """The words for a message nobody asked for (a round's end, a match's notice): the
        chat's language, else `fallback` (the language the round or match began in).
        Telegram gives private chats the user's id, positive, and groups negative ids, so the
        chat's kind is known without asking."""
        return texts_for(await self.chosen(chat_id) or fallback, private=chat_id > 0)

    async def round_texts(self, current: Round) -> Texts:
        return await self.chat_texts(current.chat_id, current.lang)

    async def remember(self, chat: Chat | None, player: Player) -> None:
        """Store a chat or player the first time they are seen (or when their names change).
        The player's store is noted before the first await (`stored` waits on it): a round's
        commit by someone else may carry this player's answer, taken a moment before."""
        naming = not _known(self._users, player.id, (player.first_name, player.username))
        storing = asyncio.Event()
        if naming:
            self._storing[player.id] = storing
        try:
            rows: list[Awaitable[None]] = []
            if chat is not None and not _known(self._chats, chat.id, (chat.type, chat.title)):
                rows.append(self._remember_chat(chat))
            if naming:
                rows.append(self._remember_user(player))
            await together(rows)
        finally:
            storing.set()
            if self._storing.get(player.id) is storing:
                del self._storing[player.id]

    def known(self, chat: Chat | None, player: Player) -> bool:
        """Whether `remember` would store nothing: the chat and the player are stored under
        these names already (as far as this process knows)."""
        return _known(self._users, player.id, (player.first_name, player.username)) and (
            chat is None or _known(self._chats, chat.id, (chat.type, chat.title)))

    async def _remember_chat(self, chat: Chat) -> None:
        """A chat's row and its player's go side by side (one SQLite trip): neither names the
        other."""
        await self.store.remember_chat(chat.id, chat.type, chat.title)
        self._chats[chat.id] = (chat.type, chat.title)

    async def _remember_user(self, player: Player) -> None:
        await self.store.remember_user(player.id, player.first_name, player.username)
        self._users[player.id] = (player.first_name, player.username)

    async def stored(self, user_id: int) -> None:
        """Once the player's row is in the database, if this process is storing it now: a
        write that names them (an answer, a win) must not reach the database first — with
        PostgreSQL's pool of connections it could, and fail its foreign key."""
        storing = self._storing.get(user_id)
        if storing is not None:
            await storing.wait()

    def chat_of(self, chat_id: int, topic: int = 0) -> Chat:
        """A chat as this process knows it (its kind and title, when it was seen), for a face
        that names a chat without a message from it (a Mini App's page). Telegram gives private
        chats the user's id, positive, and groups negative ids, so the kind is known anyway."""
        kind, title = self._chats.get(chat_id, ("private" if chat_id > 0 else "group", None))
        return Chat(chat_id, kind, title, topic)

    async def as_stored(self, chat_id: int, user_id: int, lang: str | None,
                        topic: int = 0) -> tuple[Chat, Player] | None:
        """A chat and a person as the database has them, for a deal the bot makes on its own
        (a streak's or a storm's next hand, a match's next round, a tournament's deal): no
        update brings their names then. Read from the database, not this process's memory, so
        a /forget on another worker is seen. None: either row is gone."""
        known = await self.store.chat_and_user(chat_id, user_id)
        if known is None:
            return None
        (kind, title), (first_name, username) = known
        return Chat(chat_id, kind, title, topic), Player(user_id, first_name, username, lang)

    def forget(self, user_id: int) -> None:
        """A person was deleted from the stores (/forget): their name, and their private
        chat's language, go from memory too (they are stored afresh if they come back)."""
        self._users.pop(user_id, None)
        self._chats.pop(user_id, None)
        self._changes += 1
        self._languages.pop(user_id, None)

    async def name_of(self, user_id: int) -> str | None:
        known = self._users.get(user_id)
        return known[0] if known else await self.store.user_name(user_id)

    async def starter(self, started_by: int | None, texts: Texts) -> str:
        """Who started a round or match, to name in a refusal."""
        name = await self.name_of(started_by) if started_by is not None else None
        return texts("starter", name=markup.name(name)) if name else texts("starter_unknown")

    async def set_language(self, chat: Chat, player: Player, choice: str,
                           is_admin: AdminCheck | None = None) -> str:
        """/lang en|zh (or zh-CN, en_US, ...): the chat's language from now on (a group's admins
        choose it); without a valid choice, the usage."""
        language = parse_language(choice)
        texts = await self.texts(chat, player)
        if language is None and choice.strip():
            return texts("lang_unknown", word=markup.escape(choice.strip()[:20]),
                         current=texts("lang_name"))
        if language is None:
            return texts("lang_usage", current=texts("lang_name"))
        if not await may_steer(chat.type, player.id, None, is_admin):
            return texts("lang_not_allowed")
        await self.remember(chat, player)
        await self.store.set_language(chat.id, language)
        self._changes += 1
        self._languages[chat.id] = language
        return texts_for(language, private=chat.type == "private")("lang_set")

    async def greeting(self, chat: Chat, player: Player, reads_group_messages: bool) -> str:
        """What the bot says when it is added to a group: how to play, and how to answer
        there — in privacy mode (`reads_group_messages` False) it sees only commands and
        replies to its messages, so players answer with /a or a reply, and the group's owner
        is told how to let them just type."""
        texts = await self.texts(chat, player)
        return "\n".join([texts("greet"),
                          texts("greet_typing" if reads_group_messages else "greet_privacy")])

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its rows move to the new id (rounds, matches and scores
        with them), and its language follows, unless the supergroup chose its own (as the
        store keeps it: both chats' choices are read from it again)."""
        await self.store.migrate_chat(old_id, new_id)
        self._changes += 1
        self._languages.pop(old_id, None)
        self._languages.pop(new_id, None)


def _names(shared: bool, clock: Callable[[], float]) -> MutableMapping[int, Names]:
    if shared:
        return Timed(KEPT, SHARED_NAMES_SECONDS, timer=clock)
    return LRU(KEPT)


def _known(cache: Mapping[int, Names], key: int, value: Names) -> bool:
    """Whether the cache holds this value for the key (the look-up makes it the latest)."""
    return cache.get(key) == value
