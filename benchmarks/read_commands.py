"""Is `logbook sql "SELECT 1"` within 3x of DuckDB alone? `python benchmarks/read_commands.py`.

Both sides run as a user runs them, in fresh processes (interpreter start-up
included), alternating so a busy machine slows both alike; the ratio compares
the best of N of each, measured in this one run (issue 15, item 1).
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


def best_seconds(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """The fastest wall time of each command over `runs` fresh processes, taken in turn."""
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(runs):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15, help="fresh processes per command")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="logbook-bench-") as tmp:
        db = Path(tmp) / "empty.duckdb"
        subprocess.run([sys.executable, "-c", "import sys; from logbook_miner.store import "
                        "connect\nwith connect(sys.argv[1]): pass", str(db)],
                       check=True, env=os.environ | {"PYTHONPATH": str(ROOT)})
        cli = [sys.executable, "-m", "logbook_miner.cli"]
        best = best_seconds({
            "duckdb alone": [sys.executable, "-c", DUCKDB_ALONE],
            'logbook sql "SELECT 1"': [*cli, "sql", "SELECT 1", "--db", str(db)],
            "logbook query --list": [*cli, "query", "--list", "--db", str(db)],
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
