"""Inputs are regular files: FIFOs and devices are refused unopened; folder links stay inside.

(issue 16) `mkfifo d/fifo.md; logbook ingest d/fifo.md d/good.md` hung before
good.md was read, and links in an ingested folder reached /etc/passwd.
"""

from __future__ import annotations

import os

from helpers import entry_counts, logbook_cli

GOOD = "# 2022-03-01 node 7 went down\n\nRestarted from checkpoint 1200.\n"


def test_a_fifo_and_a_device_are_refused_and_the_batch_goes_on(tmp_path):
    fifo, zero, good = tmp_path / "fifo.md", tmp_path / "zero.md", tmp_path / "good.md"
    os.mkfifo(fifo)
    zero.symlink_to("/dev/zero")
    good.write_text(GOOD)
    run = logbook_cli("ingest", fifo, zero, good, "--db", tmp_path / "x.duckdb", timeout=60)
    assert run.returncode == 1
    assert f"error: {fifo}: not a regular file (a FIFO); not read" in run.errors
    assert f"error: {zero}: not a regular file (a device); not read" in run.errors
    assert entry_counts(tmp_path / "x.duckdb") == {"good": 1}


def test_links_out_of_a_folder_are_skipped_unless_followed(tmp_path):
    folder, outside = tmp_path / "notes", tmp_path / "secret.md"
    folder.mkdir()
    (folder / "day1.md").write_text(GOOD)
    outside.write_text("# 2022-03-02 secret\n\nnot a note of this folder\n")
    (folder / "leak.md").symlink_to(outside)
    # A link inside the folder is fine. It leads to a note of its own: a second copy of
    # day1.md in the folder would be skipped as the same logbook (issue 13).
    (folder / "kept").mkdir()
    (folder / "kept/day2.md").write_text(GOOD.replace("03-01", "03-02").replace("7", "9"))
    (folder / "same.md").symlink_to(folder / "kept/day2.md")
    db = tmp_path / "x.duckdb"
    run = logbook_cli("ingest", folder, "--db", db, "--no-label", timeout=60)
    assert run.returncode == 0, run.stderr
    assert f"skipped {folder / 'leak.md'}: it links to {outside}, outside {folder}" \
        in run.stdout.splitlines()
    assert set(entry_counts(db)) == {"day1", "same"}
    run = logbook_cli("ingest", folder, "--db", db, "--no-label", "--follow-links", timeout=60)
    assert run.returncode == 0, run.stderr
    assert set(entry_counts(db)) == {"day1", "same", "leak"}


def test_a_folders_other_files_are_named_in_one_line(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "day1.md").write_text(GOOD)
    for name in ("plot.png", "scan.PNG", "losses.csv", "run.json", ".DS_Store"):
        (folder / name).write_bytes(b"\x89PNG")
    (folder / "images").mkdir()  # a subfolder is not read either: said in a line of its own
    run = logbook_cli("ingest", folder, "--db", tmp_path / "x.duckdb", "--no-label", timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == (
        f"skipped 4 files of {folder} that no reader takes: losses.csv, plot.png, run.json "
        "and 1 more (logbooks are .pdf .md .markdown .txt .text .log .org .docx .html .htm)")
    assert run.stdout.splitlines()[1] == (
        f"skipped 1 folder inside {folder}: images/ (a folder's own files are read, not its "
        "subfolders': name those too)")
    assert entry_counts(tmp_path / "x.duckdb") == {"day1": 1}


def test_a_folder_of_subfolders_only_is_an_error_that_names_them(tmp_path):
    """Daily notes kept a folder a month: nothing is read, and the user is told why."""
    for month in ("2023-03", "2023-04"):
        (tmp_path / "notes" / month).mkdir(parents=True)
        (tmp_path / "notes" / month / f"{month}-01.md").write_text(GOOD)
    folder = tmp_path / "notes"
    run = logbook_cli("ingest", folder, "--as-one", "run", "--db", tmp_path / "x.duckdb",
                      timeout=60)
    assert run.returncode == 1
    assert run.stdout.splitlines() == [
        f"skipped 2 folders inside {folder}: 2023-03/, 2023-04/ (a folder's own files are "
        "read, not its subfolders': name those too)"]
    assert run.errors[0].startswith(f"error: {folder}: no supported files")


def test_control_characters_in_names_never_reach_the_terminal(tmp_path):
    hostile = tmp_path / "a\x1b]0;PWNED\x07X\nsecond line.md"
    hostile.write_text(GOOD)
    db = tmp_path / "x.duckdb"
    for _ in range(2):  # "ingested", then "unchanged"
        run = logbook_cli("ingest", hostile, "--db", db, "--no-label", timeout=60)
        assert run.returncode == 0, run.stderr
        assert "\x1b" not in run.stdout and "\x07" not in run.stdout
        assert len(run.stdout.splitlines()) == 1


def test_a_file_name_that_is_not_utf8_is_read_and_named_readably(tmp_path):
    """A name made on a Latin-1 system ("caf\\xe9.md" in bytes) was an 'unexpected' DuckDB
    error: the file is read, and its id and path show the byte as U+FFFD."""
    folder = tmp_path / "notes"
    folder.mkdir()
    name = os.fsdecode(b"caf\xe9.md")  # a surrogate stands for the byte, as Python lists it
    (folder / name).write_text(GOOD)
    db = tmp_path / "x.duckdb"
    for status in ("1 entry", "unchanged"):
        run = logbook_cli("ingest", folder, "--db", db, "--no-label", timeout=60)
        assert run.returncode == 0, run.stderr
        assert run.stdout.startswith(f"caf\ufffd: {status}")
    assert entry_counts(db) == {"caf\ufffd": 1}
