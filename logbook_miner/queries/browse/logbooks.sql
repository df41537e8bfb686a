-- What is stored: one row per logbook, with its source file, hash, entries, labels and dates.
-- reads: logbooks, entries, labels
SELECT l.id AS logbook, count(DISTINCT e.seq)::INTEGER AS entries,
       count(DISTINCT e.seq) FILTER (WHERE e.date IS NOT NULL)::INTEGER AS dated,
       (SELECT count(*) FROM labels b WHERE b.logbook = l.id)::INTEGER AS labels,
       min(e.date) AS first_date, max(e.date) AS last_date,
       l.format, l.pages, l.sha256, l.path
FROM logbooks l LEFT JOIN entries e ON e.logbook = l.id
GROUP BY ALL
ORDER BY l.id
