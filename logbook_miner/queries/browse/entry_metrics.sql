-- An entry's mined numbers with their units and evidence.
-- $logbook: the logbook id
-- $seq: the entry's number in its logbook
-- reads: metrics
SELECT name, value, unit, evidence
FROM metrics
WHERE logbook = $logbook AND seq = $seq
ORDER BY field, start, name
