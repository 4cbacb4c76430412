-- A person's /forget noted while it runs (bot/store/sql/forgetting.py), so that one a kill
-- interrupted is finished after the start (bot.play.community.privacy); a row lives only as long
-- as its forget, and names the person that long.
CREATE TABLE forgets (
    user_id BIGINT PRIMARY KEY,
    at DOUBLE PRECISION NOT NULL
);
