-- Tunable constants the views read; analyse.run_query(settings=...) overrides them per connection.
-- reads:
CREATE OR REPLACE TEMP TABLE settings AS
SELECT key, value::DOUBLE AS value, meaning
FROM (VALUES
    ('incident_window_hours', 6, 'failure entries at most this far apart describe one stop'),
    ('outcome_window_hours', 72, 'an intervention held if its family did not fail again within this'),
    ('max_repair_hours', 72, 'a restart later than this after a stop is not its repair'),
    ('min_confidence', 0, 'labels below this confidence are ignored by the views'),
    ('min_failures_to_judge', 3, 'fewer later failures than this cannot show whether an intervention held')
) AS t(key, value, meaning);

CREATE OR REPLACE TEMP MACRO setting(name) AS (SELECT value FROM settings WHERE key = name);

-- Fault families in root-cause-first order: a GPU loss that crashes the job is a hardware stop.
CREATE OR REPLACE TEMP MACRO family_rank(family) AS
    list_position(['hardware', 'network', 'storage', 'infra', 'software', 'numerics'], family);

-- Fault codes that mean training stopped unplanned (numerics is kept as its own family).
CREATE OR REPLACE TEMP MACRO is_failure_code(code) AS
    split_part(code, '.', 1) IN ('hardware', 'network', 'storage', 'numerics')
    OR code IN ('software.crash', 'software.hang', 'infra.provider');
