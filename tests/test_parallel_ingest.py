"""Parsing in worker processes stores exactly what one process stores."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import duckdb
from helpers import CLI, ROOT, entry_counts, logbook, snapshot, with_default_ctrl_c

from logbook_miner.generate import generate
from logbook_miner.ingest import _POOL_MIN_SECONDS, Source, estimated_seconds, ingest, no_labels


def test_workers_store_the_same_rows_in_input_order(tmp_path):
    files = [generate(tmp_path / f"g{seed}", seed=seed, style="markdown", pages=250).document
             for seed in (1, 2, 3)]
    sources = [Source(f.stem, [f]) for f in files]
    assert estimated_seconds(sources) >= _POOL_MIN_SECONDS  # the pool is really used
    serial = ingest(files, db=tmp_path / "one.duckdb", classify=no_labels, workers=1)
    parallel = ingest(files, db=tmp_path / "two.duckdb", classify=no_labels, workers=2)
    assert [r.logbook for r in parallel] == [f.stem for f in files]
    assert [r.entries for r in parallel] == [r.entries for r in serial]
    one, two = snapshot(tmp_path / "one.duckdb"), snapshot(tmp_path / "two.duckdb")
    with duckdb.connect(str(tmp_path / "one.duckdb"), read_only=True) as con:
        columns = [row[0] for row in con.execute("DESCRIBE logbooks").fetchall()]
    at = columns.index("ingested_at")  # when: two ingests never share it
    for rows in (one, two):
        rows["logbooks"] = [row[:at] + row[at + 1:] for row in rows["logbooks"]]
    assert two == one


def test_ctrl_c_stops_the_workers_at_once(tmp_path):
    """Ctrl-C during a parallel ingest kills the workers rather than waiting for each to
    finish its file (it used to take as long as the file, or hang for good): the ingest
    exits 130 with its one line, leaves no process behind, and the store opens."""
    files = []
    for name in ("alpha", "beta"):
        files.append(tmp_path / f"{name}.md")
        files[-1].write_text(logbook(6000, body_lines=2))  # tens of seconds of labelling each
    db = tmp_path / "store.duckdb"
    proc = subprocess.Popen([*CLI, "ingest", "--workers", "2", "--db", str(db), *map(str, files)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=with_default_ctrl_c)
    time.sleep(8)  # the workers have started and are labelling
    proc.send_signal(signal.SIGINT)
    try:
        _, stderr = proc.communicate(timeout=5)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert stderr.splitlines() == ["error: interrupted (logbooks already stored are kept)"]
    # no worker left running (the pool's resource tracker ends once the ingest has gone)
    for _ in range(50):
        if not _living(group=proc.pid):
            break
        time.sleep(0.2)
    assert _living(group=proc.pid) == []
    assert set(entry_counts(db).values()) <= {6000}  # the store opens; what it holds is whole


def _living(group: int) -> list[str]:
    """The processes of a process group that still run (not zombies waiting to be reaped)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            # "pid (name) state ppid pgrp ...": the name may hold spaces, so split after it
            state, _, pgrp = stat.read_text().rpartition(")")[2].split()[:3]
            if int(pgrp) == group and state != "Z":
                found.append(stat.parent.name)
    return found
