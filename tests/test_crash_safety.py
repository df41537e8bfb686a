"""kill -9 during `logbook ingest`: the store keeps exactly the logbooks that committed.

Each trial starts a real ingest of several files, kills it after a random
(seeded) delay, then checks the database opens, holds each logbook complete
(as many entries as a clean ingest gives) or not at all, and that running the
ingest again completes it. Half the trials replace older versions already
stored, where a logbook must hold the old rows or the new ones, never a mix.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest
from helpers import CLI, ROOT, entry_counts, logbook, snapshot

from logbook_miner.ingest import ingest, no_labels
from logbook_miner.store import connect

TRIALS = 20
SIZES = {"alpha": 300, "beta": 400, "gamma": 500, "delta": 600}  # entries per logbook
OLD = 50  # entries of the older versions replaced in half the trials


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("crash-files")
    for i, (name, n) in enumerate(SIZES.items()):
        (folder / f"{name}.{'md' if i % 2 else 'txt'}").write_text(
            logbook(n, markdown=bool(i % 2), body_lines=3))
    return sorted(folder.iterdir())


@pytest.fixture(scope="module")
def clean(files, tmp_path_factory) -> tuple[dict[str, int], float]:
    """Entries per logbook from an uninterrupted ingest, and how long one takes end to end."""
    db = tmp_path_factory.mktemp("crash-clean") / "store.duckdb"
    started = time.perf_counter()
    subprocess.run([*CLI, "ingest", "--no-label", "--db", str(db), *map(str, files)],
                   cwd=ROOT, check=True, capture_output=True, timeout=120)
    return entry_counts(db), time.perf_counter() - started


def _seed_old_versions(db: Path, folder: Path) -> None:
    folder.mkdir()
    for name in SIZES:
        (folder / f"{name}.md").write_text(logbook(OLD))
    ingest(sorted(folder.iterdir()), db=db, classify=no_labels, workers=1)


def _dangling_rows(db: Path) -> list[tuple]:
    """Rows whose logbook (or entry) is gone; opening read-write replays what the WAL holds."""
    with connect(db) as con:
        return con.execute(
            "SELECT 'entries', logbook FROM entries WHERE logbook NOT IN (SELECT id FROM logbooks) "
            "UNION ALL SELECT 'labels', logbook FROM labels "
            "WHERE (logbook, seq) NOT IN (SELECT (logbook, seq) FROM entries)").fetchall()


def test_clean_ingest_gives_the_generated_entries(clean):
    assert clean[0] == SIZES


@pytest.mark.parametrize("seed", range(TRIALS))
def test_kill_9_keeps_whole_logbooks_and_a_rerun_completes(seed, files, clean, tmp_path):
    counts, seconds = clean
    rng = random.Random(seed)
    db = tmp_path / "store.duckdb"
    replacing = seed % 2 == 1
    if replacing:
        _seed_old_versions(db, tmp_path / "old")
    proc = subprocess.Popen([*CLI, "ingest", "--no-label", "--db", str(db), *map(str, files)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    time.sleep(rng.uniform(0.3, 1.1) * seconds)  # before 0.3 it is still importing
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    survivors = _outlive(proc.pid)

    assert _dangling_rows(db) == []
    stored = entry_counts(db)
    for name, n in stored.items():
        assert n == counts[name] or (replacing and n == OLD), (name, n)

    results = ingest(files, db=db, classify=no_labels, workers=1)  # in-process: fast
    assert {r.status for r in results} <= {"ingested", "unchanged"}, [r.summary() for r in results]
    assert entry_counts(db) == counts
    assert all(snapshot(db, name)["entries"] for name in counts)
    assert survivors == [], "worker processes outlived the killed ingest"


def _outlive(session: int, grace: float = 3.0) -> list[str]:
    """Processes of the killed ingest's session still running after `grace` s (then killed)."""
    deadline = time.monotonic() + grace
    while (left := _session_members(session)) and time.monotonic() < deadline:
        time.sleep(0.1)
    if left:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(session, signal.SIGKILL)  # the session leader's group: ours to end
    return list(left.values())


def _session_members(session: int) -> dict[int, str]:
    """Live (non-zombie) processes in a session, from /proc: pid -> command line."""
    members = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
            if fields[0] != "Z" and int(fields[3]) == session:
                cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ")
                members[int(stat.parent.name)] = cmdline.decode(errors="replace")[:120]
        except (OSError, IndexError, ValueError):
            continue  # the process ended while being read
    return members
