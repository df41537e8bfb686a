-- The review decisions on a logbook, as label.corrections.Correction takes them.
-- reads: corrections
SELECT logbook, heading, date, kind, code, decision, replacement, evidence
FROM corrections
WHERE logbook = $logbook
ORDER BY heading, date, kind, code
