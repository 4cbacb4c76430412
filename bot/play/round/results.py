"""The words of a round's result: who won and with what, or how it ended without a winner, the
puzzle's answers under it (kept back while the same puzzle is live elsewhere), and a result owed
since before a restart. Words only: the round service decides, the table writes, this says it.
"""

from __future__ import annotations

from bot.play.chats.people import People
from bot.play.dealing.analyses import Analyses
from bot.play.games import GAMES
from bot.play.guards.live import LivePuzzles, is_rolls, live_among
from bot.play.ports import OpenRounds
from bot.play.round.decisions import Ending
from bot.play.words import Revealed
from bot.store.records import Result, Round
from bot.text import markup
from bot.text.i18n import Texts


class Results:
    def __init__(self, people: People, analyses: Analyses, live: LivePuzzles,
                 beyond: OpenRounds | None = None) -> None:
        self.people = people
        self.analyses = analyses
        self.live = live
        self.beyond = beyond  # the open rounds memory may not hold (None: it holds them all)

    async def elsewhere(self, current: Round) -> bool:
        """Whether the round's answers would reach another live round: in memory, or beyond
        it."""
        if self.live.elsewhere(current):
            return True
        if self.beyond is None:
            return False
        found = await (self.beyond.reaching_rolls(current.hand) if is_rolls(current.hand)
                       else self.beyond.reaching(current.hand))
        return live_among(found).elsewhere(current)

    async def for_everyone(self, current: Round) -> bool:
        """Whether the round's hand is live for everyone besides it (a tournament's round,
        still played in another group): then not even its winner's answer is shown."""
        reached = self.live.reaching(current.hand, current.target, besides=current.id)
        if any(live.for_everyone for live in reached):
            return True
        if self.beyond is None or is_rolls(current.hand):
            return False
        found = live_among(await self.beyond.reaching(current.hand))
        return any(live.for_everyone for live in found.reaching(current.hand, current.target,
                                                                besides=current.id))

    async def answers_shown(self, current: Round, texts: Texts) -> Revealed:
        """The puzzle's answers for its result, or a line saying they are kept back while
        the same puzzle is live in another chat (the bot solves no live round for anyone)."""
        if await self.elsewhere(current):
            return Revealed(texts("answers_held_back"), complete=False)
        analysis = await self.analyses.of(current.game, current.hand, current.target)
        return GAMES[current.game].words.revealed(analysis, current, texts)

    async def win_details(self, current: Round, texts: Texts) -> str:
        """What a win shows under its answer (a game of rolls: the optimal table), unless the puzzle
        is live elsewhere."""
        if not GAMES[current.game].rules.shows_best_on_win():
            return ""
        if await self.elsewhere(current):
            return texts("answers_held_back")
        analysis = await self.analyses.of(current.game, current.hand, current.target)
        return GAMES[current.game].words.win_details(analysis, current, texts)

    async def one_way(self, current: Round) -> bool:
        """Whether a won round has nothing more to page through: its game pages no solutions,
        or the winning answer is its only one (no [Show all solutions] under "1 solution")."""
        if not GAMES[current.game].rules.pages_solutions:
            return True
        analysis = await self.analyses.of(current.game, current.hand, current.target)
        return len(analysis.solutions) <= 1

    def won_head(self, current: Round, name: str, shown: str | None, elapsed: float,
                 texts: Texts) -> str:
        """Who won, with what (None: the answer is kept back, the hand is live for everyone),
        how fast, and the points."""
        return won(name, shown, elapsed, current.points, texts)

    def ending_head(self, current: Round, ending: Ending, texts: Texts,
                    ended_by_name: str | None, held_back: bool = False) -> str:
        """The result's head for a round that closed without a right answer (that its ender's
        answers could not win it is said only if they gave any); `held_back`: the hand is live
        for everyone (for_everyone), so the closest answer is not quoted."""
        game = GAMES[current.game]
        rules, words = game.rules, game.words
        lines = [texts("timeout" if ending.status == "expired" else "revealed",
                       goal=words.goal_html(current, texts))]
        if ending.best is not None and ending.points > 0:
            lines.append(closest(ending.best.name, None if held_back else ending.best.text,
                                 ending.best.distance, ending.points, texts))
        elif rules.closest_wins:
            lines.append(texts("nobody_close"))
        if ending.early and rules.closest_wins and ended_by_name is not None:
            lines.append(texts("ended_early" if ending.ended_by_answered
                               else "ended_early_quietly", name=markup.name(ended_by_name)))
        if ending.everyone_passed:
            lines.append(texts("ended_by_passes"))
        return "\n".join(lines)

    async def late(self, result: Result, restarted: bool = True,
                   live: bool = False) -> tuple[str, str, bool]:
        """A closed round's result, said late: its head (which round, and why late: after a
        restart of the bot, or after another of its processes took the chat over), who won it
        or that nobody did, the rest (what the round's end shows), and whether that lists every
        solution. Its hand live for everyone (`live`: the caller knows it of the round itself,
        a tournament's round not closed in every group; or as `for_everyone` finds it), neither
        the answer that won or came closest nor any solution is said, as on time."""
        current = result.round
        game = GAMES[current.game]
        rules, words = game.rules, game.words
        texts = await self.people.round_texts(current)
        held = live or await self.for_everyone(current)
        lines = [texts("late_result" if restarted else "late_taken_over",
                       game=texts.game(rules.name), puzzle=words.puzzle_html(current))]
        answer = None if held else result.answer or ""
        if result.winner_name is None or (rules.closest_wins and not result.exact):
            if result.winner_name is not None and result.distance is not None:
                lines.append(closest(result.winner_name, answer, result.distance,
                                     result.awarded, texts))
            elif rules.closest_wins:
                lines.append(texts("nobody_close"))
            revealed = Revealed(texts("answers_held_back"), complete=False) if held else \
                await self.answers_shown(current, texts)
            return "\n".join(lines), "\n" + revealed.text, revealed.complete
        seconds = result.win_seconds if result.win_seconds is not None else \
            result.ended_at - current.started_at
        assert result.winner_name is not None
        lines.append(won(result.winner_name, None if answer is None else markup.code(answer),
                         seconds, result.awarded, texts))
        details = texts("answers_held_back") if held and rules.shows_best_on_win() else \
            await self.win_details(current, texts)
        return "\n".join(lines), f"\n{details}" if details else "", not rules.pages_solutions


def won(name: str, shown: str | None, elapsed: float, points: int, texts: Texts) -> str:
    """Who won, with what (`shown`, as markup; None: kept back, the hand is live for
    everyone), how fast, and the points."""
    if shown is None:
        return texts("won_held_back", name=markup.name(name), elapsed=texts.seconds(elapsed),
                     points=points)
    return texts("won", name=markup.name(name), answer=shown, elapsed=texts.seconds(elapsed),
                 points=points)


def closest(name: str, answer: str | None, distance: int, points: int, texts: Texts) -> str:
    """Who came closest, with what (None: the answer is kept back, the hand is live for
    everyone), how far off, and the points."""
    if answer is None:
        return texts("closest_held_back", name=markup.name(name), distance=distance,
                     points=points)
    return texts("closest_wins", name=markup.name(name), answer=markup.code(answer),
                 distance=distance, points=points)


def too_late(winner: str, gap: float, texts: Texts) -> str:
    """A right answer that lost the race: who was first, and by how much."""
    name = markup.name(winner)
    if gap < 0.05:  # shown to a tenth of a second
        return texts("too_late_instant", name=name)
    return texts("too_late_by", name=name, seconds=texts.seconds(gap))
