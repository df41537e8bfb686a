"""One command for every speed target of issue 6: `python benchmarks/run.py [--quick]`.

All ratios come from one run on the same generated PDFs, so the machine's
speed (printed first) cancels out of them. --quick skips the 10,000-page
logbook and uses a smaller corpus: a smoke run of a few minutes.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip 10,000 pages; small corpus")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    files, pages_each = (4, 15) if args.quick else (8, 50)
    scaling = (10, 1000) if args.quick else (10, 1000, 10_000)

    for key, value in measure.machine().items():
        print(f"{key:>9}: {value}")
    corpus = [measure.generated(pages_each, seed) for seed in range(files)]
    pages = measure.page_count(corpus)
    print(f"   corpus: {files} generated OPT-style PDFs, {pages} pages\n", flush=True)

    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="logbook-bench-") as tmp:
        tmp = Path(tmp)
        plumber = pages / measure.pdfplumber_words(corpus)
        raw = pages / measure.pdfium_text(corpus)
        fast_read = pages / measure.read_only(corpus, "pdfium")
        slow_read = pages / measure.read_only(corpus, "pdfplumber")
        first = measure.cli_ingest(corpus, tmp / "a.duckdb")
        again = measure.cli_ingest(corpus, tmp / "a.duckdb")
        one = measure.cli_ingest(corpus, tmp / "b.duckdb", "--workers", "1")
        ingest = pages / first["wall"]
        rows += [
            ("pdfplumber extract_words (bare pass)", f"{plumber:.1f} pages/s", ""),
            ("pypdfium2 get_text_range (raw text)", f"{raw:.1f} pages/s", ""),
            ("reader, pdfplumber backend", f"{slow_read:.1f} pages/s", ""),
            ("reader, pdfium backend", f"{fast_read:.1f} pages/s",
             f"{fast_read / slow_read:.1f}x pdfplumber reader"),
            (f"ingest end to end, --workers {cores}", f"{ingest:.1f} pages/s",
             _verdict(ingest >= 60, ">= 60 pages/s")),
            ("  vs bare pdfplumber", f"{ingest / plumber:.1f}x", _verdict(ingest / plumber >= 7,
                                                                          ">= 7x")),
            ("  pypdfium2 raw text vs ingest", f"{raw / ingest:.1f}x",
             _verdict(raw / ingest <= 4.3, "<= 4.3x")),
            (f"parallel: --workers {cores} vs 1", f"{one['wall'] / first['wall']:.2f}x faster",
             f"1 worker: {pages / one['wall']:.1f} pages/s"),
            ("re-ingest unchanged / first ingest", f"{again['wall'] / first['wall']:.1%}",
             _verdict(again["wall"] / first["wall"] <= 0.05, "<= 5%")
             + f" ({again['wall']:.2f}s vs {first['wall']:.2f}s)"),
        ]
        rows += _scaling(tmp, scaling)
        rows += _queries(tmp, entries=100_000)
    width = max(len(name) for name, _, _ in rows)
    print(f"{'measure':<{width}}  {'value':>18}  target / note")
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>18}  {note}")


def _scaling(tmp: Path, sizes: tuple[int, ...]) -> list[tuple[str, str, str]]:
    """Time per page (parse + store, start-up excluded) and peak RSS, one worker."""
    rows, per_page = [], {}
    for size in sizes:
        path = measure.generated(size, seed=100)
        pages = measure.page_count([path])
        run = measure.cli_ingest([path], tmp / f"s{size}.duckdb", "--workers", "1")
        per_page[size] = run["parse_store"] / pages
        note = _verdict(run["rss_mb"] < 500, "RSS < 500 MB") if size == 1000 else ""
        rows.append((f"scaling: {pages} pages", f"{1000 * per_page[size]:.1f} ms/page",
                     f"peak RSS {run['rss_mb']:.0f} MB {note}".rstrip()))
    spread = max(per_page.values()) / min(per_page.values()) - 1
    rows.append(("  time per page spread", f"{spread:.0%}", _verdict(spread <= 0.2, "<= 20%")))
    return rows


def _queries(tmp: Path, entries: int) -> list[tuple[str, str, str]]:
    """Canned queries (and the dashboard, when it exists) on a 100,000-entry store."""
    try:
        import logbook_miner.analytics.analyse  # noqa: F401
    except ImportError:
        return [("canned queries", "skipped", "no logbook_miner/analytics/analyse.py")]
    db = tmp / "big.duckdb"
    fill = measure.entries_db(db, entries)
    times = measure.canned_queries(db)
    ran = {name: t for name, t in times.items() if not math.isnan(t)}
    slowest = max(ran, key=ran.__getitem__) if ran else None
    rows = [(f"store of {measure.rows(db):,} entries (INSERT ... SELECT)", f"{fill:.2f}s", ""),
            (f"canned queries ({len(ran)}/{len(times)} ran)", f"{sum(ran.values()):.2f}s total",
             f"slowest: {slowest} {ran[slowest]:.2f}s" if slowest else "")]
    for images, what in ((False, "page only"), (True, "page + PNG/SVG of every chart")):
        board = measure.dashboard(db, tmp / "dashboard", images=images)
        if board is not None:
            rows.append((f"dashboard build, {entries:,} entries, {what}", f"{board:.2f}s",
                         _verdict(board < 3, "< 3 s")))
    return rows


def _verdict(met: bool, target: str) -> str:
    return f"{'met' if met else 'MISSED'} ({target})"


if __name__ == "__main__":
    main()
