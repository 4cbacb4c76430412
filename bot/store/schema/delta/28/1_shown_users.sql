-- The people whose names may be shown (issue 71): every user but one whose /forget is under
-- way. A forget is noted (table forgets) the moment it is confirmed, and its note deleted only
-- once every row of the person is gone; the rows go after the confirmation, a part at a time
-- (bot/store/sql/forgetting.py), so every read that shows a person's name (the boards, /stats,
-- a round's result, a match's, the daily board, the ratings, the pages, a tournament's boards)
-- joins this rather than users: from the confirmation on, nothing of the person is shown, however
-- long their erasure takes. A view, so each engine looks the two keys up where it reads the name
-- (no copy to keep equal, nothing to build on a year-old database).
CREATE VIEW shown_users (id, first_name, username) AS
    SELECT u.id, u.first_name, u.username FROM users u
    WHERE NOT EXISTS (SELECT 1 FROM forgets f WHERE f.user_id = u.id);
