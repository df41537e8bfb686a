"""The written logbooks as a browser prints them: `python benchmarks/renderings.py`.

Hidden logbooks come as PDFs as often as Markdown. Each written logbook
(benchmarks/written_logbooks/) is laid out as HTML (markdown-it, tables on) and
printed to PDF by headless Chromium, as a user's browser would; then the tune and
check figures are scored from the PDFs and from the Markdown side by side, and
every logbook whose figures differ is listed. PDFs are cached in
`~/.cache/logbook-renderings` (`LOGBOOK_RENDERINGS`), made again when a logbook changes.
Needs Debian's `chromium`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from markdown_it import MarkdownIt

CACHE = Path(os.environ.get("LOGBOOK_RENDERINGS") or Path.home() / ".cache" / "logbook-renderings")
STYLE = ("body{font-family:'DejaVu Sans',sans-serif;font-size:11pt;max-width:48em;margin:2em auto}"
         "pre{white-space:pre-wrap}table{border-collapse:collapse}"
         "td,th{border:1px solid #999;padding:2px 4px}")


def render(markdown: Path, folder: Path) -> Path:
    """`markdown` printed to `folder`/NAME.pdf by headless Chromium (no page header or footer)."""
    folder.mkdir(parents=True, exist_ok=True)
    html, pdf = folder / f"{markdown.stem}.html", folder / f"{markdown.stem}.pdf"
    body = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(
        markdown.read_text(encoding="utf-8"))
    html.write_text(f"<!doctype html><meta charset='utf-8'><title>{markdown.stem}</title>"
                    f"<style>{STYLE}</style>{body}", encoding="utf-8")
    subprocess.run([shutil.which("chromium") or "chromium", "--headless", "--no-sandbox",
                    "--disable-gpu", "--no-pdf-header-footer", f"--print-to-pdf={pdf}",
                    html.as_uri()], check=True, capture_output=True, timeout=120)
    return pdf


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from labels import WRITTEN, gold_rows, is_check, predictions, score

    from logbook_miner.label.classifier import Classifier

    if not shutil.which("chromium"):
        sys.exit("needs Debian's chromium (apt-get install chromium)")
    names = sorted(path.stem for path in WRITTEN.glob("*.jsonl"))
    pdfs = {}
    for name in names:
        markdown, pdf = WRITTEN / f"{name}.md", CACHE / f"{name}.pdf"
        fresh = pdf.exists() and pdf.stat().st_mtime >= markdown.stat().st_mtime
        pdfs[name] = pdf if fresh else render(markdown, CACHE)
    classifier, gold = Classifier(), gold_rows(WRITTEN)
    rows = {"md": predictions(classifier, {n: WRITTEN / f"{n}.md" for n in names}),
            "chromium": predictions(classifier, pdfs)}
    print(f"{'set':6} {'written logbook':38} {'md faults':>10} {'interv.':>8} "
          f"{'pdf faults':>11} {'interv.':>8}")
    for side in ("tune", "check"):
        members = [n for n in names if is_check(n) == (side == "check")]
        md, pdf = (score(rows[r], gold, members) for r in ("md", "chromium"))
        for name in [*members, "(pooled, micro)"]:
            a, b = ((report["logbooks"][name] if name in members else report["overall"])
                    for report in (md, pdf))
            cells = [a["faults"]["f1"], a["interventions"]["f1"],
                     b["faults"]["f1"], b["interventions"]["f1"]]
            if name not in members or cells[:2] != cells[2:]:
                print(f"{side:6} {name:38} {cells[0]:>10.3f} {cells[1]:>8.3f} "
                      f"{cells[2]:>11.3f} {cells[3]:>8.3f}")


if __name__ == "__main__":
    main()
