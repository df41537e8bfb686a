-- Did an intervention hold? One row per intervention label: hours to the next failure of the
-- entry's own fault families (any family when the entry names no fault) and of any family,
-- recurrence within 24 h / 72 h / 7 d (the recurred_*_hours settings; NULL: the logbook ended
-- before that window closed), restarts in the next 72 h (restarts_72h_hours), the failures of
-- those families dated after it (what could have recurred at all), and a verdict over
-- outcome_window_hours.
-- true: recurred within the window; false: followed past it without recurring; NULL: censored.
-- reads: entry_times, events, labels, settings
CREATE OR REPLACE TEMP MACRO recurred_within(hours, followed, window_hours) AS
    CASE WHEN hours <= window_hours THEN true WHEN followed >= window_hours THEN false END;

CREATE OR REPLACE TEMP VIEW intervention_outcomes AS
WITH interventions AS (
    SELECT l.logbook, l.seq, l.code, l.confidence, l.evidence, t.ts, t.time_estimated
    FROM labels l JOIN entry_times t USING (logbook, seq)
    WHERE l.kind = 'intervention' AND t.ts IS NOT NULL
      AND l.confidence >= setting('min_confidence')
),
own AS (
    SELECT logbook, seq, list(DISTINCT family ORDER BY family) AS families
    FROM events WHERE kind = 'failure' GROUP BY ALL
),
ends AS (SELECT logbook, max(ts) AS last_ts FROM entry_times GROUP BY logbook),
-- "The next failure after" is an ASOF join (one pass over sorted times), per family for the
-- entry's own families; restarts within 72 h are a difference of running counts.
failure_times AS (SELECT DISTINCT logbook, family, ts FROM events WHERE kind = 'failure'),
any_failure_times AS (SELECT DISTINCT logbook, ts FROM failure_times),
next_any AS (
    SELECT i.logbook, i.seq, i.code, f.ts AS next_any_ts
    FROM interventions i
    ASOF LEFT JOIN any_failure_times f ON f.logbook = i.logbook AND f.ts > i.ts
),
own_families AS (
    SELECT i.logbook, i.seq, i.code, i.ts, unnest(o.families) AS family
    FROM interventions i JOIN own o USING (logbook, seq)
),
next_same AS (
    SELECT o.logbook, o.seq, o.code, min(f.ts) AS next_same_ts
    FROM own_families o
    ASOF LEFT JOIN failure_times f
        ON f.logbook = o.logbook AND f.family = o.family AND f.ts > o.ts
    GROUP BY ALL
),
nexts AS (
    SELECT a.logbook, a.seq, a.code, s.next_same_ts, a.next_any_ts
    FROM next_any a LEFT JOIN next_same s USING (logbook, seq, code)
),
failure_counts AS (  -- failures so far, per family and in all, to count those after a time
    SELECT logbook, family, ts,
           row_number() OVER (PARTITION BY logbook, family ORDER BY ts) AS upto,
           count(*) OVER (PARTITION BY logbook, family) AS total
    FROM failure_times
),
any_failure_counts AS (
    SELECT logbook, ts, row_number() OVER (PARTITION BY logbook ORDER BY ts) AS upto,
           count(*) OVER (PARTITION BY logbook) AS total
    FROM any_failure_times
),
later_same AS (
    SELECT o.logbook, o.seq, o.code,
           sum(coalesce(c.total - c.upto, t.total)) AS failures_after
    FROM own_families o
    ASOF LEFT JOIN failure_counts c ON c.logbook = o.logbook AND c.family = o.family
                                   AND c.ts <= o.ts
    LEFT JOIN (SELECT DISTINCT logbook, family, total FROM failure_counts) t
        ON t.logbook = o.logbook AND t.family = o.family
    GROUP BY ALL
),
later_any AS (
    SELECT i.logbook, i.seq, i.code, coalesce(c.total - c.upto, t.total, 0) AS failures_after
    FROM interventions i
    ASOF LEFT JOIN any_failure_counts c ON c.logbook = i.logbook AND c.ts <= i.ts
    LEFT JOIN (SELECT DISTINCT logbook, total FROM any_failure_counts) t
        ON t.logbook = i.logbook
),
restart_counts AS (
    SELECT logbook, ts, row_number() OVER (PARTITION BY logbook ORDER BY ts) AS upto
    FROM (SELECT DISTINCT logbook, ts FROM events WHERE kind = 'restart')
),
restarts AS (
    SELECT i.logbook, i.seq, i.code,
           coalesce(later.upto, 0) - coalesce(now.upto, 0) AS restarts_72h
    FROM interventions i
    ASOF LEFT JOIN restart_counts now ON now.logbook = i.logbook AND now.ts <= i.ts
    ASOF LEFT JOIN restart_counts later
        ON later.logbook = i.logbook
       AND later.ts <= i.ts + to_seconds(setting('restarts_72h_hours') * 3600)
),
measured AS (
    SELECT i.*, coalesce(o.families, []::VARCHAR[]) AS own_families,
           epoch(n.next_same_ts - i.ts) / 3600 AS hours_to_same_family,
           epoch(n.next_any_ts - i.ts) / 3600 AS hours_to_any_family,
           CASE WHEN o.families IS NULL THEN epoch(n.next_any_ts - i.ts) / 3600
                ELSE epoch(n.next_same_ts - i.ts) / 3600 END AS hours_to_recurrence,
           epoch(e.last_ts - i.ts) / 3600 AS followed_hours,
           coalesce(r.restarts_72h, 0) AS restarts_72h,
           CASE WHEN o.families IS NULL THEN la.failures_after
                ELSE coalesce(ls.failures_after, 0) END AS failures_after
    FROM interventions i
    JOIN ends e USING (logbook)
    LEFT JOIN own o USING (logbook, seq)
    LEFT JOIN nexts n USING (logbook, seq, code)
    LEFT JOIN restarts r USING (logbook, seq, code)
    LEFT JOIN later_same ls USING (logbook, seq, code)
    LEFT JOIN later_any la USING (logbook, seq, code)
)
SELECT logbook, seq, code, ts, time_estimated, confidence, evidence, own_families,
       hours_to_same_family, hours_to_any_family, hours_to_recurrence, followed_hours,
       recurred_within(hours_to_recurrence, followed_hours, setting('recurred_24h_hours'))
           AS recurred_24h,
       recurred_within(hours_to_recurrence, followed_hours, setting('recurred_72h_hours'))
           AS recurred_72h,
       recurred_within(hours_to_recurrence, followed_hours, setting('recurred_7d_hours'))
           AS recurred_7d,
       restarts_72h, failures_after::INTEGER AS failures_after,
       CASE recurred_within(hours_to_recurrence, followed_hours, setting('outcome_window_hours'))
            WHEN true THEN 'recurred' WHEN false THEN 'held' ELSE 'censored' END AS verdict
FROM measured;
