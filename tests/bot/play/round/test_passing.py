"""Nobody ends another's round alone (issue 55, item 4): passes end a round only when everyone who
answered has passed and two at least answered, or half its time has gone — Ann deals, Bob types a
wrong answer and /pass: the round goes on, in a group and in a forum topic; the starter and admins
keep /reveal. And every wrong answer gets its verdict: misses inside one edit interval of the
deal's status all show in its next edit."""

from __future__ import annotations

from bot.play.chats.people import Chat, Player
from bot.play.games import GAMES
from bot.play.outcomes import Closed, Edited, Refused, Said
from bot.play.ports import STATUS
from bot.play.services import Services
from bot.text.i18n import LANGUAGES, texts_for
from solver import solve
from tests.bot.conftest import Clock, FakeScheduler, Harness, ring_due
from tests.waiting import until

GROUP = Chat(-31, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BOB = Player(2, "Bob", language_code="en")
CY = Player(3, "Cy", language_code="en")


async def dealt(services: Services, chat: Chat = GROUP):
    """Ann deals a round of 24 (60 s long in these tests), its deal sent as a message."""
    deal = await services.rounds.play(chat, ANN, "24")
    assert deal.round is not None
    await services.outbox.deal_sent(deal.round.id, 77)
    return deal.round


async def test_one_players_pass_does_not_end_anothers_round(services: Services, clock: Clock):
    """The griefing order: Ann deals, Bob answers wrong and passes at once. Bob is everyone
    who answered, but nobody else has, and hardly any time has gone: the round goes on, Bob
    hears why, the status names his pass, and Ann still gets her try."""
    round_ = await dealt(services)
    await services.rounds.answer(GROUP, BOB, "+".join(map(str, round_.hand)) + "*0", True)
    clock.now += 2
    passed = await services.rounds.pass_round(GROUP, BOB)
    assert isinstance(passed, Said) and "the round goes on" in passed.text
    assert "28 seconds" in passed.text  # half of 60 s, less the 2 s gone
    assert services.rounds.open_round(GROUP.id) is not None
    assert isinstance(await services.rounds.pass_round(GROUP, BOB), Refused)  # again: no
    clock.now += 5
    won = await services.rounds.answer(GROUP, ANN, solve(round_.hand)[0], True)
    assert isinstance(won, Closed) and "<b>Ann</b> wins" in won.text


async def test_a_lone_pass_ends_the_round_once_half_its_time_has_gone(
        services: Services, clock: Clock):
    round_ = await dealt(services)
    await services.rounds.answer(GROUP, BOB, "+".join(map(str, round_.hand)) + "*0", True)
    assert isinstance(await services.rounds.pass_round(GROUP, BOB), Said)
    clock.now += 29
    assert isinstance(await services.rounds.pass_round(GROUP, BOB), Refused)  # 1 s short
    clock.now += 1  # half of the 60 s: Bob's pass (again) now ends it
    closed = await services.rounds.pass_round(GROUP, BOB)
    assert isinstance(closed, Closed) and "Everyone who answered passed" in closed.text


async def test_two_who_answered_and_passed_end_it_at_once(services: Services, clock: Clock):
    round_ = await dealt(services)
    sums = "+".join(map(str, round_.hand))
    await services.rounds.answer(GROUP, BOB, sums + "*0", True)
    await services.rounds.answer(GROUP, CY, sums + "*1*0", True)
    clock.now += 1
    noted = await services.rounds.pass_round(GROUP, BOB)
    assert isinstance(noted, Edited) and noted.notice == "You passed: 1 of 2 who answered have."
    closed = await services.rounds.pass_round(GROUP, CY)
    assert isinstance(closed, Closed) and "Everyone who answered passed" in closed.text


async def test_the_starter_and_admins_keep_ending_it(services: Services, clock: Clock):
    """Ann alone answered and passes her own round: hers to end. Bob, alone answering
    another round, passes: an admin's pass ends it, as /reveal would."""
    round_ = await dealt(services)
    await services.rounds.answer(GROUP, ANN, "+".join(map(str, round_.hand)) + "*0", True)
    assert isinstance(await services.rounds.pass_round(GROUP, ANN), Closed)
    round_ = await dealt(services)
    await services.rounds.answer(GROUP, BOB, "+".join(map(str, round_.hand)) + "*0", True)

    async def admin() -> bool:
        return True

    assert isinstance(await services.rounds.pass_round(GROUP, BOB, admin), Closed)
    round_ = await dealt(services)
    await services.rounds.answer(GROUP, BOB, "+".join(map(str, round_.hand)) + "*0", True)
    assert isinstance(await services.rounds.pass_round(GROUP, BOB), Said)
    assert isinstance(await services.rounds.reveal(GROUP, ANN), Refused)  # others answered
    assert isinstance(await services.rounds.reveal(GROUP, ANN, admin), Closed)


# --- through the real handlers, in a group and in a forum topic ---------------------------------

FORUM = -1003101
ALICE = {"id": 311, "is_bot": False, "first_name": "Alice", "language_code": "en"}
BORIS = {"id": 312, "is_bot": False, "first_name": "Boris", "language_code": "en"}


async def griefed(h: Harness, chat: int, topic: int | None, kind: str) -> None:
    await h.send(chat, ALICE, "/play", kind=kind, topic=topic)
    deal = await h.telegram.reply(chat)
    current = h.services.rounds.open_round(chat, topic or 0)
    assert current is not None and deal.message_id == current.message_id
    await h.send(chat, BORIS, "/a " + "+".join(map(str, current.hand)) + "*0", kind=kind,
                 topic=topic)
    await h.send(chat, BORIS, "/pass", kind=kind, topic=topic)
    said = await h.telegram.reply(chat)
    assert said.text.startswith("You passed, but the round goes on") and \
        said.topic == (topic or 0)
    assert h.services.rounds.open_round(chat, topic or 0) is not None
    assert await h.telegram.wait_for(lambda: "🏳 Passed: Boris (1 of 1 who answered)" in (
        h.telegram.message(chat, deal.message_id) or {}).get("text", ""), 5.0)
    await h.send(chat, ALICE, f"/a {solve(current.hand)[0]}", kind=kind, topic=topic)
    won = await h.telegram.reply(chat)
    assert "Alice wins" in won.text and won.topic == (topic or 0)


async def test_the_griefing_order_in_a_group(harness: Harness):
    await griefed(harness, -3102, None, "group")


async def test_the_griefing_order_in_a_forum_topic(harness: Harness):
    harness.telegram.chat(FORUM, title="Puzzle club", forum=True)
    topic = harness.telegram.topic(FORUM, "24")
    await griefed(harness, FORUM, topic, "group")


# --- every miss gets its verdict -----------------------------------------------------------------

async def test_three_misses_at_once_all_show(services: Services, scheduler: FakeScheduler,
                                             clock: Clock):
    """Ann's, Bob's and Cy's wrong answers arrive together: Ann's is written at once, and the
    two that came inside the second before the next edit both show in it (not Cy's alone)."""
    round_ = await dealt(services)
    sums = "+".join(map(str, round_.hand))
    first = await services.rounds.answer(GROUP, ANN, f"{sums}*0", True)
    await services.rounds.answer(GROUP, BOB, f"{sums}*1*0", True)
    await services.rounds.answer(GROUP, CY, f"{sums}*2*0", True)
    assert isinstance(first, Edited) and "👎 Ann:" in first.text
    assert scheduler.pending(STATUS, GROUP.id) is not None
    clock.now += 1
    [(_, status)] = await ring_due(services, scheduler)
    assert "👎 Bob:" in status and "👎 Cy:" in status and "👎 Ann:" not in status
    lines = [line for line in status.splitlines() if line.startswith("👎")]
    assert [line.split(":")[0] for line in lines] == ["👎 Bob", "👎 Cy"]
    clock.now += 5  # a miss later, alone: the status names it, the earlier ones are gone
    later = await services.rounds.answer(GROUP, ANN, f"{sums}*3*0", True)
    assert isinstance(later, Edited)
    assert [line.split(":")[0] for line in later.text.splitlines()
            if line.startswith("👎")] == ["👎 Ann"]


async def test_three_misses_at_once_through_the_handlers(harness: Harness):
    """The same through the real Application: every miss shows in one of the deal's edits."""
    chat = -3103
    clock = Clock(50_000.0)
    harness.services.table.clock = clock
    await harness.send(chat, ALICE, "/play")
    current = harness.services.rounds.open_round(chat)
    assert current is not None
    players = [ALICE, BORIS, {"id": 313, "is_bot": False, "first_name": "Cyd"}]
    for n, player in enumerate(players):
        await harness.send(chat, player, "/a " + "+".join(map(str, current.hand)) + f"*{n}*0")

    def edited() -> list[str]:
        return [e.text for e in harness.telegram.edits if e.message_id == current.message_id]

    def said(*names: str) -> bool:  # one edit names them all
        return any(all(f"👎 {name}:" in text for name in names) for text in edited())

    # the first miss is written at once; the two inside its interval wait for the status
    # alarm, about a second later, whose one edit says both
    await until(lambda: said("Alice") and said("Boris", "Cyd"), "every miss in the deal's edits")


async def test_an_admins_pass_ends_a_round_they_never_answered_and_help_says_so(
        services: Services):
    """Issue 73: an admin's /pass ended a round they never answered while /help said "/pass –
    give up on the round once you have answered". The rule stands; /help says it, in every
    language."""
    await dealt(services)

    async def admin() -> bool:
        return True

    assert isinstance(await services.rounds.pass_round(GROUP, CY, admin), Closed)
    for language in LANGUAGES:
        help_text = texts_for(language)("help", bot="bot", seconds_storm=180,
                                        **{f"seconds_{name}": 120 for name in GAMES})
        [line] = [line for line in help_text.splitlines()  # past an isolate (RTL scripts)
                  if line.lstrip("\u2066\u2067\u2068\u2069").startswith("/pass")]
        assert "/reveal" in line, (language, line)
    assert "an admin), /pass ends it as /reveal does" in texts_for("en")(
        "help", bot="bot", seconds_storm=180, **{f"seconds_{name}": 120 for name in GAMES})
