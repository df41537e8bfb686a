-- The most labelled fault codes.
-- reads: labels
-- $limit = 3: codes at most
SELECT code, count(*) AS n
FROM labels
WHERE kind = 'fault'
GROUP BY code
ORDER BY n DESC, code
LIMIT $limit
