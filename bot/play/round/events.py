"""What follows a round's close, inside play: the event a closed round raises, and who follows it
(a match adds its scoreboard and sets its next deal). The round service raises it once the
database closed the round; the Telegram side only sends the result it is handed.

A follower's lines ride on the result, so they are worded in the result's words (`Texts`, handed
to it): a message is in one language, the language of its first line (docs/translating.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.runtime.together import together
from bot.store.records import Round
from bot.text.i18n import Texts


@dataclass(frozen=True)
class RoundClosed:
    """A round the database closed; `late`: its result is said after a restart, where only
    the followers of a late close hear it (a match resumes on its own)."""

    round: Round
    late: bool = False


@dataclass(frozen=True)
class FollowUp:
    """What a follower adds to a result: `lines` under its head (a scoreboard, a podium),
    whether a match still runs in the topic (its result then offers no Play again), and
    whether the round's answers come later (a tournament's: no Show all solutions until the
    round closed in every group)."""

    lines: str | None = None
    match_on: bool = False
    answers_later: bool = False


Follower = Callable[[RoundClosed, Texts], Awaitable[FollowUp]]
"""A follower of closes: the event, and the words of the result its lines will join."""


@dataclass(frozen=True)
class Following:
    """A follower of the closes; `late`: it hears a late close too (its lines must then be the
    close's stored facts, the same each time the result is said: the achievements' line);
    `hears`: the closes it is asked about at all (None: every one), so that a follower of a
    few rounds (a streak's, in private chats) costs the others' closes nothing."""

    follower: Follower
    late: bool = False
    hears: Callable[[Round], bool] | None = None


class Closings:
    """The closes' followers, in the order their lines go under a result; handed in when the
    composition builds it (they deal and show nothing, so they are built before the rounds)."""

    def __init__(self, followers: Sequence[Following] = ()) -> None:
        self._followers = tuple(followers)

    async def closed(self, event: RoundClosed, texts: Texts) -> FollowUp:
        """Every follower's answer to the event (a late one: those that follow late closes),
        joined in the followers' order, each worded in `texts`: the result's own words. They
        are asked together: each reads and writes only what is its own (a match's rows, a
        tournament's, a player's achievements), and the result waits for all of them, so
        their store trips go side by side (one SQLite trip carries what they ask at once)
        rather than one follower's after another's."""
        asked = [following.follower(event, texts) for following in self._followers
                 if (following.late or not event.late)
                 and (following.hears is None or following.hears(event.round))]
        lines, match_on, later = [], False, False
        for said in await together(asked):  # an error: raised once every other ended
            if said.lines:
                lines.append(said.lines)
            match_on = match_on or said.match_on
            later = later or said.answers_later
        return FollowUp("\n".join(lines) or None, match_on, later)
