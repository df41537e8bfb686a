"""Render notes as a folder of daily reports, `YYYY-MM-DD.md` or `.txt`, one per day.

Meant to be ingested as one logbook (`--as-one`): each file starts with its
date heading; quiet days get a one-line report. The folder name is the
logbook id.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from logbook_miner.generate import markdown
from logbook_miner.generate.compose import Doc, Note
from logbook_miner.generate.markdown import PAGE_LINES, by_day, day_row, text_body


def measure(day_notes: list[Note]) -> float:
    """Pages a day adds: its notes as in Markdown, an on-call line, or a quiet-day report."""
    return markdown.measure(day_notes) + (1 if day_notes else 5) / PAGE_LINES


def render(out: Path, doc: Doc) -> tuple[Path, list[dict[str, Any]], int]:
    """Write NAME/DATE.EXT; return the folder, the truth rows in file order and the page count."""
    rng = np.random.default_rng([doc.seed, 4])
    ext = ".md" if rng.random() < 0.7 else ".txt"
    folder = out / doc.name
    folder.mkdir(parents=True, exist_ok=True)
    for old in [*folder.glob("????-??-??.md"), *folder.glob("????-??-??.txt")]:
        old.unlink()
    groups = by_day(doc.notes)
    last = max([doc.first_day + timedelta(days=doc.days - 1), *groups])
    rows: list[dict[str, Any]] = []
    total = 0
    for k in range((last - doc.first_day).days + 1):
        day = doc.first_day + timedelta(days=k)
        notes = groups.get(day, [])
        heading = f"Daily report {day}" if rng.random() < 0.3 else str(day)
        author = notes[0].author if notes else None
        head = [f"# {heading}"] if ext == ".md" else [heading, "=" * len(heading)]
        lines = [*head, ""] + ([f"On call: {author}", ""] if author else [])
        if notes:
            sub = "## {}" if ext == ".md" else "{}:"
            lines += text_body(notes, doc, rng, sub, fence=ext == ".md")
        else:
            lines += [doc.quiet[int(rng.integers(len(doc.quiet)))], ""]
        rows.append(day_row(doc, len(rows) + 1, heading, day, notes))
        text = "\n".join(lines)
        (folder / f"{day}{ext}").write_text(text, encoding="utf-8")
        total += text.count("\n") + 1
    return folder, rows, -(-total // PAGE_LINES)
