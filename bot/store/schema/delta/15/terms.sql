-- The terms a round was dealt with (hints on, plain typed answers counted), so that a restart
-- keeps them when the chat's settings changed meanwhile; NULL for the rounds dealt before it
-- (they take the chat's settings, as they did).
ALTER TABLE rounds ADD COLUMN hints_on SMALLINT;
ALTER TABLE rounds ADD COLUMN typing_on SMALLINT;
