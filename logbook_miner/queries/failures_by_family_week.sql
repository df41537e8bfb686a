-- How many stops (incidents) and failure entries each fault family had, week by week.
-- $logbook: only this logbook (default: all)
-- reads: incidents, events, families
WITH stops AS (
    SELECT logbook, date_trunc('week', start_ts)::DATE AS week, unnest(families) AS family, codes
    FROM incidents
    WHERE $logbook IS NULL OR logbook = $logbook
),
weekly_stops AS (
    SELECT logbook, week, family, count(*) AS incidents,
           list_sort(list_distinct(flatten(list(
               list_filter(codes, lambda c: split_part(c, '.', 1) = family))))) AS codes
    FROM stops GROUP BY ALL
),
weekly_entries AS (
    SELECT logbook, date_trunc('week', ts)::DATE AS week, family, count(*) AS failure_entries
    FROM events
    WHERE kind = 'failure' AND ($logbook IS NULL OR logbook = $logbook)
    GROUP BY ALL
)
SELECT logbook, week, family, incidents, failure_entries, codes
FROM weekly_stops JOIN weekly_entries USING (logbook, week, family)
ORDER BY logbook, week, family_rank(family)
