"""Numbered schema migrations, applied in order at start-up (PRAGMA user_version is the number).

Never edit a migration that has shipped: add the next one. Apart from PostgreSQL's (bot/store/
postgres/migrations.py) because the dialects differ here: types, ids, trigger language.
"""

from __future__ import annotations

import sqlite3

MIGRATIONS: list[str] = [
    # 1: users, chats, rounds and answers.
    """
    CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        first_name TEXT NOT NULL DEFAULT '',
        username TEXT
    );
    CREATE TABLE chats (
        id INTEGER PRIMARY KEY,
        type TEXT NOT NULL DEFAULT 'group',
        title TEXT
    );
    CREATE TABLE rounds (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
        hand TEXT NOT NULL,
        target INTEGER NOT NULL,
        level TEXT NOT NULL,
        points INTEGER NOT NULL,
        message_id INTEGER,
        started_at REAL NOT NULL,
        deadline REAL NOT NULL,
        ended_at REAL,
        status TEXT NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'won', 'revealed', 'expired')),
        winner_id INTEGER REFERENCES users(id),
        winning_answer TEXT,
        hint_used INTEGER NOT NULL DEFAULT 0,
        awarded INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX one_open_round_per_chat ON rounds(chat_id) WHERE status = 'open';
    CREATE TABLE answers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id),
        text TEXT NOT NULL,
        correct INTEGER NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX answers_by_round ON answers(round_id);
    """,
    # 2: per-chat scores kept up to date when a round closes, so /top and /stats stay fast;
    #    filled from the rounds already played.
    """
    CREATE TABLE scores (
        chat_id INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id),
        points INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        rounds_played INTEGER NOT NULL DEFAULT 0,
        fastest_win REAL,
        current_streak INTEGER NOT NULL DEFAULT 0,
        best_streak INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, user_id)
    );
    CREATE INDEX scores_by_points ON scores(chat_id, points DESC);
    INSERT INTO scores (chat_id, user_id, points, wins, fastest_win, current_streak, best_streak)
        SELECT chat_id, winner_id, SUM(awarded), COUNT(*), MIN(ended_at - started_at), 0, 0
        FROM rounds WHERE status = 'won' GROUP BY chat_id, winner_id;
    INSERT INTO scores (chat_id, user_id) SELECT DISTINCT r.chat_id, a.user_id
        FROM answers a JOIN rounds r ON r.id = a.round_id WHERE r.status != 'open'
        ON CONFLICT DO NOTHING;
    UPDATE scores SET rounds_played = (
        SELECT COUNT(DISTINCT r.id) FROM rounds r
        WHERE r.chat_id = scores.chat_id AND r.status != 'open'
          AND (r.winner_id = scores.user_id OR EXISTS (
              SELECT 1 FROM answers a WHERE a.round_id = r.id AND a.user_id = scores.user_id)));
    """,
    # 3: more games (Countdown, Yahtzee), a language per chat, scores per game, and scoring by
    #    the database itself: closing a round is one UPDATE, and this trigger scores it in the
    #    same statement, so a score can never be half written or counted twice.
    """
    ALTER TABLE chats ADD COLUMN lang TEXT;
    ALTER TABLE rounds ADD COLUMN game TEXT NOT NULL DEFAULT '24';
    ALTER TABLE rounds ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';
    ALTER TABLE rounds ADD COLUMN win_seconds REAL;
    UPDATE rounds SET win_seconds = ended_at - started_at WHERE status = 'won';
    ALTER TABLE answers ADD COLUMN distance INTEGER;
    CREATE TABLE game_scores (
        chat_id INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id),
        game TEXT NOT NULL,
        points INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        rounds_played INTEGER NOT NULL DEFAULT 0,
        fastest_win REAL,
        current_streak INTEGER NOT NULL DEFAULT 0,
        best_streak INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, user_id, game)
    );
    INSERT INTO game_scores (chat_id, user_id, game, points, wins, rounds_played, fastest_win,
                             current_streak, best_streak)
        SELECT chat_id, user_id, '24', points, wins, rounds_played, fastest_win, current_streak,
               best_streak FROM scores;
    DROP TABLE scores;
    ALTER TABLE game_scores RENAME TO scores;
    CREATE INDEX scores_by_chat ON scores(chat_id, game, points DESC);
    CREATE INDEX scores_by_user ON scores(user_id);
    CREATE TRIGGER round_closed AFTER UPDATE OF status ON rounds
    WHEN OLD.status = 'open' AND NEW.status != 'open'
    BEGIN
        INSERT INTO scores (chat_id, user_id, game)
            SELECT DISTINCT NEW.chat_id, user_id, NEW.game FROM answers WHERE round_id = NEW.id
            ON CONFLICT DO NOTHING;
        INSERT INTO scores (chat_id, user_id, game)
            SELECT NEW.chat_id, NEW.winner_id, NEW.game WHERE NEW.winner_id IS NOT NULL
            ON CONFLICT DO NOTHING;
        UPDATE scores SET rounds_played = rounds_played + 1
            WHERE chat_id = NEW.chat_id AND game = NEW.game
              AND (user_id = NEW.winner_id
                   OR user_id IN (SELECT user_id FROM answers WHERE round_id = NEW.id));
        UPDATE scores SET current_streak = 0
            WHERE chat_id = NEW.chat_id AND game = NEW.game AND current_streak > 0
              AND user_id IS NOT NEW.winner_id;
        UPDATE scores SET points = points + NEW.awarded, wins = wins + 1,
                fastest_win = MIN(COALESCE(fastest_win, NEW.win_seconds), NEW.win_seconds),
                current_streak = current_streak + 1,
                best_streak = MAX(best_streak, current_streak + 1)
            WHERE NEW.winner_id IS NOT NULL AND chat_id = NEW.chat_id AND game = NEW.game
              AND user_id = NEW.winner_id;
    END;
    """,
    # 4: who started each round: they (or a chat admin) may end it early or take a hint.
    #    Rounds from before have no starter; only admins may end those early.
    """
    ALTER TABLE rounds ADD COLUMN started_by INTEGER REFERENCES users(id);
    """,
    # 5: exact rounds played and streaks, results announced once, updates handled once.
    #    `played` is the definition: a player played a closed round if they answered in it
    #    (before or after it closed) or won it. A streak counts consecutive wins among the
    #    rounds a player played in that chat and game, in round order. `round_closed` now
    #    resets only the streaks of the round's players, and `answer_after_close` counts an
    #    answer that lands after its round closed (recounting the streaks when that round
    #    is not the player's latest); the scores are then rebuilt from rounds and answers.
    #    Rounds closed before this migration count as announced: no old result is sent again.
    """
    ALTER TABLE rounds ADD COLUMN announced INTEGER NOT NULL DEFAULT 0;
    UPDATE rounds SET announced = 1 WHERE status != 'open';
    CREATE INDEX rounds_by_chat ON rounds(chat_id, game, id);
    CREATE INDEX rounds_unannounced ON rounds(ended_at) WHERE announced = 0 AND status != 'open';
    CREATE TABLE handled_updates (
        update_id INTEGER PRIMARY KEY,
        at REAL NOT NULL
    );
    CREATE VIEW played (chat_id, game, user_id, round_id, won) AS
        SELECT DISTINCT r.chat_id, r.game, a.user_id, r.id, 0
            FROM rounds r JOIN answers a ON a.round_id = r.id
            WHERE r.status != 'open' AND a.user_id IS NOT r.winner_id
        UNION ALL
        SELECT chat_id, game, winner_id, id, 1 FROM rounds
            WHERE status != 'open' AND winner_id IS NOT NULL;
    CREATE VIEW scores_from_rounds (chat_id, user_id, game, points, wins, rounds_played,
                                    fastest_win, current_streak, best_streak) AS
        SELECT chat_id, user_id, game, SUM(points), SUM(wins), SUM(played), MIN(fastest),
               SUM(CASE WHEN losses = all_losses THEN wins ELSE 0 END), MAX(wins)
        FROM (SELECT chat_id, user_id, game, losses, all_losses, SUM(won) AS wins,
                     COUNT(*) AS played, SUM(CASE WHEN won THEN awarded ELSE 0 END) AS points,
                     MIN(CASE WHEN won THEN win_seconds END) AS fastest
              FROM (SELECT p.chat_id, p.user_id, p.game, p.won, r.awarded, r.win_seconds,
                           SUM(1 - p.won) OVER (PARTITION BY p.chat_id, p.game, p.user_id
                                                ORDER BY p.round_id) AS losses,
                           SUM(1 - p.won) OVER (PARTITION BY p.chat_id, p.game, p.user_id)
                               AS all_losses
                    FROM played p JOIN rounds r ON r.id = p.round_id)
              GROUP BY chat_id, user_id, game, losses)
        GROUP BY chat_id, user_id, game;
    DROP TRIGGER round_closed;
    CREATE TRIGGER round_closed AFTER UPDATE OF status ON rounds
    WHEN OLD.status = 'open' AND NEW.status != 'open'
    BEGIN
        INSERT INTO scores (chat_id, user_id, game)
            SELECT DISTINCT NEW.chat_id, user_id, NEW.game FROM answers WHERE round_id = NEW.id
            ON CONFLICT DO NOTHING;
        INSERT INTO scores (chat_id, user_id, game)
            SELECT NEW.chat_id, NEW.winner_id, NEW.game WHERE NEW.winner_id IS NOT NULL
            ON CONFLICT DO NOTHING;
        UPDATE scores SET rounds_played = rounds_played + 1, current_streak = 0
            WHERE chat_id = NEW.chat_id AND game = NEW.game AND user_id IS NOT NEW.winner_id
              AND user_id IN (SELECT user_id FROM answers WHERE round_id = NEW.id);
        UPDATE scores SET rounds_played = rounds_played + 1, points = points + NEW.awarded,
                wins = wins + 1,
                fastest_win = COALESCE(MIN(fastest_win, NEW.win_seconds), fastest_win,
                                       NEW.win_seconds),
                current_streak = current_streak + 1,
                best_streak = MAX(best_streak, current_streak + 1)
            WHERE chat_id = NEW.chat_id AND game = NEW.game AND user_id = NEW.winner_id;
    END;
    CREATE TRIGGER answer_after_close AFTER INSERT ON answers
    WHEN EXISTS (SELECT 1 FROM rounds WHERE id = NEW.round_id AND status != 'open'
                     AND winner_id IS NOT NEW.user_id)
     AND NOT EXISTS (SELECT 1 FROM answers WHERE round_id = NEW.round_id
                         AND user_id = NEW.user_id AND id != NEW.id)
    BEGIN
        INSERT INTO scores (chat_id, user_id, game)
            SELECT chat_id, NEW.user_id, game FROM rounds WHERE id = NEW.round_id
            ON CONFLICT DO NOTHING;
        UPDATE scores SET rounds_played = rounds_played + 1, current_streak = 0
            WHERE user_id = NEW.user_id
              AND (chat_id, game) = (SELECT chat_id, game FROM rounds WHERE id = NEW.round_id);
        UPDATE scores SET
                current_streak = (
                    SELECT COUNT(*) FROM played
                    WHERE chat_id = (SELECT chat_id FROM rounds WHERE id = NEW.round_id)
                      AND game = (SELECT game FROM rounds WHERE id = NEW.round_id)
                      AND user_id = NEW.user_id
                      AND round_id > (
                          SELECT COALESCE(MAX(round_id), 0) FROM played
                          WHERE chat_id = (SELECT chat_id FROM rounds WHERE id = NEW.round_id)
                            AND game = (SELECT game FROM rounds WHERE id = NEW.round_id)
                            AND user_id = NEW.user_id AND won = 0)),
                best_streak = (
                    SELECT COALESCE(MAX(run), 0) FROM (
                        SELECT SUM(won) AS run FROM (
                            SELECT won, SUM(1 - won) OVER (ORDER BY round_id) AS losses
                            FROM played
                            WHERE chat_id = (SELECT chat_id FROM rounds WHERE id = NEW.round_id)
                              AND game = (SELECT game FROM rounds WHERE id = NEW.round_id)
                              AND user_id = NEW.user_id)
                        GROUP BY losses))
            WHERE user_id = NEW.user_id
              AND (chat_id, game) = (SELECT chat_id, game FROM rounds WHERE id = NEW.round_id)
              AND EXISTS (
                  SELECT 1 FROM played
                  WHERE chat_id = (SELECT chat_id FROM rounds WHERE id = NEW.round_id)
                    AND game = (SELECT game FROM rounds WHERE id = NEW.round_id)
                    AND user_id = NEW.user_id AND round_id > NEW.round_id);
    END;
    DELETE FROM scores;
    INSERT INTO scores (chat_id, user_id, game, points, wins, rounds_played, fastest_win,
                        current_streak, best_streak)
        SELECT chat_id, user_id, game, points, wins, rounds_played, fastest_win,
               current_streak, best_streak FROM scores_from_rounds;
    """,
    # 6: matches (/match N): N rounds of 24 in a row in one chat. A match row, and the rounds
    #    it dealt in order; its scoreboard is read from those rounds, so nothing is scored twice
    #    and a restart resumes it where it stopped. One match on per chat.
    """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
        rounds INTEGER NOT NULL CHECK (rounds >= 1),
        started_by INTEGER REFERENCES users(id),
        lang TEXT NOT NULL DEFAULT 'en',
        started_at REAL NOT NULL,
        ended_at REAL,
        status TEXT NOT NULL DEFAULT 'on' CHECK (status IN ('on', 'done', 'stopped'))
    );
    CREATE UNIQUE INDEX one_match_per_chat ON matches(chat_id) WHERE status = 'on';
    CREATE TABLE match_rounds (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        round_id INTEGER NOT NULL UNIQUE REFERENCES rounds(id) ON DELETE CASCADE,
        PRIMARY KEY (match_id, number)
    );
    """,
    # 7: forum topics. A round and a match belong to the topic (message_thread_id) where they
    #    began, 0 where the chat has none; one open round and one match on per topic, so two
    #    topics of a forum play at once. Scores stay per chat.
    """
    ALTER TABLE rounds ADD COLUMN topic INTEGER NOT NULL DEFAULT 0;
    DROP INDEX one_open_round_per_chat;
    CREATE UNIQUE INDEX one_open_round_per_topic ON rounds(chat_id, topic)
        WHERE status = 'open';
    ALTER TABLE matches ADD COLUMN topic INTEGER NOT NULL DEFAULT 0;
    DROP INDEX one_match_per_chat;
    CREATE UNIQUE INDEX one_match_per_topic ON matches(chat_id, topic) WHERE status = 'on';
    """,
    # 8: a group's own settings (/settings: a JSON object of the keys it changed; the
    #    environment gives the rest), who passed in a round (/pass), and the daily puzzle's
    #    results (/daily: each person's first right answer of a UTC day, once, in any chat).
    """
    CREATE TABLE chat_settings (
        chat_id INTEGER PRIMARY KEY REFERENCES chats(id) ON UPDATE CASCADE ON DELETE CASCADE,
        body TEXT NOT NULL DEFAULT '{}',
        updated_at REAL NOT NULL
    );
    CREATE TABLE round_passes (
        round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        at REAL NOT NULL,
        PRIMARY KEY (round_id, user_id)
    );
    CREATE TABLE daily_results (
        day TEXT NOT NULL,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        chat_id INTEGER NOT NULL,
        answer TEXT NOT NULL,
        seconds REAL NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (day, user_id)
    );
    CREATE INDEX daily_results_by_user ON daily_results(user_id, day);
    CREATE INDEX rounds_won_by_time ON rounds(ended_at) WHERE status = 'won';
    """,
    # 9: the leader's lease, as PostgreSQL's migration 9 makes it. One process owns an SQLite
    #    file, so nothing takes the lease here (bot.store.SoleLeader): the table only keeps the
    #    two schemas alike.
    """
    CREATE TABLE leader_lease (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        epoch INTEGER NOT NULL,
        holder TEXT NOT NULL,
        expires_at REAL NOT NULL
    );
    """,
    # 10: an index for every statement that finds rows by something a year of play makes many
    #     of (issue 40): /forget finds a person's answers, passes and the rounds and matches they
    #     won or started by index, and so do the foreign-key checks of deleting them (and their
    #     private chat); a group's move finds its matches; a chat's week board reads only that
    #     chat's wins of the week; the daily board reads the day's fastest first. A person's
    #     answers are indexed with their round, so that a look-up of one person in one round
    #     (a guess's count, who won the race) finds those rows, not the person's year.
    """
    CREATE INDEX answers_by_user ON answers(user_id, round_id);
    CREATE INDEX round_passes_by_user ON round_passes(user_id);
    CREATE INDEX rounds_by_winner ON rounds(winner_id) WHERE winner_id IS NOT NULL;
    CREATE INDEX rounds_by_starter ON rounds(started_by) WHERE started_by IS NOT NULL;
    CREATE INDEX matches_by_chat ON matches(chat_id);
    CREATE INDEX matches_by_starter ON matches(started_by) WHERE started_by IS NOT NULL;
    CREATE INDEX rounds_won_in_chat ON rounds(chat_id, ended_at) WHERE status = 'won';
    CREATE INDEX daily_results_by_time ON daily_results(day, seconds, at, user_id);
    """,
    # 11: the answers' retention (bot/store/retention.py): the answers that still have their
    #     text, by round, so the job finds the oldest of them without reading the year; the
    #     index holds the last month's answers, once the job has caught up.
    """
    CREATE INDEX answers_unexpired ON answers(round_id) WHERE text <> '';
    """,
    # 12: the boards read from totals kept as the scores change, instead of summing scores at
    #     each ask (issue 40): per player, for each chat over all its games (game ''), and
    #     over every chat (chat 0) per game and over all games, the points and wins of their
    #     scores that have points (what the boards count); a chat's board in one game reads
    #     the scores themselves, in an index of the board's order (scores_board, in place of
    #     scores_by_chat, which left the ties to sort). And how many players stand at each
    #     (points, wins) of the every-chat boards, all of them (board_steps) and by band of
    #     2^24 user ids (board_ties), so that a place there is 1 + the players on the steps
    #     above + those tied in lower bands + those tied in one's own band with a lower id: a
    #     few hundred small rows however many players are ahead (a chat's place counts that
    #     chat's rows ahead, in its index).
    """
    CREATE TABLE player_totals (
        chat_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        points INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, chat_id, game)
    );
    CREATE INDEX player_totals_board
        ON player_totals(chat_id, game, points DESC, wins DESC, user_id) WHERE points > 0;
    DROP INDEX scores_by_chat;
    CREATE INDEX scores_board ON scores(chat_id, game, points DESC, wins DESC, user_id)
        WHERE points > 0;
    CREATE TABLE board_steps (
        game TEXT NOT NULL,
        points INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        players INTEGER NOT NULL,
        PRIMARY KEY (game, points, wins)
    );
    CREATE TABLE board_ties (
        game TEXT NOT NULL,
        points INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        band INTEGER NOT NULL,
        players INTEGER NOT NULL,
        PRIMARY KEY (game, points, wins, band)
    );
    INSERT INTO player_totals (chat_id, user_id, game, points, wins)
        SELECT chat_id, user_id, '', SUM(points), SUM(wins) FROM scores WHERE points > 0
        GROUP BY chat_id, user_id;
    INSERT INTO player_totals (chat_id, user_id, game, points, wins)
        SELECT 0, user_id, game, SUM(points), SUM(wins) FROM scores WHERE points > 0
        GROUP BY user_id, game;
    INSERT INTO player_totals (chat_id, user_id, game, points, wins)
        SELECT 0, user_id, '', SUM(points), SUM(wins) FROM scores WHERE points > 0
        GROUP BY user_id;
    INSERT INTO board_steps (game, points, wins, players)
        SELECT game, points, wins, COUNT(*) FROM player_totals
        WHERE chat_id = 0 AND points > 0 GROUP BY game, points, wins;
    INSERT INTO board_ties (game, points, wins, band, players)
        SELECT game, points, wins, user_id / 16777216, COUNT(*) FROM player_totals
        WHERE chat_id = 0 AND points > 0 GROUP BY game, points, wins, user_id / 16777216;
    CREATE TRIGGER scores_total_insert AFTER INSERT ON scores WHEN NEW.points > 0
    BEGIN
        INSERT INTO player_totals (chat_id, user_id, game, points, wins)
            VALUES (NEW.chat_id, NEW.user_id, '', NEW.points, NEW.wins),
                   (0, NEW.user_id, NEW.game, NEW.points, NEW.wins),
                   (0, NEW.user_id, '', NEW.points, NEW.wins)
            ON CONFLICT (user_id, chat_id, game) DO UPDATE
                SET points = points + excluded.points, wins = wins + excluded.wins;
    END;
    CREATE TRIGGER scores_total_update AFTER UPDATE OF chat_id, points, wins ON scores
    WHEN (OLD.points > 0 OR NEW.points > 0)
     AND (OLD.points <> NEW.points OR OLD.wins <> NEW.wins OR OLD.chat_id <> NEW.chat_id)
    BEGIN
        INSERT INTO player_totals (chat_id, user_id, game, points, wins)
            SELECT chat, NEW.user_id, kind, SUM(points), SUM(wins) FROM (
                SELECT NEW.chat_id AS chat, '' AS kind, (NEW.points > 0) * NEW.points AS points,
                       (NEW.points > 0) * NEW.wins AS wins
                UNION ALL SELECT 0, NEW.game, (NEW.points > 0) * NEW.points,
                                 (NEW.points > 0) * NEW.wins
                UNION ALL SELECT 0, '', (NEW.points > 0) * NEW.points,
                                 (NEW.points > 0) * NEW.wins
                UNION ALL SELECT OLD.chat_id, '', -(OLD.points > 0) * OLD.points,
                                 -(OLD.points > 0) * OLD.wins
                UNION ALL SELECT 0, OLD.game, -(OLD.points > 0) * OLD.points,
                                 -(OLD.points > 0) * OLD.wins
                UNION ALL SELECT 0, '', -(OLD.points > 0) * OLD.points,
                                 -(OLD.points > 0) * OLD.wins)
            GROUP BY chat, kind HAVING SUM(points) <> 0 OR SUM(wins) <> 0
            ON CONFLICT (user_id, chat_id, game) DO UPDATE
                SET points = points + excluded.points, wins = wins + excluded.wins;
        DELETE FROM player_totals WHERE user_id = OLD.user_id AND (chat_id, game) IN
            (VALUES (OLD.chat_id, ''), (0, OLD.game), (0, '')) AND points = 0 AND wins = 0;
    END;
    CREATE TRIGGER scores_total_delete AFTER DELETE ON scores WHEN OLD.points > 0
    BEGIN
        UPDATE player_totals SET points = points - OLD.points, wins = wins - OLD.wins
            WHERE user_id = OLD.user_id AND (chat_id, game) IN
                (VALUES (OLD.chat_id, ''), (0, OLD.game), (0, ''));
        DELETE FROM player_totals WHERE user_id = OLD.user_id AND (chat_id, game) IN
            (VALUES (OLD.chat_id, ''), (0, OLD.game), (0, '')) AND points = 0 AND wins = 0;
    END;
    CREATE TRIGGER totals_ladder_insert AFTER INSERT ON player_totals
    WHEN NEW.chat_id = 0 AND NEW.points > 0
    BEGIN
        INSERT INTO board_steps (game, points, wins, players)
            VALUES (NEW.game, NEW.points, NEW.wins, 1)
            ON CONFLICT (game, points, wins) DO UPDATE SET players = players + 1;
        INSERT INTO board_ties (game, points, wins, band, players)
            VALUES (NEW.game, NEW.points, NEW.wins, NEW.user_id / 16777216, 1)
            ON CONFLICT (game, points, wins, band) DO UPDATE SET players = players + 1;
    END;
    CREATE TRIGGER totals_ladder_update AFTER UPDATE OF points, wins ON player_totals
    WHEN NEW.chat_id = 0 AND (OLD.points <> NEW.points OR OLD.wins <> NEW.wins)
    BEGIN
        UPDATE board_steps SET players = players - 1
            WHERE OLD.points > 0 AND game = OLD.game AND points = OLD.points
              AND wins = OLD.wins;
        DELETE FROM board_steps
            WHERE game = OLD.game AND points = OLD.points AND wins = OLD.wins AND players = 0;
        UPDATE board_ties SET players = players - 1
            WHERE OLD.points > 0 AND game = OLD.game AND points = OLD.points
              AND wins = OLD.wins AND band = OLD.user_id / 16777216;
        DELETE FROM board_ties
            WHERE game = OLD.game AND points = OLD.points AND wins = OLD.wins
              AND band = OLD.user_id / 16777216 AND players = 0;
        INSERT INTO board_steps (game, points, wins, players)
            SELECT NEW.game, NEW.points, NEW.wins, 1 WHERE NEW.points > 0
            ON CONFLICT (game, points, wins) DO UPDATE SET players = players + 1;
        INSERT INTO board_ties (game, points, wins, band, players)
            SELECT NEW.game, NEW.points, NEW.wins, NEW.user_id / 16777216, 1
            WHERE NEW.points > 0
            ON CONFLICT (game, points, wins, band) DO UPDATE SET players = players + 1;
    END;
    CREATE TRIGGER totals_ladder_delete AFTER DELETE ON player_totals
    WHEN OLD.chat_id = 0 AND OLD.points > 0
    BEGIN
        UPDATE board_steps SET players = players - 1
            WHERE game = OLD.game AND points = OLD.points AND wins = OLD.wins;
        DELETE FROM board_steps
            WHERE game = OLD.game AND points = OLD.points AND wins = OLD.wins AND players = 0;
        UPDATE board_ties SET players = players - 1
            WHERE game = OLD.game AND points = OLD.points AND wins = OLD.wins
              AND band = OLD.user_id / 16777216;
        DELETE FROM board_ties
            WHERE game = OLD.game AND points = OLD.points AND wins = OLD.wins
              AND band = OLD.user_id / 16777216 AND players = 0;
    END;
    """,
    # 13: a group's move to a supergroup noted while its closed rounds move a part at a time
    #    (bot/store/sql/people.py), so that a start after a kill finishes it; a row lives only
    #    as long as its move.
    """
    CREATE TABLE chat_moves (
        old_id INTEGER PRIMARY KEY,
        new_id INTEGER NOT NULL,
        at REAL NOT NULL
    );
    """,
    # 14: ratings that learn (bot/play/ratings, docs/ratings.md). Each player's rating
    #    per game and season (a UTC month), each hand's difficulty per game (with its count of
    #    numbers and target, so start-up loads one kind of hand by index), each game's scale,
    #    and the rounds rated, by id: a round's update is written in its closing transaction,
    #    once. /forget deletes a person's ratings; hands and scales name nobody.
    """
    CREATE TABLE player_ratings (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        season TEXT NOT NULL,
        rating REAL NOT NULL,
        uncertainty REAL NOT NULL,
        responses INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL,
        PRIMARY KEY (user_id, game, season)
    );
    CREATE INDEX player_ratings_board ON player_ratings(game, season, rating DESC, user_id);
    CREATE TABLE hand_ratings (
        game TEXT NOT NULL,
        hand TEXT NOT NULL,
        numbers INTEGER NOT NULL,
        target INTEGER NOT NULL,
        difficulty REAL NOT NULL,
        uncertainty REAL NOT NULL,
        responses INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL,
        PRIMARY KEY (game, hand)
    );
    CREATE INDEX hand_ratings_by_kind ON hand_ratings(game, numbers, target);
    CREATE TABLE rating_scales (
        game TEXT PRIMARY KEY,
        shape REAL NOT NULL,
        uncertainty REAL NOT NULL,
        rounds INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL
    );
    CREATE TABLE rated_rounds (
        round_id INTEGER PRIMARY KEY REFERENCES rounds(id) ON DELETE CASCADE,
        at REAL NOT NULL
    );
    """,
    # 15: the terms a round was dealt with (hints on, plain typed answers counted), so that a
    #    restart keeps them when the chat's settings changed meanwhile; NULL for the rounds
    #    dealt before it (they take the chat's settings, as they did).
    """
    ALTER TABLE rounds ADD COLUMN hints_on INTEGER;
    ALTER TABLE rounds ADD COLUMN typing_on INTEGER;
    """,
    # 16: a person's /forget noted while it runs (bot/store/sql/forgetting.py), so that one a
    #    kill interrupted is finished after the start (bot.play.community.privacy); a row lives
    #    only as long as its forget, and names the person that long.
    """
    CREATE TABLE forgets (
        user_id INTEGER PRIMARY KEY,
        at REAL NOT NULL
    );
    """,
    # 17: achievements (bot/play/achievements, docs/achievements.md): each person's, earned
    #    once (the key is the person and the code), with when and where (the chat; the round,
    #    but for the daily puzzle's); by person through the key, by chat through its index. The
    #    achievements the stored history earned already are awarded here, each at the first
    #    round (or daily result) that earned it, by the rules of bot/play/achievements/rules.py
    #    said in SQL: a round counts when it closed in a group (a negative chat id) and at least
    #    two different people answered in it.
    """
    CREATE TABLE achievements (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        earned_at REAL NOT NULL,
        chat_id INTEGER NOT NULL,
        round_id INTEGER,
        PRIMARY KEY (user_id, code)
    );
    CREATE INDEX achievements_by_chat ON achievements(chat_id, earned_at);
    CREATE TABLE achievement_counted (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        level TEXT NOT NULL,
        hand TEXT NOT NULL,
        winner_id INTEGER,
        win_seconds REAL,
        ended_at REAL NOT NULL,
        status TEXT NOT NULL,
        players INTEGER NOT NULL,
        right_win INTEGER NOT NULL
    );
    INSERT INTO achievement_counted
        SELECT r.id, r.chat_id, r.game, r.level, r.hand, r.winner_id, r.win_seconds,
               r.ended_at, r.status, n.players,
               CASE WHEN EXISTS (SELECT 1 FROM answers a WHERE a.round_id = r.id
                                 AND a.user_id = r.winner_id AND a.correct = 1)
                    THEN 1 ELSE 0 END AS right_win
        FROM rounds r JOIN (SELECT round_id, COUNT(DISTINCT user_id) AS players FROM answers
                            GROUP BY round_id) n ON n.round_id = r.id
        WHERE r.chat_id < 0 AND r.status <> 'open' AND n.players >= 2;
    CREATE TABLE achievement_played (
        user_id INTEGER NOT NULL,
        id INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        ended_at REAL NOT NULL,
        won INTEGER NOT NULL,
        PRIMARY KEY (user_id, id)
    );
    INSERT INTO achievement_played
        SELECT DISTINCT a.user_id, c.id, c.chat_id, c.ended_at,
               CASE WHEN c.winner_id = a.user_id THEN 1 ELSE 0 END
        FROM achievement_counted c JOIN answers a ON a.round_id = c.id;
    INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
        SELECT winner_id, code, ended_at, chat_id, id FROM (
            SELECT c.winner_id, k.code, c.ended_at, c.chat_id, c.id,
                   ROW_NUMBER() OVER (PARTITION BY c.winner_id, k.code
                                      ORDER BY c.ended_at, c.id) AS n
            FROM achievement_counted c JOIN (
                SELECT 'first_win' AS code UNION ALL SELECT 'quick_win'
                UNION ALL SELECT 'hard_hand' UNION ALL SELECT 'five_numbers'
                UNION ALL SELECT 'countdown_exact' UNION ALL SELECT 'yahtzee_optimum'
                UNION ALL SELECT 'crowd_win') k
            ON k.code = 'first_win'
               OR (k.code = 'quick_win' AND c.right_win = 1 AND c.win_seconds < 5)
               OR (k.code = 'hard_hand' AND c.right_win = 1 AND c.game = '24'
                   AND c.level = 'hard')
               OR (k.code = 'five_numbers' AND c.right_win = 1 AND c.game = '24'
                   AND LENGTH(c.hand) - LENGTH(REPLACE(c.hand, ',', '')) = 4)
               OR (k.code = 'countdown_exact' AND c.right_win = 1 AND c.game = 'countdown')
               OR (k.code = 'yahtzee_optimum' AND c.right_win = 1 AND c.game = 'yahtzee')
               OR (k.code = 'crowd_win' AND c.players >= 5)
            WHERE c.status = 'won' AND c.winner_id IS NOT NULL) AS w
        WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.winner_id);
    INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
        SELECT winner_id, 'ten_wins', ended_at, chat_id, id FROM (
            SELECT winner_id, ended_at, chat_id, id,
                   ROW_NUMBER() OVER (PARTITION BY winner_id ORDER BY ended_at, id) AS n
            FROM (SELECT c.winner_id, c.ended_at, c.chat_id, c.id,
                         ROW_NUMBER() OVER (PARTITION BY c.winner_id, c.chat_id
                                            ORDER BY c.id) AS k
                  FROM achievement_counted c
                  WHERE c.status = 'won' AND c.winner_id IS NOT NULL) AS t
            WHERE k = 10) AS w
        WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.winner_id);
    INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
        SELECT user_id, 'three_in_a_row', ended_at, chat_id, id FROM (
            SELECT user_id, ended_at, chat_id, id,
                   ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY ended_at, id) AS n
            FROM (SELECT p.user_id, p.ended_at, p.chat_id, p.id,
                         SUM(p.won) OVER (PARTITION BY p.user_id, p.chat_id ORDER BY p.id
                                          ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS run
                  FROM achievement_played p) AS t
            WHERE run = 3) AS w
        WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.user_id);
    INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
        SELECT user_id, 'fifty_rounds', ended_at, chat_id, id FROM (
            SELECT p.user_id, p.ended_at, p.chat_id, p.id,
                   ROW_NUMBER() OVER (PARTITION BY p.user_id ORDER BY p.ended_at, p.id) AS n
            FROM achievement_played p) AS w
        WHERE n = 50 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.user_id);
    INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
        SELECT user_id, code, at, chat_id, NULL FROM (
            SELECT d.user_id, k.code, d.at, d.chat_id,
                   ROW_NUMBER() OVER (PARTITION BY d.user_id, k.code ORDER BY d.at) AS n
            FROM daily_results d JOIN (
                SELECT 'daily_first' AS code UNION ALL SELECT 'daily_early') k
            ON k.code = 'daily_first' OR (k.code = 'daily_early' AND d.seconds < 3600)) AS w
        WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.user_id);
    INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id)
        SELECT user_id, 'daily_week', at, chat_id, NULL FROM (
            SELECT user_id, at, chat_id,
                   ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY at) AS n
            FROM (SELECT user_id, at, chat_id,
                         ROW_NUMBER() OVER (PARTITION BY user_id, island ORDER BY day) AS k
                  FROM (SELECT d.user_id, d.at, d.chat_id, d.day,
                               CAST(julianday(d.day) AS INTEGER)
                               - ROW_NUMBER() OVER (PARTITION BY d.user_id ORDER BY d.day)
                               AS island
                        FROM daily_results d) AS i) AS t
            WHERE k = 7) AS w
        WHERE n = 1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = w.user_id);
    DROP TABLE achievement_played;
    DROP TABLE achievement_counted;
    """,
    # 18 (issue 47; the achievements' 17 comes before it): each player's rating at the end of
    #    each day it was written, per game, for the player's and the group's pages
    #    (bot/store/sql/pages.py); upserted with every rating write (bot/store/sql/ratings.py),
    #    seeded here from the ratings as they stand (each season's row on its last day). The
    #    person's /forget deletes it (and the person's row cascades).
    """
    CREATE TABLE rating_days (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        day TEXT NOT NULL,
        season TEXT NOT NULL,
        rating REAL NOT NULL,
        PRIMARY KEY (user_id, game, day)
    );
    INSERT INTO rating_days (user_id, game, day, season, rating)
        SELECT user_id, game, strftime('%Y-%m-%d', updated_at, 'unixepoch'), season, rating
        FROM player_ratings WHERE true
        ON CONFLICT (user_id, game, day) DO NOTHING;
    """,
    # 19 (issue 47's speed): each player's answered rounds, one row per player and round with
    #    what the player's page shows of it (bot/store/sql/pages.py), kept together by the
    #    player (WITHOUT ROWID: the key is the row's place), so that a page reads its player's
    #    rows in a few pages rather than a year of answers and their rounds scattered over the
    #    file. Written as the round closes (in the close's statement, as `scores`) and as an
    #    answer lands after the close; MAX and MIN merge the rows, so writing one twice
    #    changes nothing. `day`: the UTC day of the first answer (days since 1970), which the
    #    calendar counts by. Filled here from the answers of the closed rounds. The person's
    #    /forget deletes it (and the person's row cascades); a chat's reset, its rounds'.
    """
    CREATE TABLE answered_rounds (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        round_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        level TEXT NOT NULL,
        hand TEXT NOT NULL,
        target INTEGER NOT NULL,
        solved INTEGER NOT NULL,
        seconds REAL,
        first_at REAL NOT NULL,
        day INTEGER NOT NULL,
        PRIMARY KEY (user_id, round_id)
    ) WITHOUT ROWID;
    CREATE TRIGGER answered_on_close AFTER UPDATE OF status ON rounds
    WHEN OLD.status = 'open' AND NEW.status != 'open'
    BEGIN
        INSERT INTO answered_rounds (user_id, round_id, game, level, hand, target, solved,
                                     seconds, first_at, day)
            SELECT user_id, NEW.id, NEW.game, NEW.level, NEW.hand, NEW.target, MAX(correct),
                   MIN(CASE WHEN correct = 1 THEN at END) - NEW.started_at, MIN(at),
                   CAST(MIN(at) / 86400 AS INTEGER)
            FROM answers WHERE round_id = NEW.id GROUP BY user_id
            ON CONFLICT DO NOTHING;
    END;
    CREATE TRIGGER answered_after_close AFTER INSERT ON answers
    WHEN EXISTS (SELECT 1 FROM rounds WHERE id = NEW.round_id AND status != 'open')
    BEGIN
        INSERT INTO answered_rounds (user_id, round_id, game, level, hand, target, solved,
                                     seconds, first_at, day)
            SELECT NEW.user_id, id, game, level, hand, target, NEW.correct,
                   CASE WHEN NEW.correct = 1 THEN NEW.at - started_at END, NEW.at,
                   CAST(NEW.at / 86400 AS INTEGER)
            FROM rounds WHERE id = NEW.round_id
            ON CONFLICT (user_id, round_id) DO UPDATE SET
                solved = MAX(solved, excluded.solved),
                seconds = COALESCE(MIN(seconds, excluded.seconds), seconds, excluded.seconds),
                first_at = MIN(first_at, excluded.first_at),
                day = MIN(day, excluded.day);
    END;
    INSERT INTO answered_rounds (user_id, round_id, game, level, hand, target, solved,
                                 seconds, first_at, day)
        SELECT a.user_id, r.id, r.game, r.level, r.hand, r.target, a.solved,
               a.first_right - r.started_at, a.first_at, CAST(a.first_at / 86400 AS INTEGER)
        FROM (SELECT round_id, user_id, MAX(correct) AS solved,
                     MIN(CASE WHEN correct = 1 THEN at END) AS first_right, MIN(at) AS first_at
              FROM answers GROUP BY user_id, round_id) a
        JOIN rounds r ON r.id = a.round_id
        WHERE r.status != 'open'
        ORDER BY a.user_id, a.round_id;
    """,
    # 20: the workers' leases and the partitions' owners, as PostgreSQL's migration 20 makes
    #     them. Workers run on PostgreSQL only: the tables only keep the two schemas alike.
    """
    CREATE TABLE worker_leases (
        epoch INTEGER PRIMARY KEY,
        holder TEXT NOT NULL,
        expires_at REAL NOT NULL
    );
    CREATE TABLE partition_owners (
        partition INTEGER PRIMARY KEY,
        owner INTEGER
    );
    """,
    # 21 (after 20, the partition leases): nothing. PostgreSQL's 21 indexes the open rounds for
    #    the workers that share one database (each holds only its own chats' rounds in
    #    memory); one process owns an SQLite file and holds every open round itself, so it
    #    reads none of that from here. Kept so that both lists keep the same numbers.
    "",
]

LATEST = len(MIGRATIONS)


def statements(script: str) -> list[str]:
    """A migration's statements, one by one (a trigger's body keeps its own semicolons)."""
    found, pending = [], ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                found.append(pending.strip())
            pending = ""
    return found
