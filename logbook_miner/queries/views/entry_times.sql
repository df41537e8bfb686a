-- One time per entry, in the logbook's chronological order (OPT-style logbooks are newest-first).
-- ts: ts_utc; else the date at the time as written when the zone is unknown (zone_unknown: the
-- wall-clock time is right within the logbook, only its offset from UTC is not known); else the
-- date at noon (time_estimated); else, for an entry with no date it can be trusted with, the time
-- of the entry before it in time (date_estimated): the next one down in a newest-first logbook.
-- A date flagged as a chronology anomaly (a likely typo) is kept in `entries` but not trusted here.
-- reads: entries
CREATE OR REPLACE TEMP VIEW entry_times AS
WITH trusted AS (
    SELECT * REPLACE (CASE WHEN chronology_anomaly THEN NULL ELSE date END AS date,
                      CASE WHEN chronology_anomaly THEN NULL ELSE ts_utc END AS ts_utc)
    FROM entries
),
clocks AS (  -- '20:14', '1:00pm', '7:30 p.m.' as dates.parse_clock reads them
    SELECT *, CASE WHEN ts_utc IS NULL AND date IS NOT NULL THEN
                  try_strptime(upper(replace(replace(time, '.', ''), ' ', '')),
                               ['%H:%M:%S', '%H:%M', '%I:%M%p', '%I%p'])::TIME END AS wall_clock
    FROM trusted
),
own AS (
    SELECT *, coalesce(ts_utc, date + wall_clock, date + INTERVAL 12 HOUR) AS own_ts
    FROM clocks
),
steps AS (
    SELECT logbook, sign(epoch(own_ts) - epoch(lag(own_ts IGNORE NULLS) OVER (
                             PARTITION BY logbook ORDER BY seq))) AS step
    FROM own
),
direction AS (
    SELECT logbook, count_if(step < 0) > count_if(step > 0) AS newest_first
    FROM steps GROUP BY logbook
),
timed AS (
    SELECT o.*, d.newest_first,
           coalesce(o.own_ts,
                    CASE WHEN d.newest_first THEN first_value(o.own_ts IGNORE NULLS) OVER after
                         ELSE last_value(o.own_ts IGNORE NULLS) OVER before END,
                    CASE WHEN d.newest_first THEN last_value(o.own_ts IGNORE NULLS) OVER before
                         ELSE first_value(o.own_ts IGNORE NULLS) OVER after END) AS ts,
           o.ts_utc IS NULL AND o.wall_clock IS NULL AS time_estimated,
           o.ts_utc IS NULL AND o.wall_clock IS NOT NULL AS zone_unknown,
           o.date IS NULL AS date_estimated
    FROM own o JOIN direction d USING (logbook)
    WINDOW before AS (PARTITION BY o.logbook ORDER BY o.seq
                      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
           after AS (PARTITION BY o.logbook ORDER BY o.seq
                     ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)
)
SELECT logbook, seq, ts, time_estimated, zone_unknown, date_estimated, date_inferred,
       chronology_anomaly, run_id,
       nullif(lower(regexp_replace(run_id, '^\D*', '')), '') AS run_key,
       newest_first,
       row_number() OVER (PARTITION BY logbook
                          ORDER BY ts NULLS LAST,
                                   CASE WHEN newest_first THEN -seq ELSE seq END) AS ord
FROM timed;
