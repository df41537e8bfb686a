-- The tunable constants the views read (views/settings.sql), by key.
-- reads: settings
SELECT key, value FROM settings ORDER BY key
