-- A logbook's labels, metrics and rates, to write them again (relabelling) or forget it.
-- reads: labels, metrics, rates
DELETE FROM rates WHERE logbook = $logbook;
DELETE FROM metrics WHERE logbook = $logbook;
DELETE FROM labels WHERE logbook = $logbook;
