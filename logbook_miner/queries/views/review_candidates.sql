-- What a person should check: the one definition that `logbook review --out` writes as a CSV to
-- edit and `logbook query needs_review` shows per entry. One row per label worth a look, or per
-- entry with no label at all, with `reason`:
--   low confidence     a label under `below` (NULL: the review_below_confidence setting)
--   date out of order  the entry's date breaks the logbook's chronology (a likely typo: the
--                      views do not trust it), so each of its labels is listed
--   year inferred      the entry's year was taken from its neighbours (`Nov 5`), likewise
--   no label           nothing was found in the entry: where a missed code hides. All such
--                      entries are listed: the codes the gold set has there are mostly
--                      interventions in plain words ("We reduced the computing resources
--                      from 32 to 8 A100 GPUs"), which no list of fault words would catch
-- An entry with no date at all is not listed for it: its time is borrowed from a neighbour
-- (entry_times.date_estimated), which the charts mark, and a whole undated logbook would be.
-- A label a person accepted or put there, and an entry with no label on which a person decided
-- anything, are left out unless `include_decided`; `in_logbook` limits it to one logbook.
-- reads: entries, labels, corrections, settings
CREATE OR REPLACE TEMP MACRO review_candidates(below := NULL, in_logbook := NULL,
                                              include_decided := false) AS TABLE
WITH scope AS (
    SELECT * FROM entries WHERE in_logbook IS NULL OR logbook = in_logbook
),
decided AS (  -- the codes a person kept or put on each entry (rejected ones are gone)
    SELECT e.logbook, e.seq, c.kind, c.decision, coalesce(c.replacement, c.code) AS code
    FROM scope e
    JOIN corrections c ON c.logbook = e.logbook AND c.heading = e.heading
                      AND c.date IS NOT DISTINCT FROM e.date
),
flagged AS (
    SELECT l.logbook, l.seq, l.kind, l.code, l.confidence, l.source, l.evidence, l.field, l.start,
           l."end", low_confidence(l.confidence, below) AS low_confidence
    FROM labels l JOIN scope e USING (logbook, seq)
    WHERE (low_confidence(l.confidence, below) OR e.chronology_anomaly OR e.date_inferred)
      AND (coalesce(CAST(include_decided AS BOOLEAN), false)
           OR NOT EXISTS (SELECT 1 FROM decided d
                          WHERE d.logbook = l.logbook AND d.seq = l.seq AND d.kind = l.kind
                            AND d.code = l.code AND d.decision <> 'reject'))
    UNION ALL
    SELECT logbook, seq, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, false
    FROM scope e
    WHERE NOT EXISTS (SELECT 1 FROM labels l WHERE l.logbook = e.logbook AND l.seq = e.seq)
      AND (coalesce(CAST(include_decided AS BOOLEAN), false)
           OR NOT EXISTS (SELECT 1 FROM decided d WHERE d.logbook = e.logbook AND d.seq = e.seq))
)
SELECT f.logbook, f.seq, e.heading, e.date, e.page_start, e.page_end,
       concat_ws('; ', CASE WHEN f.code IS NULL THEN 'no label' END,
                       CASE WHEN f.low_confidence THEN 'low confidence' END,
                       CASE WHEN e.chronology_anomaly THEN 'date out of order' END,
                       CASE WHEN e.date_inferred THEN 'year inferred' END) AS reason,
       f.kind, f.code, f.confidence, f.source, f.evidence, f.field, f.start, f."end",
       left(trim(regexp_replace(e.text, '\s+', ' ', 'g')), 300) AS excerpt,
       f.low_confidence, e.chronology_anomaly, e.date_inferred
FROM flagged f JOIN scope e USING (logbook, seq)
ORDER BY f.logbook, f.seq, f.kind NULLS FIRST, f.code NULLS FIRST;
