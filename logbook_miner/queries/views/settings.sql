-- Tunable constants the views read; analyse.run_query(settings=...) overrides them per connection.
-- reads:
CREATE OR REPLACE TEMP TABLE settings AS
SELECT key, value::DOUBLE AS value, meaning
FROM (VALUES
    ('incident_window_hours', 6, 'failure entries at most this far apart describe one stop'),
    ('outcome_window_hours', 72, 'an intervention held if its family did not fail again within this'),
    ('max_repair_hours', 72, 'a restart later than this after a stop is not its repair'),
    ('min_confidence', 0, 'labels below this confidence are ignored by the views'),
    ('min_failures_to_judge', 3, 'fewer later failures than this cannot show whether an intervention held'),
    ('recurred_24h_hours', 24, 'the window of intervention_outcomes.recurred_24h (named after this value)'),
    ('recurred_72h_hours', 72, 'the window of intervention_outcomes.recurred_72h (named after this value)'),
    ('recurred_7d_hours', 168, 'the window of intervention_outcomes.recurred_7d (named after this value)'),
    ('restarts_72h_hours', 72, 'the window of intervention_outcomes.restarts_72h (named after this value)'),
    ('gpus_per_node', 8, 'GPUs in a node where a logbook does not say (DGX and HGX nodes hold 8)'),
    ('review_below_confidence', 0.75, 'labels under this confidence are worth a person''s look (logbook review, query needs_review)')
) AS t(key, value, meaning);

CREATE OR REPLACE TEMP MACRO setting(name) AS (SELECT value FROM settings WHERE key = name);

-- A label worth a person's look for its confidence: under `below` if given (a number or its
-- text, as `logbook query -p below=0.9` passes it), else under review_below_confidence.
CREATE OR REPLACE TEMP MACRO low_confidence(confidence, below) AS
    confidence < coalesce(CAST(below AS DOUBLE), setting('review_below_confidence'));
