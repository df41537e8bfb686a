-- Which stretches ran between restarts, and what ended them? (the `runs` view; most recent $markers)
-- reads: runs
-- $logbooks: the chosen logbooks (a list of ids)
SELECT logbook, run, start_ts AS start, end_ts AS "end", round(duration_hours, 1) AS hours,
       ended_by, started_by
FROM runs
WHERE list_contains($logbooks, logbook) AND end_ts > start_ts
ORDER BY start_ts DESC
LIMIT $markers;
