-- Write one exported table to $path as $format (json, csv or parquet). COPY takes its query as
-- text, never as a parameter, so the table's SELECT (export/TABLE.sql) is put in the brackets.
-- reads: what export/TABLE.sql reads
COPY (
{rows}
) TO $path (FORMAT $format)
