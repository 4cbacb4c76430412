"""/help: every command with this chat's round lengths, and the rules of fair play; `/help
<topic>`: the rules of the game whose help topic that is (a game's words say them)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.play.games.registry import GAMES
from bot.text.i18n import Texts

TOPICS = {topic: game for game in GAMES.values() for topic in game.help_topics}


def help_text(texts: Texts, bot_name: str, seconds: Mapping[str, float], topic: str = "") -> str:
    """The help for `topic` (what follows /help); every command for anything else."""
    game = TOPICS.get(topic.strip().lower())
    if game is not None:
        return game.words.help_text(texts, seconds[game.name])
    return texts("help", bot=bot_name,
                 **{f"seconds_{name}": seconds[name] for name in GAMES})
