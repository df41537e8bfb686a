-- One row per label: the code, the words it stands on (offsets into entries.<field>), the
-- entry's pages, who decided it, and whether a person verified it (`logbook review --apply`).
-- reads: labels, entries, corrections
-- $logbooks: the logbooks exported (a list of ids)
SELECT l.logbook, l.seq, l.kind, l.code, l.evidence, l.field, l.start, l."end",
       e.page_start, e.page_end, l.source, l.confidence,
       EXISTS (SELECT 1 FROM corrections c
               WHERE c.logbook = l.logbook AND c.heading = e.heading
                 AND c.date IS NOT DISTINCT FROM e.date AND c.kind = l.kind
                 AND c.decision <> 'reject' AND coalesce(c.replacement, c.code) = l.code)
           AS verified
FROM labels l
JOIN entries e USING (logbook, seq)
WHERE list_contains($logbooks, l.logbook)
ORDER BY l.logbook, l.seq, l.kind, l.code, l.field, l.start
