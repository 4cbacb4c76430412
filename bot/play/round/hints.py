"""Hints (/hint and the Hint button): the steps of a solution one at a time, each shown with its
value, for fewer points. They are written into the deal message itself (one message per round)
and told to whoever pressed the button as a notice; no hint is a new message.
"""

from __future__ import annotations

from bot.play.chats.people import Chat, People, Player
from bot.play.games import GAMES
from bot.play.games.feedback import Step
from bot.play.guards.permissions import AdminCheck, may_steer
from bot.play.round.open_round import OpenRound
from bot.play.round.outcomes import Edited, Marked, Refused
from bot.play.round.rounds import Rounds
from bot.play.round.showing import hint_points
from bot.play.round.table import RoundTable
from bot.runtime.pool import SolverPool
from bot.store.protocols import RoundStore
from bot.text import markup
from bot.text.i18n import Texts

GIVEN_REACTION = "👌"  # on a /hint whose hint went into the deal
NONE_LEFT_REACTION = "🤷"  # on a /hint when the next step would be the answer


class Hints:
    """One instance for the whole bot, beside the round service."""

    def __init__(self, store: RoundStore, people: People, table: RoundTable, pool: SolverPool,
                 rounds: Rounds) -> None:
        self.store = store
        self.people = people
        self.table = table
        self.pool = pool
        self.rounds = rounds  # words the deal as it stands

    async def hint(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                   round_id: int | None = None) -> Edited | Marked | Refused:
        """The next step of a solution (of round `round_id`, for a button under its deal).
        The first lowers the round's points (once) and is for whoever started the round or
        an admin, since it costs everyone; after it, anyone may ask for the next step, until
        the answer is one step away (`hints_allowed`). A chat may turn hints off."""
        texts = self.people.texts(chat, player)
        opened = self.table.of(chat.id, chat.topic)
        if opened is None or (round_id is not None and opened.id != round_id):
            return Refused(texts("round_over" if round_id is not None else "no_round"))
        current = opened.record
        rules = GAMES[current.game]
        if not rules.gives_hints:
            return Refused(texts("no_hints"))
        if not self.rounds.chat_settings(chat.id).hints:
            return Refused(texts("hints_off"))
        if not current.hint_used and not await may_steer(chat.type, player.id,
                                                         current.started_by, is_admin):
            return Refused(texts("hint_not_allowed", starter=await self.people.starter(
                current.started_by, texts)))
        steps = await rules.hint_steps(self.pool, current)
        if not steps:
            return Refused(texts("no_hints"))
        given = await self._given(opened)
        if given >= hints_allowed(len(steps)):
            none_left = texts("hint_none_left")
            return Marked(NONE_LEFT_REACTION, none_left)
        points = current.points if current.hint_used else hint_points(current.points)
        if await self.store.give_hint(current.id, given + 1, points):
            current = opened.hinted(given + 1, points)
        shown = [step_html(step, texts) for step in steps[:given + 1]]
        line = texts("hint_line", steps=" · ".join(shown), points=points)
        return Edited(current, self.rounds.deal_view(opened, ("hint", line)), texts,
                      self.rounds.actions(opened),
                      texts("hint_notice", number=given + 1, step=shown[-1], points=points),
                      GIVEN_REACTION)

    async def _given(self, current: OpenRound) -> int:
        """How many steps of this round's solution were given (read once after a restart)."""
        if current.hints_given is None:
            current.hints_given = await self.store.hints_given(current.id)
        return current.hints_given


def hints_allowed(steps: int) -> int:
    """How many of a solution's steps hints give: never the last (it is the answer), nor the
    one before it, which leaves the answer a single step away ("12×(9+13) = 264" of
    12×(9+13)÷11); one at least."""
    return max(1, steps - 2)


def step_html(step: Step, texts: Texts) -> str:
    """A step with its value ("3−8÷3 = 1÷3"); a step that is its own value ("8÷3") once."""
    expression, value = markup.expression(step[0]), markup.value(step[1])
    if expression == value:
        return f"<code>{expression}</code>"
    return texts("step_value", step=f"<code>{expression}</code>", value=f"<code>{value}</code>")
