-- Lock the connection down for untrusted SQL: no files, no network, no further SET.
-- reads:
SET enable_external_access = false;
SET enable_progress_bar = false;  -- after 2 s DuckDB drew it into stdout
SET lock_configuration = true;
