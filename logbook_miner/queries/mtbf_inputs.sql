-- What the MTBF estimate needs per logbook (or per logbook and family): the observation window
-- (first to last dated entry), the stop times in hours since it opened, and the cluster size.
-- $logbook: only this logbook (default: all)
-- $by = all | family: `all` counts every stop (numerics excluded); `family` counts each family's incidents
-- reads: entry_times, incidents, cluster_sizes, families
WITH windows AS (
    SELECT logbook, min(ts) AS window_start, max(ts) AS window_end
    FROM entry_times WHERE ts IS NOT NULL GROUP BY logbook
),
stops AS (
    SELECT logbook, start_ts, unnest(CASE WHEN $by = 'family' THEN families ELSE ['all'] END)
           AS family
    FROM incidents
    WHERE $by = 'family' OR stream = 'stop'
),
groups AS (
    SELECT DISTINCT logbook, family FROM stops
    UNION SELECT logbook, 'all' FROM windows WHERE $by <> 'family'
),
counted AS (
    SELECT g.logbook, g.family, count(s.start_ts) AS failures,
           coalesce(list(epoch(s.start_ts - w.window_start) / 3600 ORDER BY s.start_ts)
                        FILTER (WHERE s.start_ts IS NOT NULL), []::DOUBLE[]) AS failure_hours
    FROM groups g
    JOIN windows w USING (logbook)
    LEFT JOIN stops s ON s.logbook = g.logbook AND s.family = g.family
    GROUP BY g.logbook, g.family
)
SELECT c.logbook, c.family, w.window_start, w.window_end,
       epoch(w.window_end - w.window_start) / 3600 AS observed_hours,
       c.failures, c.failure_hours, z.nodes, z.gpus
FROM counted c
JOIN windows w USING (logbook)
LEFT JOIN cluster_sizes z USING (logbook)
WHERE $logbook IS NULL OR c.logbook = $logbook
ORDER BY c.logbook, family_rank(c.family) NULLS FIRST
