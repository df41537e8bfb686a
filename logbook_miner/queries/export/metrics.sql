-- One row per number mined from an entry, with the words it came from and the entry's pages.
-- reads: metrics, entries
-- $logbooks: the logbooks exported (a list of ids)
SELECT m.logbook, m.seq, m.name, m.value, m.unit, m.evidence, m.field, m.start, m."end",
       e.page_start, e.page_end
FROM metrics m
JOIN entries e USING (logbook, seq)
WHERE list_contains($logbooks, m.logbook)
ORDER BY m.logbook, m.seq, m.field, m.start, m."end", m.name, m.value
