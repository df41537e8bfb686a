-- Which stretches ran between restarts, and what ended them? (the `runs` view; most recent $markers)
SELECT logbook, run, start_ts AS start, end_ts AS "end", round(duration_hours, 1) AS hours,
       ended_by, started_by
FROM runs
WHERE logbook IN (SELECT id FROM dash_logbooks) AND end_ts > start_ts
ORDER BY start_ts DESC
LIMIT $markers;
