-- Fault families as data/taxonomy.yaml's `families` block defines them (label/families.py
-- passes it): $family_order, root cause first (a GPU loss that crashes the job is a hardware
-- stop); $failure_families, whose every code means training stopped unplanned;
-- $failure_codes, the other codes that do; $own_streams, families whose failures are no stop of
-- the job (a loss spike): their incidents form a stream of their own.
-- reads:
SET VARIABLE family_order = $family_order::VARCHAR[];
SET VARIABLE failure_families = $failure_families::VARCHAR[];
SET VARIABLE failure_codes = $failure_codes::VARCHAR[];
SET VARIABLE own_streams = $own_streams::VARCHAR[];

CREATE OR REPLACE TEMP MACRO family_rank(family) AS
    list_position(getvariable('family_order'), family);

-- Fault codes that mean training stopped unplanned (those of an own-stream family too).
CREATE OR REPLACE TEMP MACRO is_failure_code(code) AS
    list_contains(getvariable('failure_families'), split_part(code, '.', 1))
    OR list_contains(getvariable('failure_codes'), code);

-- The stream a failure of this family belongs to: 'stop' (the job stopped), or the family
-- itself for an own-stream family.
CREATE OR REPLACE TEMP MACRO failure_stream(family) AS
    CASE WHEN list_contains(getvariable('own_streams'), family) THEN family ELSE 'stop' END;

-- The families in root-cause order, with the codes of each that mean a failure ('*': all)
-- and the stream their failures go to.
CREATE OR REPLACE TEMP VIEW families AS
SELECT family, family_rank(family) AS rank,
       CASE WHEN list_contains(getvariable('failure_families'), family) THEN ['*']
            ELSE list_filter(getvariable('failure_codes'), lambda c: split_part(c, '.', 1) = family)
       END AS failure_codes,
       failure_stream(family) AS stream
FROM (SELECT unnest(getvariable('family_order')) AS family);
