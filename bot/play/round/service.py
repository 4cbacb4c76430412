"""The round service: a round's life in many chats and topics — deal, answer, hint, pass, reveal,
time out — as a plain class tests drive without Telegram.

Every command has one shape: fetch the topic's round once (the table), call one transition of
the aggregate (bot.play.round.open_round), commit what it recorded (one write path: the table),
handle the events it raised once the database confirmed them (a round closed: a match adds its
scoreboard), word the outcome (bot.play.round.results, the games' words) and publish it through
the outbox, which acts on what became of it. What comes back is the typed outcome, for a face
that has more to say to its asker (a button's notice, a page's verdict).

The deal carries a status under its puzzle (bot.play.round.status): attempts that did not win,
Countdown's closest answers and who passed are written there at most once a second, instead of
a message each. When everyone who answered has passed, the round ends as if its time had run out.
A chat's settings (bot.play.chats.settings) say how long its next round lasts and what /play
deals there; a round keeps the terms it was dealt with.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace

from bot.play.chats.people import Chat, People, Player
from bot.play.chats.settings import ChatSettings, Settings
from bot.play.dealing.adaptive import ADAPTIVE, ADAPTIVE_AFTER, REDRAWS, AdaptiveDeals
from bot.play.dealing.analyses import Analyses
from bot.play.dealing.dealer import Dealer
from bot.play.games import GAMES, Deal, PlayOptions
from bot.play.games.feedback import Step
from bot.play.guards.permissions import AdminCheck, end_refusal, may_steer
from bot.play.guards.throttle import Admission, Throttle
from bot.play.ports import STATUS, Alarm, Target
from bot.play.round.decisions import (
    Answer,
    Ending,
    Guessed,
    LateRight,
    Missed,
    NoGuessesLeft,
    Over,
    Unread,
    Won,
)
from bot.play.round.events import Closings, FollowUp, RoundClosed
from bot.play.round.open_round import OpenRound, Terms
from bot.play.round.outbox import Outbox
from bot.play.round.outcomes import (
    Closed,
    Dealt,
    Edited,
    Marked,
    Noted,
    Outcome,
    Refused,
    Said,
)
from bot.play.round.results import Results, too_late
from bot.play.round.showing import deal_actions, hint_points, result_actions, time_left
from bot.play.round.status import STATUS_EVERY, status_line
from bot.play.round.table import RoundTable
from bot.play.words import WORDS
from bot.play.words.yahtzee import GUESS_REACTION
from bot.runtime import metrics
from bot.runtime.locks import KeyedLocks
from bot.store.protocols import RoundStore
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts

DEFAULT_SECONDS = {"24": 120.0, "countdown": 60.0, "yahtzee": 300.0}
# Each open round makes the solving commands refuse its chat's members a few hands (the rule of
# bot.play.guards.live), so how many one person, or one group's topics, keep open is bounded:
# one account then refuses a member of its group under 1% of the 1,820 four-number hands.
ROUNDS_PER_PLAYER = 3  # open rounds one person started, in all chats
ROUNDS_PER_CHAT = 5  # open rounds in one group's forum topics
OVERDUE_GRACE = 1.0  # a round's alarm gets this long to ring before the sweep ends the round
PASSED_REACTION = "👌"  # on a /pass noted, when the status is written a moment later
GIVEN_REACTION = "👌"  # on a /hint whose hint went into the deal
NONE_LEFT_REACTION = "🤷"  # on a /hint when the next step would be the answer
Answered = Closed | Edited | Marked | Noted | Said | None


class Rounds:
    """Rounds in many chats. One instance for the whole bot, built at start-up."""

    def __init__(self, store: RoundStore, people: People, table: RoundTable, dealer: Dealer,
                 analyses: Analyses, closings: Closings, outbox: Outbox, settings: Settings,
                 reads_group_messages: bool = True, throttle: Throttle | None = None,
                 adaptive: AdaptiveDeals | None = None) -> None:
        self.store = store
        self.adaptive = adaptive  # deals by the learned difficulty (None: the model's levels)
        self.people = people
        self.table = table
        self.dealer = dealer
        self.analyses = analyses
        self.closings = closings
        self.outbox = outbox
        self.settings = settings
        self.results = Results(people, analyses, table.live)
        # False in privacy mode: groups' plain messages never reach the bot, so deals there do
        # not invite players to just type the answer
        self.reads_group_messages = reads_group_messages
        self.throttle = throttle or Throttle()
        self._dealing = KeyedLocks()  # one deal at a time per topic

    @property
    def clock(self) -> Callable[[], float]:
        return self.table.clock

    # --- what is on (reading, no transition) -----------------------------------------------------

    def chat_settings(self, chat_id: int) -> ChatSettings:
        """What the chat's next round follows (the defaults where it set nothing)."""
        return self.settings.of(chat_id)

    def terms(self, chat_id: int) -> Terms:
        chosen = self.chat_settings(chat_id)
        return Terms(hints=chosen.hints, typing=chosen.typing)

    def open_round(self, chat_id: int, topic: int = 0) -> Round | None:
        """The record of the topic's open round."""
        current = self.table.of(chat_id, topic)
        return current.record if current else None

    async def find_round(self, round_id: int) -> Round | None:
        """A round, open or closed, as stored."""
        return await self.store.get_round(round_id)

    def result_head(self, round_id: int) -> str:
        """The head of a round's result as it was sent, to keep on top while its solutions
        are paged ("" once forgotten)."""
        return self.table.head(round_id)

    async def ended_here(self, chat: Chat, round_id: int, pages: bool = False) -> Round | None:
        """The ended round of this chat a result's button names (`pages`: one whose game pages
        its solutions), or None: a forged press names a round that never ended here."""
        ended = await self.store.get_round(round_id)
        if ended is None or ended.chat_id != chat.id or ended.status == "open" or \
                (pages and not GAMES[ended.game].pages_solutions):
            return None
        return ended

    def actions(self, current: OpenRound) -> tuple[str, ...]:
        """The buttons under an open round's deal as it stands."""
        return deal_actions(current.record, current.terms.hints, bool(current.answered))

    def deal_view(self, current: OpenRound) -> str:
        """The deal's text as it stands (its lines and the notes under them); after a restart it
        is worded again, less its level note and match number."""
        record = current.record
        if current.deal_text is None:
            current.worded(self._deal_text(record, self.people.round_texts(record),
                                           "private" if record.chat_id > 0 else "group",
                                           current.terms))
        return markup.clip(current.view())

    def still_open(self, current: Round, texts: Texts) -> str:
        return WORDS[current.game].still_open_text(
            current, texts, time_left(texts, current.deadline - self.clock()))

    async def _show(self, outcome: Outcome | None, target: Target) -> None:
        await self.outbox.show(outcome, target)

    # --- dealing ---------------------------------------------------------------------------------

    async def play(self, chat: Chat, player: Player, game: str,
                   options: PlayOptions | None = None, target: Target | None = None
                   ) -> Dealt | Said:
        """/play, /countdown, /yahtzee: deal a new round of the game and show it, or say which
        round is on in this topic already."""
        outcome = await self.deal(chat, player, game, options)
        await self._show(outcome, target or Target(chat.id, chat.topic))
        return outcome

    async def replay(self, chat: Chat, player: Player, round_id: int, same_level: bool,
                     target: Target | None = None) -> Dealt | Said | Refused:
        """Play again (or Same level) under the result of round `round_id`: the same game as
        its rules say, unless a round is on in the topic (a notice says so). A press naming a
        round that never ended in this chat is refused. A deal lost to another press made
        meanwhile shows nothing: that deal is right there."""
        texts = self.people.texts(chat, player)
        ended = await self.ended_here(chat, round_id)
        if ended is None:
            return Refused(texts("button_unknown"))
        if (current := self.table.of(chat.id, chat.topic)) is not None:
            return Refused(self.still_open(current.record, texts))
        outcome = await self.deal(chat, player, ended.game,
                                  GAMES[ended.game].replay_options(ended, same_level))
        if isinstance(outcome, Dealt) or self.table.of(chat.id, chat.topic) is None:
            await self._show(outcome, target or Target(chat.id, chat.topic, quote=False))
        return outcome

    async def deal(self, chat: Chat, player: Player, game: str,
                   options: PlayOptions | None = None) -> Dealt | Said:
        """A new round of the game, dealt and stored but not shown (a match numbers it first).
        One deal at a time per topic: a /play sent meanwhile waits, then hears of the new
        round."""
        texts = self.people.texts(chat, player)
        options = options or PlayOptions()
        async with self._dealing.held((chat.id, chat.topic)):
            current = self.table.of(chat.id, chat.topic)
            if current is not None:
                return Said(self.still_open(current.record, texts))
            if (bounded := self._bound(chat, player, texts)) is not None:
                return bounded
            options = self.settings.options(chat.id, game, options)
            dealt = await self._dealt(chat, player, game, options, texts)
            if isinstance(dealt, str):
                return Said(dealt)
            return await self._open(chat, player, dealt, options, texts)

    async def _dealt(self, chat: Chat, player: Player, game: str, options: PlayOptions,
                     texts: Texts) -> Deal | str:
        """The hand: an adaptive one (asked for, or a group's default once it has played
        ADAPTIVE_AFTER rounds and chose no level) for four numbers to 24; else from the stock,
        at the level play has learned of it (a hand learned to be of another level than the
        one asked is set aside, REDRAWS times at most)."""
        adaptive = self.adaptive
        plain = game == "24" and options.count in (None, 4) and options.target in (None, 24)
        if adaptive is not None and plain and (options.level == ADAPTIVE or (
                options.level is None and chat.type != "private"
                and not self.settings.chose_level(chat.id)
                and await adaptive.rounds_played(chat.id) >= ADAPTIVE_AFTER)):
            return await adaptive.deal(chat.id, player.id,
                                       self.chat_settings(chat.id).seconds[game])
        if options.level == ADAPTIVE:  # another size or target: a level drawn, as by default
            options = replace(options, level=None)
        dealt = await self.dealer.deal(GAMES[game], options, player.id, chat.id, texts)
        if adaptive is None or not isinstance(dealt, Deal):
            return dealt
        learned = await adaptive.learned_level(dealt)
        for _ in range(REDRAWS):
            if learned is None or options.level in (None, learned):
                break
            again = await self.dealer.deal(GAMES[game], options, player.id, chat.id, texts)
            if not isinstance(again, Deal):
                break
            dealt, learned = again, await adaptive.learned_level(again)
        return dealt if learned is None else adaptive.relevelled(dealt, learned)

    def _bound(self, chat: Chat, player: Player, texts: Texts) -> Said | None:
        """Why no new round may open now: the player has ROUNDS_PER_PLAYER open, or the
        group's topics ROUNDS_PER_CHAT."""
        if self.table.started_by(player.id) >= ROUNDS_PER_PLAYER:
            return Said(texts("play_too_many_rounds", most=ROUNDS_PER_PLAYER))
        if self.table.in_chat(chat.id) >= ROUNDS_PER_CHAT:
            return Said(texts("play_too_many_topics", most=ROUNDS_PER_CHAT))
        return None

    async def _open(self, chat: Chat, player: Player, dealt: Deal, options: PlayOptions,
                    texts: Texts) -> Dealt | Said:
        """Store the dealt round and arm its end (before anything is sent, so that a failed
        send cannot leave a round without an end)."""
        await self.people.remember(chat, player)
        now = self.clock()
        terms = self.terms(chat.id)
        length = self.chat_settings(chat.id).seconds[dealt.game]
        new = await self.store.open_round(chat.id, dealt.game, dealt.hand, dealt.target,
                                          dealt.level, dealt.points, texts.language, now,
                                          now + length, player.id, chat.topic,
                                          hints_on=terms.hints, typing_on=terms.typing)
        if new is None:  # another /play won the race while this hand was dealt
            current = self.open_round(chat.id, chat.topic) or \
                await self.store.open_round_of(chat.id, chat.topic)
            return Said(self.still_open(current, texts) if current else texts("no_round"))
        metrics.record_round_dealt(new.game)
        if dealt.analysis is not None:
            self.analyses.keep(new.game, new.hand, new.target, dealt.analysis)
        text = self._deal_text(new, texts, chat.type, terms)
        if options.level not in (None, ADAPTIVE) and dealt.level != options.level:
            text += "\n" + texts("play_other_level", wanted=texts(f"level_{options.level}"),
                                 level=texts(f"level_{dealt.level}"), target=dealt.target)
        opened = OpenRound(new, terms, text, fresh=True)
        self.table.add(opened)
        actions = self.actions(opened)
        opened.rewritten((text, actions, texts.language))
        return Dealt(new, text, texts, actions)

    def dealt_again(self, current: OpenRound) -> Dealt:
        """A running round's deal, shown again (its message unknown after a restart, or left
        behind in a group that became a supergroup)."""
        texts, view = self.people.round_texts(current.record), self.deal_view(current)
        actions = self.actions(current)
        current.rewritten((view, actions, texts.language))
        return Dealt(current.record, view, texts, actions)

    def _deal_text(self, current: Round, texts: Texts, chat_type: str, terms: Terms) -> str:
        typing = (self.reads_group_messages and terms.typing) or chat_type == "private"
        words = WORDS[current.game]
        return "\n".join(filter(None, [words.deal_text(current, texts),
                                        words.how_to_answer(texts, typing)]))

    # --- answers ---------------------------------------------------------------------------------

    async def answer(self, chat: Chat, player: Player, text: str, explicit: bool,
                     replied_to: int | None = None, target: Target | None = None) -> Answered:
        """Judge an answer and show what it did; None means stay silent (not an attempt, no
        round, throttled). `explicit`: given as an answer (/a, a page); a reply to the deal
        (`replied_to` its message) is one too."""
        target = target or Target(chat.id, chat.topic)
        current = self.table.get(chat.id, chat.topic)
        replied = replied_to is not None and current is not None and \
            current.is_deal(replied_to)
        explicit = explicit or replied
        if current is None:
            outcome: Answered = Said(self.people.texts(chat, player)("no_round")) \
                if explicit else None
        else:
            outcome = await self._answer(current, chat, player, text, explicit, replied)
        await self._show(outcome, target)
        return outcome

    async def _answer(self, current: OpenRound, chat: Chat, player: Player, text: str,
                      explicit: bool, replied: bool) -> Answered:
        rules = current.rules
        if rules.guesses is not None and current.is_open and \
                not current.knows_guesses(player.id):  # after a restart: read once
            current.guesses_known(player.id,
                                  await self.store.guesses_made(current.id, player.id))
        typing = chat.type == "private" or current.terms.typing
        judging = time.monotonic()
        taken = current.accept(Answer(player.id, player.first_name, text, explicit, replied,
                                      typing), self.clock())
        metrics.observe_answer_latency(current.record.game, time.monotonic() - judging)
        if taken is None:
            return None
        texts = self.people.texts(chat, player)
        await self.people.remember(chat, player)
        committed = await self.table.commit(current)
        record = current.record
        words = WORDS[record.game]
        if isinstance(taken, Over):
            return Said(texts("round_over"))
        if isinstance(taken, LateRight):
            return Said(too_late(taken.winner, taken.gap, texts))
        if isinstance(taken, Won):
            if not committed.closed:  # the database had it closed: who won, from the store
                winner = await self.store.race(record.id)
                return Said(too_late(winner.name, self.clock() - winner.at, texts)
                            if winner else texts("round_over"))
            shown = markup.code(taken.verdict.expression) if taken.verdict.expression else \
                f"<code>{taken.verdict.value}</code>"
            head = self.results.won_head(record, player.first_name, shown, taken.elapsed, texts)
            details = await self.results.win_details(record, texts)
            return await self.finish(record, head, f"\n\n{details}" if details else "", texts,
                                     await self.results.one_way(record), committed.events)
        if isinstance(taken, Guessed):  # sealed: the same mark whatever its distance
            return Marked(GUESS_REACTION, words.verdict_text(taken.verdict, record, texts,
                                                             taken.left))
        if isinstance(taken, NoGuessesLeft):
            return self._in_words(chat, player, texts, texts(
                "no_guesses_left", guesses=taken.limit, name=markup.name(player.first_name)))
        if isinstance(taken, Unread):
            return self._in_words(chat, player, texts, words.verdict_text(taken.verdict, record,
                                                                          texts))
        assert isinstance(taken, Missed)
        if not current.is_open:  # closed meanwhile: its result says the rest
            return None
        said = words.verdict_text(taken.verdict, record, texts)
        if record.message_id is None:  # no deal to write the status into (never sent)
            return self._in_words(chat, player, texts, said)
        status = self.status(current, said)
        return Noted(status.text) if isinstance(status, Marked) else status

    def _in_words(self, chat: Chat, player: Player, texts: Texts, said: str) -> Said | None:
        """What is not an answer at all is said in words, throttled: a reply to the first few,
        one note to slow down, then silence until the bucket refills."""
        admission = self.throttle.admit(chat.id, player.id)
        if admission is Admission.QUIET:
            return None
        if admission is Admission.NOTE:
            return Said(texts("slow_down", name=markup.name(player.first_name)))
        return Said(said)

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
        await self._show(outcome, target or Target(chat.id, chat.topic))
        return outcome

    async def _hint(self, chat: Chat, player: Player, is_admin: AdminCheck | None,
                    round_id: int | None) -> Edited | Marked | Refused:
        texts = self.people.texts(chat, player)
        current = self.table.of(chat.id, chat.topic)
        if current is None or (round_id is not None and current.id != round_id):
            return Refused(texts("round_over" if round_id is not None else "no_round"),
                           over=True)
        record, rules = current.record, current.rules
        if not rules.gives_hints:
            return Refused(texts("no_hints"))
        if not current.terms.hints:
            return Refused(texts("hints_off"))
        if not record.hint_used and not await may_steer(chat.type, player.id,
                                                        record.started_by, is_admin):
            return Refused(texts("hint_not_allowed", starter=await self.people.starter(
                record.started_by, texts)))
        steps = rules.hint_steps(await self.analyses.of(record.game, record.hand,
                                                        record.target))
        if not steps:
            return Refused(texts("no_hints"))
        if current.hints_given is None:  # after a restart: read once
            current.hints_known(await self.store.hints_given(record.id))
        if not current.is_open:
            return Refused(texts("round_over"), over=True)
        if (current.hints_given or 0) >= hints_allowed(len(steps)):
            return Marked(NONE_LEFT_REACTION, texts("hint_none_left"))
        points = record.points if record.hint_used else hint_points(record.points)
        given = current.hint(points)
        shown = [step_html(step, texts) for step in steps[:given]]
        current.note("hint", texts("hint_line", steps=" · ".join(shown), points=points))
        await self.table.commit(current)
        notice = texts("hint_notice", number=given, step=shown[-1], points=points)
        return self.rewrite(current, texts, notice, GIVEN_REACTION) or \
            Marked(GIVEN_REACTION, notice)

    # --- the status under the deal, and passing --------------------------------------------------

    def status(self, current: OpenRound, notice: str | None = None,
               reaction: str | None = None) -> Edited | Marked | Noted:
        """The deal with its status as it stands, if it may be written now; else the STATUS
        alarm is set to write it when it may (at most once every STATUS_EVERY seconds), and a
        `reaction` (if given) marks what asked for it meanwhile. A deal never sent can't be
        edited: its `notice` is then said."""
        record = current.record
        worded = self.people.round_texts(record)  # the deal's language
        line = status_line(current, worded, len(current.answered))
        current.note("status", line)
        wait = current.status_wait(self.clock(), STATUS_EVERY)
        scheduler = self.table.scheduler
        if wait > 0 and record.message_id is not None:
            if not scheduler.pending(STATUS, record.chat_id, record.topic):
                scheduler.set(Alarm(STATUS, record.chat_id, record.id, record.topic), wait)
            return Marked(reaction, notice or line) if reaction is not None else \
                Noted(notice or line)
        edited = self.rewrite(current, worded, notice if notice is not None else line)
        if edited is None:  # the deal shows just that already
            return Marked(reaction, notice or line) if reaction is not None else \
                Noted(notice or line)
        current.status_written(self.clock())
        return edited

    async def status_due(self, round_id: int) -> Edited | None:
        """The STATUS alarm rang: the round's deal with its status as it now stands."""
        current = self.table.find(round_id)
        if current is None or current.record.message_id is None:
            return None
        record = current.record
        texts = self.people.round_texts(record)
        current.note("status", status_line(current, texts, len(current.answered)))
        outcome = self.rewrite(current, texts, "")
        if outcome is None:  # nothing changed since the deal was last rewritten
            return None
        current.status_written(self.clock())
        await self._show(outcome, Target(record.chat_id, record.topic))
        return outcome

    def rewrite(self, current: OpenRound, texts: Texts, notice: str,
                reaction: str | None = None) -> Edited | None:
        """The deal rewritten as it now stands, or None when that is what it was last
        rewritten to show: an edit that changes nothing is never sent (Telegram would refuse
        it, 400 "message is not modified")."""
        view = (self.deal_view(current), self.actions(current), texts.language)
        if current.shows(view):
            return None
        current.rewritten(view)
        return Edited(current.record, view[0], texts, view[1], notice, reaction)

    async def pass_round(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                         round_id: int | None = None, target: Target | None = None
                         ) -> Closed | Edited | Marked | Refused:
        """/pass (or the Pass button): a player who answered gives up on the round; when all
        who answered have passed, it ends as at its time-out. Whoever may end it early now (its
        starter while nobody else answered, an admin, anyone in a private chat) ends it, as
        /reveal does; anyone else who has not answered is told who may."""
        outcome = await self._pass(chat, player, is_admin, round_id)
        target = target or Target(chat.id, chat.topic)
        if isinstance(outcome, Closed):
            target = Target(target.chat_id, target.topic, target.reply_to, False,
                            target.public_only)
        await self._show(outcome, target)
        return outcome

    async def _pass(self, chat: Chat, player: Player, is_admin: AdminCheck | None,
                    round_id: int | None) -> Closed | Edited | Marked | Refused:
        texts = self.people.texts(chat, player)
        current = self.table.of(chat.id, chat.topic)
        if current is None or (round_id is not None and current.id != round_id):
            return Refused(texts("round_over" if round_id is not None else "no_round"),
                           over=True)
        record = current.record
        answerers = await self.store.answerers(record.id)
        if player.id not in answerers:
            if await self.end_refusal(chat, player, record, is_admin) is None:
                closed = await self.end(current, "revealed", texts, ended_by=player)
                return closed or Refused(texts("no_round"), over=True)
            return Refused(texts("pass_not_answered",
                                 left=time_left(texts, record.deadline - self.clock())))
        passers = await self.store.passers(record.id)
        if not current.is_open:
            return Refused(texts("round_over"), over=True)
        current.passes_known(answerers, passers)
        if not current.pass_(player.id, player.first_name, self.clock()):
            return Refused(texts("pass_again"))
        await self.table.commit(current)
        if set(answerers) <= current.passer_ids:
            closed = await self.end(current, "revealed", texts, everyone_passed=True)
            return closed or Refused(texts("no_round"), over=True)
        notice = texts("pass_noted", count=len(current.passed), answered=len(answerers))
        shown = self.status(current, notice, PASSED_REACTION)
        return shown if not isinstance(shown, Noted) else Marked(PASSED_REACTION, notice)

    # --- ending early ----------------------------------------------------------------------------

    async def reveal(self, chat: Chat, player: Player, is_admin: AdminCheck | None = None,
                     round_id: int | None = None, target: Target | None = None
                     ) -> Closed | Refused:
        """/reveal (or the Reveal button of round `round_id`): end the round now and show the
        answers (see `end_refusal` for who may)."""
        texts = self.people.texts(chat, player)
        current = self.table.of(chat.id, chat.topic)
        outcome: Closed | Refused
        if current is None or (round_id is not None and current.id != round_id):
            outcome = Refused(texts("round_over" if round_id is not None else "no_round"),
                              over=True)
        elif (refusal := await self.end_refusal(chat, player, current.record, is_admin)) \
                is not None:
            outcome = Refused(refusal)
        else:
            closed = await self.end(current, "revealed", texts, ended_by=player)
            outcome = closed or Refused(texts("no_round"), over=True)
        target = target or Target(chat.id, chat.topic)
        await self._show(outcome, Target(target.chat_id, target.topic, target.reply_to,
                                         isinstance(outcome, Refused), target.public_only))
        return outcome

    async def end_refusal(self, chat: Chat, player: Player, current: Round,
                          is_admin: AdminCheck | None = None) -> str | None:
        """Why this player may not end the round early (None: they may): only its starter
        or an admin may, and once others have answered, only an admin
        (bot.play.guards.permissions), so that ending a round never changes who scores."""
        texts = self.people.texts(chat, player)
        answerers = await self.store.answerers(current.id) if chat.type != "private" else []
        why = await end_refusal(chat.type, player.id, current.started_by, answerers, is_admin)
        if why is None:
            return None
        left = time_left(texts, current.deadline - self.clock())
        if why == "others_answered":
            return texts("reveal_others_answered", left=left)
        return texts("reveal_not_allowed", left=left,
                     starter=await self.people.starter(current.started_by, texts))

    # --- the end ---------------------------------------------------------------------------------

    async def expire(self, round_id: int) -> Closed | None:
        """The round's time ran out: its result, shown in its topic, if this call closed it."""
        current = self.table.find(round_id)
        if current is None:
            return None
        record = current.record
        closed = await self.end(current, "expired", self.people.round_texts(record))
        await self._show(closed, Target(record.chat_id, record.topic))
        return closed

    async def overdue(self) -> list[Closed]:
        """End every open round whose deadline passed more than OVERDUE_GRACE ago (its alarm
        should have rung: the loop stalled, the process was paused): their results."""
        now = self.clock()
        late = [r.id for r in self.table.rounds() if r.record.deadline + OVERDUE_GRACE <= now]
        ended = [await self.expire(round_id) for round_id in late]
        return [closed for closed in ended if closed is not None]

    async def end(self, current: OpenRound, status: str, texts: Texts,
                  ended_by: Player | None = None, follow: bool = True,
                  more: Callable[[], Awaitable[str]] | None = None,
                  everyone_passed: bool = False) -> Closed | None:
        """Close a round without a right answer, not shown yet; None if it was closed already.
        Where the closest answer wins, it does, whether the time ran out or the round was ended
        early — but never an answer of `ended_by`, who ended it. `follow`: handle the event
        (not at a restart, where matches resume on their own); `more` words lines for under the
        result's head once the round is closed (a stopped match's podium); `everyone_passed`:
        all who answered passed (it scores as at its time-out)."""
        record, rules = current.record, current.rules
        early = status == "revealed" and self.clock() < record.deadline
        best = None
        if rules.closest_wins:
            best = await self.store.best_answer(
                record.id, excluding=ended_by.id if early and ended_by else None)
        answered = ended_by is not None and early and \
            ended_by.id in await self.store.answerers(record.id)
        if not current.is_open:
            return None
        ending = Ending(status, best, rules.points_for(best.distance) if best else 0, early,
                        ended_by.id if ended_by else None, answered, everyone_passed)
        current.close(ending, self.clock())
        committed = await self.table.commit(current)
        if not committed.closed:
            return None
        head = self.results.ending_head(record, ending, texts,
                                        ended_by.first_name if ended_by else None)
        revealed = await self.results.answers_shown(record, texts)
        if more is not None:
            head = f"{head}\n{await more()}"
        return await self.finish(record, head, "\n" + revealed.text, texts, revealed.complete,
                                 committed.events if follow else [])

    async def finish(self, ended: Round, head: str, rest: str, texts: Texts,
                     listed_all: bool, events: list[RoundClosed]) -> Closed:
        """A closed round's result, `head` then `rest`: its events handled (a match adds its
        scoreboard under the head) and its buttons."""
        followed = FollowUp()
        for event in events:
            said = await self.closings.closed(event)
            followed = FollowUp("\n".join(filter(None, [followed.lines, said.lines])) or None,
                                followed.match_on or said.match_on)
        if followed.lines:
            head = f"{head}\n{followed.lines}"
        actions = result_actions(ended, followed.match_on, listed_all)
        return Closed(ended, head + rest, head, texts, actions)


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


def seconds_of(seconds: Mapping[str, float] | None) -> dict[str, float]:
    """Round lengths per game: the defaults, with what the operator set over them."""
    return {**DEFAULT_SECONDS, **(seconds or {})}
