-- One row per entry with its fault and intervention codes (the gold format's fields and more).
-- reads: entries, labels
-- $logbooks: the logbooks exported (a list of ids)
WITH codes AS (
    SELECT logbook, seq,
           list(DISTINCT code ORDER BY code) FILTER (WHERE kind = 'fault') AS faults,
           list(DISTINCT code ORDER BY code) FILTER (WHERE kind = 'intervention') AS interventions
    FROM labels
    GROUP BY logbook, seq
)
SELECT e.logbook, e.seq, e.heading, e.date, e.time, e.timezone, e.ts_utc, e.author, e.run_id,
       e.page_start, e.page_end, e.date_inferred, e.chronology_anomaly, e.text,
       coalesce(c.faults, []::VARCHAR[]) AS faults,
       coalesce(c.interventions, []::VARCHAR[]) AS interventions
FROM entries e
LEFT JOIN codes c USING (logbook, seq)
WHERE list_contains($logbooks, e.logbook)
ORDER BY e.logbook, e.seq
