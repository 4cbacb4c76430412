"""A coach's line after a miss (docs/themes.md, "A coach's line"): a player who tried a round and
did not solve it asks, with the button under its result, what they did not see. One short line,
to them alone, names what every solution of the hand needed and the first step of a solution that
shows it ("a fraction on the way: 8÷3 first"); for a hand that needs nothing in particular, the
first step of its simplest solution.

Asked, never sent unasked: in a group, Telegram lets a bot speak to one member alone only in
answer to that member's own action, and the press's own answer costs the group none of its
messages. Never while the round is on, never to someone who did not answer it or who won it, never
while its hand is live elsewhere (a tournament's, the daily: the line is a step of a solution),
and not in a group whose admins switched it off (/settings).
"""

from __future__ import annotations

from bot.play.chats.people import Chat, People, Player
from bot.play.chats.settings import Settings
from bot.play.games import GAMES
from bot.play.outcomes import Refused, Said
from bot.play.round.ending import Endings
from bot.play.round.results import Results
from bot.play.solving.solving import Solving
from bot.play.words.themes import theme_text
from bot.store.protocols import RoundStore
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts
from solver.themes import Themes, first_step

# which needed theme the line names, the first of these the hand needs: what a player most
# likely did not see comes first, what only narrows the search (a product last) after
COACHED = ("fraction", "beyond", "division_last", "subtraction_last", "cancel", "factor_pair",
           "unique")


class Coaching:
    """The coach's line of an ended round, for the player who asks."""

    def __init__(self, store: RoundStore, people: People, endings: Endings, results: Results,
                 settings: Settings, solving: Solving) -> None:
        self.store = store
        self.people = people
        self.endings = endings
        self.results = results
        self.settings = settings
        self.solving = solving

    async def line(self, chat: Chat, player: Player, round_id: int,
                   texts: Texts | None = None) -> Said | Refused:
        """The line for `player`, or why not, in `texts` (None: as the chat speaks to them). A
        press naming a round that is not an ended round of this chat, or of a game with no
        themes, is refused as any unknown button."""
        texts = texts or await self.people.texts(chat, player)
        ended = await self.endings.ended_here(chat, round_id)
        if ended is None or not GAMES[ended.game].rules.coaches:
            return Refused(texts("button_unknown"))
        if chat.type != "private" and not (await self.settings.of(chat.id)).coach:
            return Refused(texts("coach_off"))
        if player.id not in await self.store.answerers(ended.id):
            return Refused(texts("coach_not_tried"))
        right = await self.store.first_right_answer(ended.id)
        if right is not None and right.user_id == player.id:
            return Refused(texts("coach_won"))
        if await self.results.elsewhere(ended):
            return Refused(texts("answers_held_back"))
        said = await self.words(ended, texts)
        return Said(said) if said else Refused(texts("button_unknown"))

    async def words(self, ended: Round, texts: Texts) -> str:
        """The line: the theme and its solution's first step, else the simplest solution's
        first step ("" for a hand with no solution, which no round is dealt)."""
        found = await self.solving.themes(ended.hand, ended.target, texts)
        code = chosen(found)
        if found is not None and code is not None:
            example = found.example(code)
            assert example is not None  # every needed theme has one
            step = first_step(example.solution)
            if step is not None:
                return texts("coach_theme", theme=theme_text(texts, found, code),
                             step=shown(step, texts))
        solutions = await self.solving.solutions(ended.hand, ended.target)
        step = first_step(solutions[0]) if solutions else None
        return texts("coach_start", step=shown(step, texts)) if step is not None else ""


def chosen(found: Themes | None) -> str | None:
    """The theme the line names: the first of COACHED the hand needs."""
    if found is None:
        return None
    return next((code for code in COACHED if code in found.codes), None)


def shown(step: str, texts: Texts) -> str:
    return texts.written(markup.code(step))
