"""`logbook sql` runs one SELECT and nothing else: no writes, no files, no extensions, no SET."""

from __future__ import annotations

import hashlib
import signal
import subprocess
import time
from pathlib import Path

import pytest
from analytics_fixtures import OPT_STYLE, ingest_texts, keyword_classify
from click.testing import CliRunner
from helpers import CLI, ROOT, logbook_cli, logbook_in_process, with_default_ctrl_c

from logbook_miner.analytics.analyse import QueryError, sql
from logbook_miner.cli import EXIT_INTERRUPTED, main


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sql")
    return ingest_texts(folder, {"opt-style": OPT_STYLE}, classify=keyword_classify)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


REFUSED = {
    "DROP TABLE entries": "DROP",
    "DROP VIEW events": "DROP",
    "DELETE FROM entries": "DELETE",
    "UPDATE entries SET text = ''": "UPDATE",
    "UPDATE settings SET value = 0": "UPDATE",
    "INSERT INTO labels SELECT * FROM labels": "INSERT",
    "CREATE TABLE x AS SELECT 1": "CREATE",
    "ATTACH '/tmp/other.duckdb' AS other": "ATTACH",
    "COPY (SELECT * FROM entries) TO '{out}'": "COPY",
    "COPY entries TO '{out}'": "COPY",
    "EXPORT DATABASE '{out}'": "EXPORT",
    "INSTALL httpfs": "LOAD",
    "LOAD httpfs": "LOAD",
    "SET enable_external_access = true": "SET",
    "SELECT 1; DROP TABLE entries": "exactly one statement",
    "SELECT * FROM read_csv('/etc/passwd')": "Permission Error",
    "SELECT * FROM read_text('/etc/passwd')": "Permission Error",
    "SELECT * FROM glob('/etc/*')": "Permission Error",
    "SELECT * FROM query('DROP TABLE entries')": "single SELECT",
    # writes hidden inside a SELECT or an EXPLAIN (issue 16)
    "WITH d AS (UPDATE settings SET value = 0 RETURNING *) SELECT * FROM d": "holds UPDATE",
    "WITH d AS (DELETE FROM entries RETURNING *) SELECT count(*) FROM d": "holds DELETE",
    "WITH d AS (INSERT INTO labels SELECT * FROM labels RETURNING *) SELECT * FROM d":
        "holds INSERT",
    "EXPLAIN ANALYZE CREATE TEMP TABLE t AS SELECT 1": "EXPLAIN ANALYZE",
    "EXPLAIN ANALYZE COPY (SELECT 'x' AS a) TO '{out}'": "EXPLAIN ANALYZE",
    "explain analyse SELECT 1": "EXPLAIN ANALYZE",
}


@pytest.mark.parametrize("statement", REFUSED)
def test_statement_is_refused_with_one_line_and_nothing_changes(db, tmp_path, statement):
    out = tmp_path / "leak.csv"
    before = digest(db)
    with pytest.raises(QueryError, match=REFUSED[statement]) as refused:
        sql(statement.format(out=out), db)
    assert "\n" not in str(refused.value)
    assert digest(db) == before and not out.exists()
    assert sql("SELECT count(*) AS n FROM events", db)["n"].item() > 0  # views intact


def test_selects_on_tables_and_views_run(db):
    assert sql("SELECT count(*) AS n FROM entries", db)["n"].item() == 9
    assert sql("FROM runs SELECT run_id ORDER BY run", db)["run_id"].iloc[-1].endswith("12.20")
    assert not sql("EXPLAIN SELECT * FROM incidents", db).empty
    assert sql("WITH c AS (SELECT 1 AS x) SELECT x FROM c UNION ALL SELECT 2", db)["x"].tolist() \
        == [1, 2]
    assert sql("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) "
               "SELECT max(n) AS m FROM r", db)["m"].item() == 3
    assert sql("SELECT current_setting('enable_external_access') AS on", db)["on"].item() is False


def test_cli_refusal_is_one_error_line_and_exit_1(db):
    result = CliRunner().invoke(main, ["sql", "DROP TABLE entries", "--db", str(db)])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "error: refused: DROP is not allowed; only read-only SELECT queries run"]


def test_cli_sql_prints_csv(db):
    result = CliRunner().invoke(main, ["sql", "SELECT seq, date FROM entries ORDER BY seq "
                                       "LIMIT 2", "--db", str(db), "--format", "csv"])
    assert result.output.splitlines() == ["seq,date", "1,2021-11-30", "2,2021-11-28"]


def test_missing_database_is_an_error_not_a_new_file(tmp_path):
    missing = tmp_path / "none.duckdb"
    with pytest.raises(FileNotFoundError):
        sql("SELECT 1", missing)
    assert not missing.exists()


def test_a_query_stops_at_its_timeout_with_one_line(db):
    run = logbook_cli("sql", "SELECT count(*) FROM range(10000000000000) t(i)", "--db", db,
                      "--timeout", "1", timeout=60)
    assert run.returncode == 1
    assert run.errors == ["error: stopped: the query ran longer than its timeout of 1s"]


def test_ctrl_c_stops_a_query_within_a_second(db):
    proc = subprocess.Popen([*CLI, "sql", "SELECT count(*) FROM range(10000000000000) t(i)",
                             "--db", str(db), "--timeout", "600"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=with_default_ctrl_c)
    time.sleep(3)  # the interpreter has started and the query runs
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    _, stderr = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 2
    assert proc.returncode == EXIT_INTERRUPTED
    assert stderr.strip().splitlines()[-1].startswith("error: interrupted")


def test_a_huge_result_streams_past_in_bounded_memory(db):
    run = logbook_cli("sql", "SELECT i FROM range(20000000) t(i)", "--db", db, "--limit", "2",
                      timeout=120)
    assert run.returncode == 0
    assert run.stdout.split() == ["i", "0", "1"]
    assert run.errors == ["(19,999,998 more rows not shown; --limit N shows more)"]
    assert run.max_rss_mb < 600


def test_limit_0_counts_the_rows(db):
    """It printed "(no rows)" and then that 20 more were not shown."""
    run = logbook_in_process("sql", "SELECT i FROM range(20) t(i)", "--db", db, "--limit", "0")
    assert (run.returncode, run.stdout, run.stderr) == (
        0, "", "(20 rows, none shown; --limit N shows them)\n")


def test_memory_limit_must_be_a_size(db):
    with pytest.raises(QueryError, match="give a size"):
        sql("SELECT 1", db, memory_limit="1GB'; SET x = 1; --")
