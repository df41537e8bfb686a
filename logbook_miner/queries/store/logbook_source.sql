-- The stored hash of a logbook's file and how its dates were read, to skip a file read
-- before the same way (no row: not stored).
-- reads: logbooks
SELECT sha256, reading FROM logbooks WHERE id = $logbook
