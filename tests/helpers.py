"""Helpers for the robustness tests: the real CLI in a subprocess, logbooks and PDFs to order.

The CLI runs as a user runs it (a fresh interpreter, real stderr), through a
small wrapper that reports the child's CPU time and peak memory, so tests can
bound both without timing anything in-process.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import duckdb
from fpdf import FPDF
from PIL import Image

from logbook_miner.dataset.export import export
from logbook_miner.ingest import ingest, no_labels
from logbook_miner.read import read
from logbook_miner.segment.entries import segment

ROOT = Path(__file__).resolve().parents[1]
LOGBOOK_TABLES = ("rates", "metrics", "labels", "entries", "logbooks")  # a logbook's rows
CLI = [sys.executable, "-m", "logbook_miner.cli"]
# Runs the command as its own child, then writes the child's rusage to argv[1].
_MEASURE = """\
import json, resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
use = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as fh:
    json.dump({"rss_kb": use.ru_maxrss, "cpu": use.ru_utime + use.ru_stime}, fh)
sys.exit(code)
"""


@dataclass(frozen=True, slots=True)
class CliRun:
    """What a user saw: exit status and both streams, plus what the run cost."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    cpu_seconds: float
    max_rss_mb: float

    @property
    def errors(self) -> list[str]:
        return self.stderr.splitlines()


def logbook_cli(*args: str | Path, timeout: float = 300) -> CliRun:
    """`logbook ARGS...` in a fresh process group; killed whole if it overruns `timeout`."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        usage_file = Path(fh.name)
    command = [sys.executable, "-c", _MEASURE, str(usage_file), *CLI, *map(str, args)]
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, errors="replace", start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"logbook {' '.join(map(str, args))} ran over {timeout}s") from None
    usage = json.loads(usage_file.read_text())
    usage_file.unlink()
    return CliRun(proc.returncode, stdout, stderr, time.perf_counter() - started,
                  usage["cpu"], usage["rss_kb"] / 1024)


def logbook_in_process(*args: str | Path) -> CliRun:
    """`logbook ARGS...` through click's runner: the same code, without a new interpreter.

    For tests about what the command says, not about how the process behaves;
    an exception escaping the command fails the test rather than being caught.
    """
    from click.testing import CliRunner

    from logbook_miner.cli import main

    started = time.perf_counter()
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return CliRun(result.exit_code, result.stdout, result.stderr,
                  time.perf_counter() - started, 0.0, 0.0)


def snapshot(db: Path, logbook: str | None = None) -> dict[str, list[tuple]]:
    """Every row of the logbook tables (one logbook's, if named), in a stable order."""
    out = {}
    with duckdb.connect(str(db), read_only=True) as con:
        for table in LOGBOOK_TABLES:
            key = "id" if table == "logbooks" else "logbook"
            where, params = (f"WHERE {key} = ?", [logbook]) if logbook else ("", [])
            out[table] = sorted(con.execute(f"SELECT * FROM {table} {where}", params).fetchall(),
                                key=repr)
    return out


def entry_counts(db: Path) -> dict[str, int]:
    """Entries per stored logbook (a logbook with none counts 0)."""
    with duckdb.connect(str(db), read_only=True) as con:
        return dict(con.execute(
            "SELECT l.id, count(e.seq) FROM logbooks l LEFT JOIN entries e ON e.logbook = l.id "
            "GROUP BY l.id").fetchall())


def heading(i: int, start: date = date(2020, 1, 1)) -> str:
    """The i-th dated heading of a generated logbook: date, time, zone, a unique tail."""
    return f"{start + timedelta(days=i % 3000)} 10:{i % 60:02d} UTC entry {i}"


def with_default_ctrl_c() -> None:
    """preexec_fn for a command a test interrupts: start it with SIGINT at its default, as a
    terminal does. In the full suite (only there) the Ctrl-C ingest went on as if started
    with SIGINT ignored, which Python never turns into KeyboardInterrupt; no test was found
    to leave it so at a test boundary (a probe after each), so the cause is not known."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def logbook(n: int, markdown: bool = True, body_lines: int = 1, body: str = "") -> str:
    """A logbook of `n` dated entries; `body` (if given) is every entry's text."""
    parts = []
    for i in range(n):
        text = body or "\n".join(f"node {j} lost a GPU, restarted from checkpoint {i}, loss ok"
                                 for j in range(body_lines))
        parts.append(f"{'## ' if markdown else ''}{heading(i)}\n\n{text}\n")
    return "\n".join(parts)


def text_pdf(notes: dict[str, str], user_password: str | None = None,
             owner_password: str | None = None) -> bytes:
    """A PDF with a bold heading and a paragraph per note; encrypted if a password is given."""
    pdf = FPDF()
    if user_password is not None or owner_password is not None:
        pdf.set_encryption(owner_password=owner_password or "owner",
                           user_password=user_password or "")
    pdf.add_page()
    for title, body in notes.items():
        pdf.set_font("Helvetica", "B", 16)
        pdf.multi_cell(0, 9, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, body, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
    return bytes(pdf.output())


def image_pdf() -> bytes:
    """A scanned page: one picture, no text layer."""
    picture = io.BytesIO()
    Image.new("RGB", (300, 200), "grey").save(picture, format="PNG")
    pdf = FPDF()
    pdf.add_page()
    pdf.image(picture, x=10, y=10, w=150)
    return bytes(pdf.output())


FIGURE_NOTE = ["Relaunched with the smaller LR.", "Loss back to 2.41 after 300 steps.",
               "No spike since."]


def figure_pdf() -> bytes:
    """A heading with only a picture under it, then a note."""
    picture = io.BytesIO()
    Image.new("RGB", (300, 200), "grey").save(picture, format="PNG")
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.multi_cell(0, 9, "All divergences together", new_x="LMARGIN", new_y="NEXT")
    pdf.image(picture, x=10, y=pdf.get_y() + 4, w=150)
    pdf.set_y(pdf.get_y() + 110)
    pdf.multi_cell(0, 9, "Exp 12", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    for line in FIGURE_NOTE:
        pdf.multi_cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def score_logbooks(shared: Path, tmp: Path, files: dict[str, Path]) -> dict[str, dict]:
    """Ingest each logbook (id -> file) unlabelled, export, run ../shared/eval/score.py: figures
    per logbook."""
    tmp.mkdir(parents=True, exist_ok=True)
    for name, path in files.items():
        [result] = ingest([path], db=tmp / "x.duckdb", name=name, classify=no_labels)
        assert result.status == "ingested", result.summary()
    export(tmp / "out", db=tmp / "x.duckdb")
    out = subprocess.run(
        [sys.executable, str(shared / "eval/score.py"), "--gold", str(shared / "gold"),
         "--pred", str(tmp / "out/entries.jsonl"), "--json"],
        capture_output=True, text=True, check=True).stdout
    return json.loads(out)["logbooks"]


def entries_of(tmp_path: Path, name: str, text: str, **kwargs):
    """The entries the reader makes of `text`, written to a file named `name` (its suffix picks
    the reader: .md, .txt, ...)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return segment(read(path), **kwargs)


def headings_and_dates(tmp_path: Path, name: str, text: str) -> list[tuple[str, date | None]]:
    """Each entry's heading and date, as `entries_of` reads `text`."""
    return [(e.heading, e.date) for e in entries_of(tmp_path, name, text)]
