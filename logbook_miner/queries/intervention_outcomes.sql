-- Which interventions held: per code, how often the failure came back within 24 h / 72 h / 7 d,
-- and how many later failures there were to come back at all (`outcome` says when too few).
-- $logbook: only this logbook (default: all)
-- reads: intervention_outcomes, settings
SELECT code, count(*) AS interventions,
       count_if(verdict = 'held')::INTEGER AS held,
       count_if(verdict = 'recurred')::INTEGER AS recurred,
       count_if(verdict = 'censored')::INTEGER AS censored,
       round(count_if(verdict = 'held') / nullif(count_if(verdict <> 'censored'), 0), 3)
           AS held_share,
       round(avg(recurred_24h::INTEGER), 3) AS recurred_24h_share,
       round(avg(recurred_72h::INTEGER), 3) AS recurred_72h_share,
       round(avg(recurred_7d::INTEGER), 3) AS recurred_7d_share,
       round(median(hours_to_recurrence), 1) AS median_hours_to_recurrence,
       round(avg(restarts_72h), 2) AS mean_restarts_72h,
       max(failures_after)::INTEGER AS later_failures,  -- after the first of them
       CASE WHEN max(failures_after) < setting('min_failures_to_judge')
            THEN 'too few dated failures to judge'
            ELSE format('held {} of {}', count_if(verdict = 'held'),
                        count_if(verdict <> 'censored')) END AS outcome
FROM intervention_outcomes
WHERE $logbook IS NULL OR logbook = $logbook
GROUP BY code
ORDER BY interventions DESC, code
