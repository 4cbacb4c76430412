"""Steering a running round: /hint writes the next step of a solution into the deal, /pass gives
up on it (all who answered passing ends it), /reveal ends it now — each refused to whoever may
not. Who may is decided here; how a round then ends, by bot.play.round.ending.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.play.chats.people import Chat, People, Player
from bot.play.chats.settings import Settings
from bot.play.dealing.analyses import Analyses
from bot.play.games.help import no_round
from bot.play.guards.permissions import AdminCheck, end_refusal, may_steer
from bot.play.outcomes import Closed, Edited, Marked, Noted, Refused, Said
from bot.play.ports import Target
from bot.play.round.ending import Endings
from bot.play.round.open_round import OpenRound
from bot.play.round.outbox import Outbox
from bot.play.round.showing import hint_points, time_left
from bot.play.round.table import RoundTable
from bot.play.round.views import Views
from bot.play.rules.feedback import Step
from bot.play.rules.records import Hint, Together
from bot.store.protocols import RoundStore
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts

PASSED_REACTION = "👌"  # on a /pass noted, when the status is written a moment later
GIVEN_REACTION = "👌"  # on a /hint whose hint went into the deal
NONE_LEFT_REACTION = "🤷"  # on a /hint when the next step would be the answer


class Steering:
    """Hints, passes and reveals of the open rounds."""

    def __init__(self, store: RoundStore, people: People, table: RoundTable, analyses: Analyses,
                 views: Views, endings: Endings, outbox: Outbox, settings: Settings) -> None:
        self.store = store
        self.settings = settings  # what a hint refused names: the chat's setting, or the round's
        self.people = people
        self.table = table
        self.analyses = analyses
        self.views = views
        self.endings = endings
        self.outbox = outbox

    def _asked_of(self, chat: Chat, round_id: int | None, texts: Texts
                  ) -> OpenRound | Refused:
        """The topic's open round, or why there is none to steer (`round_id`: the round a
        button under its deal names, which may be over)."""
        current = self.table.of(chat.id, chat.topic)
        if current is None or (round_id is not None and current.id != round_id):
            return Refused(texts("round_over") if round_id is not None else no_round(texts),
                           over=True)
        return current

    # --- hints -----------------------------------------------------------------------------------

    async def hint(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                   round_id: int | None = None, target: Target | None = None
                   ) -> Edited | Marked | Refused:
        """The next step of a solution (of round `round_id`, for a button under its deal),
        written into the deal. The first lowers the round's points (once) and is for whoever
        started the round or an admin, since it costs everyone; after it, anyone may ask for
        the next step, until the answer is one step away (`hints_allowed`). A chat may turn
        hints off (from its next round)."""
        outcome = await self._hint(chat, player, is_admin, round_id)
        await self.outbox.show(outcome, target or Target(chat.id, chat.topic))
        return outcome

    async def _hint(self, chat: Chat, player: Player, is_admin: AdminCheck | None,
                    round_id: int | None) -> Edited | Marked | Refused:
        texts = await self.people.texts(chat, player)
        current = self._asked_of(chat, round_id, texts)
        if isinstance(current, Refused):
            return current
        record, rules = current.record, current.rules
        if not rules.gives_hints:
            return Refused(texts("no_hints"))
        if not current.terms.hints:  # the chat's setting, or terms of the round's own (a
            chosen = await self.settings.of(chat.id)  # tournament's: the same for every group)
            return Refused(texts("hints_off" if not chosen.hints else "hints_off_round"))
        hints = rules.hints(await self.analyses.of(record.game, record.hand, record.target))
        if not hints:
            return Refused(texts("no_hints"))
        if current.hints_given is None:  # after a restart: read once
            current.hints_known(await self.store.hints_given(record.id))
        if not current.is_open:
            return Refused(texts("round_over"), over=True)
        given = current.hints_given or 0
        if given >= len(hints):
            return Marked(NONE_LEFT_REACTION, texts("hint_none_left"))
        costs = not isinstance(hints[given], Together)  # a step halves the points, once
        if costs and not record.hint_used and not await may_steer(
                chat.type, player.id, record.started_by, is_admin):
            return Refused(texts("hint_not_allowed", starter=await self.people.starter(
                record.started_by, texts)))
        points = hint_points(record.points) if costs and not record.hint_used else record.points
        given = current.hint(points)
        dealt = await self.people.round_texts(record)  # the deal's line in the deal's language
        current.note("hint", hint_words(hints[:given], points, dealt)[0])
        notice = hint_words(hints[:given], points, texts)[1]  # the asker's, in theirs
        await self.table.commit(current)
        return await self.views.rewrite(current, dealt, notice, GIVEN_REACTION) or \
            Marked(GIVEN_REACTION, notice)

    # --- passing ---------------------------------------------------------------------------------

    async def pass_round(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                         round_id: int | None = None, target: Target | None = None
                         ) -> Closed | Edited | Marked | Refused | Said:
        """/pass (or the Pass button): a player who answered gives up on the round; when all
        who answered have passed — and two at least answered, or half its time has gone — it
        ends as at its time-out (`passes_end`), so one player's pass never ends another's round.
        Whoever may end it early now (its starter while nobody else answered, an admin, anyone
        in a private chat) ends it, as /reveal does; anyone else who has not answered is told
        who may."""
        outcome = await self._pass(chat, player, is_admin, round_id)
        target = target or Target(chat.id, chat.topic)
        if isinstance(outcome, Closed):
            target = Target(target.chat_id, target.topic, target.reply_to, False,
                            target.public_only)
        await self.outbox.show(outcome, target)
        return outcome

    async def _pass(self, chat: Chat, player: Player, is_admin: AdminCheck | None,
                    round_id: int | None) -> Closed | Edited | Marked | Refused | Said:
        texts = await self.people.texts(chat, player)
        current = self._asked_of(chat, round_id, texts)
        if isinstance(current, Refused):
            return current
        record = current.record
        answerers = await self.store.answerers(record.id)
        if player.id not in answerers:
            if await self.end_refusal(chat, player, record, is_admin) is None:
                closed = await self.endings.end(current, "revealed", texts, ended_by=player)
                return closed or Refused(no_round(texts), over=True)
            return Refused(texts("pass_not_answered",
                                 left=time_left(texts, record.deadline - self.table.clock())))
        passers = await self.store.passers(record.id)
        if not current.is_open:
            return Refused(texts("round_over"), over=True)
        current.passes_known(answerers, passers)
        passed_now = current.pass_(player.id, player.first_name, self.table.clock())
        if passed_now:
            await self.table.commit(current)
        everyone = set(answerers) <= current.passer_ids
        if everyone and (self.passes_end(record, answerers) or await self.end_refusal(
                chat, player, record, is_admin) is None):
            closed = await self.endings.end(current, "revealed", texts, everyone_passed=True)
            return closed or Refused(no_round(texts), over=True)
        if not passed_now:
            return Refused(texts("pass_again"))
        if everyone:  # one answered, early: the round goes on for the others, and they hear why
            return await self._goes_on(current, chat, texts)
        notice = texts("pass_noted", count=len(current.passed), answered=len(answerers))
        shown = await self.views.status(current, notice, PASSED_REACTION)
        return shown if not isinstance(shown, Noted) else Marked(PASSED_REACTION, notice)

    async def _goes_on(self, current: OpenRound, chat: Chat, texts: Texts) -> Said:
        """A pass that ends nothing yet: the status names it (now, or by its alarm) and the
        passer is told why the round goes on, and when passes may end it."""
        notice = texts("pass_noted_waiting", left=time_left(
            texts, halfway(current.record) - self.table.clock()))
        status = await self.views.status(current, notice)
        if isinstance(status, Edited):
            await self.outbox.show(status, Target(chat.id, chat.topic))
        return Said(notice)

    def passes_end(self, record: Round, answerers: Sequence[int]) -> bool:
        """Whether passes may end the round: two or more answered it, or half its time has
        gone (before then, one player's pass would end the round of a starter who had no try)."""
        return len(answerers) >= 2 or self.table.clock() >= halfway(record)

    # --- ending early ----------------------------------------------------------------------------

    async def reveal(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                     round_id: int | None = None, target: Target | None = None
                     ) -> Closed | Refused:
        """/reveal (or the Reveal button of round `round_id`): end the round now and show the
        answers (see `end_refusal` for who may)."""
        texts = await self.people.texts(chat, player)
        current = self._asked_of(chat, round_id, texts)
        outcome: Closed | Refused
        if isinstance(current, Refused):
            outcome = current
        elif (refusal := await self.end_refusal(chat, player, current.record, is_admin)) \
                is not None:
            outcome = Refused(refusal)
        else:
            closed = await self.endings.end(current, "revealed", texts, ended_by=player)
            outcome = closed or Refused(no_round(texts), over=True)
        target = target or Target(chat.id, chat.topic)
        await self.outbox.show(outcome, Target(target.chat_id, target.topic, target.reply_to,
                                               isinstance(outcome, Refused), target.public_only))
        return outcome

    async def end_refusal(self, chat: Chat, player: Player, current: Round,
                          is_admin: AdminCheck | None = None) -> str | None:
        """Why this player may not end the round early (None: they may): only its starter
        or an admin may, and once others have answered, only an admin
        (bot.play.guards.permissions), so that ending a round never changes who scores."""
        texts = await self.people.texts(chat, player)
        answerers = await self.store.answerers(current.id) if chat.type != "private" else []
        why = await end_refusal(chat.type, player.id, current.started_by, answerers, is_admin)
        if why is None:
            return None
        left = time_left(texts, current.deadline - self.table.clock())
        if why == "others_answered":
            return texts("reveal_others_answered", left=left)
        return texts("reveal_not_allowed", left=left,
                     starter=await self.people.starter(current.started_by, texts))


def halfway(record: Round) -> float:
    """When half a round's time has gone."""
    return record.started_at + (record.deadline - record.started_at) / 2


def hint_words(given: Sequence[Hint], points: int, texts: Texts) -> tuple[str, str]:
    """The hints given so far as the deal's line, and the last as a notice: the steps with the
    round's points, or the numbers that go together (which cost nothing)."""
    last = given[-1]
    if isinstance(last, Together):
        together = texts("hint_together", numbers=texts.listing(
            [f"<code>{n}</code>" for n in last.numbers]))
        return together, together
    shown = [step_html(step, texts) for step in given if not isinstance(step, Together)]
    return (texts("hint_line", steps=" · ".join(shown), points=points),
            texts("hint_notice", number=len(given), step=shown[-1], points=points))


def step_html(step: Step, texts: Texts) -> str:
    """A step with its value ("3−8÷3 = 1÷3"); a step that is its own value ("8÷3") once."""
    expression, value = markup.expression(step[0]), markup.value(step[1])
    if expression == value:
        return texts.written(f"<code>{expression}</code>")
    return texts("step_value", step=f"<code>{expression}</code>", value=f"<code>{value}</code>")
