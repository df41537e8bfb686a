-- Which entries of the chosen logbooks are failures or restarts, when, and of which fault family?
-- Built on the analysis views: `ts` and its estimates come from entry_times, failures and
-- restarts from events (a multi-family failure takes its root-cause family, by family_rank).
-- reads: labels, events, entries, entry_times, families
-- $logbooks: the chosen logbooks (a list of ids)
CREATE OR REPLACE TEMP TABLE dash_entries AS
WITH codes AS (
    SELECT logbook, seq,
           list(DISTINCT code ORDER BY code) FILTER (WHERE kind = 'fault') AS faults,
           list(DISTINCT code ORDER BY code) FILTER (WHERE kind = 'intervention') AS interventions,
           arg_min(split_part(code, '.', 1), coalesce(family_rank(split_part(code, '.', 1)), 99))
               FILTER (WHERE kind = 'fault') AS family
    FROM labels
    WHERE list_contains($logbooks, logbook)
    GROUP BY logbook, seq
), flagged AS (
    SELECT logbook, seq, bool_or(kind = 'failure') AS failure, bool_or(kind = 'restart') AS restart,
           arg_min(family, coalesce(family_rank(family), 99)) FILTER (WHERE kind = 'failure')
               AS family
    FROM events
    WHERE list_contains($logbooks, logbook)
    GROUP BY logbook, seq
)
SELECT e.logbook, e.seq, e.logbook || '#' || e.seq AS id, e.heading, e.author,
       t.ts, t.ord,
       CASE WHEN e.ts_utc IS NOT NULL THEN strftime(e.ts_utc, '%Y-%m-%d %H:%M UTC')
            WHEN e.date IS NOT NULL THEN strftime(e.date, '%Y-%m-%d')
            WHEN t.ts IS NOT NULL THEN strftime(t.ts, '%Y-%m-%d') || ' (estimated)'
            ELSE '' END AS "when",
       coalesce(c.faults, []::VARCHAR[]) AS faults,
       coalesce(c.interventions, []::VARCHAR[]) AS interventions,
       coalesce(f.failure, false) AS failure,
       coalesce(f.restart, false) AS restart,
       coalesce(f.family, c.family, 'none') AS family
FROM entries e
JOIN entry_times t USING (logbook, seq)
LEFT JOIN codes c USING (logbook, seq)
LEFT JOIN flagged f USING (logbook, seq)
WHERE list_contains($logbooks, e.logbook);
