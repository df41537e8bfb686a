-- The restart timeline: each run segment between restarts, how long it lasted and what ended it.
-- $logbook: only this logbook (default: all)
-- reads: runs
SELECT logbook, run, run_id, start_ts, end_ts, round(duration_hours, 2) AS duration_hours,
       started_by, ended_by, failure_families, start_seq, end_seq, start_estimated
FROM runs
WHERE $logbook IS NULL OR logbook = $logbook
ORDER BY logbook, run
