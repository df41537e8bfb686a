-- Which failures and restarts go on the timeline (the most recent $markers, if there are more)?
-- reads: dash_entries
CREATE OR REPLACE TEMP TABLE dash_markers AS
SELECT id, logbook, seq, ts, "when", heading, coalesce(author, '') AS author, family,
       CASE WHEN failure AND restart THEN 'failure + restart'
            WHEN failure THEN 'failure' ELSE 'restart' END AS kind,
       array_to_string(list_concat(faults, interventions), ', ') AS labels
FROM dash_entries
WHERE (failure OR restart) AND ts IS NOT NULL
ORDER BY ts DESC, ord DESC
LIMIT $markers;
