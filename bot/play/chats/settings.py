"""A chat's own settings (/settings): round length per game, the default hand size and level of
24, hints on or off, a match's length, whether plain typed answers count, whether answers given
with /a are seen by the bot alone (`unseen`: the face declares /a so for that chat), whether a
player who missed may ask the coach's line under a result (`coach`: bot.play.coaching), and the
language.

The environment's values are the defaults; a chat stores only what its admins changed (a JSON
object per chat, bot.store.sql.people), remembered for the CHOICES_KEPT chats asked about most
lately (LRU, as the languages are: bot.play.chats.people), read from the store again after that.
A change applies from the next round: an open round keeps what it was dealt with. The panel is
one message whose buttons each set one setting to its next value; a press carries the chat, the
setting and the value it sets, and is read back as strictly as a command (bot.telegram.buttons).
No Telegram here: the face turns a `Panel` into a message with a keyboard.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from bot.play.chats.people import CHOICES_KEPT, Chat, People, Player
from bot.play.games import GAMES
from bot.play.guards.permissions import AdminCheck, may_steer
from bot.play.outcomes import Refused, Said
from bot.play.rules import PlayOptions
from bot.runtime.lru import LRU
from bot.store.protocols import PeopleStore
from bot.text.i18n import LANGUAGES, Texts, texts_for

# the values a button offers (the environment's default joins them, wherever it lies)
SECONDS = {name: game.seconds_choices for name, game in GAMES.items()}
COUNTS = (4, 5, 6)
# mix: a level drawn for each deal (adaptive, once a group has played enough: round/dealing.py);
# adaptive: a hand the chat's players of late solve about three times in four
LEVELS = ("mix", "easy", "medium", "hard", "adaptive")
MATCH_ROUNDS = (5, 10, 15, 20)
SWITCHES = (True, False)
GAME_KEYS = {f"seconds_{game}": game for game in SECONDS}
KEYS = (*GAME_KEYS, "count", "level", "hints", "match", "typing", "unseen", "coach", "lang")
LANGUAGES_A_ROW = 4  # the other fifteen languages' names in rows a phone shows whole
# what most chats set: one shared, read-only value for all of them in the memory of settings
# (a dict of its own each was 64 bytes of the 140 a remembered chat cost)
NOTHING_SET: Mapping[str, object] = MappingProxyType({})


@dataclass(frozen=True)
class ChatSettings:
    """What rounds in one chat follow."""

    seconds: Mapping[str, float]
    count: int = 4
    level: str = "mix"
    hints: bool = True
    match: int = 10
    typing: bool = True
    unseen: bool = False
    coach: bool = True

    def value(self, key: str) -> object:
        if key in GAME_KEYS:
            return int(self.seconds[GAME_KEYS[key]])
        return getattr(self, key)

    def changed(self, key: str, value: object) -> ChatSettings:
        if key in GAME_KEYS:
            length = float(value)  # type: ignore[arg-type]
            return replace(self, seconds={**self.seconds, GAME_KEYS[key]: length})
        return replace(self, **{key: value})  # type: ignore[arg-type]


@dataclass(frozen=True)
class Choice:
    """A button of the panel: which setting it changes, to what, and its label."""

    key: str
    value: str
    label: str


@dataclass(frozen=True)
class Panel:
    """The settings message: its text and its buttons, rows of choices."""

    chat_id: int
    text: str
    rows: tuple[tuple[Choice, ...], ...] = field(default=())


def encode(value: object) -> str:
    """A value as a button's data carries it ("1"/"0" for on and off)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


class Settings:
    """Every chat's settings. One instance for the whole bot, built at start-up."""

    def __init__(self, store: PeopleStore, people: People, defaults: ChatSettings,
                 clock: Callable[[], float]) -> None:
        self.store = store
        self.people = people
        self.defaults = defaults
        self.clock = clock
        # chat -> what its admins set (NOTHING_SET: nothing); the least lately asked go first
        self._changed: LRU[int, Mapping[str, object]] = LRU(CHOICES_KEPT)
        self._changes = 0  # settings changed or moved: a read begun before is not remembered

    async def load(self) -> None:
        """Forget what chats set (at start-up, or when another process may have changed it):
        each is read from the store when next asked."""
        self._changes += 1
        self._changed.clear()

    async def _set(self, chat_id: int) -> Mapping[str, object]:
        """What the chat's admins set, from memory or the store; a value no longer offered
        is left out."""
        try:
            return self._changed[chat_id]
        except KeyError:
            pass
        changes = self._changes
        body = {k: v for k, v in (await self.store.chat_settings(chat_id)).items()
                if self._allowed(k, v)}
        if changes == self._changes:  # else it changed while it was read: ask again
            self._changed[chat_id] = body or NOTHING_SET
        return body

    async def of(self, chat_id: int) -> ChatSettings:
        """The settings a chat's next round follows."""
        current = self.defaults
        for key, value in (await self._set(chat_id)).items():
            current = current.changed(key, value)
        return current

    async def options(self, chat_id: int, game: str, asked: PlayOptions) -> PlayOptions:
        """What a deal without a size or a level deals in this chat (a game dealt by level;
        the others as asked)."""
        if not GAMES[game].levels:
            return asked
        chosen = await self.of(chat_id)
        return replace(asked, count=asked.count or chosen.count,
                       level=asked.level or (None if chosen.level == "mix" else chosen.level))

    async def chose_level(self, chat_id: int) -> bool:
        """Whether the chat's admins set a level (mix too): its default is then theirs."""
        return "level" in await self._set(chat_id)

    def migrate(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup (the store moved its row, unless the supergroup has
        its own): both chats' are read from the store again."""
        self._changes += 1
        self._changed.pop(old_id, None)
        self._changed.pop(new_id, None)

    # --- the panel -----------------------------------------------------------------------------

    async def show(self, chat: Chat, player: Player, is_admin: AdminCheck | None) -> Panel | Said:
        """/settings: the panel (a group's admins, or anyone in a private chat, where only the
        language is set: that chat is the person's own)."""
        texts = await self.people.texts(chat, player)
        if not await may_steer(chat.type, player.id, None, is_admin):
            return Said(texts("settings_admins_only"))
        return await self.panel(chat, texts)

    async def change(self, chat: Chat, player: Player, is_admin: AdminCheck | None,
                     chat_id: int, key: str, raw: str) -> Panel | Refused:
        """A press of the panel: the setting changed, and the panel says so. Refused: a press
        naming another chat, a setting or value no button offers, or a non-admin's."""
        texts = await self.people.texts(chat, player)
        value = self._read(key, raw)
        private_only = chat.type == "private" and key != "lang"
        if chat_id != chat.id or value is None or private_only:
            return Refused(texts("button_unknown"))
        if not await may_steer(chat.type, player.id, None, is_admin):
            return Refused(texts("settings_admins_only"))
        await self.people.remember(chat, player)
        if key == "lang":
            assert isinstance(value, str)
            await self.people.set_language(chat, player, value, is_admin)
            texts = await self.people.texts(chat, player)
        else:
            body = {**await self._set(chat.id), key: value}
            await self.store.set_chat_settings(chat.id, body, self.clock())
            self._changes += 1
            self._changed[chat.id] = body
        return await self.panel(chat, texts, await self._said(texts, chat.id, key))

    async def panel(self, chat: Chat, texts: Texts, note: str | None = None) -> Panel:
        if chat.type == "private":
            lines = [texts("settings_private"), texts("settings_lang", value=texts("lang_name"))]
            rows: tuple[tuple[Choice, ...], ...] = self._language_rows(texts)
        else:
            current = await self.of(chat.id)
            lines = [texts("settings_head")] + [self._line(texts, current, key)
                                                for key in KEYS]
            choices = [self._next(texts, current, key) for key in KEYS if key != "lang"]
            pairs = (tuple(choices[i:i + 2]) for i in range(0, len(choices), 2))
            rows = (*pairs, *self._language_rows(texts))
        if note:
            lines.append(note)
        return Panel(chat.id, "\n".join(lines), rows)

    def _line(self, texts: Texts, current: ChatSettings, key: str) -> str:
        if key == "lang":
            return texts("settings_lang", value=texts("lang_name"))
        return texts(f"settings_{key}", value=self._shown(texts, key, current.value(key)))

    async def _said(self, texts: Texts, chat_id: int, key: str) -> str:
        """The panel's last line: what changed, and from when."""
        if key == "lang":
            return texts("settings_changed", what=texts("settings_name_lang"),
                         value=texts("lang_name"))
        return texts("settings_changed", what=texts(f"settings_name_{key}"),
                     value=self._shown(texts, key, (await self.of(chat_id)).value(key)))

    def _shown(self, texts: Texts, key: str, value: object) -> str:
        if key in GAME_KEYS:
            return texts.duration(float(value))  # type: ignore[arg-type]
        if key == "count":
            return texts("settings_count_value", count=value)
        if key == "level":
            return texts(f"settings_level_{value}")
        if key == "match":
            return texts("settings_match_value", count=value)
        return texts("settings_on" if value else "settings_off")

    def _next(self, texts: Texts, current: ChatSettings, key: str) -> Choice:
        """The button that moves a setting to its next value (round the list)."""
        values = self.values(key)
        now = current.value(key)
        following = values[(list(values).index(now) + 1) % len(values)] \
            if now in values else values[0]
        return Choice(key, encode(following), texts(f"settings_button_{key}",
                                                    value=self._shown(texts, key, following)))

    def _language_rows(self, texts: Texts) -> tuple[tuple[Choice, ...], ...]:
        choices = [Choice("lang", language, texts_for(language)("lang_name"))
                   for language in LANGUAGES if language != texts.language]
        return tuple(tuple(choices[i:i + LANGUAGES_A_ROW])
                     for i in range(0, len(choices), LANGUAGES_A_ROW))

    def values(self, key: str) -> Sequence[object]:
        """Every value a setting may take, the default among them."""
        if key in GAME_KEYS:
            game = GAME_KEYS[key]
            return list(sorted({*SECONDS[game], int(self.defaults.seconds[game])}))
        if key == "lang":
            return LANGUAGES
        offered: dict[str, tuple[object, ...]] = {
            "count": COUNTS, "level": LEVELS, "hints": SWITCHES, "match": MATCH_ROUNDS,
            "typing": SWITCHES, "unseen": SWITCHES, "coach": SWITCHES}
        if key == "match":
            return list(sorted({*MATCH_ROUNDS, self.defaults.match}))
        return list(dict.fromkeys([*offered[key], self.defaults.value(key)]))

    def _read(self, key: str, raw: str) -> object | None:
        """The value a press asks for, if a button could offer it."""
        if key not in KEYS:
            return None
        return next((v for v in self.values(key) if encode(v) == raw), None)

    def _allowed(self, key: str, value: object) -> bool:
        return key in KEYS and key != "lang" and value in self.values(key) and \
            type(value) is type(self.defaults.value(key))
