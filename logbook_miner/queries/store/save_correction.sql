-- One review decision; a new decision on the same (logbook, heading, date, kind, code) replaces
-- the old one.
-- reads: corrections
DELETE FROM corrections
WHERE logbook = $logbook AND heading = $heading AND date IS NOT DISTINCT FROM $date
  AND kind = $kind AND code = $code;
INSERT INTO corrections
VALUES ($logbook, $heading, $date, $kind, $code, $decision, $replacement, $evidence, $decided_at);
