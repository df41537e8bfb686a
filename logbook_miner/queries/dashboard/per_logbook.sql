-- Per chosen logbook: the header's counts, its top three fault codes, its cluster size and
-- checkpoint cost (the cost simulator's measured inputs). Never summed across logbooks.
-- reads: dash_entries, incidents, labels, cluster_sizes, metrics
-- $logbooks: the chosen logbooks (a list of ids)
WITH counts AS (
    SELECT logbook, count(*) AS entries, count(ts) AS dated,
           count(*) FILTER (WHERE restart) AS restarts,
           count(*) FILTER (WHERE failure) AS failure_entries
    FROM dash_entries GROUP BY logbook
), stops AS (
    SELECT logbook, count(*) AS stops FROM incidents WHERE stream = 'stop' GROUP BY logbook
), codes AS (
    SELECT l.logbook, l.code, count(DISTINCT l.seq) AS n
    FROM labels l JOIN dash_entries d USING (logbook, seq)
    WHERE l.kind = 'fault' GROUP BY l.logbook, l.code
), top AS (
    SELECT logbook, list(code ORDER BY n DESC, code)[1:3] AS top_faults FROM codes GROUP BY logbook
), sizes AS (
    SELECT logbook, max(gpus) AS gpus FROM cluster_sizes GROUP BY logbook
), saves AS (
    SELECT logbook, median(value) AS checkpoint_cost_seconds
    FROM metrics WHERE name = 'checkpoint_save_seconds' GROUP BY logbook
)
SELECT b.id AS logbook, coalesce(c.entries, 0) AS entries, coalesce(c.dated, 0) AS dated,
       coalesce(c.restarts, 0) AS restarts, coalesce(s.stops, 0) AS stops,
       coalesce(c.failure_entries, 0) AS failure_entries,
       coalesce(t.top_faults, []) AS top_faults, z.gpus, v.checkpoint_cost_seconds
FROM (SELECT unnest($logbooks::VARCHAR[]) AS id) b
LEFT JOIN counts c ON c.logbook = b.id
LEFT JOIN stops s ON s.logbook = b.id
LEFT JOIN top t ON t.logbook = b.id
LEFT JOIN sizes z ON z.logbook = b.id
LEFT JOIN saves v ON v.logbook = b.id;
