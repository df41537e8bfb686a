-- The stored tables: logbooks, their entries, and what the label stage found in them.
-- reads:
CREATE TABLE IF NOT EXISTS logbooks (
    id            VARCHAR PRIMARY KEY,   -- file stem unless --name
    path          VARCHAR NOT NULL,      -- path as given at ingest
    sha256        VARCHAR NOT NULL,      -- of the file bytes; unchanged file = no-op
    format        VARCHAR NOT NULL,      -- pdf | markdown | text
    pages         INTEGER,               -- PDF pages, else NULL
    title         VARCHAR,
    nodes         INTEGER,               -- cluster size when known
    gpus_per_node INTEGER,
    ingested_at   TIMESTAMP NOT NULL,
    reading       VARCHAR                -- how its dates were read, if not by default
);
-- (stores made before `reading` was kept)
ALTER TABLE logbooks ADD COLUMN IF NOT EXISTS reading VARCHAR;
CREATE TABLE IF NOT EXISTS entries (
    logbook            VARCHAR NOT NULL,
    seq                INTEGER NOT NULL,  -- 1-based, document order
    heading            VARCHAR NOT NULL,
    date               DATE,
    time               VARCHAR,           -- as written
    timezone           VARCHAR,           -- as written
    ts_utc             TIMESTAMP,         -- when date, time and zone are known
    author             VARCHAR,
    run_id             VARCHAR,
    page_start         INTEGER,
    page_end           INTEGER,
    date_inferred      BOOLEAN NOT NULL,
    chronology_anomaly BOOLEAN NOT NULL,
    text               VARCHAR NOT NULL,
    PRIMARY KEY (logbook, seq)
);
CREATE TABLE IF NOT EXISTS labels (
    logbook    VARCHAR NOT NULL,
    seq        INTEGER NOT NULL,
    kind       VARCHAR NOT NULL,          -- fault | intervention
    code       VARCHAR NOT NULL,          -- TAXONOMY.md code
    evidence   VARCHAR NOT NULL,
    field      VARCHAR NOT NULL,          -- heading | text
    start      INTEGER NOT NULL,          -- offsets into entries.<field>
    "end"      INTEGER NOT NULL,
    source     VARCHAR NOT NULL,          -- rule or component
    confidence DOUBLE NOT NULL
);
CREATE TABLE IF NOT EXISTS metrics (
    logbook  VARCHAR NOT NULL,
    seq      INTEGER NOT NULL,
    name     VARCHAR NOT NULL,
    value    DOUBLE NOT NULL,
    unit     VARCHAR,
    evidence VARCHAR NOT NULL,
    field    VARCHAR NOT NULL,
    start    INTEGER NOT NULL,
    "end"    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rates (       -- counts and rates stated in prose (TAXONOMY rule 14)
    logbook      VARCHAR NOT NULL,
    seq          INTEGER NOT NULL,
    code         VARCHAR NOT NULL,        -- what was counted: a fault code, or restart
    events       DOUBLE NOT NULL,
    bound        VARCHAR NOT NULL,        -- '>=' (at least), '~' (about) or '='
    hours        DOUBLE NOT NULL,         -- the period the events happened in
    period_start DATE,                    -- for a count over a stated period
    period_end   DATE,
    evidence     VARCHAR NOT NULL,        -- the sentence
    field        VARCHAR NOT NULL,
    start        INTEGER NOT NULL,
    "end"        INTEGER NOT NULL
);
-- A person's review decisions (`logbook review --apply`), applied whenever labels are written.
-- Keyed by (logbook, heading, date, kind, code): what survives a re-ingest, unlike seq.
-- No PRIMARY KEY because date may be NULL; save_corrections keeps the key unique.
CREATE TABLE IF NOT EXISTS corrections (
    logbook     VARCHAR NOT NULL,
    heading     VARCHAR NOT NULL,
    date        DATE,
    kind        VARCHAR NOT NULL,
    code        VARCHAR NOT NULL,         -- the label decided on (or to add)
    decision    VARCHAR NOT NULL,         -- accept | reject | replace
    replacement VARCHAR,                  -- the code replacing `code` (decision = replace)
    evidence    VARCHAR NOT NULL,         -- words to anchor an added label ('' if none)
    decided_at  TIMESTAMP NOT NULL
);
