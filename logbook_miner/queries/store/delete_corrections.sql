-- The review decisions made on a logbook (`logbook forget --with-corrections`).
-- reads: corrections
DELETE FROM corrections WHERE logbook = $logbook
