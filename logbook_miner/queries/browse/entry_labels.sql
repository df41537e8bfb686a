-- An entry's labels with the words each stands on and the rule that made it.
-- $logbook: the logbook id
-- $seq: the entry's number in its logbook
-- reads: labels
SELECT kind, code, confidence, evidence, field, start, "end", source
FROM labels
WHERE logbook = $logbook AND seq = $seq
ORDER BY kind, code
