-- The stored hash of a logbook's file, to skip an unchanged one (no row: not stored).
-- reads: logbooks
SELECT sha256 FROM logbooks WHERE id = $logbook
