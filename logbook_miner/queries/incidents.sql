-- Every stop (and numerics episode): when, which family, which entries, how long until restart.
-- $logbook: only this logbook (default: all)
-- reads: incidents
SELECT logbook, stream, incident, start_ts, end_ts, family, families, codes, seqs,
       round(repair_hours, 2) AS repair_hours, repair_source, repair_estimated, time_estimated,
       confidence, evidence
FROM incidents
WHERE $logbook IS NULL OR logbook = $logbook
ORDER BY logbook, start_ts, stream
