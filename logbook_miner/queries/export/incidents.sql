-- One row per incident (the `incidents` view): a stop of the job, or a numerics episode, with the
-- label behind its evidence (entry, field, offsets, pages).
-- reads: incidents, labels, entries
-- $logbooks: the logbooks exported (a list of ids)
WITH anchors AS (
    SELECT i.logbook, i.stream, i.incident,
           arg_min(struct_pack(seq := l.seq, field := l.field, start := l.start, "end" := l."end"),
                   (l.seq, l.field, l.start)) AS a
    FROM incidents i
    JOIN labels l ON l.logbook = i.logbook AND list_contains(i.seqs, l.seq)
                 AND l.evidence = i.evidence AND l.kind = 'fault'
    GROUP BY ALL
)
SELECT i.logbook, i.stream, i.incident, i.start_ts, i.end_ts, i.family, i.families, i.codes,
       i.seqs, i.entries, i.time_estimated, i.confidence, i.evidence,
       a.a.seq AS evidence_seq, a.a.field AS evidence_field, a.a.start AS evidence_start,
       a.a."end" AS evidence_end, e.page_start, e.page_end,
       i.resumed_at, i.resume_seq, i.repair_hours, i.repair_source, i.repair_estimated
FROM incidents i
LEFT JOIN anchors a USING (logbook, stream, incident)
LEFT JOIN entries e ON e.logbook = i.logbook AND e.seq = a.a.seq
WHERE list_contains($logbooks, i.logbook)
ORDER BY i.logbook, i.stream, i.incident
