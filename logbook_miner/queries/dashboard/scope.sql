-- The analysis views for the chosen logbooks ($logbooks) only, each computed once: in this
-- connection, every view becomes a table of the chosen logbooks' rows. The views build on one
-- another and the dashboard reads `incidents` five times; left as views, DuckDB would compute
-- the chain again each time. Every view is per logbook, so filtering first changes no row of a
-- chosen logbook. The store is untouched. In dependency order:
-- reads: entry_times, events, incidents, runs, intervention_outcomes, cluster_sizes
CREATE OR REPLACE TEMP TABLE scoped_entry_times AS
SELECT * FROM entry_times WHERE list_contains($logbooks, logbook);
CREATE OR REPLACE TEMP VIEW entry_times AS SELECT * FROM scoped_entry_times;

CREATE OR REPLACE TEMP TABLE scoped_events AS
SELECT * FROM events WHERE list_contains($logbooks, logbook);
CREATE OR REPLACE TEMP VIEW events AS SELECT * FROM scoped_events;

CREATE OR REPLACE TEMP TABLE scoped_incidents AS
SELECT * FROM incidents WHERE list_contains($logbooks, logbook);
CREATE OR REPLACE TEMP VIEW incidents AS SELECT * FROM scoped_incidents;

CREATE OR REPLACE TEMP TABLE scoped_runs AS
SELECT * FROM runs WHERE list_contains($logbooks, logbook);
CREATE OR REPLACE TEMP VIEW runs AS SELECT * FROM scoped_runs;

CREATE OR REPLACE TEMP TABLE scoped_intervention_outcomes AS
SELECT * FROM intervention_outcomes WHERE list_contains($logbooks, logbook);
CREATE OR REPLACE TEMP VIEW intervention_outcomes AS SELECT * FROM scoped_intervention_outcomes;

CREATE OR REPLACE TEMP TABLE scoped_cluster_sizes AS
SELECT * FROM cluster_sizes WHERE list_contains($logbooks, logbook);
CREATE OR REPLACE TEMP VIEW cluster_sizes AS SELECT * FROM scoped_cluster_sizes;
