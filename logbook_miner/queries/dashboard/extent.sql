-- How much the page covers: the chosen logbooks' entries, dated entries and date span, and
-- the longest logbook window (to bucket time series).
-- reads: dash_entries, dash_windows
SELECT count(*) AS entries, count(ts) AS dated, min(ts) AS first, max(ts) AS last,
       coalesce((SELECT max(hours) FROM dash_windows), 0) AS longest_window_hours
FROM dash_entries
