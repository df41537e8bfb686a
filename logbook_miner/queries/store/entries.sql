-- A logbook's stored entries in document order, to relabel them without reading the file.
-- reads: entries
SELECT * EXCLUDE (logbook) FROM entries WHERE logbook = $logbook ORDER BY seq
