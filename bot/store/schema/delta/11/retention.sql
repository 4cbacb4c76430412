-- The answers' retention (bot/store/retention.py): the answers that still have their text, by
-- round, so the job finds the oldest of them without reading the year; the index holds the last
-- month's answers, once the job has caught up.
CREATE INDEX answers_unexpired ON answers(round_id) WHERE text <> '';
