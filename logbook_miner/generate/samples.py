"""The small generated logbooks committed under data/samples/ for `logbook demo`.

Regenerate with `python -m logbook_miner.generate.samples`; the same code and
seeds give byte-identical files (the PDF's creation date is fixed too).
"""

from __future__ import annotations

from pathlib import Path

from logbook_miner.generate import GeneratedLogbook, generate
from logbook_miner.resources import DATA

SAMPLES = DATA / "samples"


def write_samples(dest: Path = SAMPLES) -> list[GeneratedLogbook]:
    """A 14-day Markdown chronicle and a ~6-page OPT-style PDF, each with its truth."""
    return [
        generate(dest / "markdown", seed=0, style="markdown", days=14),
        generate(dest / "opt", seed=7, style="opt", pages=6),
    ]


if __name__ == "__main__":
    for made in write_samples():
        print(f"{made.document}: {len(made.rows)} entries, {made.pages} pages")
