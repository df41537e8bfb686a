-- Labels and entries worth a person's look ($below: confidence threshold, default the
-- review_below_confidence setting; $logbook: one or NULL):
-- low-confidence labels, labels of entries whose date breaks the chronology, entries with no label.
-- Labels a person already decided, and entries with any decision, are left out.
-- reads: entries, labels, corrections, settings
WITH scope AS (
    SELECT * FROM entries WHERE $logbook IS NULL OR logbook = $logbook
),
decided AS (
    SELECT e.logbook, e.seq, c.kind, c.decision, coalesce(c.replacement, c.code) AS code
    FROM scope e
    JOIN corrections c ON c.logbook = e.logbook AND c.heading = e.heading
                      AND c.date IS NOT DISTINCT FROM e.date
),
flagged AS (
    SELECT l.logbook, l.seq, l.kind, l.code, l.confidence, l.source, l.evidence, l.field, l.start,
           l."end",
           concat_ws('; ', CASE WHEN low_confidence(l.confidence, $below) THEN 'low confidence' END,
                           CASE WHEN e.chronology_anomaly THEN 'chronology anomaly' END) AS reason
    FROM labels l JOIN scope e USING (logbook, seq)
    WHERE (low_confidence(l.confidence, $below) OR e.chronology_anomaly)
      AND NOT EXISTS (SELECT 1 FROM decided d
                      WHERE d.logbook = l.logbook AND d.seq = l.seq AND d.kind = l.kind
                        AND d.code = l.code AND d.decision <> 'reject')
    UNION ALL
    SELECT logbook, seq, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           concat_ws('; ', 'no label', CASE WHEN chronology_anomaly THEN 'chronology anomaly' END)
    FROM scope e
    WHERE NOT EXISTS (SELECT 1 FROM labels l WHERE l.logbook = e.logbook AND l.seq = e.seq)
      AND NOT EXISTS (SELECT 1 FROM decided d WHERE d.logbook = e.logbook AND d.seq = e.seq)
)
SELECT f.logbook, f.seq, e.heading, e.date, e.page_start, e.page_end, f.reason, f.kind, f.code,
       f.confidence, f.source, f.evidence, f.field, f.start, f."end",
       left(trim(regexp_replace(e.text, '\s+', ' ', 'g')), 300) AS excerpt, '' AS decision
FROM flagged f JOIN scope e USING (logbook, seq)
ORDER BY f.logbook, f.seq, f.kind NULLS FIRST, f.code NULLS FIRST
