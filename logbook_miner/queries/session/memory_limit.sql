-- Keep a query within $limit of memory (a size such as 2GB, checked before it gets here).
-- reads:
SET memory_limit = $limit
