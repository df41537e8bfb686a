"""Several files read as one logbook: a folder of daily notes, in date order, each once.

Teams keep daily reports as one file a day (`2022-06-12.md`, or a title
`Log (June, 12)` with a `Time: June, 12 2022` line). File names do not
always sort by date (`2022-11-2.md` sorts before `2022-11-20.md`), and a
folder may hold a stray copy of another day's note. So:
- files are ordered by the date in their name, or else by the first dated
  line near their top, when every file has one; otherwise by name;
- a file whose text repeats another's is read once: the copy kept is the one
  whose name agrees with the date it holds, and the other is reported;
- a note whose first lines hold no date is dated by its name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from ..models import Document, Line
from ..segment import dates
from .errors import ReadError

_TOP_LINES = 6  # a note's own date stands in its title or preamble


@dataclass(slots=True)
class Merged:
    """The joined document, and what the merge skipped and why (one line each)."""

    document: Document
    notes: list[str]


def read_merged(paths: Sequence[Path], name: str, read: Callable[[Path], Document]) -> Merged:
    """Read every file with `read` and join them into one Document, oldest note first."""
    docs, bad = [], []
    for path in paths:
        try:
            docs.append(read(path))
        except ReadError as exc:
            bad.append(f"{path.name}: {exc}")
    if bad:  # every bad file at once, so one fix-and-rerun mends them all
        raise ReadError("; ".join(bad))
    docs, notes = _drop_repeats(docs)
    docs = _in_date_order(docs)
    pages = sum(d.pages or 0 for d in docs) or None
    fmt = docs[0].format if len({d.format for d in docs}) == 1 else "mixed"
    lines = [line for d in docs for line in (*_dated(d), Line(""))]  # files never run together
    return Merged(Document(path=paths[0].parent, format=fmt, pages=pages, title=name,
                           lines=lines), notes)


def _dated(doc: Document) -> list[Line]:
    """The note's lines, its date (from its name) written before its title if its text holds
    none (`2023-03-04.md` titled `Notes`: `2023-03-04 Notes`), or over its text if it has no
    title: the name is the note's date."""
    named = _name_date(doc)
    if named is None or _text_date(doc) is not None:
        return doc.lines
    first = next((i for i, line in enumerate(doc.lines) if line.text.strip()), 0)
    title = doc.lines[first] if doc.lines else None
    if title is not None and title.level is not None:
        dated = replace(title, text=f"{named.isoformat()} {title.text.strip()}")
        return [*doc.lines[:first], dated, *doc.lines[first + 1:]]
    return [Line(named.isoformat(), level=1), *doc.lines]


def _drop_repeats(docs: list[Document]) -> tuple[list[Document], list[str]]:
    """One document per distinct text; the copy whose name matches its date wins."""
    texts = [_text(doc) for doc in docs]
    by_text: dict[str, list[Document]] = {}
    for doc, text in zip(docs, texts, strict=True):
        by_text.setdefault(text, []).append(doc)
    kept, notes = [], []
    for doc, text in zip(docs, texts, strict=True):
        copies = by_text[text]
        best = next((d for d in copies if _name_date(d) == _text_date(d)), copies[0])
        if doc is best:
            kept.append(doc)
        else:
            notes.append(f"skipped {doc.path.name}: same text as {best.path.name}")
    return kept, notes


def _in_date_order(docs: list[Document]) -> list[Document]:
    keys = [_name_date(d) or _text_date(d) for d in docs]
    if any(k is None for k in keys):
        return docs
    order = sorted(range(len(docs)), key=lambda i: keys[i])  # stable: same day keeps name order
    return [docs[i] for i in order]


def _text(doc: Document) -> str:
    return "\n".join(line.text.strip() for line in doc.lines if line.text.strip())


def _name_date(doc: Document) -> date | None:
    found = dates.find_dates(doc.path.stem)
    return found[0].value if found else None


def _text_date(doc: Document) -> date | None:
    """The first date with a year in the note's first lines."""
    top = [line.text for line in doc.lines if line.text.strip()][:_TOP_LINES]
    for text in top:
        for found in dates.find_dates(text):
            if found.value is not None:
                return found.value
    return None
