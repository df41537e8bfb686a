-- A logbook's entries and its row in logbooks (its annotations go first: delete_annotations.sql).
-- reads: entries, logbooks
DELETE FROM entries WHERE logbook = $logbook;
DELETE FROM logbooks WHERE id = $logbook;
