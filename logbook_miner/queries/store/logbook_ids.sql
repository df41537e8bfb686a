-- Every stored logbook's id, in order.
-- reads: logbooks
SELECT id FROM logbooks ORDER BY id
