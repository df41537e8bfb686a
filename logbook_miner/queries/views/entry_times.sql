-- One time per entry, in the logbook's chronological order (OPT-style logbooks are newest-first).
-- ts: ts_utc; else the date at the time as written when the zone is unknown (zone_unknown: the
-- wall-clock time is right within the logbook, only its offset from UTC is not known); else the
-- date at noon (time_estimated); else the nearest dated entry's day (date_estimated).
-- A date flagged as a chronology anomaly (a likely typo) is kept in `entries` but not trusted here:
-- the entry takes its neighbours' day, like an undated one.
-- reads: entries
CREATE OR REPLACE TEMP VIEW entry_times AS
WITH trusted AS (
    SELECT * REPLACE (CASE WHEN chronology_anomaly THEN NULL ELSE date END AS date,
                      CASE WHEN chronology_anomaly THEN NULL ELSE ts_utc END AS ts_utc)
    FROM entries
),
days AS (
    SELECT e.*,
           coalesce(e.date,
                    last_value(e.date IGNORE NULLS) OVER before,
                    first_value(e.date IGNORE NULLS) OVER after) AS day
    FROM trusted e
    WINDOW before AS (PARTITION BY logbook ORDER BY seq
                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
           after AS (PARTITION BY logbook ORDER BY seq
                     ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)
),
clocks AS (  -- '20:14', '1:00pm', '7:30 p.m.' as dates.parse_clock reads them
    SELECT *, CASE WHEN ts_utc IS NULL AND date IS NOT NULL THEN
                  try_strptime(upper(replace(replace(time, '.', ''), ' ', '')),
                               ['%H:%M:%S', '%H:%M', '%I:%M%p', '%I%p'])::TIME END AS wall_clock
    FROM days
),
timed AS (
    SELECT *, coalesce(ts_utc, day + wall_clock, day + INTERVAL 12 HOUR) AS ts,
           ts_utc IS NULL AND wall_clock IS NULL AS time_estimated,
           ts_utc IS NULL AND wall_clock IS NOT NULL AS zone_unknown,
           date IS NULL AS date_estimated
    FROM clocks
),
steps AS (
    SELECT logbook, sign(epoch(ts) - epoch(lag(ts) OVER (PARTITION BY logbook ORDER BY seq))) AS step
    FROM timed
),
direction AS (
    SELECT logbook, count_if(step < 0) > count_if(step > 0) AS newest_first
    FROM steps GROUP BY logbook
)
SELECT t.logbook, t.seq, t.ts, t.time_estimated, t.zone_unknown, t.date_estimated,
       t.date_inferred,
       t.chronology_anomaly, t.run_id,
       nullif(lower(regexp_replace(t.run_id, '^\D*', '')), '') AS run_key,
       d.newest_first,
       row_number() OVER (PARTITION BY t.logbook
                          ORDER BY t.ts NULLS LAST,
                                   CASE WHEN d.newest_first THEN -t.seq ELSE t.seq END) AS ord
FROM timed t JOIN direction d USING (logbook);
