-- How many stops (incidents) and restarts has each logbook seen by each time ($bucket_seconds s per bucket)?
-- reads: incidents, dash_entries, dash_windows
-- $logbooks: the chosen logbooks (a list of ids)
WITH events AS (
    SELECT logbook, start_ts AS ts, 'failures' AS kind, 1 AS n
    FROM incidents WHERE stream = 'stop' AND list_contains($logbooks, logbook)
    UNION ALL
    SELECT logbook, ts, 'restarts', 1 FROM dash_entries WHERE restart AND ts IS NOT NULL
    UNION ALL  -- every line starts at 0 at the first dated entry and runs to the last
    SELECT w.logbook, t.ts, k.kind, 0
    FROM dash_windows w, (VALUES ('failures'), ('restarts')) k(kind),
         LATERAL (SELECT w.first_ts AS ts UNION ALL SELECT w.last_ts) t
), buckets AS (
    SELECT logbook, kind, min(ts) AS ts, sum(n) AS n
    FROM events GROUP BY logbook, kind, time_bucket(to_seconds($bucket_seconds), ts)
)
SELECT logbook, kind, ts,
       sum(n) OVER (PARTITION BY logbook, kind ORDER BY ts ROWS UNBOUNDED PRECEDING) AS total
FROM buckets
ORDER BY logbook, kind, ts;
