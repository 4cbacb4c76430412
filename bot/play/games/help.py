"""/help: every command with this chat's round lengths, and the rules of fair play; `/help
<topic>`: the rules of the game whose help topic that is (a game's words say them). And every
other line that lists the games (the greeting, "no round is on here"), from the registry, so a
new game is named wherever the games are."""

from __future__ import annotations

from collections.abc import Mapping

from bot.play.asking.usage import UsageError, shown
from bot.play.games.registry import FIRST, GAMES
from bot.text import markup
from bot.text.i18n import Texts

TOPICS = {topic: game for game in GAMES.values() for topic in game.help_topics}


def read_topic(arguments: str) -> str:
    """What follows /help: nothing, or a game's help topic; anything else is refused (as /top
    refuses a word it does not know), not answered with the list as if it were not there."""
    topic = arguments.strip().lower()
    if topic and topic not in TOPICS:
        raise UsageError("unknown_word", word=shown(arguments.split()[0]))
    return topic


def help_text(texts: Texts, bot_name: str, seconds: Mapping[str, float], storm: float,
              topic: str = "") -> list[str]:
    """The help for `topic` (what follows /help); for anything else every command (with the
    games' round lengths, `seconds`, and a storm's clock, `storm`), then the rules of fair
    play: two messages, for in most languages the two are past the 4096 characters of one,
    which would cut the rules off."""
    game = TOPICS.get(topic.strip().lower())
    if game is not None:
        return [game.words.help_text(texts, seconds[game.name])]
    return [texts("help", bot=bot_name, seconds_storm=storm,
                  **{f"seconds_{name}": seconds[name] for name in GAMES}),
            texts("help_rules", bot=bot_name)]


def no_round(texts: Texts) -> str:
    """There is no round to act on here: the commands that start one."""
    return texts("no_round", starts=[game.start for game in GAMES.values()])


def greeting(texts: Texts, name: str) -> str:
    """/start: the greeting, the first game in its words and the others by command (`others`);
    in a private chat, a line each with its menu's words (`games`)."""
    others = [game for game in GAMES.values() if game is not FIRST]
    lines = [texts("start_game", line=markup.escape(texts(f"cmd_{game.command}")),
                   command=game.start) for game in others]
    return texts("start", name=name, others=[game.start for game in others],
                 games="\n".join(lines))
