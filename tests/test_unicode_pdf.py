"""Text from PDFs is valid Unicode: CJK and emoji kept, UTF-16 halves joined (issue 13)."""

from __future__ import annotations

import duckdb
import pytest

from logbook_miner.read import PDF_BACKENDS, read_pdf
from tests.helpers import logbook_in_process
from tests.pdfbuild import unicode_pdf

CJK = [("2022-06-12 训练日志 🚀", 16), ("The loss went to NaN 😱 on 节点 7, 𠀀 kept", 11)]
# No CJK: PDFium reads this page itself, handing over each emoji as two UTF-16 halves
EMOJI = [("2022-06-13 a lone half \ud83d here", 16), ("node 3 restarted 🤔", 11)]


@pytest.mark.parametrize("backend", PDF_BACKENDS)
@pytest.mark.parametrize("font", ["Helvetica", "Courier"], ids=["text", "code"])
@pytest.mark.parametrize("lines", [CJK, EMOJI], ids=["cjk", "emoji"])
def test_characters_outside_the_bmp_come_out_whole(tmp_path, backend, lines, font):
    path = tmp_path / "unicode.pdf"
    path.write_bytes(unicode_pdf(lines, font=font))  # a code block's lines are laid out apart
    texts = [line.text for line in read_pdf(path, backend).lines if line.text]
    assert texts[1:] == [text for text, _ in lines[1:]]
    # a lone half is replaced (PDFium hands it over) or dropped (pdfminer drops it itself)
    kept, dropped = (lines[0][0].replace("\ud83d", half) for half in ("\ufffd", ""))
    if font == "Courier":  # a code line keeps a dropped half's column: a space
        texts[0], dropped = " ".join(texts[0].split()), " ".join(dropped.split())
    assert texts[0] in (kept, dropped)
    for text in texts:
        text.encode("utf-8")  # no surrogate left


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_a_glyph_with_no_character_is_no_text(tmp_path, backend):
    path = tmp_path / "unmapped.pdf"
    path.write_bytes(unicode_pdf([("2022-06-14 run notes", 16), ("relaunched \u2728 at 09:10", 11)],
                                 unmapped="\u2728"))
    texts = [" ".join(line.text.split()) for line in read_pdf(path, backend).lines if line.text]
    assert texts == ["2022-06-14 run notes", "relaunched at 09:10"]


def test_a_pdf_with_cjk_and_emoji_ingests(tmp_path):
    path, db = tmp_path / "cjk.pdf", tmp_path / "x.duckdb"
    path.write_bytes(unicode_pdf(CJK))
    run = logbook_in_process("ingest", path, "--db", db, "--no-label")
    assert run.returncode == 0, run.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT heading, text FROM entries ORDER BY seq").fetchall()
    assert rows == [tuple(text for text, _ in CJK)]
