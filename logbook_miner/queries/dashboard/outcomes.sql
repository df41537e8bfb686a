-- Per logbook and intervention code: how many held, recurred or were censored (the
-- intervention_outcomes view's verdict), and the spread of hours to the next failure over the
-- code's uses in that logbook. Never summed across logbooks: each is its own job.
-- reads: intervention_outcomes
-- $logbooks: the chosen logbooks (a list of ids)
WITH spread AS (
    SELECT logbook, code, min(hours_to_recurrence) AS min_h,
           quantile_cont(hours_to_recurrence, 0.25) AS q1_h,
           median(hours_to_recurrence) AS median_h,
           quantile_cont(hours_to_recurrence, 0.75) AS q3_h,
           max(hours_to_recurrence) AS max_h, count(hours_to_recurrence) AS timed
    FROM intervention_outcomes
    WHERE list_contains($logbooks, logbook)
    GROUP BY logbook, code
)
SELECT o.logbook, o.code, o.verdict AS outcome, count(*) AS n,
       count(*) / sum(count(*)) OVER (PARTITION BY o.logbook, o.code) AS share,
       sum(count(*)) OVER (PARTITION BY o.logbook, o.code) AS total,
       any_value(s.min_h) AS min_h, any_value(s.q1_h) AS q1_h, any_value(s.median_h) AS median_h,
       any_value(s.q3_h) AS q3_h, any_value(s.max_h) AS max_h, any_value(s.timed) AS timed
FROM intervention_outcomes o JOIN spread s USING (logbook, code)
WHERE list_contains($logbooks, o.logbook)
GROUP BY o.logbook, o.code, o.verdict
ORDER BY o.logbook, total DESC, o.code, outcome;
