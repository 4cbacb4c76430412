"""What /resetscores and /forget delete, as both databases do it: each one transaction after
which the scores table is again what the remaining rounds and answers define (the view
scores_from_rounds), so a late answer, a restart or a recount brings nothing back; a person's
long history goes a part at a time before that transaction (FORGET_PART).

A chat's reset takes its closed rounds' winners and answers off (the rounds stay, winnerless) and
deletes its scores (and the pages' rows of those rounds); the open round keeps its answers and
scores when it closes. A person's erasure deletes their answers, scores, daily results, passes,
streaks, storms, name, ratings and the pages' rows (these with the person's row too: their
foreign keys cascade); the rounds they won or started stay, naming nobody (other players'
scores are unchanged: those rounds were their losses before and still are); their private chat
goes, with every round and match played there — its open rounds at the note, before play ends
them (bot.play.community.privacy), so that a close racing the forget finds no row and scores
nothing.

A forget is noted (table forgets) before any of it, and the note deleted last, so that a kill
in between leaves a note that a start finishes; the note names the person until then. While it
stands, nothing of the person is shown: every read of a name goes through the view shown_users
(schema step 28), which leaves them out, so the erasure may take its time after the
confirmation (bot.play.community.privacy runs it in the background)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.sql.connection import Connection, Step, arity, numbered_table

# A person's rows go a part at a time first, each part its own short transaction, so that no
# other chat's write waits behind a long history; the erasure's one transaction then finds few.
FORGET_PART = 100


@dataclass(frozen=True)
class ForgetStatements:
    reset_rounds: tuple[str, ...]  # (chat,) each: before the scoring lock, as a close does
    reset_scores: str
    forget_parts: tuple[str, ...]  # (user, ..., FORGET_PART) each, until it changes fewer rows
    forget_rounds: tuple[str, ...]  # (user,) each: the rows of rounds first, as a close does
    forget_scores: tuple[str, ...]  # after the scoring locks of the chats the person is in
    noted: str  # (user, at): a forget begins
    open_private: str  # (user,): the rounds open in their private chat, deleted at the note
    unfinished: str  # the people whose forget began and did not end, oldest first
    done: str  # (user,): the forget ended


QMARK = ForgetStatements(
    # the pages' rows of those rounds go with the answers they were made of (first: they are
    # found through them)
    reset_rounds=("DELETE FROM answered_rounds WHERE (user_id, round_id) IN "
                  "(SELECT a.user_id, a.round_id FROM answers a JOIN rounds r "
                  "ON r.id = a.round_id WHERE r.chat_id = ? AND r.status != 'open')",
                  "DELETE FROM answers WHERE round_id IN "
                  "(SELECT id FROM rounds WHERE chat_id = ? AND status != 'open')",
                  "UPDATE rounds SET winner_id = NULL WHERE chat_id = ? AND status != 'open'"),
    reset_scores="DELETE FROM scores WHERE chat_id = ?",
    forget_parts=("DELETE FROM answers WHERE id IN "
                  "(SELECT id FROM answers WHERE user_id = ? LIMIT ?)",
                  "UPDATE rounds SET winner_id = NULL, winning_answer = NULL WHERE id IN "
                  "(SELECT id FROM rounds WHERE winner_id = ? LIMIT ?)",
                  "UPDATE rounds SET started_by = NULL WHERE id IN "
                  "(SELECT id FROM rounds WHERE started_by = ? LIMIT ?)",
                  "DELETE FROM daily_results WHERE user_id = ? AND day IN "
                  "(SELECT day FROM daily_results WHERE user_id = ? LIMIT ?)",
                  "DELETE FROM rating_days WHERE (user_id, game, day) IN "
                  "(SELECT user_id, game, day FROM rating_days WHERE user_id = ? LIMIT ?)",
                  "DELETE FROM answered_rounds WHERE user_id = ? AND round_id IN "
                  "(SELECT round_id FROM answered_rounds WHERE user_id = ? LIMIT ?)",
                  # the private chat's (its id is the person's)
                  "DELETE FROM matches WHERE id IN (SELECT id FROM matches WHERE chat_id = ? "
                  "AND status <> 'on' LIMIT ?)",
                  "DELETE FROM rounds WHERE id IN (SELECT id FROM rounds WHERE chat_id = ? "
                  "AND status <> 'open' LIMIT ?)"),
    forget_rounds=("UPDATE rounds SET winner_id = NULL, winning_answer = NULL "
                   "WHERE winner_id = ?",
                   "UPDATE rounds SET started_by = NULL WHERE started_by = ?",
                   "UPDATE matches SET started_by = NULL WHERE started_by = ?"),
    forget_scores=("DELETE FROM answers WHERE user_id = ?",
                   "DELETE FROM round_passes WHERE user_id = ?",
                   "DELETE FROM scores WHERE user_id = ?",
                   "DELETE FROM daily_results WHERE user_id = ?",
                   "DELETE FROM achievements WHERE user_id = ?",
                   "DELETE FROM streaks WHERE user_id = ?",
                   "DELETE FROM storms WHERE user_id = ?",
                   "DELETE FROM solo_bests WHERE user_id = ?",
                   # the private chat's id is the person's: its matches and rounds go, ended
                   # or not (with their answers, passes and links), then the chat itself
                   "DELETE FROM matches WHERE chat_id = ?",
                   "DELETE FROM rounds WHERE chat_id = ?",
                   "DELETE FROM chat_settings WHERE chat_id = ?",
                   "DELETE FROM chats WHERE id = ? AND type = 'private'",
                   "DELETE FROM rating_days WHERE user_id = ?",  # the pages' history
                   "DELETE FROM answered_rounds WHERE user_id = ?",  # the pages' rounds
                   "DELETE FROM users WHERE id = ?"),
    noted="INSERT INTO forgets (user_id, at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
    # the private chat's id is the person's (its answers and passes go with it)
    open_private="DELETE FROM rounds WHERE chat_id = ? AND status = 'open'",
    unfinished="SELECT user_id FROM forgets ORDER BY at",
    done="DELETE FROM forgets WHERE user_id = ?",
)
NUMBERED = numbered_table(QMARK)


class Forgetting:
    """`chat_lock` and `user_locks`: what takes the scoring locks of a chat, or of the chats
    where a person has scores or answers, before their answers and scores are deleted (so a
    round closing there meanwhile has either scored and is deleted, or scores after, without
    them); `user_chats`, the chats where they answered, read before the answers go a part at
    a time, whose locks are taken too (a round closing there may have counted them before);
    PostgreSQL's concurrent writers only, none with SQLite's single writer."""

    def __init__(self, db: Connection, sql: ForgetStatements, chat_lock: str = "",
                 user_locks: str = "", user_chats: str = "") -> None:
        self.db = db
        self.sql = sql
        self.chat_lock = chat_lock
        self.user_locks = user_locks
        self.user_chats = user_chats  # the chats where the person answered, read first

    async def reset_chat(self, chat_id: int) -> None:
        steps: list[Step] = [(sql, (chat_id,)) for sql in self.sql.reset_rounds]
        steps += [(self.chat_lock, (chat_id,))] if self.chat_lock else []
        steps.append((self.sql.reset_scores, (chat_id,)))
        await self.db.run_all(steps)

    async def note_forget(self, user_id: int, at: float) -> None:
        """A forget of the person begins: noted until `forget_user` ends it."""
        await self.db.run(self.sql.noted, (user_id, at))

    async def drop_open_private(self, user_id: int) -> None:
        """The rounds open in the person's private chat go at once, before their erasure: a
        close there then finds no row, so nothing scores, rates or is owed (play ends them in
        memory after this)."""
        await self.db.run(self.sql.open_private, (user_id,))

    async def unfinished_forgets(self) -> list[int]:
        """The people whose forget began and never ended (a kill came between), oldest
        first."""
        return [row[0] for row in await self.db.fetch(self.sql.unfinished)]

    async def forget_user(self, user_id: int) -> None:
        """Everything of the person's (`erase`), then the note of their forget."""
        await self.erase(user_id)
        await self.db.run(self.sql.done, (user_id,))

    async def erase(self, user_id: int) -> None:
        """Their answers and their name on rounds first, FORGET_PART rows a transaction (each
        such part changes no one else's scores: their own go with the rest), then everything
        of theirs in one transaction, after which the scores are again what the rounds
        define."""
        answered_in = [row[0] for row in await self.db.fetch(self.user_chats, (user_id,))] \
            if self.user_chats else []
        for sql in self.sql.forget_parts:
            while await self.db.run(sql, (user_id,) * (arity(sql) - 1) + (FORGET_PART,)) \
                    >= FORGET_PART:
                pass
        steps: list[Step] = [(sql, (user_id,)) for sql in self.sql.forget_rounds]
        steps += [(self.user_locks, (user_id, answered_in))] if self.user_locks else []
        steps += [(sql, (user_id,) * arity(sql))
                  for sql in self.sql.forget_scores]
        await self.db.run_all(steps)
