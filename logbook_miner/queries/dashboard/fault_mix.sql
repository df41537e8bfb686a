-- How many fault labels of each family did each logbook log per week (never summed across
-- logbooks)?
-- reads: labels, dash_entries
SELECT d.logbook, date_trunc('week', d.ts) AS week, split_part(l.code, '.', 1) AS family,
       count(*) AS n
FROM labels l JOIN dash_entries d USING (logbook, seq)
WHERE l.kind = 'fault' AND d.ts IS NOT NULL
GROUP BY ALL
ORDER BY d.logbook, week, family;
