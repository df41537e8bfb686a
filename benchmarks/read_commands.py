"""Is `logbook sql "SELECT 1"` within 3x of DuckDB alone? `python benchmarks/read_commands.py`.

Every command runs as a user runs it, in fresh processes (interpreter start-up
included), alternating so a busy machine slows all alike; each ratio compares
the best of N against DuckDB alone, measured in this one run (issue 15, item 1).
The other read commands (`query`, `logbooks`, `show`, `search`, `mtbf`) run on
a store holding the packaged Markdown sample, labelled.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 3.0  # at most this many times DuckDB's own time
DUCKDB_ALONE = "import duckdb; duckdb.connect().sql('SELECT 1')"
ENV = os.environ | {"PYTHONPATH": str(ROOT)}  # this checkout, whatever is installed
SAMPLE = ROOT / "logbook_miner" / "data" / "samples" / "markdown" / "synth-markdown-s0.md"


def best_seconds(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """The fastest wall time of each command over `runs` fresh processes, taken in turn."""
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(runs):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, check=True, env=ENV, stdout=subprocess.DEVNULL)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15, help="fresh processes per command")
    args = parser.parse_args()
    cli = [sys.executable, "-m", "logbook_miner.cli"]
    with tempfile.TemporaryDirectory(prefix="logbook-bench-") as tmp:
        db = str(Path(tmp) / "sample.duckdb")
        subprocess.run([*cli, "ingest", str(SAMPLE), "--db", db], check=True, env=ENV,
                       stdout=subprocess.DEVNULL)
        best = best_seconds({
            "duckdb alone": [sys.executable, "-c", DUCKDB_ALONE],
            'logbook sql "SELECT 1"': [*cli, "sql", "SELECT 1", "--db", db],
            "logbook query --list": [*cli, "query", "--list", "--db", db],
            "logbook query incidents": [*cli, "query", "incidents", "--db", db],
            "logbook logbooks": [*cli, "logbooks", "--db", db],
            f"logbook show {SAMPLE.stem} 1": [*cli, "show", SAMPLE.stem, "1", "--db", db],
            "logbook search NCCL": [*cli, "search", "NCCL", "--db", db],
            "logbook mtbf": [*cli, "mtbf", "--db", db],
        }, args.runs)
    base = best["duckdb alone"]
    for name, seconds in best.items():
        print(f"{name:>32}: {seconds * 1000:6.0f} ms  {seconds / base:4.2f}x")
    ratio = best['logbook sql "SELECT 1"'] / base
    verdict = "met" if ratio <= TARGET else "MISSED"
    print(f'logbook sql "SELECT 1" / duckdb alone = {ratio:.2f}x '
          f"(target <= {TARGET:g}x): {verdict}")


if __name__ == "__main__":
    main()
