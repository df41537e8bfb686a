"""What the benchmark measures, one function per question; run.py prints them as one table.

Every ingest runs as a user runs it: `logbook ingest` in a fresh process,
under a wrapper that reports the peak RSS of it and its workers
(RUSAGE_CHILDREN), so numbers include interpreter and spaCy start-up.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("LOGBOOK_BENCH_CACHE", Path.home() / ".cache" / "logbook-bench"))
_WRAPPER = """\
import json, resource, subprocess, sys
code = subprocess.call(sys.argv[2:], stdout=open(sys.argv[1] + ".out", "w"))
use = resource.getrusage(resource.RUSAGE_CHILDREN)
json.dump({"rss_kb": use.ru_maxrss, "code": code}, open(sys.argv[1], "w"))
"""
_SECONDS = re.compile(r", ([\d.]+)s \(")


def machine() -> dict[str, str]:
    """CPU model, cores, RAM, Python and the versions of the packages that set the pace."""
    cpu = next((line.split(":", 1)[1].strip() for line in _lines("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor() or "?")
    ram = next((int(line.split()[1]) // 1024 for line in _lines("/proc/meminfo")
                if line.startswith("MemTotal")), 0)
    packages = ("pdfplumber", "pypdfium2", "duckdb", "spacy", "pyarrow")
    return {"cpu": cpu, "cores": str(os.cpu_count()), "ram": f"{ram / 1024:.1f} GiB",
            "python": platform.python_version(),
            "packages": ", ".join(f"{p} {metadata.version(p)}" for p in packages)}


def _lines(path: str) -> list[str]:
    try:
        return Path(path).read_text().splitlines()
    except OSError:
        return []


def generated(pages: int, seed: int = 0) -> Path:
    """An OPT-style logbook of about `pages` pages, made once and cached."""
    from logbook_miner.generate import generate

    folder = CACHE / f"opt-p{pages}-s{seed}"
    done = folder / "done"
    if not done.exists():
        result = generate(folder, seed=seed, style="opt", pages=pages)
        done.write_text(str(result.document))
    return Path(done.read_text())


def page_count(paths: list[Path]) -> int:
    import pypdfium2 as pdfium

    total = 0
    for path in paths:
        pdf = pdfium.PdfDocument(path)
        total += len(pdf)
        pdf.close()
    return total


def pdfplumber_words(paths: list[Path]) -> float:
    """Seconds for a bare pdfplumber `extract_words` pass: the old reader's floor."""
    import pdfplumber

    started = time.perf_counter()
    for path in paths:
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                page.extract_words()
    return time.perf_counter() - started


def pdfium_text(paths: list[Path]) -> float:
    """Seconds for pypdfium2's raw page text (`get_text_range`): the fastest text there is."""
    import pypdfium2 as pdfium

    started = time.perf_counter()
    for path in paths:
        pdf = pdfium.PdfDocument(path)
        for page in pdf:
            page.get_textpage().get_text_range()
        pdf.close()
    return time.perf_counter() - started


def read_only(paths: list[Path], backend: str) -> float:
    """Seconds for the reader alone (PdfLines, furniture, paragraphs): the PDF layer."""
    from logbook_miner.read import read_pdf

    started = time.perf_counter()
    for path in paths:
        read_pdf(path, backend)
    return time.perf_counter() - started


def cli_ingest(paths: list[Path], db: Path, *options: str) -> dict:
    """`logbook ingest` in a fresh process: wall seconds, peak RSS (MB), per-file seconds."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        report = Path(fh.name)
    command = [sys.executable, "-c", _WRAPPER, str(report), sys.executable, "-m",
               "logbook_miner.cli", "ingest", "--db", str(db), *options, *map(str, paths)]
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    usage = json.loads(report.read_text())
    out = Path(f"{report}.out").read_text()
    report.unlink()
    Path(f"{report}.out").unlink()
    if usage["code"] not in (0, 1):
        raise RuntimeError(f"ingest failed ({usage['code']}): {out[-500:]}")
    return {"wall": wall, "rss_mb": usage["rss_kb"] / 1024,
            "parse_store": sum(float(s) for s in _SECONDS.findall(out))}


def entries_db(db: Path, entries: int) -> float:
    """Seconds to fill a store with synthetic entries and labels by INSERT ... SELECT."""
    from logbook_miner.store import connect

    started = time.perf_counter()
    with connect(db) as con:
        con.execute("""
            INSERT INTO logbooks SELECT 'lb' || i, 'bench', 'x', 'pdf', 100, NULL, 128, 8,
                now()::TIMESTAMP FROM range(10) t(i)""")
        con.execute(f"""
            INSERT INTO entries SELECT 'lb' || (i % 10), i // 10 + 1,
                '2022-01-01 ' || i || ': Run 12.' || (i % 97) || ' node failure',
                DATE '2021-01-01' + (i // 200)::INT, '10:00', 'ET',
                TIMESTAMP '2021-01-01' + INTERVAL (i * 7) MINUTE, 'Susan',
                'Run 12.' || (i % 97), 1 + i // 40, 1 + i // 40, false, false,
                'Lost a node to ECC errors; restarted from checkpoint ' || i
            FROM range({entries}) t(i)""")
        con.execute(f"""
            INSERT INTO labels SELECT 'lb' || (i % 10), i // 10 + 1,
                CASE WHEN i % 3 = 0 THEN 'intervention' ELSE 'fault' END,
                CASE WHEN i % 3 = 0 THEN 'restart' ELSE 'hardware.memory' END,
                'ECC errors', 'text', 17, 27, 'bench', 0.9
            FROM range({entries}) t(i)""")
    return time.perf_counter() - started


def canned_queries(db: Path) -> dict[str, float]:
    """Seconds per named query (queries/*.sql, default parameters) on the store."""
    from logbook_miner.analytics.analyse import list_queries, run_query

    times = {}
    for name, _ in list_queries():
        started = time.perf_counter()
        try:
            run_query(name, db=db)
        except Exception as exc:  # a query needing parameters or data this store lacks
            times[name] = float("nan")
            print(f"  query {name}: {type(exc).__name__}: {str(exc)[:100]}", file=sys.stderr)
            continue
        times[name] = time.perf_counter() - started
    return times


def dashboard(db: Path, out: Path, images: bool = True) -> float | None:
    """Seconds for `logbook_miner.present.dashboard.build` on the store, if the dashboard exists."""
    try:
        from logbook_miner.present.dashboard import build
    except ImportError:
        return None
    started = time.perf_counter()
    build(db, out, images=images)
    return time.perf_counter() - started


def rows(db: Path) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute("SELECT count(*) FROM entries").fetchone()[0]
