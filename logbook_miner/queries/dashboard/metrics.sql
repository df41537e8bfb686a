-- How did loss, grad norm and throughput move over time ($bucket_seconds seconds per bucket, names in $metric_names)?
-- reads: metrics, dash_entries
SELECT m.logbook, m.name, any_value(m.unit) AS unit,
       min(d.ts) AS ts, avg(m.value) AS value, count(*) AS n
FROM metrics m JOIN dash_entries d USING (logbook, seq)
WHERE d.ts IS NOT NULL AND list_contains($metric_names, m.name)
GROUP BY m.logbook, m.name, time_bucket(to_seconds($bucket_seconds), d.ts)
ORDER BY m.logbook, m.name, ts;
