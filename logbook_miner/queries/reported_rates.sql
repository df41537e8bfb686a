-- The failure rate the notes themselves state, per logbook (or logbook and family): of the
-- counts and rates written in prose ("40+ restarts since Nov 17", "~2 machines go down every
-- day"), the one that says failures come most often. A restart counts as a stop of the job;
-- numerics are not stops. Entries count the stops someone wrote up; these count what happened.
-- $logbook: only this logbook (default: all)
-- $by = all | family: `all` takes every stop-like code; `family` one row per fault family
-- reads: rates, families
WITH coded AS (
    SELECT *, CASE WHEN code = 'restart' THEN 'all' ELSE split_part(code, '.', 1) END AS family
    FROM rates
    WHERE ($logbook IS NULL OR logbook = $logbook)
      AND (code = 'restart'
           OR (is_failure_code(code) AND failure_stream(split_part(code, '.', 1)) = 'stop'))
),
grouped AS (
    SELECT *, CASE WHEN $by = 'family' THEN family ELSE 'all' END AS grouped_family
    FROM coded
    WHERE $by <> 'family' OR family <> 'all'
)
SELECT logbook, grouped_family AS family,
       arg_min(events, hours / events) AS reported_events,
       arg_min(bound, hours / events) AS reported_bound,
       arg_min(hours, hours / events) AS reported_hours,
       min(hours / events) AS reported_mtbf_hours,
       arg_min(code, hours / events) AS reported_code,
       arg_min(evidence, hours / events) AS reported_evidence,
       arg_min(period_start, hours / events) AS reported_from,
       arg_min(period_end, hours / events) AS reported_to
FROM grouped
GROUP BY ALL
ORDER BY logbook, family
