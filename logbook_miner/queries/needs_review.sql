-- Entries a human should check, one row each: what `logbook review --out` lists (review_candidates).
-- $logbook: only this logbook (default: all)
-- $below (number): labels under this confidence need review (default: the review_below_confidence setting)
-- $decided = 0 | 1: 1 lists what a person already decided too
-- reads: review_candidates
SELECT logbook, seq, date,
       concat_ws('; ',
           CASE WHEN bool_or(code IS NULL) THEN 'no label' END,
           'low confidence: ' || string_agg(code || ' (' || round(confidence, 2) || ')', ', '
                                            ORDER BY confidence, code) FILTER (low_confidence),
           CASE WHEN bool_or(chronology_anomaly) THEN 'date out of order' END,
           CASE WHEN bool_or(date_inferred) THEN 'year inferred' END) AS reasons,
       heading
FROM review_candidates($below, $logbook, $decided)
GROUP BY logbook, seq, date, heading
ORDER BY logbook, seq
