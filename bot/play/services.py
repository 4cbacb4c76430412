"""Play's composition: every game service, built once at start-up over the stores, the solver
pool, the ports a face implements (a scheduler, a publisher) and a clock, and handed to the faces
as one bundle. Each service is handed what it needs here, when it is built: none reaches another's
attributes, and none is told later who it talks to. Where a lower service calls up (a close's
followers, what acts on a chat's fate), the upper part it calls deals and shows nothing, so it
is built first and passed in."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.play.achievements.service import Achievements
from bot.play.alarms import Alarms
from bot.play.cards.drawn import Drawn
from bot.play.chats.people import People, Player
from bot.play.chats.settings import ChatSettings, Settings
from bot.play.coaching import Coaching
from bot.play.community.privacy import Privacy
from bot.play.community.retention import Retention
from bot.play.community.standings import Standings
from bot.play.daily.daily import Daily
from bot.play.daily.puzzle import DailyHands
from bot.play.dealing.adaptive import AdaptiveDeals
from bot.play.dealing.analyses import Analyses
from bot.play.dealing.dealer import Dealer
from bot.play.dealing.practice import PracticeHands
from bot.play.dealing.stock import Stock
from bot.play.dealing.themes import HandThemes
from bot.play.guards.live import LivePuzzles, Shared
from bot.play.guards.once import Once
from bot.play.guards.throttle import Throttle, WorkBudget
from bot.play.matches.book import MatchBook
from bot.play.matches.matches import DEFAULT_ROUNDS, PAUSE, Matches
from bot.play.pages import PageOpener, Pages
from bot.play.places import Fates, Places
from bot.play.ports import Holding, HoldsAll, OpenRounds, Publisher, Scheduler
from bot.play.ratings.rater import Rater
from bot.play.recovery import Recovery
from bot.play.round.dealing import seconds_of
from bot.play.round.events import Closings, Following
from bot.play.round.outbox import Outbox
from bot.play.round.service import Rounds
from bot.play.round.table import RoundTable
from bot.play.round.views import Views
from bot.play.rules.batches import DEAL_SECONDS
from bot.play.solo.hand_book import heard as solo_heard
from bot.play.solo.practice import Practice
from bot.play.solo.storm_book import SECONDS as STORM_SECONDS
from bot.play.solo.storm_book import StormBook
from bot.play.solo.storms import Storms
from bot.play.solo.streak_book import StreakBook
from bot.play.solo.streaks import Streaks
from bot.play.solo.sudden import SoloHands
from bot.play.solving.solving import Solving
from bot.play.tournaments.book import TournamentBook
from bot.play.tournaments.rules import MAX_FOLLOWERS
from bot.play.tournaments.rules import PAUSE as TOURNAMENT_PAUSE
from bot.play.tournaments.service import DEAL_RATE, Tournaments
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores

SOLVE_TIMEOUT = 10.0


@dataclass(frozen=True)
class Community:
    """The services that answer about people rather than about one round: the boards, each
    player's record, the daily puzzle, what a person or a group admin may delete, and what the
    bot stops keeping as it ages (the answers' retention)."""

    standings: Standings
    daily: Daily
    privacy: Privacy
    retention: Retention


@dataclass(frozen=True)
class Services:
    people: People
    table: RoundTable
    rounds: Rounds
    alarms: Alarms
    recovery: Recovery
    matches: Matches
    places: Places
    community: Community
    solving: Solving
    settings: Settings
    outbox: Outbox
    once: Once
    achievements: Achievements
    pages: Pages  # the Mini App's pages of a player and of a group
    tournaments: Tournaments  # tournaments between groups
    coaching: Coaching  # the line a player who missed may ask under a result
    hand_themes: HandThemes  # the rated hands' themes, written for the pages
    streaks: Streaks  # /streak: hands alone until the first not solved
    storms: Storms  # /storm: hands alone against the clock
    practice: Practice  # /practice: a hand of the player's weakest theme


def nearest_of(analyses: Analyses) -> Callable[[str, tuple, int], int | None]:
    """The nearest value a hand can make, as its analysis (if known) says."""
    def nearest(game: str, hand: tuple, target: int) -> int | None:
        known = analyses.known(game, hand, target)
        return known.best[0] if known is not None and known.best is not None else None
    return nearest


def round_dropper(rounds: Rounds, table: RoundTable, people: People
                  ) -> Callable[[int], Awaitable[bool]]:
    """/forget's end of the rounds open in a private chat (its id is the person's), once their
    rows are gone: each ended early by the person, as /reveal would be, and nothing shown; the
    close finds no row, so nothing scores, rates or is owed after a restart, and the commit
    takes the round off the table with its end and status alarms. Whether there was one."""
    async def drop(chat_id: int) -> bool:
        table.forget(chat_id)  # a private chat's id is its person's
        held = [r for r in table.rounds() if r.record.chat_id == chat_id]
        for current in held:
            await rounds.end(current, "revealed", await people.round_texts(current.record),
                             ended_by=Player(chat_id, ""), follow=False)
        return bool(held)
    return drop


def build_services(stores: Stores, pool: SolverPool, scheduler: Scheduler,
                   publisher: Publisher, *, seconds: Mapping[str, float] | None = None,
                   deal_seconds: float = DEAL_SECONDS, solve_timeout: float = SOLVE_TIMEOUT,
                   pause: float = PAUSE, reads_group_messages: bool = True,
                   clock: Callable[[], float] = time.time,
                   rng: random.Random | None = None, secret: str = "",
                   page_links: PageOpener | None = None,
                   open_rounds: OpenRounds | None = None, shared_names: bool = False,
                   holding: Holding | None = None, throttle: Throttle | None = None,
                   daily_hands: DailyHands | None = None, deal_rate: float = DEAL_RATE,
                   tournament_pause: float = TOURNAMENT_PAUSE,
                   tournament_followers: int = MAX_FOLLOWERS,
                   storm_seconds: float = STORM_SECONDS) -> Services:
    """The services of one bot. `clock` is the game's time (deadlines, answer times); the
    budget of solver seconds is shared by deals and /solve, one allowance per person, and the
    live puzzles of the open rounds are what the solving service refuses; `secret` (the bot's
    own, the same on each of its processes) draws the daily puzzle's order of hands;
    `page_links` opens the Mini App's pages from /stats and /top (None: no Mini App);
    `open_rounds`, every open round where this process holds only its own chats' (None: it
    deals every round, its table holds them all): what /solve and the like refuse, and the
    bound on one person's rounds, count there too; `shared_names`: other processes store
    names too, so this one trusts what it stored for a minute only (bot.play.chats.people);
    `holding`, which chats this process plays where it plays only some (None: every chat);
    `throttle`, who hears a reply to a wrong answer (None: a burst of 3, then one a second);
    `daily_hands`, the daily puzzle's hands (None: drawn with `secret` on `clock`);
    `deal_rate`, the errands a second a tournament's schedule sends (deals, boards: under the
    bot's send rate), `tournament_pause`, its seconds between a round and the next, and
    `tournament_followers`, the chats that may follow one tournament; `storm_seconds`, a
    storm's clock at its start."""
    rng = rng or random.Random()
    people = People(stores.people, shared=shared_names)
    analyses = Analyses(pool)
    rater = Rater(stores.ratings, nearest_of(analyses))
    hand_themes = HandThemes(stores.ratings, pool)  # each rated hand's themes, for the pages
    rater.follow(hand_themes.noted)
    # the daily puzzle is live all day for everyone (what /solve and inline refuse, and what
    # the dealer never deals), as the table's live puzzles hold it
    daily_hands = daily_hands or DailyHands(secret, clock)
    shared = Shared()  # and each tournament's live round, for everyone too
    table = RoundTable(stores.rounds, clock, scheduler, LivePuzzles(daily_hands.live, shared),
                       stored=people.stored, rater=rater)
    budget = WorkBudget()
    settings = Settings(stores.people, people,
                        ChatSettings(seconds=seconds_of(seconds), match=DEFAULT_ROUNDS), clock)
    views = Views(people, table, reads_group_messages)
    book = MatchBook(stores.matches, people, table, scheduler, pause)
    achievements = Achievements(stores.achievements, people)
    entries = TournamentBook(stores.tournaments, people)  # a tournament's rounds, who may answer
    # a close's followers, in the order their lines go under its result: a match's scoreboard,
    # a streak's step, a storm's, a tournament's line, then the achievements (the last four a
    # late result says too)
    streak_book = StreakBook(stores.streaks, stores.rounds, table, scheduler)
    storm_book = StormBook(stores.storms, stores.rounds, table, scheduler)
    closings = Closings([Following(book.after_round),
                         Following(streak_book.after_round, late=True, hears=solo_heard),
                         Following(storm_book.after_round, late=True, hears=solo_heard),
                         Following(entries.after_round, late=True),
                         Following(achievements.after_round, late=True)])
    moving = asyncio.Lock()  # one move of a group to its supergroup at a time
    fates = Fates(stores.rounds, people, settings, table, scheduler, book, views, entries,
                  moving, holding)
    outbox = Outbox(publisher, table, stores.rounds, fates)
    dealer = Dealer(Stock(pool, lambda: rng.getrandbits(64)), budget, deal_seconds,
                    daily=table.live)
    adaptive = AdaptiveDeals(rater, analyses, table.live, clock, rng)
    rounds = Rounds(stores.rounds, people, table, dealer, analyses, closings, outbox, settings,
                    views, throttle=throttle, adaptive=adaptive, open_rounds=open_rounds,
                    entries=entries, sudden=SoloHands(streak_book, storm_book))
    matches = Matches(book, stores.matches, people, rounds, table, scheduler,
                      outbox, pause)
    places = Places(fates, stores.rounds, people, settings, table, scheduler, rounds, matches,
                    entries, outbox, moving)
    streaks = Streaks(streak_book, stores.streaks, people, rounds, table, outbox)
    storms = Storms(storm_book, stores.storms, people, rounds, table, outbox,
                    storm_seconds)
    practice = Practice(stores.pages, stores.ratings, people, rounds, table,
                        PracticeHands(adaptive, pool), outbox)
    tournaments = Tournaments(stores.tournaments, people, stores.people, entries, rounds, table,
                              dealer, analyses, shared, outbox, holding or HoldsAll(), clock,
                              rng, deal_rate, tournament_pause, tournament_followers)
    solving = Solving(pool, solve_timeout, analyses, budget, table.live, open_rounds)
    daily = Daily(stores.daily, people, daily_hands, clock, rater, achievements)
    drawn = Drawn()  # the share cards drawn (bot.play.cards.drawn): the pages', /forget's too
    privacy = Privacy(stores.forgetting, people, clock, stop_matches=book.stop_all,
                      drop_rounds=round_dropper(rounds, table, people),
                      remembered=(drawn.forget,))
    community = Community(standings=Standings(stores.scores, people, clock, stores.ratings,
                                              stores.streaks, stores.storms),
                          daily=daily, privacy=privacy,
                          retention=Retention(stores.rounds, clock,
                                              unfinished_forgets=privacy.finish_unfinished))
    return Services(
        people=people, table=table, rounds=rounds, alarms=Alarms(rounds, matches, streaks, storms),
        recovery=Recovery(stores.rounds, people, settings, table, rounds, matches, outbox,
                          tournaments, streaks, storms),
        matches=matches, places=places, community=community,
        solving=solving,
        settings=settings,
        outbox=outbox, once=Once(stores.updates), achievements=achievements,
        pages=Pages(stores.pages, stores.ratings, clock, page_links, stores.achievements,
                    daily, stores.tournaments, solving.live_now, drawn),
        tournaments=tournaments,
        coaching=Coaching(stores.rounds, people, rounds.endings, rounds.results, settings,
                          solving),
        hand_themes=hand_themes, streaks=streaks, storms=storms, practice=practice)
