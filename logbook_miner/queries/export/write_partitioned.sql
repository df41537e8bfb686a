-- Write one exported table as a folder of files, one subfolder per value of $partition_by
-- (hive style: logbook=ID/), as write.sql does otherwise.
-- reads: what export/TABLE.sql reads
COPY (
{rows}
) TO $path (FORMAT $format, PARTITION_BY ($partition_by), OVERWRITE)
