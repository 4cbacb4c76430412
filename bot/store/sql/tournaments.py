"""Tournaments, as both databases store them (schema steps 23 and 27): a tournament's row and
its schedule's state, the groups that joined (each in one tournament not over at a time: the
database's index holds it) and the chats that follow (bounded both ways), each round's hand,
each group's deal of it (claimed once: the group's round is an ordinary round of that group),
the group each person plays for, and the standings, read from the groups' rounds in SQL:
nothing is scored twice, and a worker that takes a schedule over reads what the last one left.
The statements themselves, and a group's move to its supergroup, are
bot.store.sql.tournament_statements'."""

from __future__ import annotations

import json

from bot.store.sql.connection import Connection, Refused
from bot.store.sql.rows import hand_of
from bot.store.sql.tournament_statements import (
    HOLD_CHAT,
    NUMBERED,
    POSTGRES,
    QMARK,
    WORKER_DUE,
    TournamentStatements,
)
from bot.store.tournament_records import (
    Deal,
    Entrant,
    Followed,
    GroupStanding,
    Joined,
    PlayerStanding,
    Seat,
    Solve,
    Tournament,
    TournamentRound,
)

__all__ = ["HOLD_CHAT", "NUMBERED", "POSTGRES", "QMARK", "WORKER_DUE", "TournamentStatements",
           "Tournaments"]


def tournament_of(row: tuple) -> Tournament:
    return Tournament(*row)


def round_of(row: tuple) -> TournamentRound:
    return TournamentRound(row[0], row[1], row[2], hand_of(row[3]), *row[4:])


class Tournaments:
    def __init__(self, db: Connection, sql: TournamentStatements) -> None:
        self.db = db
        self.sql = sql

    # --- the tournament ----------------------------------------------------------------------

    async def create(self, code: str, name: str, game: str, level: str, rounds: int,
                     seconds: float, starts_at: float, chat_id: int, created_by: int | None,
                     lang: str, at: float) -> Tournament | None:
        """A new tournament, its schedule due at its start; None if the code is taken."""
        try:
            tournament_id = await self.db.insert(self.sql.create, (
                code, name, game, level, rounds, seconds, starts_at, chat_id, created_by, lang,
                at, starts_at))
        except Refused:
            return None
        return Tournament(tournament_id, code, name, game, level, rounds, seconds, starts_at,
                          chat_id, created_by, lang, at, "open", None, starts_at)

    async def by_code(self, code: str) -> Tournament | None:
        rows = await self.db.fetch(self.sql.by_code, (code,))
        return tournament_of(rows[0]) if rows else None

    async def get(self, tournament_id: int) -> Tournament | None:
        rows = await self.db.fetch(self.sql.by_id, (tournament_id,))
        return tournament_of(rows[0]) if rows else None

    async def of_chat(self, chat_id: int) -> Tournament | None:
        """The tournament not over that the chat is in (made or joined), if any."""
        rows = await self.db.fetch(self.sql.of_chat, (chat_id,))
        return tournament_of(rows[0]) if rows else None

    async def on_in(self) -> set[int]:
        """Every chat in a tournament not over."""
        return {row[0] for row in await self.db.fetch(self.sql.on_in)}

    # --- who is in it ------------------------------------------------------------------------

    async def join(self, tournament_id: int, chat_id: int, topic: int, joined_by: int | None,
                   lang: str, at: float, most: int) -> Joined:
        """The group joins: "joined", "already" (it had), "full" (`most` joined before it: of
        groups joining at once, the first `most` by time stay), or "elsewhere" (it is in
        another tournament not over: of joins at once, the database lets one in)."""
        added = await self.db.run(self.sql.join, (tournament_id, chat_id, topic, joined_by,
                                                  at, lang))
        if not added:
            rows = await self.db.fetch(self.sql.ongoing_of, (chat_id,))
            return "already" if rows and rows[0][0] == tournament_id else "elsewhere"
        rows = await self.db.fetch(self.sql.joined_before, (tournament_id, chat_id))
        if int(rows[0][0]) >= most:
            await self.db.run(self.sql.unjoin, (tournament_id, chat_id))
            return "full"
        return "joined"

    async def leave(self, tournament_id: int, chat_id: int) -> bool:
        return await self.db.run(self.sql.unjoin, (tournament_id, chat_id)) == 1

    async def discard(self, tournament_id: int) -> bool:
        """A tournament just made that no group is in (its group joined another meanwhile)
        goes, as if never made."""
        return await self.db.run(self.sql.discard, (tournament_id, tournament_id)) == 1

    async def follow(self, tournament_id: int, chat_id: int, lang: str, most: int,
                     most_followed: int) -> Followed:
        """The chat follows the tournament (its boards, its podium): "followed", "already",
        "full" (it has `most` followers), "too_many" (the chat follows `most_followed` not
        over) or "over". The bounds hold for follows at once: each holds the tournament's
        row, then the chat's, while it counts and writes."""
        if await self.follows(tournament_id, chat_id):
            return "already"
        held = await self.db.run_guarded((self.sql.hold_tournament, (tournament_id,)), [
            (self.sql.hold_chat, (chat_id,)),
            (self.sql.follow, (tournament_id, chat_id, lang, tournament_id, most, chat_id,
                               most_followed))])
        if not held:
            return "over"
        if await self.follows(tournament_id, chat_id):
            return "followed"
        rows = await self.db.fetch(self.sql.followers_count, (tournament_id,))
        return "full" if int(rows[0][0]) >= most else "too_many"

    async def follows(self, tournament_id: int, chat_id: int) -> bool:
        """Whether the chat follows the tournament."""
        return bool(await self.db.fetch(self.sql.follows, (tournament_id, chat_id)))

    async def followed(self, chat_id: int) -> list[Tournament]:
        """The tournaments not over that the chat follows, the oldest first."""
        return [tournament_of(row) for row in await self.db.fetch(self.sql.followed,
                                                                  (chat_id,))]

    async def unfollow(self, tournament_id: int, chat_id: int) -> bool:
        """The chat follows the tournament no more; False if it did not."""
        return await self.db.run(self.sql.unfollow, (tournament_id, chat_id)) == 1

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """The groups that joined, in the order they did."""
        return [Entrant(row[0], row[1], row[2], row[3], row[4], bool(row[5]))
                for row in await self.db.fetch(self.sql.entrants, (tournament_id,))]

    async def followers(self, tournament_id: int) -> list[tuple[int, str]]:
        return [(row[0], row[1])
                for row in await self.db.fetch(self.sql.followers, (tournament_id,))]

    async def drop_group(self, tournament_id: int, chat_id: int) -> bool:
        """The group is skipped from now on (the bot may not write there)."""
        return await self.db.run(self.sql.drop_group, (tournament_id, chat_id)) == 1

    # --- the schedule ------------------------------------------------------------------------

    async def due(self, now: float) -> list[int]:
        """The tournaments whose schedule is due and this process runs."""
        return [row[0] for row in await self.db.fetch(self.sql.due, (now,))]

    async def set_next(self, tournament_id: int, at: float) -> None:
        await self.db.run(self.sql.set_next, (at, tournament_id))

    async def start(self, tournament_id: int, at: float) -> bool:
        """It starts (one caller wins)."""
        return await self.db.run(self.sql.start, (at, tournament_id)) == 1

    async def reschedule(self, tournament_id: int, starts_at: float) -> bool:
        """It starts at `starts_at` instead (while it has not started)."""
        return await self.db.run(self.sql.reschedule, (starts_at, starts_at,
                                                       tournament_id)) == 1

    async def finish(self, tournament_id: int, status: str, at: float) -> bool:
        """It ends, "done" or "cancelled" (one caller wins), and its groups are free to join
        another, in the same transaction."""
        return await self.db.run_guarded((self.sql.finish, (status, at, tournament_id)),
                                          [(self.sql.release, (tournament_id,))])

    async def open_round(self, tournament_id: int, number: int, game: str, hand: tuple,
                         target: int, level: str, points: int, at: float) -> TournamentRound:
        """The round with this hand, live from now; or the round as stored, if it was drawn
        before (a schedule taken over)."""
        await self.db.run(self.sql.open_round, (tournament_id, number, game, json.dumps(hand),
                                                target, level, points, at))
        return next(r for r in await self.rounds(tournament_id) if r.number == number)

    async def rounds(self, tournament_id: int) -> list[TournamentRound]:
        return [round_of(row) for row in await self.db.fetch(self.sql.rounds, (tournament_id,))]

    async def live_rounds(self) -> list[TournamentRound]:
        """Every tournament round live now, in every tournament."""
        return [round_of(row) for row in await self.db.fetch(self.sql.live_rounds)]

    async def close_round(self, tournament_id: int, number: int, at: float) -> bool:
        """The round closed in every group (one caller wins)."""
        return await self.db.run(self.sql.close_round, (at, tournament_id, number)) == 1

    async def not_over(self, tournament_id: int, number: int) -> int:
        """How many groups' rounds of this tournament round are not over."""
        rows = await self.db.fetch(self.sql.not_over, (number, tournament_id))
        return int(rows[0][0])

    async def skip_late(self, tournament_id: int, number: int, claimed_before: float,
                        at: float) -> None:
        """Deals that never came: those claimed before `claimed_before` and not dealt, and the
        playing groups with none, are skipped."""
        await self.db.run(self.sql.skip_claimed, (tournament_id, number, claimed_before))
        await self.db.run(self.sql.skip_missing, (number, at, tournament_id))

    # --- a group's deal ----------------------------------------------------------------------

    async def claim_deal(self, tournament_id: int, number: int, chat_id: int, at: float) -> Deal:
        """The group's deal of the round: claimed now, or as it stands."""
        await self.db.run(self.sql.claim_deal, (tournament_id, number, chat_id, at))
        found = await self.deal(tournament_id, number, chat_id)
        assert found is not None, "claimed just now"
        return found

    async def deal(self, tournament_id: int, number: int, chat_id: int) -> Deal | None:
        rows = await self.db.fetch(self.sql.deal, (tournament_id, number, chat_id))
        return Deal(*rows[0]) if rows else None

    async def deals(self, tournament_id: int, number: int) -> list[Deal]:
        """Every group's deal of the round (claimed, dealt or skipped)."""
        return [Deal(*row) for row in await self.db.fetch(self.sql.deals, (tournament_id,
                                                                             number))]

    async def dealt(self, tournament_id: int, number: int, chat_id: int, round_id: int,
                    at: float) -> bool:
        return await self.db.run(self.sql.dealt, (round_id, at, tournament_id, number,
                                                  chat_id)) == 1

    async def skip_deal(self, tournament_id: int, number: int, chat_id: int) -> None:
        await self.db.run(self.sql.skip_deal, (tournament_id, number, chat_id))

    async def seat(self, round_id: int) -> Seat | None:
        """The tournament round a group's round is, if it is one."""
        rows = await self.db.fetch(self.sql.seat, (round_id,))
        return Seat(*rows[0]) if rows else None

    async def claim_board(self, tournament_id: int, number: int, chat_id: int,
                          at: float) -> bool:
        """The group's board after the round is this caller's to send (once)."""
        return await self.db.run(self.sql.claim_board, (at, tournament_id, number,
                                                        chat_id)) == 1

    async def claim_follower(self, tournament_id: int, chat_id: int, number: int) -> bool:
        """A follower's board after the round is this caller's to send (once)."""
        return await self.db.run(self.sql.claim_follower, (number, tournament_id, chat_id,
                                                           number)) == 1

    async def unclaim_board(self, tournament_id: int, number: int, chat_id: int,
                            played: bool) -> None:
        """The board was not shown after all: it is to be sent again."""
        if played:
            await self.db.run(self.sql.unclaim_board, (tournament_id, number, chat_id))
        else:
            await self.db.run(self.sql.unclaim_follower, (number - 1, tournament_id, chat_id,
                                                          number))

    async def bind_player(self, tournament_id: int, user_id: int, chat_id: int) -> int:
        """The group the person plays for: this one, if they play for none yet."""
        await self.db.run(self.sql.bind_player, (tournament_id, user_id, chat_id))
        rows = await self.db.fetch(self.sql.bound_to, (tournament_id, user_id))
        return int(rows[0][0])

    # --- the standings -----------------------------------------------------------------------

    async def players(self, tournament_id: int, most: int) -> list[PlayerStanding]:
        """The best players across every group: points, then wins, then fewer seconds."""
        return [PlayerStanding(*row) for row in
                await self.db.fetch(self.sql.players, (tournament_id, most))]

    async def group_players(self, tournament_id: int, chat_id: int,
                            most: int) -> list[PlayerStanding]:
        return [PlayerStanding(*row) for row in
                await self.db.fetch(self.sql.group_players, (tournament_id, chat_id, most))]

    async def groups_board(self, tournament_id: int, best: int) -> list[GroupStanding]:
        """Every group ranked by the points of its `best` best players."""
        return [GroupStanding(row[0], row[1], int(row[2]), float(row[3]), int(row[4])) for row
                in await self.db.fetch(self.sql.groups_board, (tournament_id, best,
                                                               tournament_id))]

    async def solves(self, tournament_id: int) -> list[Solve]:
        """Every round won in every group, by round, the fastest first."""
        return [Solve(row[0], row[1], row[2], row[3], float(row[4])) for row in
                await self.db.fetch(self.sql.solves, (tournament_id,))]

    async def plays_for(self, tournament_id: int, user_id: int) -> int | None:
        """The group the person plays for, if they answered in one (nothing written)."""
        rows = await self.db.fetch(self.sql.bound_to, (tournament_id, user_id))
        return int(rows[0][0]) if rows else None
