-- The timeline's markers in time order.
-- reads: dash_markers
SELECT * FROM dash_markers ORDER BY ts
