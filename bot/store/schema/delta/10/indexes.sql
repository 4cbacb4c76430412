-- An index for every statement that finds rows by something a year of play makes many of
-- (issue 40): /forget finds a person's answers, passes and the rounds and matches they won or
-- started by index, and so do the foreign-key checks of deleting them (and their private chat);
-- a group's move finds its matches; a chat's week board reads only that chat's wins of the week;
-- the daily board reads the day's fastest first. A person's answers are indexed with their
-- round, so that a look-up of one person in one round (a guess's count, who won the race) finds
-- those rows, not the person's year.
CREATE INDEX answers_by_user ON answers(user_id, round_id);
CREATE INDEX round_passes_by_user ON round_passes(user_id);
CREATE INDEX rounds_by_winner ON rounds(winner_id) WHERE winner_id IS NOT NULL;
CREATE INDEX rounds_by_starter ON rounds(started_by) WHERE started_by IS NOT NULL;
CREATE INDEX matches_by_chat ON matches(chat_id);
CREATE INDEX matches_by_starter ON matches(started_by) WHERE started_by IS NOT NULL;
CREATE INDEX rounds_won_in_chat ON rounds(chat_id, ended_at) WHERE status = 'won';
CREATE INDEX daily_results_by_time ON daily_results(day, seconds, at, user_id);
