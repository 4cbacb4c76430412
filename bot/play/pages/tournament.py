"""A tournament's page: its terms and state, the best players across the groups, the groups
ranked, and each round's hand with its fastest solvers — sections as on a group's page
(bot.play.pages.group), drawn by the same page. It is for those the tournament concerns
(`readers`): whoever holds a link with its key (its code: the bot's own links carry it, and
whoever has the code may follow it), or a member of one of its groups or of a chat that follows
it; ids are sequential, so without that anyone could read every tournament's groups and
players. A round still being played shows neither its hand nor who solved it, and counts in no
standing (the store's): its hand is live for everyone until it closed in every group, and a
group dealt a second after another must not read it, nor who won it where, here first."""

from __future__ import annotations

import asyncio
import hmac
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from bot.play.pages.player import hand_text, separator
from bot.play.tournaments.rules import BEST_PLAYERS
from bot.play.tournaments.words import level_words, terms, when
from bot.store.tournament_records import Solve, Tournament, TournamentRound
from bot.store.tournament_store import TournamentStore
from bot.text.i18n import Texts

SHOWN = 10  # players on the board
SOLVERS = 3  # a round's fastest solvers shown
# Telegram is asked about at most this many of a tournament's chats for one request (else a
# stranger's request costs a getChatMember a chat: up to 500 groups and their followers): the
# group the asker plays for first, then the groups as they joined, then the followers. A member
# of a chat past these opens the page from the bot's link, which carries its key.
ASKED = 20


@dataclass(frozen=True)
class Readers:
    """Who may see a tournament's page: the asker, at once (`anyone`: the link's key is the
    tournament's, or the asker's own private chat follows it); else a member of one of these
    chats, as Telegram says."""

    anyone: bool
    chats: tuple[int, ...] = ()


async def readers(store: TournamentStore, tournament_id: int, key: str,
                  user_id: int) -> Readers | None:
    """Who may see the tournament's page, for this asker with this key (None: no such
    tournament)."""
    tournament = await store.get(tournament_id)
    if tournament is None:
        return None
    if key and hmac.compare_digest(key.encode(), tournament.code.encode()):
        return Readers(True)
    entrants, followers, plays_for = await asyncio.gather(
        store.entrants(tournament_id), store.followers(tournament_id),
        store.plays_for(tournament_id, user_id))
    chats = [plays_for] if plays_for is not None else []
    chats += [e.chat_id for e in entrants if e.playing]  # (where the bot is: Telegram tells)
    chats += [chat_id for chat_id, _ in followers]
    if user_id in chats:  # a private chat's only member is its person
        return Readers(True)
    return Readers(False, tuple(dict.fromkeys(c for c in chats if c < 0))[:ASKED])


async def tournament_page(store: TournamentStore, texts: Texts, tournament_id: int,
                          now: float) -> dict[str, Any] | None:
    """The page, or None: no such tournament."""
    tournament = await store.get(tournament_id)
    if tournament is None:
        return None
    entrants, rounds, players, groups, solves = await asyncio.gather(
        store.entrants(tournament_id), store.rounds(tournament_id),
        store.players(tournament_id, SHOWN), store.groups_board(tournament_id, BEST_PLAYERS),
        store.solves(tournament_id))
    titles = {e.chat_id: e.title or str(e.chat_id) for e in entrants}
    playing = sum(e.playing for e in entrants)
    return {"kind": "tournament", "title": tournament.name, "sections": [
        about_section(texts, tournament, playing, rounds, now),
        {"kind": "players", "title": texts("webapp_tournament_players"),
         "rows": [{"place": i + 1, "name": p.name, "detail": titles.get(p.chat_id, ""),
                   "value": f"{texts.plural('points', p.points)}{separator(texts)}"
                            f"{texts.seconds(p.seconds)}"}
                  for i, p in enumerate(players)]},
        {"kind": "groups", "title": texts("webapp_tournament_groups", best=BEST_PLAYERS),
         "rows": [{"place": i + 1, "name": g.title or str(g.chat_id), "detail": "",
                   "value": texts.plural("points", g.points)}
                  for i, g in enumerate(groups)]},
        rounds_section(texts, rounds, solves, titles)]}


def about_section(texts: Texts, tournament: Tournament, playing: int,
                  rounds: list[TournamentRound], now: float) -> dict[str, Any]:
    if tournament.status == "open":
        state = texts("tournament_state_open", when=when(texts, tournament, now))
    elif tournament.status == "running":
        state = texts("tournament_state_running", number=max(len(rounds), 1),
                      count=tournament.rounds)
    else:
        state = texts(f"webapp_tournament_{tournament.status}")
    return {"kind": "about", "title": texts("webapp_tournament_about"), "items": [
        {"label": texts("webapp_tournament_terms"), "value": terms(texts, tournament)},
        {"label": texts("webapp_tournament_state"), "value": state},
        {"label": texts("webapp_tournament_groups_count"), "value": texts.number(playing)}]}


def rounds_section(texts: Texts, rounds: list[TournamentRound], solves: list[Solve],
                   titles: dict[int, str]) -> dict[str, Any]:
    """Each round closed in every group: its hand, and its fastest solvers (each timed from
    their own group's deal); a round being played: only that it is."""
    by_round: defaultdict[int, list[Solve]] = defaultdict(list)
    for solve in solves:
        by_round[solve.number].append(solve)
    items = []
    for done in reversed(rounds):
        number = texts("webapp_tournament_round", number=done.number)
        if done.status == "live":
            items.append({"label": number, "value": texts("webapp_tournament_live")})
            continue
        fastest = by_round[done.number][:SOLVERS]
        value = texts("webapp_tournament_nobody") if not fastest else \
            f"{fastest[0].name} ({titles.get(fastest[0].chat_id, '')}){separator(texts)}" \
            f"{texts.seconds(fastest[0].seconds)}"
        detail = separator(texts).join(
            [f"{number}: {level_words(texts, done.level)}",
             *(f"{s.name} ({titles.get(s.chat_id, '')}) {texts.seconds(s.seconds)}"
               for s in fastest[1:])])
        items.append({"label": hand_text(texts, list(done.hand), done.target), "hand": "label",
                      "value": value, "detail": detail})
    return {"kind": "rounds", "title": texts("webapp_tournament_rounds"), "items": items}
