-- One entry as stored: heading, when, who, run, pages, the flags on its date, and its text.
-- $logbook: the logbook id
-- $seq: the entry's number in its logbook
-- reads: entries
SELECT logbook, seq, heading, date, time, timezone, ts_utc, date_inferred, chronology_anomaly,
       author, run_id, page_start, page_end, text
FROM entries
WHERE logbook = $logbook AND seq = $seq
