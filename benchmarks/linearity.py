"""Ingest grows linearly with hostile input: `python benchmarks/linearity.py [--quick]` (issue 16).

Each kind of pathological text is ingested (with labels) at sizes that double.
For each step the table shows how time grew against how the input grew
("growth": time ratio / bytes ratio; 1.0 is linear, 2.0 would be quadratic)
and the peak memory. Nested lists double their depth, so their bytes grow
fourfold. Times come from the ingest's own report (start-up excluded),
memory from the process's peak RSS. A file the ingest refuses reports no
time of its own (the PDF page past MAX_PAGE_CHARS that PDFium leaves to
pdfplumber, for its CJK glyphs): its seconds are the reader's, marked `*`.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import measure
from tests.pdfbuild import unicode_pdf

HEAD = "2022-03-01 node 7 went down\n\n"
KINDS: dict[str, Callable[[int], str | bytes]] = {
    "spaces in a line": lambda n: HEAD + " " * n + "x 12\nrestarted\n",
    "')' in a word": lambda n: HEAD + ")" * n + " NCCL timeout\n",
    "nested list (depth n/50)": lambda n: HEAD + "".join(
        "  " * i + "- GPU fell off the bus\n" for i in range(n // 50)),
    "one long line": lambda n: HEAD + ("ECC error on node 3, restarted " * n)[:n * 10] + "\n",
    # lines that end in a number and go on in lower case read as one wrapped sentence, each
    # with a cue: every cue once asked spaCy for its sentence by walking it
    "log lines as one sentence": lambda n: HEAD + "\n".join(
        f"loss went to NaN at step {i}" for i in range(n // 30)) + "\n",
    "file of many entries": lambda n: "".join(
        f"## 2022-03-{1 + i % 28:02d} note {i}\n\nNCCL timeout on node {i}; restarted.\n\n"
        for i in range(n // 20)),
    "PDF line, Latin": lambda n: unicode_pdf([("GPU 3 failed", 10), ("x" * n, 10)]),
    "PDF line, CJK (refused)": lambda n: unicode_pdf([("故障 on node 3", 10), ("故" * n, 10)]),
}


def read_seconds(path: Path) -> float:
    """The reader alone, in this process, whether it reads the file or refuses it."""
    from logbook_miner.read import ReadError, read

    started = time.perf_counter()
    with contextlib.suppress(ReadError):
        read(path)
    return time.perf_counter() - started


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
                content = make(size)
                pdf = isinstance(content, bytes)
                path = Path(tmp) / f"{number}-{size}.{'pdf' if pdf else 'md'}"
                path.write_bytes(content if pdf else content.encode())
                got = measure.cli_ingest([path], Path(tmp) / f"{number}-{size}.duckdb")
                refused = not got["parse_store"]
                seconds = max(read_seconds(path) if refused else got["parse_store"], 1e-3)
                size_bytes = path.stat().st_size
                growth = (f"{(seconds / previous[0]) / (size_bytes / previous[1]):.2f}"
                          if previous else "")
                print(f"{kind:24} {size_bytes:>11,} {seconds:>8.2f}{'*' if refused else ' '}"
                      f"{growth:>7} {got['rss_mb']:>7.0f}", flush=True)
                previous = (seconds, size_bytes)


if __name__ == "__main__":
    main()
