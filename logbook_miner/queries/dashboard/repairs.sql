-- How long did each stop take to repair, per root-cause family? Only repairs the logbook timed
-- (as `queries/simulate_inputs.sql` counts them: > 0 h and not estimated from dates alone),
-- dated by the logbook or stated in it (`source`).
-- reads: incidents
-- $logbooks: the chosen logbooks (a list of ids)
SELECT logbook, family, repair_hours AS hours, repair_source AS source
FROM incidents
WHERE stream = 'stop' AND repair_hours > 0 AND NOT repair_estimated
  AND list_contains($logbooks, logbook);
