"""`logbook export` as a dataset: tables, datapackage.json, card, provenance, determinism."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from analytics_fixtures import real_classify
from click.testing import CliRunner
from dataset_fixtures import build, rows

from logbook_miner.cli import main
from logbook_miner.dataset import card
from logbook_miner.dataset.card import licence_for
from logbook_miner.dataset.export import TABLES, export
from logbook_miner.ingest import ingest

frictionless = pytest.importorskip("frictionless")


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("ds"))


def test_every_table_is_written_and_the_datapackage_validates(db, tmp_path):
    result = CliRunner().invoke(main, ["export", "--db", str(db), "--out", str(tmp_path),
                                       "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert {p.name for p in tmp_path.iterdir()} == {
        *(f"{t}.csv" for t in TABLES), "datapackage.json", "README.md"}
    report = frictionless.validate(str(tmp_path / "datapackage.json"))
    assert report.valid, report.flatten(["rowNumber", "fieldName", "type", "note"])[:5]
    package = frictionless.Package(str(tmp_path / "datapackage.json"))
    labels = package.get_resource("labels").schema
    assert labels.primary_key == ["logbook", "seq", "code"]
    assert {"fields": ["logbook", "seq"], "reference": {"resource": "entries",
            "fields": ["logbook", "seq"]}} in labels.foreign_keys
    assert all(f.description for r in package.resources for f in r.schema.fields)


def test_the_card_tells_provenance_codes_and_licences(db, tmp_path):
    export(tmp_path, db=db, fmt="jsonl")
    card = (tmp_path / "README.md").read_text()
    for logbook in rows(tmp_path / "logbooks.jsonl"):
        assert logbook["sha256"] in card and Path(logbook["path"]).name in card
    assert "2021-11-24 – 2021-11-27" in card
    assert re.search(r"\| `software.crash` \| fault \| .* \| 1 \| 0 \|", card)
    assert "taxonomy v1.1" in card and "unknown: check with the author" in card
    assert "Apache-2.0" in card  # bloom-mini matches the BLOOM pattern


def test_licence_notes_are_keyed_by_logbook_pattern():
    assert licence_for("bloom-tr11-176b")[0] == "Apache-2.0"
    assert licence_for("opt-175b-final_update")[0] == "MIT"
    assert licence_for("ops")[0] == "unknown: check with the author"


def test_every_row_from_a_document_leads_back_to_its_evidence(db, tmp_path):
    export(tmp_path, db=db, fmt="jsonl")
    entries = {(e["logbook"], e["seq"]): e for e in rows(tmp_path / "entries.jsonl")}
    labels = rows(tmp_path / "labels.jsonl")
    provenance = {"page_start", "page_end", "source", "confidence", "verified"}
    assert labels and provenance <= set(labels[0])
    for table in ("labels", "metrics", "interventions"):
        for row in rows(tmp_path / f"{table}.jsonl"):
            entry = entries[row["logbook"], row["seq"]]
            assert entry[row["field"]][row["start"]:row["end"]] == row["evidence"], row
    for row in rows(tmp_path / "incidents.jsonl"):
        entry = entries[row["logbook"], row["evidence_seq"]]
        assert entry[row["evidence_field"]][row["evidence_start"]:row["evidence_end"]] \
            == row["evidence"]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_the_same_database_exports_byte_identical_files(db, tmp_path, fmt):
    export(tmp_path / "a", db=db, fmt=fmt)
    export(tmp_path / "b", db=db, fmt=fmt)
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(files) == len(TABLES) + 2
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_an_export_replaces_an_earlier_one_in_another_format(db, tmp_path):
    """The folder holds the dataset its card describes: an earlier export's files in another
    format or layout go; a file of the user's stays."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    export(out, db=db, fmt="jsonl")
    export(out, db=db, fmt="parquet", partition_by="logbook")
    assert not list(out.glob("*.jsonl")) and (out / "labels" / "logbook=ops").is_dir()
    export(out, db=db, fmt="csv")
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [f"{table}.csv" for table in TABLES] + ["README.md", "datapackage.json", "notes.txt"])


@pytest.mark.parametrize("listed", [
    "../keep.csv", "entries.csv/../../keep.csv", "entries.csv/../notes.txt", "/tmp/keep.csv",
    None, 7, ["entries.csv/../notes.txt"], "", "notes.txt"])
def test_only_an_earlier_exports_own_files_are_removed(db, tmp_path, listed):
    """A datapackage.json edited by hand, or another tool's, removes nothing of the user's:
    a path that climbs out of the folder, leaves the table's own name, or is not a path."""
    out, outside = tmp_path / "out", tmp_path / "keep.csv"
    out.mkdir()
    outside.write_text("mine")
    export(out, db=db, fmt="jsonl")
    (out / "notes.txt").write_text("mine too")
    package = json.loads((out / "datapackage.json").read_text())
    package["resources"][0]["path"] = listed
    (out / "datapackage.json").write_text(json.dumps(package))
    export(out, db=db, fmt="csv")
    assert outside.read_text() == "mine" and (out / "notes.txt").read_text() == "mine too"
    assert not (out / "entries.jsonl").exists()  # the files still listed as the export's go


def test_another_tools_datapackage_is_neither_removed_nor_written_over(db, tmp_path):
    """`--out .` in a project with its own data package, README or table of the same name:
    the export is refused before it writes anything, naming what is in the way."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "entries.csv").write_text("a,b\n1,2\n")
    theirs = json.dumps({"name": "my-dataset",
                         "resources": [{"name": "entries", "path": "entries.csv"}]})
    (out / "datapackage.json").write_text(theirs)
    (out / "README.md").write_text("# my project\n")
    with pytest.raises(ValueError, match=r"holds datapackage.json, README.md, which no export"):
        export(out, db=db, fmt="jsonl")
    with pytest.raises(ValueError, match=r"holds entries.csv, datapackage.json, README.md"):
        export(out, db=db, fmt="csv")
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "datapackage.json",
                                                     "entries.csv"]
    assert (out / "datapackage.json").read_text() == theirs
    assert (out / "README.md").read_text() == "# my project\n"


def test_an_export_writes_over_its_own_earlier_export(db, tmp_path):
    export(tmp_path / "out", db=db, fmt="csv")
    export(tmp_path / "out", db=db, fmt="csv")  # its own README and package: no refusal
    assert (tmp_path / "out" / "README.md").exists()


def test_partitioned_parquet_reads_in_duckdb_and_pandas(db, tmp_path):
    export(tmp_path / "flat", db=db, fmt="parquet")
    export(tmp_path / "parts", db=db, fmt="parquet", partition_by="logbook")
    assert sorted(p.name for p in (tmp_path / "parts" / "labels").iterdir()) == [
        "logbook=bloom-mini", "logbook=ops"]
    for table in TABLES:
        flat = pd.read_parquet(tmp_path / "flat" / f"{table}.parquet")
        by_pandas = pd.read_parquet(tmp_path / "parts" / table)
        glob = str(tmp_path / "parts" / table / "**" / "*.parquet")
        by_duckdb = duckdb.sql(f"SELECT * FROM read_parquet('{glob}', hive_partitioning=true)")
        assert len(by_pandas) == len(flat) == by_duckdb.shape[0], table
        assert sorted(by_pandas["logbook"].astype(str).unique()) == sorted(flat["logbook"].unique())
        assert set(by_duckdb.columns) == set(flat.columns)


def _squash(text: str) -> str:
    """Compare modulo whitespace (and the NFKC folding the PDF reader applies)."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def test_labels_lead_back_to_the_source_pdf_page(shared, tmp_path):
    pdfplumber = pytest.importorskip("pdfplumber")
    pdf = shared / "logbooks" / "pdf" / "bloom-tr11-176b.pdf"
    if not pdf.exists():
        pytest.skip(f"{pdf} not found: the page round trip needs a real PDF")
    db = tmp_path / "pdf.duckdb"
    ingest([pdf], db=db, classify=real_classify())
    export(tmp_path / "out", db=db, fmt="jsonl")
    labels = rows(tmp_path / "out" / "labels.jsonl")
    assert len(labels) >= 10
    with pdfplumber.open(pdf) as doc:
        pages = [_squash(page.extract_text() or "") for page in doc.pages]
    for label in labels:
        where = "".join(pages[label["page_start"] - 1:label["page_end"]])
        assert _squash(label["evidence"]) in where, label


def test_names_cannot_inject_markup_into_the_card(tmp_path):
    """A file or logbook named like HTML, or holding a backtick, stays text in the card."""
    hostile = {"<img src=x onerror=alert(1)>": "x`y <b>z</b>"}
    db = tmp_path / "x.duckdb"
    for stem, name in hostile.items():
        path = tmp_path / f"{stem}.md"
        path.write_text("# 2022-03-01 node down\n\nRestarted.\n")
        for given in (name, None):  # a --name, then the file name as the logbook id
            [result] = ingest([path], db=db, name=given, classify=real_classify())
            assert result.status == "ingested", result.summary()
    export(tmp_path / "out", db=db)
    from markdown_it import MarkdownIt

    page = MarkdownIt("commonmark").enable("table").render(
        (tmp_path / "out" / "README.md").read_text(encoding="utf-8"))
    assert "<img" not in page and "<b>" not in page
    assert "<code>x`y &lt;b&gt;z&lt;/b&gt;</code>" in page
    assert "&lt;img src=x onerror=alert(1)&gt;.md" in page


@pytest.mark.parametrize("partition_by", [None, "logbook"])
def test_an_export_stopped_before_its_card_runs_again(db, tmp_path, monkeypatch, partition_by):
    """Ctrl-C (or a full disk) after the tables, before datapackage.json's final form: the
    placeholder written first still marks the tables as an export's, so the rerun is not
    refused as if they were someone else's, and it completes."""
    out = tmp_path / "out"

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(card, "write", stopped)
        with pytest.raises(KeyboardInterrupt):
            export(out, db=db, fmt="csv", partition_by=partition_by)
    assert (out / "entries" if partition_by else out / "entries.csv").exists()
    assert not (out / "README.md").exists()
    export(out, db=db, fmt="csv", partition_by=partition_by)
    assert (out / "README.md").exists()
    package = json.loads((out / "datapackage.json").read_text())
    assert {r["name"] for r in package["resources"]} == set(TABLES)
