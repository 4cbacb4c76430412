"""One router a feature (bot.telegram.routes): each feature declares what it takes, the root joins
them once. The joined table keeps what the one table of handlers did: the deep links ahead of
/start, the daily share's inline query ahead of the solutions', each press to its feature by the
data its buttons carry and the rest refused; the owed commands, the menus' scopes and what in
groups answers the asker alone are read from the declarations."""

from __future__ import annotations

import pytest
from telegram.ext import CallbackQueryHandler, CommandHandler, InlineQueryHandler

from bot.play.games import GAMES
from bot.telegram import keyboards, presses
from bot.telegram.app import COMMANDS, OWED_COMMANDS, TABLE
from bot.telegram.features import community, games, rounds, settings
from bot.telegram.features.tournaments import handlers as tournaments
from bot.telegram.menus import ADMINS, GROUPS, PRIVATE, Menus
from bot.telegram.routes import Command, Feature, Press, joined, the_word
from tests.bot.conftest import Harness


async def ignored(_update: object, _context: object) -> None:
    """A handler nothing calls here."""


def test_the_owed_commands_are_the_declared_ones():
    owed = {"help", "solve", "stats", "top", "privacy", *(game.command for game in GAMES.values())}
    assert owed == OWED_COMMANDS


def test_the_menus_read_each_commands_scopes_and_who_it_answers():
    only = {c.names[0]: c.offered for c in COMMANDS if c.offered != {PRIVATE, GROUPS, ADMINS}}
    assert only == {"start": {PRIVATE}, "forget": {PRIVATE}, "match": {GROUPS, ADMINS},
                    "resetscores": {ADMINS}, "settings": {PRIVATE, ADMINS},
                    "pass": {GROUPS, ADMINS}, "streak": {PRIVATE}, "practice": {PRIVATE},
                    "storm": {PRIVATE}}
    assert Menus(COMMANDS).for_the_asker == {"stats", "help", "privacy", "solve", "lang",
                                             "settings"}


def test_a_deep_link_is_taken_ahead_of_start_and_the_rest_press_last():
    handlers = list(TABLE.handlers(presses.unknown))
    starts = [h for h in handlers if isinstance(h, CommandHandler) and "start" in h.commands]
    assert [h.callback for h in starts] == [tournaments.linked, community.start]
    assert handlers.index(starts[0]) < handlers.index(starts[1])
    assert handlers[-1].callback is presses.unknown and handlers[-1].pattern is None
    inline = [h for h in handlers if isinstance(h, InlineQueryHandler)]
    assert [h.callback for h in inline] == [community.share_daily, games.inline_query]


@pytest.mark.parametrize(("data", "feature"), [
    (keyboards.round_data(keyboards.HINT, 12), rounds.button),
    (keyboards.round_data(keyboards.SOLUTIONS, 12, 2), rounds.button),
    (keyboards.round_data(keyboards.PASS, 12), rounds.button),
    (keyboards.page_data((3, 8, 3, 8), 24, 1), games.turn_page),
    (f"{keyboards.SETTING}:-100:count:5", settings.change_setting),
    ("cf:y:0123abcd", community.confirm),
    ("zz:1", presses.unknown), ("", presses.unknown)])
def test_each_press_goes_to_its_feature(data: str, feature: object):
    handlers = [h for h in TABLE.handlers(presses.unknown)
                if isinstance(h, CallbackQueryHandler)]
    taken = next(h for h in handlers if h.pattern is None or h.pattern.match(data))
    assert taken.callback is feature


def test_the_share_query_is_the_word_alone_in_any_case():
    """As `.strip().lower() == "daily"`: no other letter that lower-cases near it."""
    import re

    pattern = re.compile(the_word(community.SHARE_QUERY))
    for query in ("daily", " Daily ", "DAILY\n", "\u00a0daily"):
        assert pattern.match(query), query
    for query in ("dailyx", "daily 1", "dai ly", "daıly", "DAİLY", ""):
        assert not pattern.match(query), query
        assert query.strip().lower() != "daily"


def test_what_is_declared_twice_is_refused_at_import():
    one = Feature("one", commands=(Command(("play",), ignored),), presses=(Press("h:", ignored),))
    with pytest.raises(ValueError, match="command declared twice: play"):
        joined(one, Feature("two", commands=(Command(("go", "play"), ignored),)))
    with pytest.raises(ValueError, match="press declared twice"):
        joined(one, Feature("two", presses=(Press("h:", ignored),)))
    with pytest.raises(ValueError, match="starts another's"):
        joined(one, Feature("two", presses=(Press("h", ignored),)))


async def test_the_application_registers_the_table(harness: Harness):
    """The root's application holds the joined table in its main group, in order."""
    registered = harness.app.handlers[0]
    expected = list(TABLE.handlers(presses.unknown))
    assert [h.callback for h in registered] == [h.callback for h in expected]
