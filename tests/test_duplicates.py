"""One logbook in two files (x.md and x.docx, x.pdf and x.weasy.pdf): ingested once, unless --force.

The fixtures are copies of ../shared files in a temporary folder (a folder's
links that point outside it are not followed); the texts are never copied
into the project.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from helpers import logbook_cli

from logbook_miner.ingest import ingest, no_labels
from logbook_miner.read import read
from logbook_miner.read.duplicates import SAME_LOGBOOK, fingerprint, similarity
from logbook_miner.segment.entries import segment

OPT = "opt-175b-56_percent_update"
RENDERINGS = ("md", "docx", "html")


def folder_of(shared: Path, tmp: Path, files: dict[str, str]) -> Path:
    """A folder of copies: name in the folder -> path under ../shared/logbooks."""
    folder = tmp / "logbooks"
    folder.mkdir()
    for name, target in files.items():
        shutil.copyfile(shared / "logbooks" / target, folder / name)
    return folder


def renderings(shared: Path, tmp: Path) -> Path:
    return folder_of(shared, tmp, {f"{OPT}.{s}": f"{s}/{OPT}.{s}" for s in RENDERINGS})


def stored(db: Path) -> list[str]:
    with duckdb.connect(str(db), read_only=True) as con:
        return [row[0] for row in con.execute("SELECT id FROM logbooks ORDER BY id").fetchall()]


def print_of(path: Path) -> frozenset[int]:
    return fingerprint(segment(read(path)))


def test_renderings_of_one_logbook_are_alike_and_different_logbooks_are_not(shared):
    md, docx, html, pdf = (shared / "logbooks" / p for p in (
        f"md/{OPT}.md", f"docx/{OPT}.docx", f"html/{OPT}.html", f"pdf/{OPT}.weasy.pdf"))
    other = shared / "logbooks/md/opt-175b-27_percent_update.md"
    prints = [print_of(p) for p in (md, docx, html, pdf)]
    assert min(similarity(prints[0], p) for p in prints[1:]) >= 0.9
    assert similarity(prints[0], print_of(other)) < 0.1


def test_a_folder_with_three_renderings_keeps_the_first(shared, tmp_path):
    folder = renderings(shared, tmp_path)
    results = ingest([folder], db=tmp_path / "x.duckdb", classify=no_labels)
    assert [r.status for r in results] == ["ingested", "duplicate", "duplicate"]
    for result in results[1:]:
        line = result.summary()
        assert line.startswith(f"warning: {folder}/{result.logbook}.") and "\n" not in line
        assert f"same logbook as {folder}/{OPT}.docx" in line
        assert line.endswith("not ingested; ingest it on its own with --name to keep it too")
        assert result.same_as[1] >= SAME_LOGBOOK
    assert stored(tmp_path / "x.duckdb") == [OPT]
    # the advice works: the skipped rendering, on its own with a name, is kept too
    [kept] = ingest([results[1].path], db=tmp_path / "x.duckdb", name="copy", classify=no_labels)
    assert kept.status == "ingested" and stored(tmp_path / "x.duckdb") == sorted([OPT, "copy"])


def test_files_named_one_by_one_are_all_ingested(shared, tmp_path):
    folder = folder_of(shared, tmp_path, {f"{s}.{s}": f"{s}/{OPT}.{s}" for s in RENDERINGS})
    results = ingest(sorted(folder.iterdir()), db=tmp_path / "x.duckdb", classify=no_labels)
    assert [r.status for r in results] == ["ingested"] * 3


def test_force_ingests_every_rendering(shared, tmp_path):
    folder = folder_of(shared, tmp_path, {f"{s}.{s}": f"{s}/{OPT}.{s}" for s in RENDERINGS})
    results = ingest([folder], db=tmp_path / "x.duckdb", classify=no_labels, force=True)
    assert [r.status for r in results] == ["ingested"] * 3
    assert stored(tmp_path / "x.duckdb") == sorted(RENDERINGS)


def test_a_rendering_of_a_logbook_stored_before_is_skipped(shared, tmp_path):
    """x.md ingested alone first, then the folder: x.md is unchanged, x.docx repeats it."""
    folder = folder_of(shared, tmp_path, {"a.md": f"md/{OPT}.md", "b.docx": f"docx/{OPT}.docx"})
    ingest([folder / "a.md"], db=tmp_path / "x.duckdb", classify=no_labels)
    results = ingest([folder], db=tmp_path / "x.duckdb", classify=no_labels)
    assert [r.status for r in results] == ["unchanged", "duplicate"]
    assert results[1].same_as[0] == str(folder / "a.md")


def test_notes_from_one_template_are_not_duplicates(shared, tmp_path):
    """Two CPM-Live daily reports share their headings; a stray copy of a day does not."""
    days = ("2022-11-2.md", "2022-11-24.md", "2022-11-29.md", "2022-11-30.md")
    folder = folder_of(shared, tmp_path, {d: f"daily/cpm-live/{d}" for d in days})
    results = ingest([folder], db=tmp_path / "x.duckdb", classify=no_labels)
    assert [r.status for r in results] == ["ingested", "duplicate", "ingested", "ingested"]


@pytest.mark.slow
def test_the_cli_warns_one_line_per_skipped_file_and_succeeds(shared, tmp_path):
    folder = renderings(shared, tmp_path)
    run = logbook_cli("ingest", folder, "--db", tmp_path / "x.duckdb", "--no-label")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{OPT}: 8 entries")
    assert [line.split(": ")[0] for line in run.errors] == ["warning"] * 2  # on stderr
