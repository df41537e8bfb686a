-- Override one setting for this connection only.
-- reads: settings
UPDATE settings SET value = $value WHERE key = $key
