-- Entries a human should check: low-confidence labels, dates out of order, guessed dates.
-- $logbook: only this logbook (default: all)
-- $below: labels under this confidence need review (default: the review_below_confidence setting)
-- reads: entries, labels, settings
WITH low AS (
    SELECT logbook, seq,
           string_agg(code || ' (' || round(confidence, 2) || ')', ', ' ORDER BY confidence)
               AS low_confidence
    FROM labels WHERE low_confidence(confidence, $below) GROUP BY ALL
)
SELECT e.logbook, e.seq, e.date, e.heading,
       concat_ws('; ',
           CASE WHEN l.seq IS NOT NULL THEN 'low confidence: ' || l.low_confidence END,
           CASE WHEN e.chronology_anomaly THEN 'date out of order' END,
           CASE WHEN e.date_inferred THEN 'year inferred' END) AS reasons
FROM entries e LEFT JOIN low l USING (logbook, seq)
WHERE ($logbook IS NULL OR e.logbook = $logbook)
  AND (l.seq IS NOT NULL OR e.chronology_anomaly OR e.date_inferred)
ORDER BY e.logbook, e.seq
