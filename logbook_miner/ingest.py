"""Ingest: files -> read -> segment -> classify -> store, one logbook per transaction.

The CLI's `logbook ingest` is this module's `ingest()`; everything it prints
comes from the IngestResult objects returned here.
"""

from __future__ import annotations

import ctypes
import hashlib
import multiprocessing
import os
import pickle
import re
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Protocol

from .errors import ArgumentError
from .label import default_classify
from .models import Classify, Entry, LabelledEntry
from .present.cli_output import counted, listed
from .read import (
    DEFAULT_PDF_BACKEND,
    SUPPORTED_SUFFIXES,
    OnPage,
    ReadError,
    pdf_pages,
    read,
    regular_file,
)
from .read.duplicates import ANOTHER_LOGBOOK, Renderings, fingerprint, overlap
from .read.folder import read_merged
from .segment import dates
from .segment.entries import segment
from .store import (
    LogbookRecord,
    StoreError,
    StoreLocked,
    Writer,
    default_db,
    label_count,
    load_entries,
    save_logbook,
    stored_path,
    stored_source,
)

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
# Starting a worker (a Python with spaCy and the classifier) costs about a second, so a pool
# pays only for more work than this, estimated from PDF pages and text bytes.
_POOL_MIN_SECONDS = 3.0
_PDF_PAGES_PER_SECOND = 70.0
_TEXT_BYTES_PER_SECOND = 250_000.0
# Opening the store again costs about 70 ms: it is let go only for waits longer than this.
_LONG_WAIT_SECONDS = 1.0
STORE_PATIENCE = 30.0  # seconds an ingest waits for readers to let go of the store after a parse


@dataclass(slots=True)
class IngestResult:
    """What happened to one logbook: ingested, unchanged, or an error with its reason."""

    logbook: str
    path: str
    status: str  # "ingested" | "unchanged" | "duplicate" | "skipped" | "error"
    entries: int = 0
    dated: int = 0
    pages: int | None = None
    seconds: float = 0.0
    error: str | None = None
    notes: list[str] = field(default_factory=list)  # files of a merged folder left out, and why
    same_as: tuple[str, float] | None = None  # a duplicate's kept rendering and their likeness

    def summary(self) -> str:
        """One line, whatever the file name or the error message holds."""
        if self.status == "error":
            return _one_line(f"error: {self.path}: {self.error}")
        if self.status == "skipped":
            return _one_line("; ".join(self.notes))
        if self.status == "duplicate" and self.same_as:
            other, score = self.same_as
            return _one_line(f"warning: {self.path}: same logbook as {other} ({score:.0%} of "
                             "the text alike), not ingested; ingest it on its own with --name "
                             "to keep it too")
        notes = "".join(f"; {note}" for note in self.notes)
        if self.status == "unchanged":
            return _one_line(f"{self.logbook}: unchanged ({self.path}), nothing to do{notes}")
        pages = f", {counted(self.pages, 'page')}" if self.pages else ""
        return _one_line(f"{self.logbook}: {counted(self.entries, 'entry', 'entries')}, "
                         f"{self.dated} dated{pages}, {self.seconds:.2f}s ({self.path}){notes}")


@dataclass(slots=True)
class Source:
    """One logbook to ingest: a file, or several files merged in date order."""

    logbook: str
    paths: list[Path]
    in_folder: bool = False  # found by listing a folder, not named by the user

    @property
    def label(self) -> str:
        return readable(str(self.paths[0].parent if len(self.paths) > 1 else self.paths[0]))

    def sha256(self) -> str:
        digest = hashlib.sha256()
        for path in self.paths:
            regular_file(path)
            if len(self.paths) > 1:
                digest.update(os.fsencode(path.name) + b"\0")
            with path.open("rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    digest.update(block)
        return digest.hexdigest()


def find_sources(paths: Iterable[str | Path], name: str | None = None,
                 as_one: str | None = None, follow_links: bool = False,
                 skipped: list[str] | None = None) -> list[Source]:
    """Expand directories to their supported files; `as_one` merges them into one logbook.

    A link inside a directory that points outside it is left out (and named in
    `skipped`) unless `follow_links`: a folder of notes is not a way to /etc/passwd.
    A folder's other files (not hidden ones) are named in `skipped` too, one line a folder,
    so that notes kept as images or spreadsheets are not left out without a word.
    """
    for argument, given in (("name", name), ("as_one", as_one)):
        if given is not None and not given.strip():
            raise ArgumentError(f"`{argument}` is empty; give a logbook id, or leave it out")
    files: list[tuple[Path, bool]] = []  # (file, found in a folder)
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            inside = path.resolve()
            others: list[str] = []
            folders: list[str] = []
            for p in sorted(path.iterdir()):
                if p.suffix.lower() not in SUPPORTED_SUFFIXES or not p.is_file():
                    if p.name.startswith("."):
                        continue
                    if p.is_dir():
                        folders.append(p.name)
                    elif p.is_file():
                        others.append(p.name)
                    continue
                if not follow_links and not p.resolve().is_relative_to(inside):
                    if skipped is not None:
                        skipped.append(f"skipped {p}: it links to {p.resolve()}, "
                                       f"outside {path}")
                    continue
                files.append((p, True))
            if others and skipped is not None:
                skipped.append(_not_logbooks(path, others))
            if folders and skipped is not None:
                skipped.append(f"skipped {counted(len(folders), 'folder')} inside {path}: "
                               f"{listed([f + '/' for f in folders])} (a folder's own files are "
                               "read, not its subfolders': name those too)")
        else:
            files.append((path, False))
    if as_one:
        return [Source(as_one, [f for f, _ in files])] if files else []
    if name and len(files) > 1:
        raise ArgumentError("`name` names one logbook; use `as_one` NAME to merge several files")
    return [Source(name or readable(f.stem), [f], in_folder) for f, in_folder in files]


def readable(name: str) -> str:
    """A file name as text the store and a terminal take: bytes that are not UTF-8 (a name
    made on a Latin-1 system, "caf\\xe9.md") become U+FFFD; the file itself is still read."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _unlabelled(logbook: str) -> str:
    return f"it has no labels: `logbook classify --logbook {logbook}` labels it"


def _not_logbooks(folder: Path, names: list[str]) -> str:
    return (f"skipped {counted(len(names), 'file')} of {folder} that no reader takes: "
            f"{listed(names)} (logbooks are {' '.join(SUPPORTED_SUFFIXES)})")


class Progress(Protocol):
    """What an ingest reports as it goes, for a progress bar.

    Files come back from worker processes whole, so a batch reports files done;
    pages are reported only for a PDF read in this process (one long PDF, the
    case where a user waits longest with nothing to see).
    """

    def start(self, files: int) -> None: ...

    def page(self, read: int, total: int) -> None: ...

    def file_done(self, result: IngestResult) -> None:
        """One file's work (parse and store) is done; `result` is final: stored, unchanged,
        a duplicate or an error. (Before `start`: a note on a folder's files that no reader
        takes, status "skipped".)"""


@dataclass(slots=True)
class Parsed:
    """A parsed logbook as a worker hands it back: what the store needs, and its time."""

    format: str
    pages: int | None
    title: str | None
    entries: list[LabelledEntry]
    seconds: float
    notes: list[str]


@dataclass(frozen=True, slots=True)
class DateReading:
    """How to read a logbook's dates: the zone of times written without one, and whether
    04/03/2024 is 4 March (None: as the logbook's own dates say, `dates.reads_dayfirst`)."""

    timezone: str | None = None
    dayfirst: bool | None = None

    def described(self) -> str:
        """The options as `ingest` takes them ("--timezone UTC --dates day-first"; "" for
        none), stored with the logbook: read again another way, a file is parsed again."""
        words = [*(["--timezone", self.timezone] if self.timezone else []),
                 *(["--dates", "day-first" if self.dayfirst else "month-first"]
                   if self.dayfirst is not None else [])]
        return " ".join(words)

    @classmethod
    def from_described(cls, text: str) -> DateReading:
        words = text.split()
        given = dict(zip(words[::2], words[1::2], strict=True))  # --flag value pairs
        order = given.get("--dates")
        return cls(given.get("--timezone"), None if order is None else order == "day-first")

    def over(self, stored: DateReading) -> DateReading:
        """The options given win; one not given stays as the logbook was read (a folder
        ingested again without them keeps each logbook's zone)."""
        return DateReading(self.timezone or stored.timezone,
                           stored.dayfirst if self.dayfirst is None else self.dayfirst)


def ingest(paths: Iterable[str | Path], db: str | Path | None = None, name: str | None = None,
           timezone: str | None = None, as_one: str | None = None,
           classify: Classify | None = None, force: bool = False,
           progress: Progress | None = None,
           workers: int | None = None, pdf_backend: str = DEFAULT_PDF_BACKEND,
           follow_links: bool = False, dayfirst: bool | None = None) -> list[IngestResult]:
    """Ingest files into the store; an unchanged file (same SHA-256) is skipped.

    `classify` labels the entries (default: the taxonomy classifier, built only
    if a file changed). Files are parsed (read, segment, classify) by `workers`
    processes (default: one per core) and stored here, by the one DuckDB writer,
    one transaction per logbook, in input order; the writer lets go of the store
    while it waits for a parse, so other processes can query it meanwhile. A file
    found in a folder whose text repeats a logbook the batch keeps (another
    rendering of it: x.md and x.docx) is not stored, unless `force`; files named
    one by one always are.
    Errors are returned as results, never raised, so one bad file never stops
    a batch.
    """
    if timezone and dates.zone_info(timezone) is None:
        raise ArgumentError(f"`timezone` {timezone!r}: unknown time zone (try ET or Europe/Paris)")
    skipped: list[str] = []
    sources = find_sources(paths, name, as_one, follow_links, skipped)
    results = [IngestResult("", "", "skipped", notes=[note]) for note in skipped]
    for result in results if progress else ():
        progress.file_done(result)
    given = DateReading(timezone, dayfirst)
    with Writer(db or default_db(), STORE_PATIENCE) as writer:
        shas: list[str | None] = []
        readings: list[DateReading] = []  # per source: given options over the stored ones
        for source in sources:
            sha, error = _attempt(source.sha256)
            stored_sha, read_as = stored_source(writer.con, source.logbook) or (None, None)
            reading = given if read_as is None else given.over(DateReading.from_described(read_as))
            # (a store made before options were kept knows no reading: only one given counts)
            same_reading = (reading.described() == read_as if read_as is not None
                            else given == DateReading())
            unchanged = not force and sha is not None and sha == stored_sha and same_reading
            shas.append(None if unchanged or error else sha)
            readings.append(reading)
            results.append(IngestResult(source.logbook, source.label,
                                        "unchanged" if unchanged else "error", error=error))
            if sha == stored_sha and not same_reading and not force:
                results[-1].notes.append(_read_again(read_as, reading.described()))
        ingested = results[len(skipped):]
        todo = [(s, r) for s, r, sha in zip(sources, readings, shas, strict=True) if sha]
        kept = Renderings()  # what this batch keeps, to tell a second rendering of it
        named = {}  # logbook -> the file of this batch that is it, so no other replaces it
        for source, result in zip(sources, ingested, strict=True):
            if result.status == "unchanged":
                named[source.logbook] = source.label
                if not label_count(writer.con, source.logbook):
                    result.notes.append(_unlabelled(source.logbook))
                if todo:
                    kept.add(source.label, fingerprint(load_entries(writer.con, source.logbook)))
        # closed when the last file is taken: left to the garbage collector, the worker pool may
        # outlive it until interpreter exit, where Python 3.11's own exit hook races the pool's
        # manager thread ("OSError: [Errno 9] Bad file descriptor")
        with closing(_parse_all(todo, classify, pdf_backend, workers or _cores(),
                                progress.page if progress else None, writer.release)) as parsed:
            work = _with_progress(zip(sources, shas, ingested, strict=True), len(sources),
                                  progress)
            busy: str | None = None  # once the store stays busy, no later file waits for it
            for (source, sha, result), reading in zip(work, readings, strict=True):
                if not sha:
                    continue
                parsed_one, error = next(parsed)
                shingles = None if force or parsed_one is None else fingerprint(
                    le.entry for le in parsed_one.entries)
                result.same_as = kept.same_as(shingles) if shingles and source.in_folder else None
                if result.same_as:
                    result.status = "duplicate"
                    continue
                if source.logbook in named:
                    result.error = (f"another file of this batch is logbook `{source.logbook}` "
                                    f"({named[source.logbook]}); ingest this one on its own "
                                    "with --name")
                    continue
                if busy is None:
                    try:  # the store, taken back after the parse
                        before = stored_path(writer.con, source.logbook)
                    except StoreLocked as exc:  # a reader kept it past the writer's patience
                        busy = f"parsed, not stored: {exc}"
                if busy:
                    result.error = busy
                    continue
                if before not in (None, source.label) and shingles is not None:
                    stored = fingerprint(load_entries(writer.con, source.logbook))
                    shared = overlap(shingles, stored)
                    if shared < ANOTHER_LOGBOOK:  # a slip of the path, not the file moved
                        result.error = (f"logbook `{source.logbook}` is stored from {before}, "
                                        f"which shares {shared:.0%} of its text with this file; "
                                        "not replaced: --name gives it its own, --force "
                                        "replaces it")
                        continue
                _store(writer.con, source, sha, reading, parsed_one, error, result)
                if result.status == "ingested":
                    named[source.logbook] = source.label
                    if before not in (None, source.label):
                        result.notes.append(f"replaced `{source.logbook}` read from {before}")
                    if classify is no_labels and result.entries:  # its old labels are gone too
                        result.notes.append(_unlabelled(source.logbook))
                if shingles and result.status == "ingested":
                    kept.add(source.label, shingles)
    return results


def _with_progress(work: Iterable[tuple[Source, str | None, IngestResult]], files: int,
                   progress: Progress | None) -> Iterator[tuple[Source, str | None, IngestResult]]:
    """The work, telling `progress` of each file's result once it is final."""
    if progress:
        progress.start(files)
    for source, sha, result in work:
        yield source, sha, result
        if progress:
            progress.file_done(result)


def parse(source: Source, reading: DateReading, classify: Classify,
          pdf_backend: str = DEFAULT_PDF_BACKEND, on_page: OnPage | None = None) -> Parsed:
    """Read, segment and classify one logbook; touches no database, so it can run anywhere."""
    started = time.perf_counter()
    notes: list[str] = []
    if len(source.paths) == 1:
        doc = read(source.paths[0], pdf_backend, on_page)
    else:
        merged = read_merged(source.paths, source.logbook,
                             partial(read, pdf_backend=pdf_backend, on_page=on_page))
        doc, notes = merged.document, merged.notes
    labelled = classify(segment(doc, default_timezone=reading.timezone,
                                dayfirst=reading.dayfirst))
    return Parsed(doc.format, doc.pages, doc.title, labelled, time.perf_counter() - started,
                  notes)


def _read_again(before: str | None, now: str) -> str:
    """The note on an unchanged file parsed again because its dates are read another way."""
    was = ("stored before its date options were kept" if before is None
           else f"stored as read with {before or 'no date options'}")
    return f"read again: {was}, now with {now or 'no date options'}"


def _store(con, source: Source, sha: str, reading: DateReading, parsed: Parsed | None,
           error: str | None, result: IngestResult) -> None:
    if parsed is not None:
        started = time.perf_counter()
        record = LogbookRecord(id=source.logbook, path=source.label, sha256=sha,
                               format=parsed.format, pages=parsed.pages, title=parsed.title,
                               reading=reading.described())
        _, error = _attempt(save_logbook, con, record, parsed.entries)
        result.seconds = parsed.seconds + time.perf_counter() - started
    if error is not None:
        result.error = error
        return
    entries = [le.entry for le in parsed.entries]
    result.status, result.pages = "ingested", parsed.pages
    result.notes += parsed.notes
    result.entries, result.dated = len(entries), sum(e.date is not None for e in entries)


def _attempt(fn: Callable, *args) -> tuple:
    """(fn(*args), None), or (None, the one-line reason) for what a file can do wrong."""
    try:
        return fn(*args), None
    except ReadError as exc:
        return None, str(exc)
    except StoreError:  # the database, not this file: no other file can be stored either
        raise
    except OSError as exc:
        return None, exc.strerror or str(exc)
    except Exception as exc:  # a bug or a library's surprise: name it, and go on with the batch
        return None, f"unexpected {type(exc).__name__}: {str(exc)[:200]}"


def _parse_all(todo: list[tuple[Source, DateReading]], classify: Classify | None,
               pdf_backend: str, workers: int, on_page: OnPage | None,
               on_wait: Callable[[], None]) -> Iterator[tuple[Parsed | None, str | None]]:
    """(Parsed, error) per source, in order: in worker processes when there is enough to do.

    `on_wait` is called when a wait is long: before a parse or a classifier's build
    estimated at a second or more, or after a second spent waiting for a worker's file;
    the store's writer lets go of the database then.
    """
    if not todo:
        return
    sources = [source for source, _ in todo]
    if (workers < 2 or len(sources) < 2 or not _picklable(classify)
            or estimated_seconds(sources) < _POOL_MIN_SECONDS):
        if classify is None:
            on_wait()  # (spaCy loads)
            classify = default_classify()
        for source, reading in todo:
            if estimated_seconds([source]) >= _LONG_WAIT_SECONDS:
                on_wait()
            yield _attempt(parse, source, reading, classify, pdf_backend, on_page)
        return
    # spawn: workers never inherit the open DuckDB connection or its threads, and are
    # children of this process, so they can die with it (see _start_worker).
    context = multiprocessing.get_context("spawn")
    done = 0
    with ProcessPoolExecutor(min(workers, len(sources)), mp_context=context,
                             initializer=_start_worker, initargs=(classify, os.getpid())) as pool:
        # futures of our own, not pool.map's, which cancels them when stopped: Python 3.11's
        # pool then fails to mark a cancelled one broken, and prints that from its thread
        futures = [pool.submit(_parse_in_worker, source, reading, pdf_backend)
                   for source, reading in todo]
        futures.reverse()  # popped from the end in input order: a stored logbook is let go
        try:
            while futures:
                future = futures.pop()
                try:
                    outcome = future.result(timeout=_LONG_WAIT_SECONDS)
                except TimeoutError:
                    on_wait()
                    outcome = future.result()
                yield outcome
                done += 1
        except BrokenProcessPool as exc:  # a worker died (out of memory, killed)
            for _ in sources[done:]:
                yield None, f"worker process died ({exc})"
        except (KeyboardInterrupt, GeneratorExit):  # stop now: what is stored stays stored
            _stop_now(pool)
            raise


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """Kill the workers (what has not started fails with them): a worker would otherwise finish its
    file (seconds, or minutes for a large PDF) before the ingest can exit, or block for good
    writing a result that nobody reads any more. What they held was never stored."""
    workers = list((pool._processes or {}).values())  # (no public handle on them)
    pool.shutdown(wait=False)
    for worker in workers:
        worker.kill()
    for worker in workers:
        worker.join(timeout=5)  # (SIGKILL: a moment, so the ingest leaves none behind)


_worker_classify: Classify | None = None


def _start_worker(classify: Classify | None, parent: int) -> None:
    """Build the classifier once per worker process, not once per file.

    A worker dies with the ingest (kill -9) and leaves Ctrl-C to it: the parent
    decides what to keep, so workers never print their own tracebacks.
    """
    global _worker_classify
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the signal was armed
            os._exit(1)
    _worker_classify = classify or default_classify()


def _parse_in_worker(source: Source, reading: DateReading,
                     pdf_backend: str) -> tuple[Parsed | None, str | None]:
    return _attempt(parse, source, reading, _worker_classify, pdf_backend)


def estimated_seconds(sources: Sequence[Source]) -> float:
    """A rough single-process parse time: PDFs by their page count, other files by size."""
    total = 0.0
    for path in (p for source in sources for p in source.paths if p.is_file()):
        pages = pdf_pages(path)
        total += (pages / _PDF_PAGES_PER_SECOND if pages is not None
                  else path.stat().st_size / _TEXT_BYTES_PER_SECOND)
    return total


def _picklable(classify: Classify | None) -> bool:
    try:
        pickle.dumps(classify)
    except Exception:  # a lambda or a bound method of an unpicklable object: stay in-process
        return False
    return True


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _one_line(text: str) -> str:
    """Newlines and control characters (from a file name or a library's message) -> spaces."""
    return _CONTROL.sub(" ", text).strip()


def no_labels(entries: Sequence[Entry]) -> list[LabelledEntry]:
    """A classifier that finds nothing: store entries now, label them later."""
    return [LabelledEntry(entry) for entry in entries]
