"""What the tournaments need of a database (bot.store.sql.tournaments holds the one
implementation, over either backend's connection; bot.store.tournament_records, what it hands
back)."""

from __future__ import annotations

from typing import Protocol

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


class TournamentStore(Protocol):
    async def create(self, code: str, name: str, game: str, level: str, rounds: int,
                     seconds: float, starts_at: float, chat_id: int, created_by: int | None,
                     lang: str, at: float) -> Tournament | None:
        """A new tournament, its schedule due at its start; None if the code is taken."""

    async def by_code(self, code: str) -> Tournament | None:
        ...

    async def get(self, tournament_id: int) -> Tournament | None:
        ...

    async def of_chat(self, chat_id: int) -> Tournament | None:
        """The tournament not over that the chat is in (made or joined), if any."""

    async def on_in(self) -> set[int]:
        """Every chat in a tournament not over."""

    async def join(self, tournament_id: int, chat_id: int, topic: int, joined_by: int | None,
                   lang: str, at: float, most: int) -> Joined:
        """The group joins: "joined", "already" (it had), "full" (`most` joined before it: of
        groups joining at once, the first `most` by time stay), or "elsewhere" (it is in
        another tournament not over: of joins at once, the database lets one in)."""

    async def leave(self, tournament_id: int, chat_id: int) -> bool:
        ...

    async def discard(self, tournament_id: int) -> bool:
        """A tournament just made that no group is in (its group joined another meanwhile)
        goes, as if never made."""

    async def follow(self, tournament_id: int, chat_id: int, lang: str, most: int,
                     most_followed: int) -> Followed:
        """The chat follows the tournament (its boards, its podium): "followed", "already",
        "full" (it has `most` followers), "too_many" (the chat follows `most_followed` not
        over) or "over". The bounds hold for follows at once."""

    async def follows(self, tournament_id: int, chat_id: int) -> bool:
        """Whether the chat follows the tournament."""

    async def followed(self, chat_id: int) -> list[Tournament]:
        """The tournaments not over that the chat follows, the oldest first."""

    async def unfollow(self, tournament_id: int, chat_id: int) -> bool:
        """The chat follows the tournament no more; False if it did not."""

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """The groups that joined, in the order they did."""

    async def followers(self, tournament_id: int) -> list[tuple[int, str]]:
        ...

    async def drop_group(self, tournament_id: int, chat_id: int) -> bool:
        """The group is skipped from now on (the bot may not write there)."""

    async def due(self, now: float) -> list[int]:
        """The tournaments whose schedule is due and this process runs."""

    async def set_next(self, tournament_id: int, at: float) -> None:
        ...

    async def start(self, tournament_id: int, at: float) -> bool:
        """It starts (one caller wins)."""

    async def reschedule(self, tournament_id: int, starts_at: float) -> bool:
        """It starts at `starts_at` instead (while it has not started)."""

    async def finish(self, tournament_id: int, status: str, at: float) -> bool:
        """It ends, "done" or "cancelled" (one caller wins), and its groups are free to join
        another, in the same transaction."""

    async def open_round(self, tournament_id: int, number: int, game: str, hand: tuple,
                         target: int, level: str, points: int, at: float) -> TournamentRound:
        """The round with this hand, live from now; or the round as stored, if it was drawn
        before (a schedule taken over)."""

    async def rounds(self, tournament_id: int) -> list[TournamentRound]:
        ...

    async def live_rounds(self) -> list[TournamentRound]:
        """Every tournament round live now, in every tournament."""

    async def close_round(self, tournament_id: int, number: int, at: float) -> bool:
        """The round closed in every group (one caller wins)."""

    async def not_over(self, tournament_id: int, number: int) -> int:
        """How many groups' rounds of this tournament round are not over."""

    async def skip_late(self, tournament_id: int, number: int, claimed_before: float,
                        at: float) -> None:
        """Deals that never came: those claimed before `claimed_before` and not dealt, and the
        playing groups with none, are skipped."""

    async def claim_deal(self, tournament_id: int, number: int, chat_id: int, at: float) -> Deal:
        """The group's deal of the round: claimed now, or as it stands."""

    async def deal(self, tournament_id: int, number: int, chat_id: int) -> Deal | None:
        ...

    async def deals(self, tournament_id: int, number: int) -> list[Deal]:
        """Every group's deal of the round (claimed, dealt or skipped)."""

    async def dealt(self, tournament_id: int, number: int, chat_id: int, round_id: int,
                    at: float) -> bool:
        ...

    async def skip_deal(self, tournament_id: int, number: int, chat_id: int) -> None:
        ...

    async def seat(self, round_id: int) -> Seat | None:
        """The tournament round a group's round is, if it is one."""

    async def claim_board(self, tournament_id: int, number: int, chat_id: int,
                          at: float) -> bool:
        """The group's board after the round is this caller's to send (once)."""

    async def claim_follower(self, tournament_id: int, chat_id: int, number: int) -> bool:
        """A follower's board after the round is this caller's to send (once)."""

    async def unclaim_board(self, tournament_id: int, number: int, chat_id: int,
                            played: bool) -> None:
        """The board was not shown after all: it is to be sent again."""

    async def bind_player(self, tournament_id: int, user_id: int, chat_id: int) -> int:
        """The group the person plays for: this one, if they play for none yet."""

    async def players(self, tournament_id: int, most: int) -> list[PlayerStanding]:
        """The best players across every group: points, then wins, then fewer seconds."""

    async def group_players(self, tournament_id: int, chat_id: int,
                            most: int) -> list[PlayerStanding]:
        ...

    async def groups_board(self, tournament_id: int, best: int) -> list[GroupStanding]:
        """Every group ranked by the points of its `best` best players."""

    async def solves(self, tournament_id: int) -> list[Solve]:
        """Every round won in every group, by round, the fastest first."""

    async def plays_for(self, tournament_id: int, user_id: int) -> int | None:
        """The group the person plays for, if they answered in one (nothing written)."""
