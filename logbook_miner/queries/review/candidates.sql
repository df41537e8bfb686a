-- The review CSV (`logbook review --out`): review_candidates' rows, as a person edits them,
-- with an empty `decision` column. Decided rows stay out: the CSV is for deciding.
-- $below: confidence threshold (NULL: the review_below_confidence setting); $logbook: one or NULL
-- reads: review_candidates
SELECT * EXCLUDE (low_confidence, chronology_anomaly, date_inferred), '' AS decision
FROM review_candidates($below, $logbook, false)
ORDER BY logbook, seq, kind NULLS FIRST, code NULLS FIRST
