"""What the bot keeps, and for how long (README, docs/reliability.md, /privacy say the same).

Kept while the bot runs: names, each chat's language and settings, the rounds (hand, who dealt
it, who won it with what answer, the points), who answered each round (one row per player and
round: rounds played and streaks are counted from it; the player's page reads its copy,
answered_rounds, which keeps with it whether they solved it, a later try in the round included,
how many seconds their first right answer took, and when they first answered), scores, matches,
daily results.
Not kept: after ANSWER_TEXTS_KEPT, the text of each answer (a round's winning answer stays in
the round) and every answer of a player's after their first in that round, and who passed in
it; after two days, the ids of handled updates (bot/telegram/jobs.py). So the database grows
with rounds and players, not with how much the players typed. /forget deletes a person's rows
just after their answer, hiding them from it on (bot/store/sql/forgetting.py).
"""

from __future__ import annotations

ANSWER_TEXTS_KEPT = 30 * 86400.0
EXPIRE_EVERY = 600.0  # the housekeeping job's period
# Answers looked at per transaction (about 100 rounds): each transaction a few milliseconds
# (bench/bench_year.py), so no other chat's write waits long behind it.
EXPIRE_ANSWERS = 400
EXPIRE_BATCHES = 100  # transactions per run at most: a backlog goes 60,000 rounds an hour
# Not a retention but the same job's: every chat's week's totals (schema step 31) lose the rounds
# that left the week, an hour of them a transaction (a few hundred rounds on a year-old
# database: bench/bench_year.py).
WEEK = 7 * 86400.0  # the week's boards (bot.play.community.standings)
WEEK_PART = 3600.0
WEEK_PARTS = 168  # a week of them a run at most (a stop of a week is caught up in one)
