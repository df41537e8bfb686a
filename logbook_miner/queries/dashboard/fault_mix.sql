-- How many fault labels of each family were logged per week?
-- reads: labels, dash_entries
SELECT date_trunc('week', d.ts) AS week, split_part(l.code, '.', 1) AS family, count(*) AS n
FROM labels l JOIN dash_entries d USING (logbook, seq)
WHERE l.kind = 'fault' AND d.ts IS NOT NULL
GROUP BY ALL
ORDER BY week, family;
