"""The written logbooks as a browser prints them: `python benchmarks/renderings.py`.

Hidden logbooks come as PDFs as often as Markdown. Each written logbook
(benchmarks/written_logbooks/) is laid out as HTML (markdown-it, tables on) and
printed to PDF by headless Chromium, as a user's browser would (`--renderer
weasyprint`: by WeasyPrint, as a docs pipeline would); then the tune and check
figures are scored from the PDFs and from the Markdown side by side, and every
logbook whose figures differ is listed. PDFs are cached in
`~/.cache/logbook-renderings/RENDERER` (`LOGBOOK_RENDERINGS`), made again when a
logbook changes. Needs Debian's `chromium`, or `pip install weasyprint`.
"""

from __future__ import annotations

import argparse
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


RENDERERS = ("chromium", "weasyprint")


def render(markdown: Path, folder: Path, renderer: str = "chromium") -> Path:
    """`markdown` printed to `folder`/NAME.pdf by headless Chromium (no page header or
    footer) or by WeasyPrint, from the same HTML."""
    folder.mkdir(parents=True, exist_ok=True)
    html, pdf = folder / f"{markdown.stem}.html", folder / f"{markdown.stem}.pdf"
    body = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(
        markdown.read_text(encoding="utf-8"))
    html.write_text(f"<!doctype html><meta charset='utf-8'><title>{markdown.stem}</title>"
                    f"<style>{STYLE}</style>{body}", encoding="utf-8")
    if renderer == "weasyprint":
        import weasyprint  # an optional tool of this benchmark, not a dependency

        weasyprint.HTML(filename=str(html)).write_pdf(str(pdf))
        return pdf
    subprocess.run([shutil.which("chromium") or "chromium", "--headless", "--no-sandbox",
                    "--disable-gpu", "--no-pdf-header-footer", f"--print-to-pdf={pdf}",
                    html.as_uri()], check=True, capture_output=True, timeout=120)
    return pdf


def _missing(renderer: str) -> str | None:
    """What to install for `renderer`, if it is not here."""
    if renderer == "chromium":
        return None if shutil.which("chromium") else "Debian's chromium (apt-get install chromium)"
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError):  # OSError: the Pango library it loads is missing
        return "WeasyPrint (pip install weasyprint)"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renderer", choices=RENDERERS, default="chromium")
    renderer = parser.parse_args().renderer
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from labels import WRITTEN, gold_rows, is_check, predictions, score

    from logbook_miner.label.classifier import Classifier

    if missing := _missing(renderer):
        sys.exit(f"needs {missing}")
    names = sorted(path.stem for path in WRITTEN.glob("*.jsonl"))
    pdfs, cache = {}, CACHE / renderer
    for name in names:
        markdown, pdf = WRITTEN / f"{name}.md", cache / f"{name}.pdf"
        fresh = pdf.exists() and pdf.stat().st_mtime >= markdown.stat().st_mtime
        pdfs[name] = pdf if fresh else render(markdown, cache, renderer)
    classifier, gold = Classifier(), gold_rows(WRITTEN)
    rows = {"md": predictions(classifier, {n: WRITTEN / f"{n}.md" for n in names}),
            "pdf": predictions(classifier, pdfs)}
    print(f"{'set':6} {'written logbook':38} {'md faults':>10} {'interv.':>8} "
          f"{renderer + ' faults':>18} {'interv.':>8}")
    for side in ("tune", "check"):
        members = [n for n in names if is_check(n) == (side == "check")]
        md, pdf = (score(rows[r], gold, members) for r in ("md", "pdf"))
        for name in [*members, "(pooled, micro)"]:
            a, b = ((report["logbooks"][name] if name in members else report["overall"])
                    for report in (md, pdf))
            cells = [a["faults"]["f1"], a["interventions"]["f1"],
                     b["faults"]["f1"], b["interventions"]["f1"]]
            if name not in members or cells[:2] != cells[2:]:
                print(f"{side:6} {name:38} {cells[0]:>10.3f} {cells[1]:>8.3f} "
                      f"{cells[2]:>18.3f} {cells[3]:>8.3f}")


if __name__ == "__main__":
    main()
