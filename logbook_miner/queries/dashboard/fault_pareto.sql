-- Which fault codes account for most of the faulty entries (dated or not)?
-- reads: labels, dash_entries
WITH counts AS (
    SELECT code, split_part(code, '.', 1) AS family, count(DISTINCT (l.logbook, l.seq)) AS n
    FROM labels l JOIN dash_entries d USING (logbook, seq)
    WHERE l.kind = 'fault'
    GROUP BY code
)
SELECT code, family, n,
       sum(n) OVER (ORDER BY n DESC, code ROWS UNBOUNDED PRECEDING) / sum(n) OVER () AS cumulative
FROM counts
ORDER BY n DESC, code;
