-- The file a stored logbook was read from, as given at ingest (no row: not stored).
-- reads: logbooks
SELECT path FROM logbooks WHERE id = $logbook
