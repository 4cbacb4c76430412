"""/help: every command, with this bot's round lengths."""

from __future__ import annotations

from collections.abc import Mapping

from bot.text.i18n import Texts


def help_text(texts: Texts, bot_name: str, seconds: Mapping[str, float]) -> str:
    return texts("help", bot=bot_name, seconds_24=seconds["24"],
                 seconds_countdown=seconds["countdown"], seconds_yahtzee=seconds["yahtzee"])
