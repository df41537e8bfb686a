"""Ingest grows linearly with hostile input: `python benchmarks/linearity.py [--quick]` (issue 16).

Each kind of pathological text is ingested (with labels) at sizes that double.
For each step the table shows how time grew against how the input grew
("growth": time ratio / bytes ratio; 1.0 is linear, 2.0 would be quadratic)
and the peak memory. Nested lists double their depth, so their bytes grow
fourfold. Times come from the ingest's own report (start-up excluded),
memory from the process's peak RSS.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import measure

HEAD = "2022-03-01 node 7 went down\n\n"
KINDS: dict[str, Callable[[int], str]] = {
    "spaces in a line": lambda n: HEAD + " " * n + "x 12\nrestarted\n",
    "')' in a word": lambda n: HEAD + ")" * n + " NCCL timeout\n",
    "nested list (depth n/50)": lambda n: HEAD + "".join(
        "  " * i + "- GPU fell off the bus\n" for i in range(n // 50)),
    "one long line": lambda n: HEAD + ("ECC error on node 3, restarted " * n)[:n * 10] + "\n",
    "file of many entries": lambda n: "".join(
        f"## 2022-03-{1 + i % 28:02d} note {i}\n\nNCCL timeout on node {i}; restarted.\n\n"
        for i in range(n // 20)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="three sizes instead of four")
    args = parser.parse_args()
    sizes = [25_000, 50_000, 100_000] if args.quick else [25_000, 50_000, 100_000, 200_000]
    for key, value in measure.machine().items():
        print(f"{key:>9}: {value}")
    print(f"\n{'input':24} {'bytes':>11} {'seconds':>8} {'growth':>7} {'RSS MB':>7}")
    with tempfile.TemporaryDirectory(prefix="logbook-linear-") as tmp:
        for number, (kind, make) in enumerate(KINDS.items()):
            previous = None
            for size in sizes:
                path = Path(tmp) / f"{number}-{size}.md"
                path.write_text(make(size))
                got = measure.cli_ingest([path], Path(tmp) / f"{number}-{size}.duckdb")
                seconds, size_bytes = max(got["parse_store"], 1e-3), path.stat().st_size
                growth = (f"{(seconds / previous[0]) / (size_bytes / previous[1]):.2f}"
                          if previous else "")
                print(f"{kind:24} {size_bytes:>11,} {seconds:>8.2f} {growth:>7} "
                      f"{got['rss_mb']:>7.0f}", flush=True)
                previous = (seconds, size_bytes)


if __name__ == "__main__":
    main()
