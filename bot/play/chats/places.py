"""What happens to a chat's state when Telegram says something of the chat itself: a group that
became a supergroup (its rounds, scores, match and timers move to the new id), and a chat or
forum topic the bot can no longer write to (its matches stop and its open rounds close with no
winner and no points, without a word).
"""

from __future__ import annotations

from bot.play.chats.people import People
from bot.play.matches.matches import Matches
from bot.play.ports import WARNING, Scheduler
from bot.play.round.outcomes import Dealt
from bot.play.round.rounds import Rounds
from bot.play.round.table import RoundTable
from bot.runtime import metrics
from bot.store.protocols import RoundStore
from bot.store.records import Place, Round


class Places:
    def __init__(self, store: RoundStore, people: People, table: RoundTable,
                 scheduler: Scheduler, rounds: Rounds, matches: Matches) -> None:
        self.store = store
        self.people = people
        self.table = table
        self.scheduler = scheduler
        self.rounds = rounds  # words a moved round's deal again
        self.matches = matches

    async def migrate(self, old_id: int, new_id: int) -> Dealt | None:
        """A group became a supergroup: its rows move to the new id (in one transaction), its
        language, open round and alarms follow. The round's deal stays behind in the old group,
        and its message id means another message in the supergroup: it is forgotten, and the
        deal is shown again there (returned; once sent, replies and hints tie to it)."""
        await self.people.migrate_chat(old_id, new_id)
        if self.rounds.settings is not None:
            self.rounds.settings.migrate(old_id, new_id)
        moved = self.table.move(old_id, new_id)
        self.matches.follow_chat(old_id, new_id, moved.record if moved else None)
        if moved is None or moved.record.message_id is None:
            return None  # no deal sent yet: the send that found the move carries it there
        record = moved.change(message_id=None)
        return self.rounds.dealt(record, self.rounds.deal_view(moved),
                                 self.people.round_texts(record))

    async def abandon(self, chat_id: int, topic: int | None = None) -> list[Round]:
        """The bot can no longer write to the chat (removed, banned, blocked, the chat deleted)
        or, given a `topic`, to that topic: its matches stop and its open rounds close with no
        winner and no points, each marked announced (no result is owed to a chat that cannot
        be written to, so a restart sends none), and their alarms go. Returns the rounds."""
        def here(place: Place) -> bool:
            return place[0] == chat_id and topic in (None, place[1])

        await self.matches.stop_all(chat_id, topic)
        now, closed = self.table.clock(), []
        for current in await self.store.open_rounds():
            if not here(current.place):
                continue
            if await self.store.close_round(current.id, "revealed", now):
                closed.append(current)
                metrics.record_round_ended(current.game, "abandoned")
            opened = self.table.find(current.id)
            self.table.close(opened.record if opened else current)
            self.scheduler.cancel(WARNING, chat_id, current.topic)
        await self.store.set_announced([r.id for r in closed])
        return closed
