-- How many labels a stored logbook has (0 after `logbook ingest --no-label`).
-- reads: labels
SELECT count(*) FROM labels WHERE logbook = $logbook
