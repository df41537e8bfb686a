-- How did loss, grad norm and throughput move over time ($1 seconds per bucket, names in $2)?
SELECT m.logbook, m.name, any_value(m.unit) AS unit,
       min(d.ts) AS ts, avg(m.value) AS value, count(*) AS n
FROM metrics m JOIN dash_entries d USING (logbook, seq)
WHERE d.ts IS NOT NULL AND list_contains($2, m.name)
GROUP BY m.logbook, m.name, time_bucket(to_seconds($1), d.ts)
ORDER BY m.logbook, m.name, ts;
