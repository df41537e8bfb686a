-- Per logbook, which fault codes account for most of its faulty entries (dated or not)?
-- Counted and accumulated within each logbook, never across logbooks.
-- reads: labels, dash_entries
WITH counts AS (
    SELECT l.logbook, code, split_part(code, '.', 1) AS family, count(DISTINCT l.seq) AS n
    FROM labels l JOIN dash_entries d USING (logbook, seq)
    WHERE l.kind = 'fault'
    GROUP BY l.logbook, code
)
SELECT logbook, code, family, n,
       sum(n) OVER (PARTITION BY logbook ORDER BY n DESC, code ROWS UNBOUNDED PRECEDING)
           / sum(n) OVER (PARTITION BY logbook) AS cumulative
FROM counts
ORDER BY logbook, n DESC, code;
