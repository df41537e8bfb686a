"""Label quality, tune and check logbooks apart: `python benchmarks/labels.py` (issue 11).

The protocol: the classifier's rules are changed while reading the errors of
the *tune* logbooks only. The *check* logbooks (three teams: BigScience,
OpenBMB, Meta) are scored but their errors are not read, so their figure is
the honest estimate of how the labels do on a logbook nobody tuned them on.
Each logbook is read from ../shared in every rendering (Markdown, Chromium
PDF, WeasyPrint PDF), segmented, labelled and scored by ../shared/eval/score.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from logbook_miner.label.classifier import Classifier  # noqa: E402
from logbook_miner.models import FAULT, INTERVENTION  # noqa: E402
from logbook_miner.read import read  # noqa: E402
from logbook_miner.segment.entries import segment  # noqa: E402

SHARED = ROOT.parent / "shared"
# Chosen before any of their errors were read, one per team; never tuned on since.
CHECK = ("bloom-tr11-176b-prequel", "cpm-live", "opt-175b-56_percent_update")
RENDERINGS = {"md": "md/{}.md", "chromium": "pdf/{}.pdf", "weasyprint": "pdf/{}.weasy.pdf"}
KINDS = ("faults", "interventions")


def predictions(classifier: Classifier, rendering: str, names: list[str]) -> list[dict]:
    rows = []
    for name in names:
        path = SHARED / "logbooks" / RENDERINGS[rendering].format(name)
        for labelled in classifier.classify(segment(read(path))):
            rows.append({
                "logbook": name, "heading": labelled.entry.heading, "date": None,
                "faults": [lb.code for lb in labelled.labels if lb.kind == FAULT],
                "interventions": [lb.code for lb in labelled.labels if lb.kind == INTERVENTION],
            })
    return rows


def score(rows: list[dict], names: list[str]) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
        fh.writelines(json.dumps(r) + "\n" for r in rows)
    command = [sys.executable, str(SHARED / "eval" / "score.py"), "--json",
               "--gold", str(SHARED / "gold"), "--pred", fh.name]
    command += [arg for name in names for arg in ("--logbook", name)]
    report = json.loads(subprocess.run(command, check=True, capture_output=True,
                                       text=True).stdout)
    Path(fh.name).unlink()
    return report


def main() -> None:
    names = sorted(p.stem for p in (SHARED / "gold").glob("*.jsonl"))
    if not names:
        sys.exit(f"no gold in {SHARED / 'gold'}")
    tune = [n for n in names if n not in CHECK]
    classifier = Classifier()
    print(f"{'':35} " + " ".join(f"{r:^21}" for r in RENDERINGS))
    print(f"{'set':6} {'logbook':28} " + " ".join(f"{'faults':>10}{'interv.':>11}"
                                                  for _ in RENDERINGS))
    reports = {r: score(predictions(classifier, r, names), names) for r in RENDERINGS}
    for group, members in (("tune", tune), ("check", list(CHECK))):
        for name in members:
            cells = [reports[r]["logbooks"][name] for r in RENDERINGS]
            print(f"{group:6} {name:28} " + " ".join(
                f"{c['faults']['f1']:>10.3f}{c['interventions']['f1']:>11.3f}" for c in cells))
        pooled = {r: score(predictions(classifier, r, members), members)["overall"]
                  for r in RENDERINGS}
        print(f"{group:6} {'(pooled, micro)':28} " + " ".join(
            f"{p['faults']['f1']:>10.3f}{p['interventions']['f1']:>11.3f}"
            for p in pooled.values()))
    print(f"{'all':6} {'(pooled, micro)':28} " + " ".join(
        f"{reports[r]['overall']['faults']['f1']:>10.3f}"
        f"{reports[r]['overall']['interventions']['f1']:>11.3f}" for r in RENDERINGS))


if __name__ == "__main__":
    main()
