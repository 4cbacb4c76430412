"""Match mode (/match N): N rounds of 24 in a row in one chat, a scoreboard after each round, a
"30 s left" notice in each, and a podium at the end.

A plain class over the round service and storage: it says what to send and when the next round
is due, and bot.telegram.handlers schedules that with JobQueue jobs named per chat (no
Telegram and no timers here). Everything is read from the database (tables `matches` and
`match_rounds`), so a restart resumes a match where it stopped: its open round goes on, or the
next one is dealt.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.play.games import GAMES
from bot.play.rounds import AdminCheck, Chat, Game, Player, Reply
from bot.store.storage import Match, MatchRound, MatchScore, Round
from bot.text import markup
from bot.text.i18n import Texts

MIN_ROUNDS, MAX_ROUNDS, DEFAULT_ROUNDS = 2, 20, 10
PAUSE = 5.0  # seconds between the end of a round and the next deal
WARN = 30.0  # the notice comes this long before a round ends (half a round, if rounds are short)
MEDALS = ("🥇", "🥈", "🥉")
STOP_WORDS = ("stop", "end", "停止", "结束")


def parse_match(text: str) -> int | str | None:
    """/match's argument: a number of rounds (default 10), "stop", or None when it is neither."""
    text = text.strip().lower()
    if not text:
        return DEFAULT_ROUNDS
    if text in STOP_WORDS:
        return "stop"
    if text.isascii() and text.isdigit() and MIN_ROUNDS <= int(text) <= MAX_ROUNDS:
        return int(text)
    return None


@dataclass(frozen=True)
class Step:
    """What the match does after a round ended: `text` to send (a scoreboard or the podium;
    None: nothing to say) and `next_in` seconds until the next deal (None: none is due)."""

    text: str | None
    next_in: float | None


class Matches:
    """Matches in many chats. One instance for the whole bot, built at start-up."""

    def __init__(self, game: Game, pause: float = PAUSE, warn: float = WARN) -> None:
        self.game = game
        self.storage = game.storage
        self.pause = pause
        self.warn = warn

    async def start(self, chat: Chat, player: Player, count: int) -> Reply:
        """Start a match and deal its first round (refused while a match or a round is on)."""
        texts = self.game.texts(chat, player)
        if (on := await self.storage.match_on(chat.id)) is not None:
            return Reply(await self._on_text(on, texts))
        if self.game.open_round(chat.id) is not None:
            return Reply(texts("match_round_on"))
        reply = await self.game.play(chat, player, "24")
        if reply.dealt is None:
            return reply
        match = await self.storage.open_match(chat.id, count, player.id, texts.language,
                                              self.game.clock())
        if match is None:  # another /match won the race: this stays an ordinary round
            return reply
        return await self._numbered(match, reply, texts)

    async def deal_next(self, chat_id: int) -> Reply | None:
        """The next round of the chat's match, if one is due (None: no match on, a round is
        on, or the match has had its rounds). A Reply without a round says why none was dealt."""
        match = await self.storage.match_on(chat_id)
        if match is None or self.game.open_round(chat_id) is not None:
            return None
        if _played(await self.storage.match_rounds(match.id)) >= match.rounds:
            return None
        known = await self.storage.chat_and_user(chat_id, match.started_by or 0)
        if known is None:  # cannot happen: the first deal stored both; end rather than guess
            await self.storage.end_match(match.id, "stopped", self.game.clock())
            return None
        (kind, title), (first_name, username) = known
        chat = Chat(chat_id, kind, title)
        starter = Player(match.started_by or 0, first_name, username, match.lang)
        reply = await self.game.play(chat, starter, "24")
        if reply.dealt is None:
            return reply
        return await self._numbered(match, reply, self.game.texts(chat, starter))

    async def _numbered(self, match: Match, reply: Reply, texts: Texts) -> Reply:
        assert reply.dealt is not None
        number = await self.storage.add_match_round(match.id, reply.dealt.id)
        return dataclasses.replace(reply, text=reply.text + "\n" + texts(
            "match_round", number=number, count=match.rounds))

    async def after_round(self, chat_id: int, round_id: int | None) -> Step | None:
        """A round ended in the chat: the scoreboard and the next deal, or the podium."""
        match = await self.storage.match_on(chat_id)
        return None if match is None else await self._step(match, round_id, resumed=False)

    async def _step(self, match: Match, round_id: int | None, resumed: bool) -> Step | None:
        if self.game.open_round(match.chat_id) is not None:
            return Step(None, None)  # a round is on: its end brings the next step
        rounds = await self.storage.match_rounds(match.id)
        played, texts = _played(rounds), self._texts(match.chat_id, match.lang)
        scores = await self.storage.match_scores(match.id)
        if played >= match.rounds:
            if not await self.storage.end_match(match.id, "done", self.game.clock()):
                return None
            return Step(podium(texts, "match_over", played, match.rounds, scores), None)
        if not resumed and round_id not in {r.round_id for r in rounds}:
            return Step(None, self.pause)  # a round outside the match ended: go on with it
        head = texts("match_resumed", number=played + 1, count=match.rounds) if resumed else \
            texts("match_scores", number=played, count=match.rounds)
        lines = [head, *board(texts, scores), texts("match_next", seconds=round(self.pause))]
        return Step("\n".join(lines), self.pause)

    async def stop(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None
                   ) -> Reply:
        """/match stop: end the match now (whoever started it, or a chat admin), its open round
        with it, and show the podium so far."""
        texts = self.game.texts(chat, player)
        match = await self.storage.match_on(chat.id)
        if match is None:
            return Reply(texts("match_none"))
        if not await self.game.may_steer(chat, player, match.started_by, is_admin):
            name = await self.storage.user_name(match.started_by or 0)
            return Reply(texts("match_stop_not_allowed", starter=texts(
                "starter", name=markup.name(name)) if name else texts("starter_unknown")))
        if not await self.storage.end_match(match.id, "stopped", self.game.clock()):
            return Reply(texts("match_none"))
        rounds = await self.storage.match_rounds(match.id)
        current, parts, ended = self.game.open_round(chat.id), [], None
        if current is not None and current.id in {r.round_id for r in rounds}:
            revealed = await self.game.reveal(chat, player, is_admin)
            if revealed.closed:
                parts.append(revealed.text)
                ended = revealed.ended
        played = _played(await self.storage.match_rounds(match.id))
        parts.append(podium(texts, "match_stopped", played, match.rounds,
                            await self.storage.match_scores(match.id)))
        return Reply("\n\n".join(parts), closed=ended is not None, ended=ended)

    async def _on_text(self, match: Match, texts: Texts) -> str:
        rounds = await self.storage.match_rounds(match.id)
        number = max((r.number for r in rounds), default=0)
        return texts("match_on", number=max(number, 1), count=match.rounds)

    def warning_delay(self, round_: Round) -> float:
        """Seconds after the round's start when its "30 s left" notice is due."""
        length = round_.deadline - round_.started_at
        return length - (self.warn if length >= 2 * self.warn else length / 2)

    def warning(self, chat_id: int, round_id: int) -> str | None:
        """The "30 s left" notice, if the round is still on."""
        current = self.game.open_round(chat_id)
        if current is None or current.id != round_id:
            return None
        texts = self._texts(chat_id, current.lang)
        left = max(1, round(current.deadline - self.game.clock()))
        return texts("match_time_left", seconds=left,
                     puzzle=GAMES[current.game].puzzle_html(current))

    async def resume(self) -> tuple[list[Round], list[tuple[int, Step]]]:
        """After a restart (and after the round service resumed): the open rounds of matches
        (their notices to re-arm), and per chat what to send and when to deal the next round."""
        running, steps = [], []
        for match in await self.storage.matches_on():
            current = self.game.open_round(match.chat_id)
            if current is not None:
                rounds = await self.storage.match_rounds(match.id)
                if current.id in {r.round_id for r in rounds}:
                    running.append(current)
                continue  # its end brings the next step
            step = await self._step(match, None, resumed=True)
            if step is not None:
                steps.append((match.chat_id, step))
        return running, steps

    def _texts(self, chat_id: int, lang: str) -> Texts:
        """The chat's language if it chose one, else the language the match (or round) began in."""
        return self.game.texts(Chat(chat_id), Player(0, "", language_code=lang))


def _played(rounds: list[MatchRound]) -> int:
    return sum(r.status != "open" for r in rounds)


def board(texts: Texts, scores: list[MatchScore], medals: bool = False) -> list[str]:
    """The standings, one line a player (medals for the first three on the podium)."""
    if not scores:
        return [texts("match_nobody")]
    return [texts("match_line", place=MEDALS[i] if medals and i < len(MEDALS) else f"{i + 1}.",
                  name=markup.name(s.name), points=s.points, wins=s.wins)
            for i, s in enumerate(scores)]


def podium(texts: Texts, key: str, played: int, count: int, scores: list[MatchScore]) -> str:
    """The end of a match: how many rounds were played, and the standings with medals."""
    return "\n".join([texts(key, played=played, count=count),
                      *board(texts, scores, medals=True)])
