-- A statement's parse tree as DuckDB sees it, to refuse any write hidden inside a SELECT.
-- reads:
SELECT json_serialize_sql($statement)
