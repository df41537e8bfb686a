"""DOCX and HTML readers: the same entries as Markdown, from real exports and from ones built here.

The reference logbooks in ../shared come as pandoc renderings; the fixtures
built here are shaped like other tools' exports (Word heading styles, Google
Docs' bold paragraphs and CSS classes, Notion's and Confluence's pages), so a
reader that only knew pandoc would fail them.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import docx
import pytest
from conftest import SHARED
from docx.shared import Pt
from helpers import score_logbooks

from logbook_miner.label.classifier import Classifier
from logbook_miner.read import ReadError, read
from logbook_miner.segment.entries import segment

FIELDS = ("heading", "date", "time", "timezone", "author", "run_id")
REAL = sorted([*(SHARED / "logbooks/docx").glob("*.docx"),
               *(SHARED / "logbooks/html").glob("*.html")])


def fields(path: Path) -> list[tuple]:
    return [tuple(getattr(e, f) for f in FIELDS) for e in segment(read(path))]


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_exports_give_the_markdown_entries(path):
    markdown = SHARED / "logbooks/md" / f"{path.stem}.md"
    assert fields(path) == fields(markdown)


def test_real_exports_are_there():
    if not REAL:
        pytest.skip(f"no DOCX/HTML logbooks at {SHARED}/logbooks (clone beside ../shared)")
    assert {p.suffix for p in REAL} == {".docx", ".html"}


@pytest.mark.parametrize("suffix", ["docx", "html"])
def test_real_exports_score_as_their_markdown(shared, tmp_path, suffix):
    names = sorted(p.stem for p in (shared / "logbooks" / suffix).glob(f"*.{suffix}"))
    keys = ("entry_recall", "entry_precision", "date_accuracy")
    markdown = score_logbooks(shared, tmp_path / "md",
                              {n: shared / f"logbooks/md/{n}.md" for n in names})
    exported = score_logbooks(shared, tmp_path / suffix,
                              {n: shared / f"logbooks/{suffix}/{n}.{suffix}" for n in names})
    for name in names:
        assert [exported[name][k] for k in keys] == [markdown[name][k] for k in keys], name


# --- Exports built here, shaped like the tools teams keep logbooks in ---

TITLE, INTRO = "Cluster logbook", "Notes of the 176B run, kept by the on-call."
NOTES = [  # heading, paragraph, list items, table rows, code lines
    ("2022-03-14 1:00pm ET [Susan]: Run 12.17", "GPU 3 fell off the bus on node-7.",
     ["2022-03-13 was quiet", "node-7 excluded"], [["node", "status"], ["node-7", "down"]], []),
    ("2022-03-15 [Naman]: Run 12.18", "Loss spiked at step 4100; lowered the LR by 10%.",
     [], [], ["export NCCL_ASYNC_ERROR_HANDLING=1", "# 2022-03-15 not a heading",
              "    srun --wait=60 train.py"]),
    ("March 16, 2022", "Eval hung; killed the job and resumed from checkpoint 1200.", [], [], []),
]
SUBLABEL = ("Loss", "Still at 2.46 after the restart.")  # an undated sub-heading of note 1
EXPECTED = [
    ("2022-03-14 1:00pm ET [Susan]: Run 12.17", date(2022, 3, 14), "1:00pm", "ET", "Susan",
     "12.17"),
    ("2022-03-15 [Naman]: Run 12.18", date(2022, 3, 15), None, None, "Naman", "12.18"),
    ("March 16, 2022", date(2022, 3, 16), None, None, None, None),
]


def word(path: Path, headings: str) -> Path:
    """A Word document: Title, then notes under `Heading 2` styles or (Google Docs) bold paragraphs.

    Lists use Word's `List Bullet` style (numbering from the style), code a
    paragraph style named "Code" or (Google Docs) a monospace font per line.
    """
    document = docx.Document()
    document.add_paragraph(TITLE, style="Title")
    document.add_paragraph(INTRO)
    code_style = document.styles.add_style("Code", docx.enum.style.WD_STYLE_TYPE.PARAGRAPH)
    code_style.font.name, code_style.font.size = "Consolas", Pt(9)
    for n, (heading, text, items, rows, code) in enumerate(NOTES):
        if headings == "styles":
            document.add_paragraph(heading, style="Heading 2")
        else:
            document.add_paragraph().add_run(heading).bold = True
        para = document.add_paragraph()
        para.add_run("Seen: ").bold = True
        para.add_run(text)
        if n == 0 and headings == "styles":
            document.add_paragraph().add_run(SUBLABEL[0]).bold = True
            document.add_paragraph(SUBLABEL[1])
        for item in items:
            document.add_paragraph(item, style="List Bullet")
        if rows:
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for row, cells in zip(table.rows, rows, strict=True):
                for cell, value in zip(row.cells, cells, strict=True):
                    cell.text = value
        if code and headings == "styles":
            run = document.add_paragraph(style="Code").add_run()
            for i, line in enumerate(code):
                if i:
                    run.add_break()
                run.add_text(line)
        for line in code if headings == "bold" else []:
            document.add_paragraph().add_run(line).font.name = "Courier New"
    document.save(path)
    return path


@dataclass(frozen=True)
class HtmlStyle:
    """How one tool writes a page and each part of a note, as format strings."""

    page: str  # {title}, {intro}, {body}
    heading: str
    seen: str  # the note's paragraph, opening with a bold "Seen:"
    sublabel: str  # an undated sub-heading and its text; "" where the tool has none
    items: str  # a list around its items
    item: str
    table: str
    row: str
    cell: str
    code: str  # around the code lines, joined by code_separator
    code_line: str = "{}"
    code_separator: str = "\n"
    code_space: str = " "


PAGES = {
    "notion": HtmlStyle(
        page="<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
             "<body><article class='page sans'><header><h1 class='page-title'>{title}</h1>"
             "</header><div class='page-body'><p>{intro}</p>{body}</div></article></body></html>",
        heading="<h2 id='x'>{}</h2>", seen="<p><strong>Seen:</strong> {}</p>",
        sublabel="<h3>{}</h3><p>{}</p>",
        items="{}", item="<ul class='bulleted-list'><li style='list-style-type:disc'>{}</li></ul>",
        table="<table class='simple-table'><tbody>{}</tbody></table>", row="<tr>{}</tr>",
        cell="<td>{}</td>", code="<pre class='code'><code>{}</code></pre>"),
    "confluence": HtmlStyle(
        page="<!DOCTYPE html><html><head><title>Space : {title}</title></head><body>"
             "<div id='page'><div id='main-header'><div id='breadcrumb-section'>"
             "<ol id='breadcrumbs'><li><a href='index.html'>Space</a></li></ol></div>"
             "<h1 id='title-heading' class='pagetitle'>Space : {title}</h1></div>"
             "<div id='main-content' class='wiki-content group'><p>{intro}</p>{body}</div>"
             "<div id='footer'><p>Document generated by Confluence</p></div></div></body></html>",
        heading="<h2 id='Logbook-x'>{}</h2>", seen="<p><strong>Seen:</strong>&nbsp;{}</p>",
        sublabel="<p><strong>{}</strong></p><p>{}</p>", items="<ul>{}</ul>", item="<li>{}</li>",
        table="<div class='table-wrap'><table class='confluenceTable'><tbody>{}</tbody></table>"
              "</div>",
        row="<tr>{}</tr>", cell="<th class='confluenceTh'>{}</th>",
        code="<div class='code panel pdl'><div class='codeContent panelContent pdl'>"
             "<pre class='syntaxhighlighter-pre' data-theme='Confluence'>{}</pre></div></div>"),
    # Google Docs writes bold and fonts as CSS classes, and code as one paragraph a line.
    "google-docs": HtmlStyle(
        page="<html><head><meta content='text/html; charset=UTF-8' http-equiv='content-type'>"
             "<style type='text/css'>.c1{{font-weight:700}}.c4{{font-weight:400}}"
             ".c2{{font-family:\"Courier New\";font-weight:400}}.title{{font-size:26pt}}"
             "</style></head><body class='c8 doc-content'><p class='title'><span>{title}"
             "</span></p><p class='c0'><span class='c4'>{intro}</span></p>{body}</body></html>",
        heading="<p class='c0'><span class='c1'>{}</span></p>",
        seen="<p class='c0'><span class='c1'>Seen: </span><span class='c4'>{}</span></p>",
        sublabel="", items="<ul class='lst-kix_a-0 start'>{}</ul>",
        item="<li class='c0 li-bullet-0'><span class='c4'>{}</span></li>",
        table="<table class='c7'>{}</table>", row="<tr class='c5'>{}</tr>",
        cell="<td class='c6' colspan='1' rowspan='1'><p class='c0'><span>{}</span></p></td>",
        code="{}", code_line="<p class='c0'><span class='c2'>{}</span></p>", code_separator="",
        code_space="&nbsp;"),
}


def html_note(style: HtmlStyle, heading: str, text: str, items: list, rows: list, code: list,
              first: bool) -> str:
    body = style.heading.format(heading) + style.seen.format(text)
    if first and style.sublabel:
        body += style.sublabel.format(*SUBLABEL)
    if items:
        body += style.items.format("".join(style.item.format(i) for i in items))
    if rows:
        body += style.table.format("".join(
            style.row.format("".join(style.cell.format(c) for c in r)) for r in rows))
    if code:
        body += style.code.format(style.code_separator.join(
            style.code_line.format(line.replace(" ", style.code_space)) for line in code))
    return body


def html_page(path: Path, name: str) -> Path:
    style = PAGES[name]
    body = "".join(html_note(style, *n, first=i == 0) for i, n in enumerate(NOTES))
    path.write_text(style.page.format(title=TITLE, intro=INTRO, body=body), encoding="utf-8")
    return path


BUILT = {
    "word-headings": lambda tmp: word(tmp / "log.docx", "styles"),
    "google-docs-docx": lambda tmp: word(tmp / "log.docx", "bold"),
    **{f"{style}-html": (lambda tmp, s=style: html_page(tmp / "log.html", s)) for style in PAGES},
}


@pytest.mark.parametrize("export_style", sorted(BUILT))
def test_exports_of_other_tools_give_the_notes(tmp_path, export_style):
    entries = segment(read(BUILT[export_style](tmp_path)))
    dated = [e for e in entries if e.date]
    assert [tuple(getattr(e, f) for f in FIELDS) for e in dated] == EXPECTED
    assert len(entries) - len(dated) <= 1  # the title and its intro, nothing else
    first, second, _ = dated
    assert "- 2022-03-13 was quiet" in first.text  # a list item, not a heading
    assert "| node | status |\n|---|---|\n| node-7 | down |" in first.text  # as Markdown
    assert "\n".join(NOTES[1][4]) in second.text  # line by line, indentation kept
    if SUBLABEL[1] in first.text:  # where the tool has sub-headings, they stay in the note
        assert SUBLABEL[0] in first.text


def test_word_reader_keeps_levels_code_and_list_indents(tmp_path):
    lines = read(word(tmp_path / "log.docx", "styles")).lines
    assert [(line.text, line.level) for line in lines if line.level] == [
        (TITLE, 1), *((note[0], 2) for note in NOTES)]
    code = [line.text for line in lines if line.code]
    assert code == NOTES[1][4]  # line breaks and indentation as written
    assert {line.indent for line in lines if line.text.startswith("- ")} == {2.0}
    assert [line.text for line in lines if line.bold] == [SUBLABEL[0]]  # "Seen:" is only part


def test_google_docs_bold_paragraphs_are_bold_lines(tmp_path):
    for path in (word(tmp_path / "g.docx", "bold"), html_page(tmp_path / "g.html", "google-docs")):
        bold = [line.text for line in read(path).lines if line.bold]
        assert bold == [note[0] for note in NOTES], path.name


def test_the_format_is_read_from_the_bytes(tmp_path):
    docx_as_txt = word(tmp_path / "log.txt", "styles")
    html_as_md = html_page(tmp_path / "page.md", "notion")
    fragment = tmp_path / "fragment.txt"
    fragment.write_text("<h2>2022-03-14 Node failure</h2><p>GPU 3 fell off the bus.</p>")
    markdown = tmp_path / "readme.md"
    markdown.write_text("<p align='center'>logo</p>\n\n## 2022-03-14 Node failure\n\ntext\n")
    assert [read(p).format for p in (docx_as_txt, html_as_md, fragment, markdown)] == [
        "docx", "html", "html", "markdown"]


def _zip(path: Path, names: list[str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.writestr(name, "<x/>")
    return path


BAD = {
    "broken.docx": (lambda p: p.write_bytes(b"PK\x03\x04" + b"\x00garbage" * 40),
                    "broken zip archive"),
    "other.docx": (lambda p: _zip(p, ["mimetype", "content.xml"]),
                   "a zip archive without word/document.xml, not a Word document"),
    "plain.docx": (lambda p: p.write_text("just text"), "not a Word document (not a zip archive)"),
    "damaged.docx": (lambda p: _zip(p, ["word/document.xml"]), "damaged Word document"),
    "empty.html": (lambda p: p.write_text("<html><body><script>x()</script> \n</body></html>"),
                   "no text in this HTML file"),
    "blank.docx": (lambda p: docx.Document().save(p), "no text in this DOCX file"),
    "deep.html": (lambda p: p.write_text(nested(3000)), "unreadable HTML (Excessive depth"),
}


def nested(depth: int) -> str:
    return f"<html><body>{'<div>' * depth}<h2>2022-03-14 Node failure</h2><p>GPU 3 fell off " \
           f"the<!-- a comment --> bus.</p>{'</div>' * depth}</body></html>"


def test_deeply_nested_pages_read_without_recursion(tmp_path):
    """Past libxml2's default 256 levels and Python's recursion limit: still read."""
    (tmp_path / "deep.html").write_text(nested(1500))
    [entry] = segment(read(tmp_path / "deep.html"))
    assert (entry.heading, entry.text) == ("2022-03-14 Node failure", "GPU 3 fell off the bus.")


@pytest.mark.parametrize("name", sorted(BAD))
def test_unreadable_files_give_a_one_line_reason(tmp_path, name):
    make, reason = BAD[name]
    make(tmp_path / name)
    with pytest.raises(ReadError) as caught:
        read(tmp_path / name)
    assert str(caught.value).startswith(reason) and "\n" not in str(caught.value)


def test_a_log_kept_as_a_word_table_or_html_bullets_gives_an_entry_per_row(tmp_path):
    document = docx.Document()
    document.add_heading("Run log", 1)
    rows = [("Date", "What happened"), ("2023-03-04", "NCCL timeout on gpu-17, restarted"),
            ("2023-03-05", "loss spike at 12500")]
    table = document.add_table(rows=len(rows), cols=2)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            table.cell(r, c).text = cell
    document.save(tmp_path / "log.docx")
    got = segment(read(tmp_path / "log.docx"))
    # the header row, over the rule line the reader writes, is column names, not the title's
    # text: the title over it is no entry
    assert [(e.heading, e.date, e.text) for e in got] == [
        ("2023-03-04 | NCCL timeout on gpu-17, restarted", date(2023, 3, 4), ""),
        ("2023-03-05 | loss spike at 12500", date(2023, 3, 5), "")]
    page = tmp_path / "log.html"
    page.write_text("<!doctype html><html><body><h1>Run log</h1><ul>"
                    "<li>2023-03-04: NCCL timeout on gpu-17<ul><li>2023-03-05 nested</li></ul></li>"
                    "<li>2023-03-06: loss spike at 12500</li></ul></body></html>", encoding="utf-8")
    got = segment(read(page))
    assert [e.date for e in got] == [date(2023, 3, 4), date(2023, 3, 6)]
    assert "nested" in got[0].text


def test_a_tables_counters_at_zero_count_none_in_word_and_html(tmp_path):
    """A table reads as Markdown writes it, header, rule line and rows, so a digest's counters
    at zero say nothing happened, as they do in its Markdown."""
    rows = [("steps", "NaN/Inf steps", "preempt", "restarts"), ("4,250", "0", "0", "1")]
    document = docx.Document()
    document.add_heading("2024-09-04 daily digest", 2)
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            table.cell(r, c).text = cell
    document.save(tmp_path / "digest.docx")
    page = tmp_path / "digest.html"
    page.write_text("<html><body><h2>2024-09-04 daily digest</h2><table>" + "".join(
        "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
        + "</table></body></html>", encoding="utf-8")
    classifier = Classifier(layer_path=None)
    for path in (tmp_path / "digest.docx", page):
        [labelled] = classifier.classify(segment(read(path)))
        assert labelled.entry.text.startswith("| steps | NaN/Inf steps | preempt | restarts |\n"
                                              "|---|---|---|---|\n| 4,250 | 0 | 0 | 1 |")
        assert [label.code for label in labelled.labels] == ["restart"]


def test_a_word_table_of_one_column_is_a_box_around_text(tmp_path):
    document = docx.Document()
    document.add_heading("2024-09-04 notes", 2)
    table = document.add_table(rows=2, cols=1)
    table.cell(0, 0).text = "Node 7 was drained."
    table.cell(1, 0).text = "The job resumed from step 900."
    document.save(tmp_path / "box.docx")
    [entry] = segment(read(tmp_path / "box.docx"))
    assert entry.text == "Node 7 was drained.\nThe job resumed from step 900."
