-- What a cost simulation can take from a logbook: GPUs, measured repair times, checkpoint cost
-- (and the GPUs of one node, the gpus_per_node setting, assumed when the logbook names none).
-- $logbook: the logbook
-- reads: cluster_sizes, incidents, metrics, settings
SELECT c.logbook, c.gpus, c.nodes, setting('gpus_per_node')::INTEGER AS gpus_per_node,
       (SELECT coalesce(list(repair_hours ORDER BY start_ts), []::DOUBLE[]) FROM incidents i
        WHERE i.logbook = c.logbook AND i.stream = 'stop' AND repair_hours > 0
          AND NOT repair_estimated) AS repair_hours,
       (SELECT median(value) FROM metrics m
        WHERE m.logbook = c.logbook AND m.name = 'checkpoint_save_seconds')
           AS checkpoint_cost_seconds
FROM cluster_sizes c
WHERE c.logbook = $logbook
