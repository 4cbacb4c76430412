-- A group's move to a supergroup noted while its closed rounds move a part at a time
-- (bot/store/sql/people.py), so that a start after a kill finishes it; a row lives only as long
-- as its move.
CREATE TABLE chat_moves (
    old_id BIGINT PRIMARY KEY,
    new_id BIGINT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
