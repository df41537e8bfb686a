-- Failure events grouped into stops: an event at most incident_window_hours after the previous
-- one (same logbook and stream) belongs to the same incident, unless a restart was logged
-- between them (in the previous failure's entry or after it): then the job ran again, and
-- failed again. A family the taxonomy gives a stream of its own (numerics) forms that stream,
-- so a loss spike never merges with, or counts as, a stop of the job.
-- repair_hours (stops only), with repair_source saying where it came from:
--   dated:  incident start to the first restart before the next stop and within max_repair_hours,
--           when the restart is in a later entry (the same entry dates both only to one time);
--   stated: else what the incident's entries say it took (metrics downtime_hours: "took 5 hours
--           to get a replacement", "interrupted for about 12 hours"; else lost_hours: "we lost
--           ~11h on this event", which may include work redone from the last checkpoint);
--   a dated repair that rests on an estimated time (a date without a time) gives way to a
--   stated one; NULL when the logbook says neither.
-- reads: events, metrics, settings, families
CREATE OR REPLACE TEMP VIEW incidents AS
WITH sequenced AS (  -- restarts logged so far; an entry's restart follows its failure
    SELECT *, sum((kind = 'restart')::INTEGER) OVER (
                  PARTITION BY logbook ORDER BY ts, ord, kind = 'restart'
                  ROWS UNBOUNDED PRECEDING) AS restarts_seen
    FROM events WHERE kind IN ('failure', 'restart')
),
failures AS (
    SELECT *,
           failure_stream(family) AS stream
    FROM sequenced WHERE kind = 'failure'
),
marked AS (
    SELECT *, coalesce(epoch(ts - lag(ts) OVER w) / 3600 > setting('incident_window_hours')
                       OR restarts_seen > lag(restarts_seen) OVER w, true)::INTEGER AS opens
    FROM failures
    WINDOW w AS (PARTITION BY logbook, stream ORDER BY ts, ord)
),
numbered AS (
    SELECT *, sum(opens) OVER (PARTITION BY logbook, stream ORDER BY ts, ord
                               ROWS UNBOUNDED PRECEDING)::INTEGER AS incident
    FROM marked
),
grouped AS (
    SELECT logbook, stream, incident, min(ts) AS start_ts, max(ts) AS end_ts,
           arg_min(family, family_rank(family)) AS family,
           list(DISTINCT family ORDER BY family_rank(family)) AS families,
           list_sort(list_distinct(flatten(list(codes)))) AS codes,
           list(DISTINCT seq ORDER BY seq) AS seqs,
           bool_or(time_estimated) AS time_estimated,
           max(confidence) AS confidence,
           arg_max(evidence, (confidence, -seq, family)) AS evidence  -- ties: earliest entry
    FROM numbered
    GROUP BY ALL
),
bounded AS (
    SELECT *, lead(start_ts) OVER (PARTITION BY logbook, stream ORDER BY incident) AS next_start
    FROM grouped
),
resumed AS (
    SELECT i.logbook, i.stream, i.incident, min(r.ts) AS resumed_at,
           arg_min(r.seq, r.ts) AS resume_seq, arg_min(r.time_estimated, r.ts) AS resume_estimated
    FROM bounded i
    JOIN events r ON r.logbook = i.logbook AND r.kind = 'restart' AND r.ts >= i.start_ts
                 AND i.stream = 'stop'
                 AND epoch(r.ts - i.start_ts) / 3600 <= setting('max_repair_hours')
                 AND (i.next_start IS NULL OR r.ts < i.next_start)
    GROUP BY ALL
),
stated AS (
    SELECT i.logbook, i.stream, i.incident,
           coalesce(max(m.value) FILTER (WHERE m.name = 'downtime_hours'),
                    max(m.value) FILTER (WHERE m.name = 'lost_hours')) AS hours
    FROM bounded i
    JOIN metrics m ON m.logbook = i.logbook AND list_contains(i.seqs, m.seq)
    WHERE i.stream = 'stop' AND m.name IN ('downtime_hours', 'lost_hours') AND m.value > 0
    GROUP BY ALL
),
repairs AS (
    SELECT i.*, r.resumed_at, r.resume_seq, s.hours AS stated_hours,
           CASE WHEN NOT list_contains(i.seqs, r.resume_seq)
                THEN epoch(r.resumed_at - i.start_ts) / 3600 END AS dated_hours,
           i.time_estimated OR r.resume_estimated AS dated_estimated
    FROM bounded i
    LEFT JOIN resumed r USING (logbook, stream, incident)
    LEFT JOIN stated s USING (logbook, stream, incident)
),
chosen AS (
    SELECT *, CASE WHEN dated_hours IS NOT NULL AND NOT dated_estimated THEN 'dated'
                   WHEN stated_hours IS NOT NULL THEN 'stated'
                   WHEN dated_hours IS NOT NULL THEN 'dated' END AS repair_source
    FROM repairs
)
SELECT logbook, stream, incident, start_ts, end_ts, family, families, codes,
       seqs, len(seqs) AS entries, time_estimated, confidence, evidence,
       resumed_at, resume_seq,
       CASE repair_source WHEN 'dated' THEN dated_hours WHEN 'stated' THEN stated_hours END
           AS repair_hours,
       repair_source,
       CASE repair_source WHEN 'stated' THEN false ELSE dated_estimated END AS repair_estimated
FROM chosen;
