-- The restart timeline: segments from one restart to the next (the first from the logbook's
-- first dated entry, the last to its last). ended_by: the family of the last failure in the
-- segment, else `planned` (the restart came with another intervention or a planned stop),
-- else `unknown`; the last segment is `open` (the logbook ends while it runs).
-- reads: entry_times, events, labels, settings, families
CREATE OR REPLACE TEMP VIEW runs AS
WITH bounds AS (
    SELECT logbook, min(ts) AS first_ts, max(ts) AS last_ts FROM entry_times GROUP BY logbook
),
restarts AS (
    SELECT logbook, ts, min(seq) AS seq, string_agg(DISTINCT reason, ',' ORDER BY reason) AS reason,
           bool_or(time_estimated) AS time_estimated, arg_min(run_id, seq) AS run_id
    FROM events WHERE kind = 'restart'
    GROUP BY logbook, ts
),
starts AS (
    SELECT logbook, first_ts AS start_ts, NULL::INTEGER AS seq, 'logbook start' AS started_by,
           NULL::BOOLEAN AS time_estimated, NULL::VARCHAR AS run_id
    FROM bounds b
    WHERE first_ts IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM restarts r WHERE r.logbook = b.logbook AND r.ts = b.first_ts)
    UNION ALL
    SELECT logbook, ts, seq, reason, time_estimated, run_id FROM restarts
),
segments AS (
    SELECT s.*, row_number() OVER w AS run,
           coalesce(lead(start_ts) OVER w, b.last_ts) AS end_ts,
           lead(seq) OVER w AS end_seq
    FROM starts s JOIN bounds b USING (logbook)
    WINDOW w AS (PARTITION BY logbook ORDER BY start_ts)
),
-- ASOF joins place each failure and entry in its segment (the latest start before it) in
-- one pass; a range join would pair every segment with every event.
failures AS (
    SELECT s.logbook, s.run, arg_max(f.family, (f.ts, -family_rank(f.family))) AS last_family,
           list(DISTINCT f.family ORDER BY f.family) AS families,
           count(DISTINCT f.seq) AS failure_entries
    FROM (SELECT * FROM events WHERE kind = 'failure') f
    ASOF JOIN segments s ON f.logbook = s.logbook AND f.ts > s.start_ts
    GROUP BY ALL
),
planned AS (
    SELECT DISTINCT logbook, seq FROM labels
    WHERE confidence >= setting('min_confidence')
      AND ((kind = 'intervention' AND code NOT IN ('restart', 'rollback'))
           OR code IN ('infra.maintenance', 'infra.scheduler'))
),
first_run_ids AS (
    SELECT s.logbook, s.run, arg_min(t.run_id, t.ord) AS run_id
    FROM (SELECT * FROM entry_times WHERE run_id IS NOT NULL) t
    ASOF JOIN segments s ON t.logbook = s.logbook AND t.ts >= s.start_ts
    WHERE t.ts < s.end_ts
    GROUP BY ALL
)
SELECT s.logbook, s.run, coalesce(s.run_id, r.run_id) AS run_id, s.start_ts, s.end_ts,
       epoch(s.end_ts - s.start_ts) / 3600 AS duration_hours,
       s.started_by, s.seq AS start_seq, s.end_seq,
       CASE WHEN s.end_seq IS NULL THEN 'open'
            WHEN f.last_family IS NOT NULL THEN f.last_family
            WHEN p.seq IS NOT NULL THEN 'planned'
            ELSE 'unknown' END AS ended_by,
       coalesce(f.families, []::VARCHAR[]) AS failure_families,
       coalesce(f.failure_entries, 0) AS failure_entries,
       coalesce(s.time_estimated, false) AS start_estimated
FROM segments s
LEFT JOIN failures f USING (logbook, run)
LEFT JOIN first_run_ids r USING (logbook, run)
LEFT JOIN planned p ON p.logbook = s.logbook AND p.seq = s.end_seq;
