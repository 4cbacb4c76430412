"""Hints (/hint and the Hint button): the steps of a solution one at a time, each shown with its
value, for fewer points. They are written into the deal message itself (one message per round)
and told to whoever pressed the button as a notice; no hint is a new message.
"""

from __future__ import annotations

from bot.play.feedback import Step
from bot.play.games import GAMES
from bot.play.people import Chat, Player
from bot.play.permissions import AdminCheck, may_steer
from bot.play.reply import Reply
from bot.play.rounds import Rounds, hint_points
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts

GIVEN_REACTION = "👌"  # on a /hint whose hint went into the deal
NONE_LEFT_REACTION = "🤷"  # on a /hint when the next step would be the answer


class Hints:
    """One instance for the whole bot, beside the round service."""

    def __init__(self, rounds: Rounds) -> None:
        self.rounds = rounds
        self.board = rounds.board

    async def hint(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None
                   ) -> Reply:
        """The next step of a solution. The first lowers the round's points (once) and is for
        whoever started the round or an admin, since it costs everyone; after it, anyone may
        ask for the next step, until only the answer itself is left."""
        texts = self.rounds.people.texts(chat, player)
        current = self.board.of(chat.id, chat.topic)
        if current is None:
            return _refusal(texts("no_round"))
        rules = GAMES[current.game]
        if not rules.gives_hints:
            return _refusal(texts("no_hints"))
        if not current.hint_used and not await may_steer(chat.type, player.id,
                                                         current.started_by, is_admin):
            return _refusal(texts("hint_not_allowed", starter=await self.rounds.people.starter(
                current.started_by, texts)))
        steps = await rules.hint_steps(self.rounds.pool, current)
        if not steps:
            return _refusal(texts("no_hints"))
        given = await self._given(current)
        if given >= max(1, len(steps) - 1):  # the last step is the answer: never a hint
            none_left = texts("hint_none_left")
            return Reply(none_left, notice=none_left, reaction=NONE_LEFT_REACTION)
        points = current.points if current.hint_used else hint_points(current.points)
        if await self.rounds.store.give_hint(current.id, given + 1, points):
            self.board.hints[current.id] = given + 1
            self.board.update(current, points=points, hint_used=True)
        current = self.board.of(chat.id, chat.topic) or current
        shown = [step_html(step, texts) for step in steps[:given + 1]]
        line = texts("hint_line", steps=" · ".join(shown), points=points)
        return Reply(self.rounds.deal_view(current, ("hint", line)), edit=current,
                     notice=texts("hint_notice", number=given + 1, step=shown[-1],
                                  points=points),
                     reaction=GIVEN_REACTION)

    async def _given(self, current: Round) -> int:
        """How many steps of this round's solution were given (read once after a restart)."""
        if current.id not in self.board.hints:
            self.board.hints[current.id] = \
                await self.rounds.store.hints_given(current.id) if current.hint_used else 0
        return self.board.hints[current.id]


def step_html(step: Step, texts: Texts) -> str:
    """A step with its value ("3−8÷3 = 1÷3"); a step that is its own value ("8÷3") once."""
    expression, value = markup.expression(step[0]), markup.value(step[1])
    if expression == value:
        return f"<code>{expression}</code>"
    return texts("step_value", step=f"<code>{expression}</code>", value=f"<code>{value}</code>")


def _refusal(text: str) -> Reply:
    return Reply(text, notice=text)
