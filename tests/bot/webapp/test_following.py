"""A private chat's page follows its person's hands (issue 74: Streak and Storm in the Mini App):
opened from a hand's button, it asks `api/next` once its round is over and shows the next hand
dealt there, with the initData it was opened with, as long as FOLLOWING; each hand is answered
there and counts on the streak or the storm as a typed answer would. A miss that ends a hand
says so (`over`). Only a private chat's own page follows: a group's Direct Link, another
person's chat, a start parameter, initData older than the window — each refused or shown
nothing. Both databases."""

from __future__ import annotations

import asyncio

from bot.runtime.doors import PERSON, Doors
from bot.webapp.server import FOLLOWING
from bot.webapp.tickets import ticket_of
from tests.bot.conftest import ON_BOTH_BACKENDS, Harness, closed_outside
from tests.bot.webapp_support import (
    ANN,
    EVE,
    GROUP,
    deal_known,
    page_server,
    post,
    signed_for,
    steps_to,
)
from tests.waiting import until

HERS = ANN["id"]  # her private chat: its id is hers


def missing(hand: tuple[int, ...]) -> list[list]:
    """Every tile added up: a wrong answer unless the hand adds up to 24 (its caller checks)."""
    return [[0, "+", 1]] * (len(hand) - 1)


async def begun(h: Harness, command: str):
    """`command` (/streak or /storm) sent in Ann's private chat; its first hand and the initData
    of the page opened from that hand's button."""
    h.telegram.chat(HERS, "private", None)
    await h.send(HERS, ANN, command, kind="private")
    first = h.services.table.of(HERS)
    assert first is not None
    return first.record, signed_for(ANN, first.record, h.telegram.token, start_param=None)


async def next_hand(h: Harness, after: int):
    await until(lambda: (current := h.services.table.of(HERS)) is not None
                and current.id != after, "the next hand dealt", timeout=30)
    current = h.services.table.of(HERS)
    assert current is not None
    return current.record


@ON_BOTH_BACKENDS
async def test_a_streak_is_played_on_one_page_hand_after_hand(harness: Harness):
    first, data = await begun(harness, "/streak")
    async with page_server(harness) as base:
        status, judged = await post(base, "api/answer", {
            "init_data": data, "round": ticket_of(first).text, "steps": steps_to(first.hand)})
        assert status == 200 and judged["right"] and judged["over"], judged
        status, nothing = await post(base, "api/next", {"init_data": data,
                                                         "round": ticket_of(first).text})
        assert (status, nothing) == (200, {"round": None})  # the next comes after a pause
        second = await next_hand(harness, first.id)
        status, followed = await post(base, "api/next", {"init_data": data,
                                                          "round": ticket_of(first).text})
        assert (status, followed) == (200, {"round": ticket_of(second).text})
        status, shown = await post(base, "api/round", {"init_data": data,
                                                        "round": followed["round"]})
        assert status == 200 and shown["puzzle"]["tiles"] == list(second.hand)
        status, judged = await post(base, "api/answer", {
            "init_data": data, "round": followed["round"], "steps": steps_to(second.hand)})
        assert status == 200 and judged["right"], judged
    streak = await harness.stores.streaks.streak_on(HERS)
    assert streak is not None and streak.solved == 2


@ON_BOTH_BACKENDS
async def test_a_storms_miss_on_the_page_ends_its_hand_and_the_page_follows(harness: Harness):
    first, data = await begun(harness, "/storm")
    assert sum(first.hand) != 24, first.hand
    async with page_server(harness) as base:
        status, judged = await post(base, "api/answer", {
            "init_data": data, "round": ticket_of(first).text, "steps": missing(first.hand)})
        assert status == 200 and not judged["right"] and judged["over"], judged
        second = await next_hand(harness, first.id)
        status, followed = await post(base, "api/next", {"init_data": data,
                                                          "round": ticket_of(first).text})
        assert (status, followed) == (200, {"round": ticket_of(second).text})
    storm = await harness.stores.storms.storm_on(HERS)
    assert storm is not None and (storm.solved, storm.missed) == (0, 1)


async def test_a_wrong_answer_in_an_ordinary_round_is_not_over(harness: Harness):
    current = await deal_known(harness, (8, 3, 8, 3))
    data = signed_for(ANN, current, harness.telegram.token)
    async with page_server(harness) as base:
        status, judged = await post(base, "api/answer", {
            "init_data": data, "round": ticket_of(current).text, "steps": missing(current.hand)})
    assert status == 200 and not judged["right"] and not judged["over"]


async def test_a_page_opened_longer_ago_than_the_window_follows_nothing(harness: Harness):
    """A page opened on an earlier round of her chat follows the streak's first hand only if
    it was opened less than FOLLOWING before that hand began; past that it is refused the
    hand and shown no next."""
    earlier = await deal_known(harness, (8, 3, 8, 3), chat=HERS)
    await harness.stores.rounds.close_round(earlier.id, "revealed",
                                            harness.services.rounds.clock())
    closed_outside(harness.services, earlier)
    first, _ = await begun(harness, "/streak")
    assert first.id > earlier.id
    stale = signed_for(ANN, first, harness.telegram.token, start_param=None,
                       auth_date=first.started_at - FOLLOWING - 2)
    within = signed_for(ANN, first, harness.telegram.token, start_param=None,
                        auth_date=first.started_at - FOLLOWING + 2)
    page, hand = ticket_of(earlier).text, ticket_of(first).text
    async with page_server(harness) as base:
        assert (await post(base, "api/round", {"init_data": stale, "round": hand}))[0] == 403
        assert await post(base, "api/next", {"init_data": stale, "round": page}) == \
            (200, {"round": None})
        assert (await post(base, "api/round", {"init_data": within, "round": hand}))[0] == 200
        assert await post(base, "api/next", {"init_data": within, "round": page}) == \
            (200, {"round": hand})


async def test_a_flood_of_follows_is_held_to_her_budget(harness: Harness):
    """A hundred `next` at once from her page (a page asks eight times a round at most): those
    within her budget are answered, the rest refused at once (429), and her chat's hand is
    answered after it, typed, as ever."""
    shared = Doors(clock=lambda: 0.0)  # nothing refills while the test runs
    harness.bot.face.doors = shared
    harness.app.update_processor.doors = shared
    first, data = await begun(harness, "/streak")
    body = {"init_data": data, "round": ticket_of(first).text}
    async with page_server(harness) as base:
        answers = await asyncio.gather(*(post(base, "api/next", body) for _ in range(100)))
    statuses = [status for status, _ in answers]
    assert statuses.count(200) + statuses.count(429) == 100
    assert 1 <= statuses.count(200) <= PERSON.burst
    assert all(said == {"round": None} for status, said in answers if status == 200)
    assert harness.services.table.of(HERS) is not None  # her hand still on, untouched


@ON_BOTH_BACKENDS
async def test_a_mode_started_from_the_page_is_dealt_in_the_chat_and_followed(harness: Harness):
    """Her streak ended by a miss on the page: /storm started from it is dealt in her chat as
    the typed command deals it, and the page follows it; a second start while it is on is
    told so in the bot's words, and nothing more is dealt."""
    first, data = await begun(harness, "/streak")
    page = {"init_data": data, "round": ticket_of(first).text}
    assert sum(first.hand) != 24, first.hand
    async with page_server(harness) as base:
        status, judged = await post(base, "api/answer", {**page, "steps": missing(first.hand)})
        assert status == 200 and judged["over"] and not judged["right"]
        sent = len([s for s in harness.telegram.sent if s.chat_id == HERS])
        assert await post(base, "api/start", {**page, "mode": "storm"}) == \
            (200, {"dealt": True, "text": ""})
        storm = await harness.stores.storms.storm_on(HERS)
        current = harness.services.table.of(HERS)
        assert storm is not None and current is not None and storm.round_id == current.id
        deal = [s for s in harness.telegram.sent if s.chat_id == HERS][sent]
        assert "⛈ Storm: hand 1." in deal.text  # shown in her chat, as /storm shows it
        followed = {"round": ticket_of(current.record).text}
        assert await post(base, "api/next", page) == (200, followed)
        status, again = await post(base, "api/start", {**page, "mode": "streak"})
        assert status == 200 and not again["dealt"] and again["text"], again
    assert harness.services.table.of(HERS).id == current.id  # nothing else dealt


async def test_only_her_own_private_page_follows_and_starts(harness: Harness):
    """`next` and `start` from a group's Direct Link, for another person's chat, through a
    start parameter, unsigned: 403; `start` with initData older than the window, 403, and with
    no mode or one that is not a solo mode, 400. Nothing is dealt, nothing started."""
    first, hers = await begun(harness, "/streak")
    mine = ticket_of(first).text
    group = await deal_known(harness, (8, 3, 8, 3))
    token = harness.telegram.token
    refused = {
        "a group's Direct Link": (signed_for(ANN, group, token), ticket_of(group).text),
        "another person's chat": (signed_for(EVE, first, token, start_param=None), mine),
        "a start parameter": (signed_for(ANN, first, token, start_param=mine), mine),
        "unsigned": (hers.replace("Ann", "Eve"), mine),
    }
    stale = signed_for(ANN, first, token, start_param=None,
                       auth_date=harness.services.rounds.clock() - FOLLOWING - 5)
    async with page_server(harness) as base:
        for how, (data, ticket) in refused.items():
            for path in ("api/next", "api/start"):
                status, said = await post(base, path, {"init_data": data, "round": ticket,
                                                       "mode": "storm"})
                assert status == 403 and "round" not in said, (how, path)
        for data, mode, expected in ((stale, "storm", 403), (hers, "match", 400),
                                     (hers, None, 400)):
            status, _ = await post(base, "api/start", {"init_data": data, "round": mine,
                                                       "mode": mode})
            assert status == expected, mode
        assert (await post(base, "api/next", {"init_data": hers, "round": "x"}))[0] == 400
    assert await harness.stores.storms.storm_on(HERS) is None  # nothing started
    assert harness.services.table.of(GROUP) is not None
    assert harness.services.table.of(HERS).id == first.id


async def test_a_flood_of_starts_starts_one_mode(harness: Harness):
    """Sixty `start`s at once from her page once her streak is over (storm, streak, practice
    in turn): those within her budget are answered, the rest refused at once (429); one mode is
    started and one hand dealt, the others told so in the bot's words."""
    shared = Doors(clock=lambda: 0.0)  # nothing refills while the test runs
    harness.bot.face.doors = shared
    harness.app.update_processor.doors = shared
    first, data = await begun(harness, "/streak")
    assert sum(first.hand) != 24, first.hand
    page = {"init_data": data, "round": ticket_of(first).text}
    async with page_server(harness) as base:
        status, judged = await post(base, "api/answer", {**page, "steps": missing(first.hand)})
        assert status == 200 and judged["over"]
        sent = len([s for s in harness.telegram.sent if s.chat_id == HERS])
        answers = await asyncio.gather(*(
            post(base, "api/start", {**page, "mode": ("storm", "streak", "practice")[n % 3]})
            for n in range(60)))
    statuses = [status for status, _ in answers]
    assert statuses.count(200) + statuses.count(429) == 60
    assert 1 <= statuses.count(200) < PERSON.burst  # the answer above spent one
    dealt = [said for status, said in answers if status == 200 and said["dealt"]]
    assert len(dealt) == 1
    assert all(said["text"] for status, said in answers if status == 200 and not said["dealt"])
    current = harness.services.table.of(HERS)
    assert current is not None and current.id != first.id
    deals = [s for s in harness.telegram.sent if s.chat_id == HERS][sent:]
    assert len([s for s in deals if s.message_id == current.record.message_id]) == 1


@ON_BOTH_BACKENDS
async def test_a_page_from_the_menu_names_no_round_and_is_her_own_chats(harness: Harness):
    """The Mini App opened from the bot's menu button names no round: `next` gives the round
    on in her chat (none, then her storm's hand), `start` starts a mode there; with a start
    parameter (a group's link) it is refused."""
    first, data = await begun(harness, "/streak")
    from_menu = signed_for(ANN, first, harness.telegram.token, start_param=None,
                           auth_date=harness.services.rounds.clock())
    async with page_server(harness) as base:
        assert await post(base, "api/next", {"init_data": from_menu}) == \
            (200, {"round": ticket_of(first).text})  # her streak's hand, on now
        await post(base, "api/answer", {"init_data": data, "round": ticket_of(first).text,
                                        "steps": steps_to(first.hand)})
        assert await post(base, "api/next", {"init_data": from_menu, "round": ""}) == \
            (200, {"round": None})  # between two hands
        await until(lambda: harness.services.table.of(HERS) is not None, "the next hand")
        status, started = await post(base, "api/start", {"init_data": from_menu,
                                                         "mode": "storm"})
        assert status == 200 and not started["dealt"], started  # her streak is on
        linked = signed_for(ANN, first, harness.telegram.token, start_param=f"{GROUP}_0_1")
        for path in ("api/next", "api/start"):
            status, _ = await post(base, path, {"init_data": linked, "mode": "storm"})
            assert status == 403, path
    streak = await harness.stores.streaks.streak_on(HERS)
    assert streak is not None and streak.solved == 1
