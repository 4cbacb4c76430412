"""The achievements section of the pages (docs/achievements.md): on a player's page every
achievement, the earned ones first with the day each was earned; on a group's page the latest
earned there, by whom. Names and rules are the catalogs' (`achievement_<code>`, `..._rule`)."""

from __future__ import annotations

from typing import Any

from bot.play.achievements.rules import CODES
from bot.play.pages.days import day_of
from bot.store.protocols import AchievementStore
from bot.text.i18n import Texts

GROUP_SHOWN = 30  # the latest achievements a group's page lists


def section(texts: Texts, items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"kind": "achievements", "title": texts("achievements_title"),
            "note": texts("achievements_counting"), "items": items}


async def player_badges(store: AchievementStore, texts: Texts, user_id: int) -> dict[str, Any]:
    """Every achievement, earned (with its day) or still to earn, the earned first."""
    earned = {row.code: row for row in await store.earned(user_id)}
    items = [{"code": code, "name": texts(f"achievement_{code}"),
              "rule": texts(f"achievement_{code}_rule"), "earned": code in earned,
              "when": texts.written(day_of(earned[code].earned_at)) if code in earned else None}
             for code in CODES]
    items.sort(key=lambda item: not item["earned"])
    return section(texts, items)


async def group_badges(store: AchievementStore, texts: Texts, chat_id: int) -> dict[str, Any]:
    """The latest achievements earned in the group: which, by whom, when."""
    rows = [row for row in await store.earned_in_chat(chat_id, GROUP_SHOWN) if row.code in CODES]
    return section(texts, [{"code": row.code, "name": texts(f"achievement_{row.code}"),
                            "rule": texts(f"achievement_{row.code}_rule"), "earned": True,
                            "who": row.name, "when": texts.written(day_of(row.earned_at))}
                           for row in rows])
