"""Ingest: files -> read -> segment -> classify -> store, one logbook per transaction.

The CLI's `logbook ingest` is this module's `ingest()`; everything it prints
comes from the IngestResult objects returned here.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .models import Document, Entry, LabelledEntry, Line
from .read import SUPPORTED_SUFFIXES, ReadError, read
from .segment import segment
from .store import LogbookRecord, connect, default_db, save_logbook, stored_sha256

Classify = Callable[[Sequence[Entry]], list[LabelledEntry]]


@dataclass(slots=True)
class IngestResult:
    """What happened to one logbook: ingested, unchanged, or an error with its reason."""

    logbook: str
    path: str
    status: str  # "ingested" | "unchanged" | "error"
    entries: int = 0
    dated: int = 0
    pages: int | None = None
    seconds: float = 0.0
    error: str | None = None

    def summary(self) -> str:
        if self.status == "error":
            return f"error: {self.path}: {self.error}"
        if self.status == "unchanged":
            return f"{self.logbook}: unchanged ({self.path}), nothing to do"
        pages = f", {self.pages} pages" if self.pages else ""
        return (f"{self.logbook}: {self.entries} entries, {self.dated} dated{pages}, "
                f"{self.seconds:.2f}s ({self.path})")


@dataclass(slots=True)
class Source:
    """One logbook to ingest: a file, or several files merged in name order."""

    logbook: str
    paths: list[Path]

    @property
    def label(self) -> str:
        return str(self.paths[0].parent) if len(self.paths) > 1 else str(self.paths[0])

    def sha256(self) -> str:
        digest = hashlib.sha256()
        for path in self.paths:
            if len(self.paths) > 1:
                digest.update(path.name.encode() + b"\0")
            with path.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
        return digest.hexdigest()


def find_sources(paths: Iterable[str | Path], name: str | None = None,
                 as_one: str | None = None) -> list[Source]:
    """Expand directories to their supported files; `as_one` merges them into one logbook."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.iterdir()
                            if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES)
        else:
            files.append(path)
    if as_one:
        return [Source(as_one, files)] if files else []
    if name and len(files) > 1:
        raise ValueError("--name names one logbook; use --as-one NAME to merge several files")
    return [Source(name or f.stem, [f]) for f in files]


def ingest(paths: Iterable[str | Path], db: str | Path | None = None, name: str | None = None,
           timezone: str | None = None, as_one: str | None = None,
           classify: Classify | None = None, force: bool = False,
           progress: Callable[[Iterator], Iterator] | None = None) -> list[IngestResult]:
    """Ingest files into the store; an unchanged file (same SHA-256) is skipped.

    `classify` labels the entries (default: the taxonomy classifier); errors
    are returned as results, never raised, so one bad file never stops a batch.
    """
    sources = find_sources(paths, name, as_one)
    if classify is None:
        classify = _default_classifier()
    results = []
    with connect(db or default_db()) as con:
        iterator = progress(iter(sources)) if progress else iter(sources)
        for source in iterator:
            results.append(_ingest_one(con, source, timezone, classify, force))
    return results


def _ingest_one(con, source: Source, timezone: str | None, classify: Classify,
                force: bool) -> IngestResult:
    started = time.perf_counter()
    result = IngestResult(source.logbook, source.label, "error")
    try:
        sha = source.sha256()
        if not force and stored_sha256(con, source.logbook) == sha:
            result.status = "unchanged"
            return result
        doc = _read_all(source)
        entries = segment(doc, default_timezone=timezone)
        labelled = classify(entries)
        record = LogbookRecord(id=source.logbook, path=source.label, sha256=sha,
                               format=doc.format, pages=doc.pages, title=doc.title)
        save_logbook(con, record, labelled)
    except ReadError as exc:
        result.error = str(exc)
        return result
    except OSError as exc:
        result.error = exc.strerror or str(exc)
        return result
    result.status, result.pages = "ingested", doc.pages
    result.entries, result.dated = len(entries), sum(e.date is not None for e in entries)
    result.seconds = time.perf_counter() - started
    return result


def _read_all(source: Source) -> Document:
    """One document; merged sources concatenate their lines in file-name order."""
    docs = []
    for path in source.paths:
        try:
            docs.append(read(path))
        except ReadError as exc:
            raise ReadError(f"{path.name}: {exc}" if len(source.paths) > 1 else str(exc)) from None
    if len(docs) == 1:
        return docs[0]
    pages = sum(d.pages or 0 for d in docs) or None
    fmt = docs[0].format if len({d.format for d in docs}) == 1 else "mixed"
    lines = [line for d in docs for line in (*d.lines, Line(""))]  # files never run together
    return Document(path=source.paths[0].parent, format=fmt, pages=pages, title=source.logbook,
                    lines=lines)


def _default_classifier() -> Classify:
    from .label import Classifier  # spaCy loads only when something is to be labelled

    return Classifier().classify
