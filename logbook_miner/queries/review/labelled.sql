-- The codes a logbook's entries carry now, each entry named by heading and date as a
-- decision names it: an accepted code not among them is a code a person added.
-- $logbook: the logbook
-- reads: labels, entries
SELECT e.heading, e.date, l.code
FROM labels l JOIN entries e USING (logbook, seq)
WHERE l.logbook = $logbook
