-- Cluster size per logbook, to turn a job's MTBF into a node's or a GPU's: logbooks.nodes and
-- gpus_per_node when ingest knew them, else what the logbook states. Stated GPU counts: the
-- most mentioned (ties: the larger). Stated node counts are noisier ("3 nodes" replaced, a
-- 52-node pool), so a count that makes the stated GPUs a cluster of gpus_per_node-GPU nodes wins
-- (384 GPUs -> 48 nodes of 8), else the most mentioned, counting "from 48 to 24 nodes" on both
-- sides.
-- reads: logbooks, metrics, settings
CREATE OR REPLACE TEMP VIEW cluster_sizes AS
WITH mined AS (
    SELECT logbook, CASE WHEN name = 'gpus' THEN 'gpus' ELSE 'nodes' END AS name,
           value::INTEGER AS value, count(*) AS mentions
    FROM metrics
    WHERE name IN ('nodes', 'nodes_before', 'nodes_after', 'gpus') AND value >= 1
    GROUP BY ALL
),
gpus AS (
    SELECT logbook, arg_max(value, (mentions, value)) AS value
    FROM mined WHERE name = 'gpus' GROUP BY logbook
),
nodes AS (
    SELECT m.logbook,
           arg_max(m.value, (m.value * setting('gpus_per_node') = g.value, m.mentions, m.value))
               AS value
    FROM mined m LEFT JOIN gpus g USING (logbook)
    WHERE m.name = 'nodes' GROUP BY m.logbook
)
SELECT l.id AS logbook,
       coalesce(l.nodes, n.value) AS nodes,
       CASE WHEN l.nodes IS NOT NULL THEN 'logbooks' WHEN n.value IS NOT NULL THEN 'metrics' END
           AS nodes_source,
       coalesce(l.nodes * l.gpus_per_node, g.value, coalesce(l.nodes, n.value) * l.gpus_per_node)
           AS gpus,
       CASE WHEN l.nodes * l.gpus_per_node IS NOT NULL THEN 'logbooks'
            WHEN g.value IS NOT NULL THEN 'metrics'
            WHEN n.value * l.gpus_per_node IS NOT NULL THEN 'metrics+logbooks' END AS gpus_source
FROM logbooks l
LEFT JOIN nodes n ON n.logbook = l.id
LEFT JOIN gpus g ON g.logbook = l.id;
