"""Long replies through the real Application and the emulator, which refuses what Telegram
refuses: more than 4096 UTF-16 code units of text after entity parsing, or broken HTML."""

from __future__ import annotations

import pytest
from telegram.error import BadRequest

from bot.store.score_store import Placing
from tests.bot.conftest import Harness

GROUP = -1061
ANN = {"id": 61, "is_bot": False, "first_name": "Ann"}


async def test_top_all_with_long_names_shows_every_entry(harness: Harness, monkeypatch):
    # Telegram's longest first names (64 characters), as heavy in HTML as they get
    names = ['"' * 64] * 4 + ['"' * 63 + "😀"] * 2 + ['"' * 64] * 4

    async def board(board, limit=10):  # ten players with the longest names there are
        return [Placing(i + 1, 100 + i, name, 1_000_000 - i, 999)
                for i, name in enumerate(names)]

    monkeypatch.setattr(harness.stores.scores, "board", board)
    await harness.send(GROUP, ANN, "/top all")
    sent = await harness.telegram.reply(GROUP)  # the emulator accepted it
    assert len(sent.html) > 4096  # the HTML alone would have been cut before
    for rank, name in enumerate(names, 1):
        assert f"{rank}. {name} — " in sent.text
    assert not sent.text.endswith("…")


async def test_the_emulator_counts_utf16_code_units_as_telegram_does(harness: Harness):
    harness.telegram.chat(GROUP)
    await harness.app.bot.send_message(GROUP, "😀" * 2048)  # 4096 units
    with pytest.raises(BadRequest, match="too long"):
        await harness.app.bot.send_message(GROUP, "😀" * 2049)
    with pytest.raises(BadRequest, match="too long"):
        await harness.app.bot.send_message(GROUP, "<b>😀</b>" * 2049, parse_mode="HTML")
    await harness.app.bot.send_message(GROUP, "&lt;" * 4096, parse_mode="HTML")
