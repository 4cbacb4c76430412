"""A group in a running tournament that becomes a supergroup keeps playing, on each backend:
every tournament row naming it follows the move (its place, its deals, its players, the
tournaments it made, what it follows), so it keeps its points, its players stay bound to it, the
next round is dealt to the supergroup and the board shows it once — whether it moved between
rounds or with its round open. And a supergroup already in play merges with it, one place each.
What the tournaments' book remembers of the group follows too: on the process that moved it, and
on another that plays the supergroup and takes the move up."""

from __future__ import annotations

import re

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Closed, Said
from bot.play.ports import Errand, Handover
from bot.play.services import Services
from bot.play.tournaments.rules import TournamentRequest
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock, FakeScheduler, new_services, ring_due
from tests.bot.play.tournaments.test_service import (
    ANN,
    BEN,
    BLUE,
    CY,
    PAUSE,
    RED,
    Publisher,
    admin,
    deals,
    look,
    made,
    started,
)
from tests.bot.play.tournaments.test_service import publisher as publisher
from tests.bot.play.tournaments.test_service import wired as wired

GREEN = Chat(-103, "group", "Green")
SUPERGREEN = Chat(-1_000_000_000_103, "supergroup", "Green")
DEE = Player(4, "Dee", language_code="en")


def boards(publisher: Publisher, chat: Chat) -> list[str]:
    return [o.text for o in publisher.to(chat) if isinstance(o, Said)]


async def standings(services: Services) -> dict[int, int]:
    """Each group's points on the board, by chat."""
    return {g.chat_id: g.points for g in await services.tournaments.store.groups_board(1, 3)}


async def round_one(services: Services, publisher: Publisher, clock: Clock) -> tuple:
    """Three groups started; round 1 solved in Red and Blue, and in Green by Cy: its hand."""
    await made(services, groups=(RED, BLUE, GREEN))
    await started(services, clock)
    hand = deals(publisher, GREEN)[0].round.hand
    clock.now += 2
    for chat, player in ((RED, ANN), (BLUE, BEN), (GREEN, CY)):
        assert isinstance(await services.rounds.answer(chat, player, solve(hand)[0],
                                                       explicit=True), Closed)
    await look(services, clock)
    assert len(boards(publisher, GREEN)) == 1, "round 1's board"
    return hand


async def test_a_group_moved_between_rounds_keeps_playing_as_the_supergroup(
        services: Services, publisher: Publisher, clock: Clock):
    await round_one(services, publisher, clock)
    points = (await standings(services))[GREEN.id]
    assert points > 0
    await services.places.migrate(GREEN.id, SUPERGREEN.id)
    clock.now += PAUSE
    await look(services)
    assert len(deals(publisher, GREEN)) == 1, "round 2 is not dealt to the old group"
    [dealt] = deals(publisher, SUPERGREEN)
    assert "round 2 of 3" in dealt.text and "3 groups" in dealt.text
    assert await standings(services) == {RED.id: points, BLUE.id: points,
                                         SUPERGREEN.id: points}, "its points, under its new id"
    store = services.tournaments.store
    assert await store.bind_player(1, CY.id, BLUE.id) == SUPERGREEN.id, "Cy plays for it still"
    refused = await services.rounds.answer(BLUE, CY, solve(dealt.round.hand)[0], explicit=True)
    assert isinstance(refused, Said) and "for Green" in refused.text
    clock.now += 3
    won = await services.rounds.answer(SUPERGREEN, DEE, solve(dealt.round.hand)[0],
                                       explicit=True)
    assert isinstance(won, Closed) and "every group has played it" in won.text
    for chat, player in ((RED, ANN), (BLUE, BEN)):
        await services.rounds.answer(chat, player, solve(dealt.round.hand)[0], explicit=True)
    await look(services, clock)
    [board] = boards(publisher, SUPERGREEN)
    assert "round 2 of 3 is over" in board and "Here: <b>Dee</b>" in board
    groups = [line for line in board.splitlines() if re.fullmatch(r"\d\. \w+ — .*", line)]
    assert [line[3:] for line in groups if "Green" in line] == \
        [f"Green — {points + dealt.round.points} points"], "once, with its points of both rounds"
    assert "Cy (Green)" in board and "Dee (Green)" in board
    assert len(boards(publisher, GREEN)) == 1, "no board to the old group"


async def test_a_group_moved_with_its_round_open_finishes_it_as_the_supergroup(
        services: Services, scheduler: FakeScheduler, publisher: Publisher, clock: Clock):
    await made(services, groups=(RED, BLUE, GREEN))
    await started(services, clock)
    hand = deals(publisher, GREEN)[0].round.hand
    await services.places.migrate(GREEN.id, SUPERGREEN.id)
    [again] = deals(publisher, SUPERGREEN)  # the deal, shown again where its members are
    assert again.round.hand == hand and "round 1 of 3" in again.text
    clock.now += 4
    won = await services.rounds.answer(SUPERGREEN, DEE, solve(hand)[0], explicit=True)
    assert isinstance(won, Closed) and "every group has played it" in won.text
    for chat, player in ((RED, ANN), (BLUE, BEN)):
        await services.rounds.answer(chat, player, solve(hand)[0], explicit=True)
    await look(services, clock)
    [board] = boards(publisher, SUPERGREEN)
    assert "round 1 of 3 is over" in board and "Here: <b>Dee</b> solved it" in board
    assert not boards(publisher, GREEN)
    points = await standings(services)
    assert set(points) == {RED.id, BLUE.id, SUPERGREEN.id} and points[SUPERGREEN.id] > 0
    assert [g.title for g in await services.tournaments.store.groups_board(1, 3)
            ].count("Green") == 1
    clock.now += PAUSE
    await look(services)
    assert len(deals(publisher, SUPERGREEN)) == 2 and len(deals(publisher, GREEN)) == 1
    assert "round 2 of 3" in deals(publisher, SUPERGREEN)[-1].text
    assert not await ring_due(services, scheduler), "no alarm left for the old group"


async def test_every_row_naming_the_group_moves_in_the_move(stores: Stores,
                                                            services: Services,
                                                            publisher: Publisher, clock: Clock):
    """The tournament it made (its admin steers it from the supergroup), its place, deals,
    players and what it follows: nothing of it is left under the old id."""
    said = await services.tournaments.new(GREEN, ANN, TournamentRequest(name="Cup", rounds=3,
                                                                        starts_in=60), admin)
    assert said.code is not None
    await services.tournaments.join(RED, BEN, said.code, admin)
    other = await services.tournaments.new(BLUE, BEN, TournamentRequest(name="Open"), admin)
    assert other.code is not None
    await services.tournaments.follow(GREEN, ANN, other.code, admin)
    await started(services, clock)
    await services.rounds.answer(GREEN, CY, "1+1", explicit=True)  # Cy plays for Green
    await stores.people.migrate_chat(GREEN.id, SUPERGREEN.id)
    db = stores.tournaments.db  # type: ignore[attr-defined]
    for table in ("tournaments", "tournament_groups", "tournament_deals", "tournament_players",
                  "tournament_followers"):
        [[left]] = await db.fetch(f"SELECT COUNT(*) FROM {table} WHERE chat_id = {GREEN.id}")
        [[moved]] = await db.fetch(f"SELECT COUNT(*) FROM {table} WHERE chat_id = "
                                   f"{SUPERGREEN.id}")
        assert (table, left, moved) == (table, 0, 1)
    on = await services.tournaments.store.of_chat(SUPERGREEN.id)
    assert on is not None and on.code == said.code and on.chat_id == SUPERGREEN.id


async def test_a_supergroup_already_in_play_merges_with_the_group_one_place_each(
        stores: Stores, services: Services):
    """The supergroup was in play before the bot heard of the move: in the same tournament,
    one place (the group's rounds count for the supergroup); a tournament both follow, followed
    once; in another tournament not over, the supergroup's own stands (one at a time) and the
    group's place stays behind, played no more."""
    code = await made(services, groups=(RED, GREEN, SUPERGREEN))
    other = await services.tournaments.new(BLUE, BEN, TournamentRequest(name="Open"), admin)
    assert other.code is not None and other.tournament_id == 2
    for chat in (GREEN, SUPERGREEN):
        assert "follows" in (await services.tournaments.follow(chat, ANN, other.code,
                                                               admin)).text
    await stores.people.migrate_chat(GREEN.id, SUPERGREEN.id)
    store = services.tournaments.store
    assert sorted(e.chat_id for e in await store.entrants(1)) == sorted([RED.id, SUPERGREEN.id])
    assert [chat for chat, _ in await store.followers(2)] == [SUPERGREEN.id]
    teal, superteal = Chat(-104, "group", "Teal"), Chat(-1_000_000_000_104, "supergroup", "Teal")
    own = await services.tournaments.new(superteal, BEN, TournamentRequest(name="Own"), admin)
    assert own.code is not None
    assert "joined" in (await services.tournaments.join(teal, BEN, code, admin)).text
    await stores.people.migrate_chat(teal.id, superteal.id)
    on = await store.of_chat(superteal.id)
    assert on is not None and on.code == own.code, "one tournament at a time: its own"
    assert [e.playing for e in await store.entrants(1) if e.chat_id == teal.id] == [False]


async def test_a_player_bound_before_the_move_answers_for_the_supergroup(
        services: Services, publisher: Publisher, clock: Clock):
    """Cy answered for Green in round 1; Green moves; Cy's answer in its round 2 counts, in the
    same process that bound Cy (its memory follows the move, as the database does: the book's
    `moved`), and Red's round still refuses Cy as one who plays for Green."""
    await round_one(services, publisher, clock)
    await services.places.migrate(GREEN.id, SUPERGREEN.id)
    clock.now += PAUSE
    await look(services)
    [dealt] = deals(publisher, SUPERGREEN)
    refused = await services.rounds.answer(RED, CY, solve(dealt.round.hand)[0], explicit=True)
    assert isinstance(refused, Said) and "for Green" in refused.text
    won = await services.rounds.answer(SUPERGREEN, CY, solve(dealt.round.hand)[0],
                                       explicit=True)
    assert isinstance(won, Closed), getattr(won, "text", won)


async def test_a_round_moved_open_is_seated_in_the_supergroup(
        services: Services, publisher: Publisher, clock: Clock):
    """The book's seat of a group's round dealt here names the supergroup once the round moved
    there, as the store's deal does; and the supergroup is among the chats in play."""
    await made(services, groups=(RED, BLUE, GREEN))
    await started(services, clock)
    [dealt] = deals(publisher, GREEN)
    book = services.tournaments.book
    await services.places.migrate(GREEN.id, SUPERGREEN.id)
    moved = await services.table.store.get_round(dealt.round.id)
    assert moved is not None and moved.chat_id == SUPERGREEN.id
    seat = await book.seat(moved)
    assert seat is not None and seat.chat_id == SUPERGREEN.id
    assert await services.tournaments.store.seat(dealt.round.id) == seat
    assert book._chats is not None and SUPERGREEN.id in book._chats and \
        GREEN.id not in book._chats


class Plays:
    """The Holding port of a process that plays `chats` only: its tournaments' errands to the
    other's chats are done there at once (as the stream carries them), its moves handed over
    kept for the test to deliver."""

    def __init__(self, *chats: Chat) -> None:
        self.chats = {chat.id for chat in chats}
        self.other: Services | None = None
        self.handed: list[Handover] = []

    def holds(self, chat_id: int) -> bool:
        return chat_id in self.chats

    async def hand_over(self, moved: Handover) -> None:
        self.handed.append(moved)

    async def carry(self, errand: Errand) -> None:
        assert self.other is not None
        await self.other.tournaments.errand(errand)


async def test_a_move_another_process_made_reaches_this_ones_book(
        stores: Stores, pool: SolverPool, clock: Clock):
    """Two processes over one database (a cluster's workers): the first plays Red and Green and
    runs the schedule, the second plays Blue and the supergroup Green becomes. Cy answers for
    Green, then tries Blue's round: the second process remembers Cy bound to Green. Green moves
    with its round open; the second takes the round up from the handover (`take_moved`), and
    its book follows the move: Cy's answer in the supergroup wins it."""
    mine, theirs = Plays(RED, GREEN), Plays(BLUE, SUPERGREEN)
    first_shown, second_shown = Publisher(), Publisher()
    first, _ = new_services(stores, pool, clock, seed=1, publisher=first_shown, holding=mine,
                            seconds={"24": 60}, deal_rate=1000.0, tournament_pause=PAUSE)
    second, _ = new_services(stores, pool, clock, seed=2, publisher=second_shown,
                             holding=theirs, seconds={"24": 60}, deal_rate=1000.0,
                             tournament_pause=PAUSE)
    mine.other, theirs.other = second, first
    code = await made(first, groups=(RED, GREEN))
    assert "joined" in (await second.tournaments.join(BLUE, BEN, code, admin)).text
    await started(first, clock)
    hand = deals(first_shown, GREEN)[0].round.hand
    assert deals(second_shown, BLUE)[0].round.hand == hand
    await first.rounds.answer(GREEN, CY, "1+1", explicit=True)  # Cy plays for Green
    refused = await second.rounds.answer(BLUE, CY, solve(hand)[0], explicit=True)
    assert isinstance(refused, Said) and second.rounds.open_round(BLUE.id) is not None
    await first.places.migrate(GREEN.id, SUPERGREEN.id)
    [handed] = mine.handed
    assert handed.new_id == SUPERGREEN.id and handed.round_id is not None
    await second.places.take_moved(handed)
    [again] = deals(second_shown, SUPERGREEN)
    assert again.round.hand == hand
    clock.now += 3
    won = await second.rounds.answer(SUPERGREEN, CY, solve(hand)[0], explicit=True)
    assert isinstance(won, Closed), getattr(won, "text", won)
    assert "every group has played it" in won.text
