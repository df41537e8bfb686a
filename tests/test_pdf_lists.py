"""A PDF's bold titles and list bullets read as Markdown writes them.

A weekly report titles its plans with a bold line ("**2. Next steps**") over a list; a PDF
keeps the bold only in the font, and the bullet as a glyph (WeasyPrint, Word) or as a disc
drawn beside the item (Chromium). Read as plain lines, "2. Next steps" is a list's item and
the plans below it read as done.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from logbook_miner.label.classifier import Classifier
from logbook_miner.read import PDF_BACKENDS, read
from logbook_miner.read.pdf import marked_item
from logbook_miner.segment.entries import segment

PROGRESS = "\n".join(["Loss curve looks healthy, step time steady at 5.1 s.",
                      "Eval at step 12k matches the 7B baseline within noise.",
                      "Data loader throughput fine after Monday's shard rebalance."])
TITLE = "2. Next steps"
PLANS = ["Restart the job from the last checkpoint with the new image.",
         "Replace node gpu-17 if its ECC errors come back."]
MARKDOWN = f"""# 2024-03-05 Training log

{PROGRESS}

**{TITLE}**

""" + "".join(f"- {plan}\n" for plan in PLANS)


def _pdf() -> FPDF:
    pdf = FPDF(format="letter")
    pdf.core_fonts_encoding = "windows-1252"  # which has the bullet
    pdf.add_page()
    return pdf


def _progress() -> FPDF:
    """A report's page, its dated heading and PROGRESS written."""
    pdf = _pdf()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, "2024-03-05 Training log", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    for line in PROGRESS.split("\n"):
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    return pdf


def _report(path: Path, bullet: str) -> Path:
    """The report printed with its bullets as `bullet`: a "glyph" or a drawn "disc"."""
    pdf = _progress()
    pdf.set_font("Helvetica", "B", 11)
    pdf.cell(0, 6, TITLE, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("Helvetica", size=11)
    for plan in PLANS:
        if bullet == "glyph":
            pdf.set_x(20)
            pdf.cell(6, 6, "\u2022")
        else:  # Chromium's disc: a filled circle a third of the text's size, no text
            pdf.ellipse(21, pdf.get_y() + 2.35, 1.3, 1.3, style="F")
        pdf.set_x(26)
        pdf.cell(0, 6, plan, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def _page_foot(at: float) -> FPDF:
    """An entry's first page, full lines of prose, the pen at `at` mm, near the page's foot."""
    pdf = _pdf()
    pdf.set_auto_page_break(auto=False)
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, "2024-03-05 Training log", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, "Week 3 of the 70B run. " * 12)  # lines the full width
    pdf.set_y(at)
    return pdf


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


@pytest.mark.parametrize("backend", PDF_BACKENDS)
@pytest.mark.parametrize("bullet", ["glyph", "disc"])
def test_a_bold_title_over_a_bulleted_list_reads_as_its_markdown(tmp_path, classifier,
                                                                 bullet, backend):
    markdown = tmp_path / "report.md"
    markdown.write_text(MARKDOWN, encoding="utf-8")
    pdf = _report(tmp_path / "report.pdf", bullet)
    [printed], [written] = (classifier.classify(segment(read(path, backend)))
                            for path in (pdf, markdown))
    assert printed.entry.text == written.entry.text
    assert "**2. Next steps**\n\n- Restart the job" in printed.entry.text
    assert [label.code for label in printed.labels] == []  # the plans are not done


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_a_paragraph_ended_at_a_pages_foot_leaves_the_next_pages_title_standing(
        tmp_path, classifier, backend):
    """A page's last line that ends short ends its paragraph: the bold title at the next
    page's top stands after a blank line, as a title does."""
    pdf = _page_foot(238)
    for line in PROGRESS.split("\n"):
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 11)
    pdf.cell(0, 6, TITLE, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("Helvetica", size=11)
    for plan in PLANS:
        pdf.cell(0, 6, f"\u2022 {plan}", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(tmp_path / "report.pdf"))
    [labelled] = classifier.classify(segment(read(tmp_path / "report.pdf", backend)))
    assert labelled.entry.text.endswith(f"{PROGRESS}\n\n**{TITLE}**\n\n- {PLANS[0]}\n- {PLANS[1]}")
    assert [label.code for label in labelled.labels] == []


def test_a_bold_numbered_plan_in_html_stays_a_plan(tmp_path, classifier):
    """Word and HTML readers write a numbered list's number themselves: the bold goes after it,
    as Markdown writes "1. **Restart ...**", so the item stays in the plan it is under."""
    page = tmp_path / "report.html"
    page.write_text("<h1>2024-03-05 Training log</h1><p>Loss curve healthy.</p>"
                    "<p><strong>Next steps</strong></p>"
                    "<ol><li><strong>Restart the job on the new image</strong></li></ol>",
                    encoding="utf-8")
    [labelled] = classifier.classify(segment(read(page)))
    assert "1. **Restart the job on the new image**" in labelled.entry.text
    assert [label.code for label in labelled.labels] == []


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_a_sentence_that_runs_on_over_a_page_break_is_not_cut(tmp_path, classifier, backend):
    """A page's last line that ends with no closing mark, before a line that opens in lower
    case, runs on, however short it is: a blank line there would end the sentence, and "there
    was no" would no longer deny the leak."""
    pdf = _page_foot(250)
    pdf.cell(0, 6, "Quiet week: the data loader kept up with the new shards, so there was no")
    pdf.add_page()
    pdf.cell(0, 6, "memory leak this week, and loss kept falling.")
    pdf.output(str(tmp_path / "report.pdf"))
    [labelled] = classifier.classify(segment(read(tmp_path / "report.pdf", backend)))
    assert "there was no\nmemory leak" in labelled.entry.text
    assert [label.code for label in labelled.labels] == []


@pytest.mark.parametrize("text, marked", [
    ("\u2022 Restart the job", "- Restart the job"),
    ("\uf0b7 Restart the job", "- Restart the job"),  # Word's Symbol-font bullet, as extracted
    ("\u00b7 books 12 \u00b7 code 20", "books 12 \u00b7 code 20"),  # a wrapped separator: no item
    ("\u2022", ""),
])
def test_a_bullets_glyph_is_written_as_markdowns(text, marked):
    assert marked_item(text) == marked


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_a_bold_list_is_marked_item_by_item(tmp_path, classifier, backend):
    """A PDF's bold list is marked as Markdown marks it, "- **item**" a line, so an item ticked
    off ("...: done") is done and the others stay action items."""
    pdf = _progress()
    pdf.cell(0, 6, "Action items:", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("Helvetica", "B", 11)
    for item in ["ask ops for two spares", "drained node-12 after its Xid 79: done"]:
        pdf.cell(0, 6, f"\u2022 {item}", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(tmp_path / "report.pdf"))
    [labelled] = classifier.classify(segment(read(tmp_path / "report.pdf", backend)))
    assert labelled.entry.text.endswith(
        "- **ask ops for two spares**\n- **drained node-12 after its Xid 79: done**")
    assert {"node_replacement", "hardware.gpu"} <= {label.code for label in labelled.labels}
