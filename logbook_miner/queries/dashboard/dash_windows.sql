-- Each chosen logbook's observation window: its first and last dated entry, and the hours
-- between them.
-- reads: dash_entries
CREATE OR REPLACE TEMP TABLE dash_windows AS
SELECT logbook, min(ts) AS first_ts, max(ts) AS last_ts,
       epoch(max(ts) - min(ts)) / 3600 AS hours
FROM dash_entries
WHERE ts IS NOT NULL
GROUP BY logbook;
