"""Entries found and dated in logbooks of other shapes: `python benchmarks/segmentation.py`.

benchmarks/segment_shapes/ holds small logbooks written for the project, each in a way people
head and date entries (bold weekday lines, mail threads, chat exports, ISO weeks, dated list
items, tables, org-like lines, setext headings, ...), with the headings and dates of their
entries as gold. `tune/` was read while the segmenter was changed; `check/` was written
afterwards by another helper and only scored. A gold entry is found when one of ours has its
heading (bold and heading marks aside) in order, and dated when that one's date is the gold's.
`--renderer chromium` (or `weasyprint`) reads each logbook printed to PDF instead, as
benchmarks/renderings.py prints the written logbooks (its cache: ~/.cache/logbook-renderings).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from logbook_miner.read import read  # noqa: E402
from logbook_miner.segment.entries import segment  # noqa: E402

SHAPES = ROOT / "benchmarks" / "segment_shapes"


def _plain(heading: str) -> str:
    """A heading without Markdown's marks, as a renderer prints it ("<a@b.org>" as "a@b.org"),
    nor an emoji's presentation selector (U+FE0F), which is invisible and which a PDF's text
    may drop ("🗓️" printed as "🗓")."""
    return " ".join(re.sub(r"[*#_`<>\ufe0e\ufe0f]", "", heading).split()).lower()


def scored(markdown: Path, renderer: str | None = None) -> tuple[int, int, int]:
    """(gold entries, found, dated right) for one logbook, read as written or printed."""
    gold = [json.loads(line) for line in markdown.with_suffix(".jsonl").read_text().splitlines()
            if line.strip()]
    source = markdown
    if renderer:
        from renderings import CACHE, render  # a sibling benchmark; Chromium or WeasyPrint

        source = render(markdown, CACHE / renderer / "segment_shapes" / markdown.parent.name,
                        renderer)
    ours = [(_plain(e.heading), e.date.isoformat() if e.date else None)
            for e in segment(read(source))]
    found = dated = at = 0
    for entry in gold:
        want = _plain(entry["heading"])
        match = next((k for k in range(at, len(ours)) if want and ours[k][0]
                      and (want in ours[k][0] or ours[k][0] in want)), None)
        if match is not None:
            found, dated, at = found + 1, dated + (ours[match][1] == entry["date"]), match + 1
    return len(gold), found, dated


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renderer", choices=("chromium", "weasyprint"),
                        help="read each logbook printed to PDF by this renderer")
    renderer = parser.parse_args().renderer
    for side in ("tune", "check"):
        totals = [0, 0, 0]
        for markdown in sorted((SHAPES / side).glob("*.md")):
            counts = scored(markdown, renderer)
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
            print(f"{side:6} {markdown.stem:34} {counts[0]:3} entries {counts[1]:3} found "
                  f"{counts[2]:3} dated right")
        print(f"{side:6} {'(all)':34} {totals[0]:3} entries {totals[1]:3} found "
              f"{totals[2]:3} dated right\n")


if __name__ == "__main__":
    main()
