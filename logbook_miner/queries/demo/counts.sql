-- What the demo stored: entries (and how many are dated), logbooks, restarts and stops.
-- reads: entries, logbooks, events, incidents
SELECT (SELECT count(*) FROM entries) AS entries,
       (SELECT count(*) FROM entries WHERE date IS NOT NULL) AS dated,
       (SELECT count(*) FROM logbooks) AS logbooks,
       (SELECT count(*) FROM events WHERE kind = 'restart') AS restarts,
       (SELECT count(*) FROM incidents WHERE stream = 'stop') AS stops
