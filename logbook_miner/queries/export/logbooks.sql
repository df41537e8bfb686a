-- One row per logbook: where it came from and what it holds.
-- reads: logbooks, entries
-- $logbooks: the logbooks exported (a list of ids)
SELECT l.id AS logbook, l.path, l.sha256, l.format, l.pages, l.title, l.nodes, l.gpus_per_node,
       count(e.seq) AS entries, count(e.date) AS dated_entries,
       min(e.date) AS first_date, max(e.date) AS last_date
FROM logbooks l
LEFT JOIN entries e ON e.logbook = l.id
WHERE list_contains($logbooks, l.id)
GROUP BY ALL
ORDER BY l.id
