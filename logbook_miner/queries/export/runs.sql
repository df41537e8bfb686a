-- One row per run (the `runs` view): a segment of training from one restart to the next.
-- reads: runs
-- $logbooks: the logbooks exported (a list of ids)
SELECT logbook, run, run_id, start_ts, end_ts, duration_hours, started_by, start_seq, end_seq,
       ended_by, list_sort(failure_families) AS failure_families, failure_entries,
       start_estimated
FROM runs
WHERE list_contains($logbooks, logbook)
ORDER BY logbook, run
