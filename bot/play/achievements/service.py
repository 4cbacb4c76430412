"""The achievements' checking: a round's close (a follower of `RoundClosed`) and a daily
result are checked against the rules, what they earned is awarded, and the award is worded as
lines for the result message itself ("🏅 Ann: First win") — never a message of its own.

Cheap on the round's path: a private round is let go without a read; a group's round reads its
close and its players once, then for each player only their codes, and a count of their
history only for a rule they have not earned whose condition this close meets (each count
stopped at what the rule asks). The award runs right after the close is committed, and each is
written once (bot.store.sql.achievements): a close retried, a redelivered update, two closes at
once for one person in two chats, or a /forget between, announce nothing twice and bring back
no one forgotten.
"""

from __future__ import annotations

from bot.play.achievements.rules import (
    CODES,
    DAILY_ACHIEVEMENTS,
    ROUND_ACHIEVEMENTS,
    WEEK,
    Daily,
    counts,
)
from bot.play.chats.people import People
from bot.play.round.events import FollowUp, RoundClosed
from bot.play.rules.feats import Close, RoundAchievement, Tally
from bot.runtime.together import together
from bot.store.protocols import AchievementStore
from bot.store.records import Round
from bot.store.sql.achievements import ClosedRound, RoundPlayer
from bot.text import markup
from bot.text.i18n import Texts


class Achievements:
    def __init__(self, store: AchievementStore, people: People) -> None:
        self.store = store
        self.people = people

    async def after_round(self, event: RoundClosed, texts: Texts) -> FollowUp:
        """A closed round's achievements, awarded; their lines for its result (none: nothing
        new). A late close (its result said after a restart) is checked the same way, in case
        the stop came before its check, and says every achievement the round earned as stored,
        so that a result said again after another restart says the same. Worded in `texts`,
        the result's own words."""
        record = event.round
        if record.chat_id >= 0:  # a private round never counts: no read at all
            return FollowUp()
        closed = await self.store.closed_round(record.id)
        if closed is None or not counts(record.chat_id, len(closed.players)):
            return FollowUp()
        each = await together([self.of_player(record, closed, player, event.late)
                               for player in closed.players])
        lines = [earned_line(texts, player.name, code)
                 for player, codes in zip(closed.players, each, strict=True) for code in codes]
        return FollowUp("\n".join(lines) or None)

    async def of_player(self, record: Round, closed: ClosedRound, player: RoundPlayer,
                        late: bool) -> list[str]:
        """One player's codes for the result. The players are checked together (their store
        trips side by side): each reads and awards only their own rows."""
        codes = await self.award_round(record, closed, player)
        if late:  # awarded now or before the stop: said with each late result
            codes = await self.earned_in(player.user_id, record.id)
        return codes

    async def earned_in(self, user_id: int, round_id: int) -> list[str]:
        """The codes the player earned in the round, as stored, in the rules' order (the
        order a close awards them in)."""
        mine = {row.code for row in await self.store.earned(user_id) if row.round_id == round_id}
        return [code for code in CODES if code in mine]

    async def award_round(self, record: Round, closed: ClosedRound,
                          player: RoundPlayer) -> list[str]:
        """The codes the close earned the player and this call awarded. What they had is read
        with the round (an award since then is refused by the store, so nothing is said
        twice)."""
        user_id = player.user_id
        close = Close(record.game, record.level, len(record.hand),
                      closed.status == "won" and closed.winner_id == user_id, closed.right,
                      closed.win_seconds, len(closed.players))
        wanted = [rule for rule in ROUND_ACHIEVEMENTS
                  if (close.won or not rule.won) and rule.holds(close)
                  and rule.code not in player.codes]
        stored = await together([self.award(rule, user_id, closed.ended_at, record)
                                 for rule in wanted])
        return [rule.code for rule, new in zip(wanted, stored, strict=True) if new]

    async def award(self, rule: RoundAchievement, user_id: int, at: float,
                    record: Round) -> bool:
        """The rule's award (the close holds for the player already), with the count it asks
        for checked in the same statement; whether this call awarded it."""
        chat_id, round_id = record.chat_id, record.id
        if rule.tally is Tally.WINS_HERE:
            return await self.store.award_if_wins_here(user_id, rule.code, at, chat_id,
                                                       round_id, rule.reach)
        if rule.tally is Tally.RUN_HERE:
            return await self.store.award_if_run_here(user_id, rule.code, at, chat_id,
                                                      round_id, rule.reach)
        if rule.tally is Tally.PLAYED:
            return await self.store.award_if_played(user_id, rule.code, at, chat_id, round_id,
                                                    rule.reach)
        return await self.store.award(user_id, rule.code, at, chat_id, round_id)

    async def after_daily(self, user_id: int, chat_id: int, seconds: float, at: float,
                          texts: Texts) -> str:
        """A daily result just stored: the achievements it earned, awarded, as lines for the
        reply ("" when nothing is new). The daily puzzle counts wherever it is solved: one
        hand a day, the same for everyone, its first right answer kept."""
        have = await self.store.codes(user_id)
        if all(rule.code in have for rule in DAILY_ACHIEVEMENTS):
            return ""
        daily = Daily(seconds, tuple(await self.store.latest_days(user_id, WEEK)))
        lines = []
        for rule in DAILY_ACHIEVEMENTS:
            if rule.code not in have and rule.holds(daily) and \
                    await self.store.award(user_id, rule.code, at, chat_id, None):
                lines.append(texts("achievement_new", achievement=texts(
                    f"achievement_{rule.code}")))
        return "\n".join(lines)

    async def earned(self, user_id: int) -> list[str]:
        """The codes of a player's achievements, the first earned first."""
        return [row.code for row in await self.store.earned(user_id)]


def earned_line(texts: Texts, name: str, code: str) -> str:
    """One achievement earned in a round, for its result: who, and which."""
    return texts("achievement_earned", name=markup.name(name),
                 achievement=texts(f"achievement_{code}"))
