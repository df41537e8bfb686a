-- One row per intervention label with its outcome (the `intervention_outcomes` view): did the
-- fault come back, and how soon. Outcome columns are NULL where the view has no row (undated).
-- reads: labels, entries, intervention_outcomes
-- $logbooks: the logbooks exported (a list of ids)
SELECT l.logbook, l.seq, l.code, l.evidence, l.field, l.start, l."end", e.page_start, e.page_end,
       l.source, l.confidence, o.ts, o.time_estimated, o.own_families, o.hours_to_same_family,
       o.hours_to_any_family, o.hours_to_recurrence, o.followed_hours, o.recurred_24h,
       o.recurred_72h, o.recurred_7d, o.restarts_72h, o.verdict
FROM labels l
JOIN entries e USING (logbook, seq)
LEFT JOIN intervention_outcomes o USING (logbook, seq, code)
WHERE l.kind = 'intervention' AND list_contains($logbooks, l.logbook)
ORDER BY l.logbook, l.seq, l.code
