"""Render notes as a Markdown chronicle: `# Title`, then `### YYYY-MM-DD` entries, oldest first.

One entry per day; a day with several incidents gets sub-headings without
dates (`####`), which belong to the dated entry above. Logs go in fenced
blocks, some starting with `# comment` lines that are not headings.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from logbook_miner.generate.compose import Doc, Note, truth_row
from logbook_miner.generate.opt import HOME, ZONES

PAGE_LINES = 55  # what a "page" of plain text means for --pages
FENCES = ("```", "```text", "```bash")


def by_day(notes: list[Note]) -> dict[date, list[Note]]:
    """Notes grouped by the team's local date, each day in time order."""
    days: dict[date, list[Note]] = defaultdict(list)
    for note in sorted(notes, key=lambda n: n.ts):
        days[note.ts.astimezone(ZONES[HOME]).date()].append(note)
    return days


def measure(day_notes: list[Note]) -> float:
    """Pages of text these notes add, counting one blank line per block."""
    lines = sum(b.text.count("\n") + 2 + 2 * b.code for n in day_notes for b in n.blocks)
    return (lines + 4 * bool(day_notes)) / PAGE_LINES


def text_body(
    notes: list[Note], doc: Doc, rng: np.random.Generator, sub: str, fence: bool
) -> list[str]:
    """A day's notes as lines: prose, code blocks, sub-headings for later incidents."""
    out: list[str] = []
    for i, note in enumerate(notes):
        if i > 0 or rng.random() < 0.15:
            name = note.title or doc.subheadings[int(rng.integers(len(doc.subheadings)))]
            out += [sub.format(name), ""]
        for block in note.blocks:
            if not block.code:
                out += [block.text, ""]
            elif fence:
                out += [FENCES[int(rng.integers(len(FENCES)))], block.text, "```", ""]
            else:
                out += ["    " + ln for ln in block.text.split("\n")] + [""]
    return out


def day_row(doc: Doc, n: int, heading: str, day: date, notes: list[Note]) -> dict[str, Any]:
    """The truth row of a day entry: the union of its notes' labels and events."""
    return truth_row(
        doc.name,
        n,
        heading,
        day.isoformat(),
        set().union(*(x.faults for x in notes)),
        set().union(*(x.interventions for x in notes)),
        run_id=notes[-1].run_id if notes else None,
        events=[e for x in notes for e in x.events],
    )


def render(out: Path, doc: Doc) -> tuple[Path, list[dict[str, Any]], int]:
    """Write NAME.md; return its path, the truth rows in document order and the page count."""
    rng = np.random.default_rng([doc.seed, 3])
    lines = [f"# {doc.title}", "", doc.intro, ""]
    rows = [truth_row(doc.name, 1, doc.title, None, set(), set())]
    for day, notes in sorted(by_day(doc.notes).items()):
        titled = [n.title for n in notes if n.title]
        heading = f"{day} {titled[0]}" if titled and rng.random() < 0.4 else str(day)
        rows.append(day_row(doc, len(rows) + 1, heading, day, notes))
        lines += [f"### {heading}", "", *text_body(notes, doc, rng, "#### {}", fence=True)]
    path = out / f"{doc.name}.md"
    text = "\n".join(lines)
    path.write_text(text, encoding="utf-8")
    return path, rows, -(-(text.count("\n") + 1) // PAGE_LINES)
