-- Which entries go into the event ledger: every timeline marker, then labelled and recent
-- entries up to $rows rows, with the evidence of each label; notes are cut at $note_chars characters.
-- reads: dash_markers, dash_entries, labels, entries
-- $logbooks: the chosen logbooks (a list of ids)
WITH chosen AS (
    SELECT id FROM dash_markers
    UNION
    (SELECT id FROM dash_entries
     WHERE id NOT IN (SELECT id FROM dash_markers)
     ORDER BY len(faults) + len(interventions) > 0 DESC, ts DESC NULLS LAST, ord DESC
     LIMIT greatest($rows - (SELECT count(*) FROM dash_markers), 0))
), evidence AS (
    SELECT logbook || '#' || seq AS id,
           list({'kind': kind, 'code': code, 'evidence': evidence, 'field': field}
                ORDER BY kind, code, start) AS evidence
    FROM labels
    WHERE list_contains($logbooks, logbook)
    GROUP BY logbook, seq
)
SELECT d.id, d.logbook, d.seq, coalesce(d."when", '') AS "when", d.heading,
       coalesce(d.author, '') AS author, d.faults, d.interventions, d.family,
       d.failure, d.restart, left(t.text, $note_chars) AS text, len(t.text) > $note_chars AS truncated,
       coalesce(e.evidence, []) AS evidence
FROM dash_entries d
JOIN chosen USING (id)
JOIN entries t ON t.logbook = d.logbook AND t.seq = d.seq
LEFT JOIN evidence e USING (id)
ORDER BY d.logbook, d.ord;
