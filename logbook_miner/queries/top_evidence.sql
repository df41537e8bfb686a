-- The strongest evidence for each code: its highest-confidence labels and where they are.
-- $logbook: only this logbook (default: all)
-- $per_code = 1: labels shown per code
-- reads: labels, entries
SELECT l.kind, l.code, l.confidence, l.logbook, l.seq, e.date, l.evidence, l.source
FROM labels l JOIN entries e USING (logbook, seq)
WHERE $logbook IS NULL OR l.logbook = $logbook
QUALIFY row_number() OVER (PARTITION BY l.code
                           ORDER BY l.confidence DESC, l.logbook, l.seq) <= $per_code
ORDER BY l.kind, l.code, l.confidence DESC, l.logbook, l.seq
