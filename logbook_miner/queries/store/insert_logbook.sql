-- A logbook's row: where it came from and what it is.
-- reads: logbooks
INSERT INTO logbooks (id, path, sha256, format, pages, title, nodes, gpus_per_node, ingested_at,
                      reading)
VALUES ($id, $path, $sha256, $format, $pages, $title, $nodes, $gpus_per_node, $ingested_at,
        $reading)
