"""Tournaments between groups without Telegram, on each backend: made, joined, started; the same
hand dealt to every group, each group's clock from its own deal; a group's close says nothing of
the answers until the last group closed; the board after each round and the podium; a person in
two groups plays for the first they answered in; cancelled when nobody joined; a group the bot
was removed from is skipped; the schedule resumed after a restart."""

from __future__ import annotations

import asyncio

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Closed, Dealt, Said
from bot.play.ports import Delivery, Errand, Gone, Target
from bot.play.services import Services
from bot.play.tournaments.rules import BEST_PLAYERS, REDISPATCH, TournamentRequest
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock, FakePublisher, FakeScheduler, new_services, ring_due

RED = Chat(-101, "supergroup", "Red")
BLUE = Chat(-102, "supergroup", "Blue")
GREEN = Chat(-103, "group", "Green")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
CY = Player(3, "Cy", language_code="en")
PAUSE = 20.0


async def admin() -> bool:
    return True


async def not_admin() -> bool:
    return False


class Publisher(FakePublisher):
    """Sends, and says a chat is gone where the test removed the bot."""

    def __init__(self) -> None:
        super().__init__(sends=True)
        self.gone: set[int] = set()

    async def show(self, outcome, target: Target) -> Delivery:
        if target.chat_id in self.gone:
            return Delivery(fate=Gone(target.chat_id))
        return await super().show(outcome, target)

    def to(self, chat: Chat) -> list:
        return [outcome for outcome, target in self.shown if target.chat_id == chat.id]


def build(stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher, seed: int = 1
          ) -> tuple[Services, FakeScheduler]:
    return new_services(stores, pool, clock, seed=seed, publisher=publisher,
                        seconds={"24": 60}, deal_rate=1000.0, tournament_pause=PAUSE)


@pytest.fixture
def publisher() -> Publisher:
    return Publisher()


@pytest.fixture
def wired(stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher
          ) -> tuple[Services, FakeScheduler]:
    return build(stores, pool, clock, publisher)


async def look(services: Services, clock: Clock | None = None) -> None:
    """The housekeeping's look at the schedules (a second later, with a `clock`: a live
    round is looked at every second), and what it set going, to its end."""
    if clock is not None:
        clock.now += 1
    await services.tournaments.tick()
    await services.tournaments.settled()


async def made(services: Services, groups: tuple[Chat, ...] = (RED, BLUE), rounds: int = 3
               ) -> str:
    """A tournament made in the first group and joined by the others; its code."""
    said = await services.tournaments.new(groups[0], ANN, TournamentRequest(
        name="Cup", rounds=rounds, seconds=60, starts_in=60), admin)
    assert said.code is not None, said.text
    for group in groups[1:]:
        joined = await services.tournaments.join(group, BEN, said.code.lower(), admin)
        assert "joined" in joined.text, joined.text
    return said.code


def deals(publisher: Publisher, chat: Chat) -> list[Dealt]:
    return [o for o in publisher.to(chat) if isinstance(o, Dealt)]


async def started(services: Services, clock: Clock) -> None:
    clock.now += 60
    await look(services)


async def test_every_group_is_dealt_the_same_hand_on_one_schedule(
        services: Services, scheduler: FakeScheduler, publisher: Publisher, clock: Clock):
    await made(services)
    await look(services)
    assert not deals(publisher, RED), "nothing before the start"
    await started(services, clock)
    red, blue = deals(publisher, RED), deals(publisher, BLUE)
    assert len(red) == len(blue) == 1
    assert red[0].round.hand == blue[0].round.hand and red[0].round.id != blue[0].round.id
    assert "round 1 of 3" in red[0].text and "2 groups" in red[0].text
    # each group's round is an ordinary round: no hints, its own clock
    assert red[0].round.hints_on is False
    assert red[0].round.deadline - red[0].round.started_at == 60


async def test_a_group_close_keeps_the_answers_until_the_last_group_closed(
        services: Services, scheduler: FakeScheduler, publisher: Publisher, clock: Clock):
    await made(services)
    await started(services, clock)
    hand = deals(publisher, RED)[0].round.hand
    clock.now += 3
    won = await services.rounds.answer(RED, ANN, solve(hand)[0], explicit=True)
    assert isinstance(won, Closed)
    assert solve(hand)[0] not in won.text and "Ann" in won.text  # not even the winner's answer
    assert "every group has played it" in won.text
    assert "solutions" not in won.actions and "again" not in won.actions
    # the hand stays live for everyone, the group that won it too, until Blue closes
    request = services.solving
    from bot.play.asking.requests import SolveRequest
    refused = await request.refusal(SolveRequest(tuple(hand), 24), await services.people.texts(
        RED, ANN), None)
    assert refused is not None and "tournament" in refused
    await look(services)
    assert not [o for o in publisher.to(RED) if isinstance(o, Said)], "no board yet"
    clock.now += 60
    expired = await ring_due(services, scheduler)
    assert [chat for chat, _ in expired] == [BLUE.id]
    blue_result = [o for o in publisher.to(BLUE) if isinstance(o, Closed)][-1]
    # the last group's close too: the board reveals, and the result says so once
    assert "every group has played it" in blue_result.text and "stay hidden" not in blue_result.text
    await look(services)
    boards = [o.text for o in publisher.to(RED) if isinstance(o, Said)]
    assert len(boards) == 1 and "round 1 of 3 is over in every group" in boards[0]
    assert "solution" in boards[0] and "Here: <b>Ann</b> solved it in 3.0 s" in boards[0]
    assert "Best players:" in boards[0] and "Ann" in boards[0]
    assert await request.refusal(SolveRequest(tuple(hand), 24), await services.people.texts(
        RED, ANN), None) is None, "free once every group closed"
    blue_boards = [o.text for o in publisher.to(BLUE) if isinstance(o, Said)]
    assert len(blue_boards) == 1 and "Here: nobody solved it." in blue_boards[0]


async def test_ten_rounds_a_board_after_each_and_a_podium(
        services: Services, scheduler: FakeScheduler, publisher: Publisher, clock: Clock):
    await made(services, rounds=10)
    await started(services, clock)
    for number in range(1, 11):
        red, blue = deals(publisher, RED)[-1], deals(publisher, BLUE)[-1]
        assert f"round {number} of 10" in red.text and red.round.hand == blue.round.hand
        clock.now += 2
        await services.rounds.answer(RED, ANN, solve(red.round.hand)[0], explicit=True)
        clock.now += 3
        await services.rounds.answer(BLUE, BEN, solve(blue.round.hand)[0], explicit=True)
        await look(services)
        boards = [o.text for o in publisher.to(BLUE) if isinstance(o, Said)]
        assert len(boards) == number
        clock.now += PAUSE
        await look(services)
    last = [o.text for o in publisher.to(BLUE) if isinstance(o, Said)][-1]
    assert "The podium — players:" in last and "🥇 Ann (Red)" in last and "🥈 Ben (Blue)" in last
    assert f"{BEST_PLAYERS} best players" in last and "is over" in last
    assert len(deals(publisher, RED)) == 10, "no eleventh round"
    standings = await services.tournaments.store.players(1, 5)
    assert [(p.name, p.wins) for p in standings] == [("Ann", 10), ("Ben", 10)]
    assert standings[0].seconds == pytest.approx(20.0)  # 2 s a round, from Red's own deal
    assert standings[1].seconds == pytest.approx(50.0)  # 5 s a round, from Blue's own deal


async def test_a_person_in_two_groups_plays_for_the_first_they_answered_in(
        services: Services, scheduler: FakeScheduler, publisher: Publisher, clock: Clock):
    await made(services)
    await started(services, clock)
    hand = deals(publisher, RED)[0].round.hand
    await services.rounds.answer(BLUE, CY, "1+1", explicit=True)  # Cy plays for Blue now
    refused = await services.rounds.answer(RED, CY, solve(hand)[0], explicit=True)
    assert isinstance(refused, Said) and "for Blue (where you answered first)" in refused.text
    assert services.rounds.open_round(RED.id) is not None, "Red's round goes on"
    won = await services.rounds.answer(BLUE, CY, solve(hand)[0], explicit=True)
    assert isinstance(won, Closed)


async def test_a_tournament_nobody_joined_is_cancelled_with_a_message(
        services: Services, publisher: Publisher, clock: Clock):
    said = await services.tournaments.new(RED, ANN, TournamentRequest(starts_in=60), admin)
    await started(services, clock)
    assert not deals(publisher, RED)
    assert "cancelled: no other group joined" in publisher.to(RED)[-1].text
    assert "no tournament here" in (await services.tournaments.show(RED, ANN)).text.lower()
    assert said.code is not None


async def test_only_admins_of_groups_make_and_join(services: Services):
    said = await services.tournaments.new(RED, ANN, TournamentRequest(), not_admin)
    assert said.code is None and "admin" in said.text
    private = Chat(ANN.id, "private")
    assert "between groups" in (await services.tournaments.new(private, ANN,
                                                                TournamentRequest(), admin)).text
    code = await made(services)
    assert "in <b>Cup</b> already" in (await services.tournaments.join(BLUE, BEN, code,
                                                                         admin)).text
    assert "No tournament has the code" in (await services.tournaments.join(
        GREEN, BEN, "ZZZZZZ", admin)).text
    followed = await services.tournaments.follow(private, ANN, code, None)
    assert "follows" in followed.text


async def test_a_group_that_removed_the_bot_is_skipped(
        services: Services, scheduler: FakeScheduler, publisher: Publisher, clock: Clock):
    await made(services, groups=(RED, BLUE, GREEN))
    publisher.gone.add(GREEN.id)
    await started(services, clock)
    hand = deals(publisher, RED)[0].round.hand
    await services.rounds.answer(RED, ANN, solve(hand)[0], explicit=True)
    await services.rounds.answer(BLUE, BEN, solve(hand)[0], explicit=True)
    await look(services, clock)  # Green's deal went nowhere: its round is no reason to wait
    assert any(isinstance(o, Said) for o in publisher.to(RED)), "the board came"
    clock.now += PAUSE
    await look(services)
    assert len(deals(publisher, RED)) == len(deals(publisher, BLUE)) == 2
    entrants = await services.tournaments.store.entrants(1)
    assert [e.playing for e in entrants if e.chat_id == GREEN.id] == [False]
    deals_2 = await services.tournaments.store.deals(1, 2)
    assert GREEN.id not in {d.chat_id for d in deals_2}, "no second deal tried there"


async def test_the_schedule_goes_on_after_a_restart(
        stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher,
        services: Services):
    await made(services)
    await started(services, clock)
    hand = deals(publisher, RED)[0].round.hand
    again_shown = Publisher()
    again, scheduler = build(stores, pool, clock, again_shown, seed=2)
    await again.recovery.resume()
    from bot.play.asking.requests import SolveRequest
    assert await again.solving.refusal(SolveRequest(tuple(hand), 24), await again.people.texts(
        GREEN, CY), None) is not None, "live again at once, for someone in no group"
    await again.rounds.answer(RED, ANN, solve(hand)[0], explicit=True)
    clock.now += 60
    await ring_due(again, scheduler)
    await look(again)
    assert any("round 1 of 3 is over" in o.text for o in again_shown.to(RED)
               if isinstance(o, Said))
    clock.now += PAUSE
    await look(again)
    assert len(deals(again_shown, RED)) == 1 and "round 2 of 3" in deals(again_shown, RED)[0].text
    await asyncio.sleep(0)


async def test_the_tournaments_page_shows_no_hand_before_every_group_closed_it(
        services: Services, scheduler: FakeScheduler, publisher: Publisher, clock: Clock):
    await made(services)
    await started(services, clock)
    first = deals(publisher, RED)[0].round.hand
    clock.now += 4
    await services.rounds.answer(RED, ANN, solve(first)[0], explicit=True)
    texts = await services.people.texts(RED, ANN)
    page = await services.pages.tournament(1, texts)
    assert page is not None and page["title"] == "Cup" and page["direction"] == "ltr"
    kinds = {section["kind"]: section for section in page["sections"]}
    assert list(kinds) == ["about", "players", "groups", "rounds"]
    assert kinds["rounds"]["items"] == [{"label": "Round 1", "value": "being played now"}]
    assert " ".join(map(str, first)) not in str(page), "the live hand is nowhere on the page"
    clock.now += 60
    await ring_due(services, scheduler)  # Blue's round runs out
    await look(services)
    page = await services.pages.tournament(1, texts)
    assert page is not None
    rounds = next(s for s in page["sections"] if s["kind"] == "rounds")["items"]
    assert rounds[0]["label"] == " ".join(map(str, first)) + " → 24"
    assert rounds[0]["value"] == "Ann (Red) · 4.0 s" and rounds[0]["hand"] == "label"
    players = next(s for s in page["sections"] if s["kind"] == "players")["rows"]
    assert players == [{"place": 1, "name": "Ann", "detail": "Red",
                        "value": f"{deals(publisher, RED)[0].round.points} points · 4.0 s"}]
    groups = next(s for s in page["sections"] if s["kind"] == "groups")["rows"]
    assert [g["name"] for g in groups] == ["Red", "Blue"]
    persian = await services.people.texts(Chat(9, "private"), Player(9, "P", language_code="fa"))
    page = await services.pages.tournament(1, persian)
    assert page is not None and page["direction"] == "rtl"
    assert await services.pages.tournament(99, texts) is None


async def test_a_board_telegram_refused_is_sent_again_once(
        services: Services, scheduler: FakeScheduler, publisher: Publisher, clock: Clock,
        monkeypatch: pytest.MonkeyPatch):
    """A board whose send raised (a flood limit outlasting the limiter's retries) is let go
    of, and the schedule sends it again before the next round: each group sees it once."""
    from bot.play.tournaments import errands
    monkeypatch.setattr(errands, "SEND_WAIT", 0.0)
    await made(services)
    await started(services, clock)
    hand = deals(publisher, RED)[0].round.hand
    clock.now += 2
    await services.rounds.answer(RED, ANN, solve(hand)[0], explicit=True)
    await services.rounds.answer(BLUE, BEN, solve(hand)[0], explicit=True)
    publisher.fails = True
    await look(services, clock)
    publisher.fails = False
    assert not [o for o in publisher.to(RED) if isinstance(o, Said)]
    clock.now += PAUSE
    await look(services)
    for group in (RED, BLUE):
        boards = [o for o in publisher.to(group) if isinstance(o, Said)]
        assert len(boards) == 1 and "round 1 of 3 is over" in boards[0].text
        assert len(deals(publisher, group)) == 2  # and the next round went on
    await look(services, clock)
    assert len([o for o in publisher.to(RED) if isinstance(o, Said)]) == 1


class Unanswered(Publisher):
    """Sends, except what the test holds up: a send of `kind` to `chat` that never returns (a
    process killed while Telegram's limit held its message back), until `killed`."""

    def __init__(self, chat: Chat, kind: type) -> None:
        super().__init__()
        self.chat, self.kind = chat, kind
        self.stuck = asyncio.Event()  # the held-up send began
        self.dead = asyncio.Event()

    async def show(self, outcome, target: Target) -> Delivery:
        if target.chat_id == self.chat.id and isinstance(outcome, self.kind):
            self.stuck.set()
            await self.dead.wait()
            raise asyncio.CancelledError  # the process is gone: nothing after the send runs
        return await super().show(outcome, target)

    async def killed(self, services: Services) -> None:
        """The process ends where it stood (its errands' tasks end with it)."""
        await asyncio.wait_for(self.stuck.wait(), 10)
        self.dead.set()
        await services.tournaments.settled()


async def test_a_deal_stored_and_never_shown_is_dealt_again_numbered_its_clock_fresh(
        stores: Stores, pool: SolverPool, clock: Clock):
    """The process dealing the round is killed after Blue's round was stored and linked and
    before its message went: the next process deals it with its tournament line, and Blue's
    clock starts at that deal, not at the one nobody saw."""
    held = Unanswered(BLUE, Dealt)
    first, _ = build(stores, pool, clock, held)
    await made(first)
    clock.now += 60
    await first.tournaments.tick()
    await held.killed(first)
    assert len(deals(held, RED)) == 1 and not deals(held, BLUE)
    clock.now += 30  # the next process takes over
    again_shown = Publisher()
    again, _ = build(stores, pool, clock, again_shown, seed=2)
    await again.recovery.resume()
    blue = deals(again_shown, BLUE)
    assert len(blue) == 1 and "round 1 of 3, the same hand in 2 groups" in blue[0].text
    assert blue[0].round.hand == deals(held, RED)[0].round.hand
    stored = await stores.rounds.get_round(blue[0].round.id)
    assert stored is not None and stored.started_at == clock.now, "its clock from this deal"
    assert stored.deadline == clock.now + 60
    await look(again)
    await again.tournaments.errands.do(Errand("deal", 1, 1, BLUE.id))  # the errand again
    assert len(deals(again_shown, BLUE)) == 1 and not deals(again_shown, RED)
    clock.now += 4
    won = await again.rounds.answer(BLUE, BEN, solve(blue[0].round.hand)[0], explicit=True)
    assert isinstance(won, Closed) and "4.0 s" in won.text


async def test_a_deal_claimed_by_a_killed_process_is_sent_again(
        stores: Stores, pool: SolverPool, clock: Clock):
    """The process dealing the round is killed after it claimed Blue's deal, while it was
    ending Blue's own round to make way: the next process's schedule sends the deal again
    (REDISPATCH after), long before a deal that never came would be skipped."""
    held = Unanswered(BLUE, Closed)
    first, _ = build(stores, pool, clock, held)
    await made(first)
    played = await first.rounds.play(BLUE, BEN, "24")
    assert isinstance(played, Dealt)
    clock.now += 60
    await first.tournaments.tick()
    await held.killed(first)
    claims = await stores.tournaments.deals(1, 1)
    assert [(d.chat_id, d.status) for d in claims if d.chat_id == BLUE.id] == \
        [(BLUE.id, "dealing")], "claimed, never dealt"
    again_shown = Publisher()
    again, _ = build(stores, pool, clock, again_shown, seed=2)
    await again.recovery.resume()
    for _ in range(int(REDISPATCH) + 1):
        await look(again, clock)
    blue = deals(again_shown, BLUE)
    assert len(blue) == 1 and "round 1 of 3, the same hand" in blue[0].text
    assert blue[0].round.hand == deals(held, RED)[0].round.hand
    assert not deals(again_shown, RED), "Red's deal is not sent twice"
