-- Restarts and failures, one row per entry (restart) or per entry and fault family (failure).
-- A restart is a restart/rollback label or a run id differing from the previous dated entry's.
-- reads: entry_times, labels, settings, families
CREATE OR REPLACE TEMP VIEW events AS
WITH lab AS (
    SELECT * FROM labels WHERE confidence >= setting('min_confidence')
),
failures AS (
    SELECT logbook, seq, split_part(code, '.', 1) AS family,
           list(code ORDER BY code) AS codes, max(confidence) AS confidence,
           arg_max(evidence, (confidence, code)) AS evidence
    FROM lab
    WHERE kind = 'fault' AND is_failure_code(code)
    GROUP BY ALL
),
restart_labels AS (
    SELECT logbook, seq, list(code ORDER BY code) AS codes, max(confidence) AS confidence,
           arg_max(evidence, (confidence, code)) AS evidence
    FROM lab
    WHERE kind = 'intervention' AND code IN ('restart', 'rollback')
    GROUP BY ALL
),
run_changes AS (
    SELECT logbook, seq, run_key, lag(run_key IGNORE NULLS) OVER (PARTITION BY logbook ORDER BY ord) AS previous
    FROM entry_times
    WHERE ts IS NOT NULL
),
restarts AS (
    SELECT logbook, seq, coalesce(r.codes, []::VARCHAR[]) AS codes, r.confidence, r.evidence,
           CASE WHEN r.seq IS NULL THEN 'run_change'
                WHEN c.run_key <> c.previous THEN 'label+run_change'
                ELSE 'label' END AS reason
    FROM restart_labels r
    FULL JOIN (SELECT * FROM run_changes WHERE run_key <> previous) c USING (logbook, seq)
)
SELECT t.logbook, t.seq, t.ts, t.time_estimated, t.date_estimated, t.ord, 'failure' AS kind,
       f.family, f.codes, NULL AS reason, f.confidence, f.evidence, t.run_id
FROM failures f JOIN entry_times t USING (logbook, seq)
WHERE t.ts IS NOT NULL
UNION ALL
SELECT t.logbook, t.seq, t.ts, t.time_estimated, t.date_estimated, t.ord, 'restart' AS kind,
       NULL AS family, r.codes, r.reason, r.confidence, r.evidence, t.run_id
FROM restarts r JOIN entry_times t USING (logbook, seq)
WHERE t.ts IS NOT NULL;
