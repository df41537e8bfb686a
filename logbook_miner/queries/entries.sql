-- Find entries by logbook and by words in their heading or text, with their codes.
-- $logbook: only this logbook (default: all)
-- $text: case-insensitive substring of the heading or text (default: any)
-- $limit = 50: rows at most
-- reads: entries, labels
WITH codes AS (
    SELECT logbook, seq, list(code ORDER BY kind, code) AS codes FROM labels GROUP BY ALL
)
SELECT e.logbook, e.seq, e.date, e.time, e.timezone, e.run_id, e.heading,
       left(regexp_replace(e.text, '\s+', ' ', 'g'), 120) AS snippet,
       coalesce(c.codes, []::VARCHAR[]) AS codes
FROM entries e LEFT JOIN codes c USING (logbook, seq)
WHERE ($logbook IS NULL OR e.logbook = $logbook)
  AND ($text IS NULL OR contains(lower(e.heading), lower($text))  -- literal: '5%' is no pattern
       OR contains(lower(e.text), lower($text)))
ORDER BY e.logbook, e.seq
LIMIT $limit
