"""Render notes as a PDF like a browser print of a Google-Docs team logbook.

A title, a table of contents listing every entry heading, then the entries
newest first: bold larger headings such as `2021-11-24 1:00pm ET [Lena]: Run
12.17`, prose, monospace log excerpts, and a browser header and footer on every
page. Lines are laid out here (word widths from the core-font tables, one
`text()` call per line) rather than by fpdf2's flowing text, which keeps
10,000 pages fast.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
from fpdf import FPDF

from logbook_miner.generate.compose import Doc, Note, truth_row
from logbook_miner.generate.run import iso

ZONES = {"ET": ZoneInfo("America/New_York"), "PT": ZoneInfo("America/Los_Angeles")}
HOME = "ET"  # the zone of a heading that names none
TYPO_RATE = 0.015  # share of headings with a mistyped date (a chronology anomaly)
PAGE_W, PAGE_H, MARGIN, TOP = 612.0, 792.0, 54.0, 60.0
WIDTH, USABLE = PAGE_W - 2 * MARGIN, PAGE_H - 2 * TOP
FILL = 1.03  # pages are not filled to the last point: lines and headings that don't fit move on
STYLES = {  # font, emphasis, size, leading, indent, gap before a block
    "title": ("helvetica", "B", 20.0, 26.0, 0.0, 0.0),
    "toc": ("helvetica", "", 10.0, 13.0, 12.0, 2.0),
    "head": ("helvetica", "B", 13.0, 17.0, 0.0, 16.0),
    "body": ("helvetica", "", 10.5, 14.0, 0.0, 6.0),
    "code": ("courier", "", 8.5, 10.5, 10.0, 6.0),
}
Line = tuple[str, str, float]  # style, text, gap before it


@cache
def _widths(font: str, emphasis: str) -> dict[str, int]:
    pdf = FPDF()
    pdf.set_font(font, emphasis)
    return pdf.current_font.cw


def wrap(text: str, style: str) -> list[str]:
    """Break text into lines that fit the column, as a browser would."""
    font, emphasis, size, _, indent, _ = STYLES[style]
    room = (WIDTH - indent) * 1000 / size
    if font == "courier":
        step = int(room / 600)
        return [
            raw[i : i + step] for raw in text.split("\n") for i in range(0, max(len(raw), 1), step)
        ]
    cw = _widths(font, emphasis)
    lines, line, used, space = [], [], 0.0, cw[" "]
    for word in text.split():
        w = sum(cw.get(ch, 600) for ch in word)
        if line and used + space + w > room:
            lines.append(" ".join(line))
            line, used = [], 0.0
        used += (space if line else 0.0) + w
        line.append(word)
    return [*lines, " ".join(line)]


def block_lines(text: str, style: str) -> list[Line]:
    gap = STYLES[style][5]
    return [(style, t, gap if i == 0 else 0.0) for i, t in enumerate(wrap(text, style))]


def body(note: Note) -> list[Line]:
    """The laid-out body of a note, computed once and kept on the note."""
    if "opt" not in note.cache:
        note.cache["opt"] = [
            ln for b in note.blocks for ln in block_lines(b.text, "code" if b.code else "body")
        ]
    return note.cache["opt"]


def measure(day_notes: list[Note]) -> float:
    """Pages these notes add (body, heading and TOC line), before pagination."""
    lines = [ln for n in day_notes for ln in body(n)]
    height = sum(STYLES[s][3] + gap for s, _, gap in lines)
    per_note = STYLES["head"][3] + STYLES["head"][5] + STYLES["toc"][3] + STYLES["toc"][5]
    return (height + len(day_notes) * per_note) / USABLE * FILL


def paginate(lines: list[Line]) -> list[list[tuple[str, str, float]]]:
    """Place lines on pages (baselines); a heading keeps two lines below it."""
    pages: list[list[tuple[str, str, float]]] = [[]]
    y = TOP
    for style, text, gap in lines:
        lead = STYLES[style][3]
        need = gap + lead + (2 * STYLES["body"][3] if style == "head" and gap else 0.0)
        if pages[-1] and y + need > PAGE_H - TOP:
            pages.append([])
            y, gap = TOP, 0.0
        y += (gap if pages[-1] else 0.0) + lead
        pages[-1].append((style, text, y))
    return pages


def typo_shift(days: list[date], i: int, rng: np.random.Generator) -> int | None:
    """Days by which heading i's written date is mistyped (a day either way, or the month).

    A typo is planted only where its neighbours expose it: the mistyped day must pass
    the days (in the logbook's home zone) of at least two headings on one side, so
    that no other single entry could be the one out of place (a typo that passes one
    neighbour is ambiguous even to a reader). None where no slip would be exposed.
    """
    day = days[i]
    month_back = (day.replace(year=day.year - 1) if day.month == 1
                  else day.replace(month=day.month - 1, day=min(day.day, 28))) - day
    exposed = [
        shift for shift in (1, -1, month_back.days)
        if (i >= 2 and day + timedelta(days=shift) > days[i - 2])
        or (i + 2 < len(days) and day + timedelta(days=shift) < days[i + 2])
    ]
    return int(rng.choice(exposed)) if exposed else None


def heading(note: Note, rng: np.random.Generator) -> dict[str, Any]:
    """The heading as someone typed it: varied time forms, zone and author optional."""
    r = rng.random(3)
    tz = "ET" if r[0] < 0.55 else "PT" if r[0] < 0.8 else None
    local = note.ts.astimezone(ZONES[tz or HOME]).replace(second=0, microsecond=0)
    form = int(r[1] * 4)
    if form == 1:  # "3pm": the hour it was, roughly
        local = (local + timedelta(minutes=30)).replace(minute=0)
    h, m, ampm = local.hour, local.minute, "am" if local.hour < 12 else "pm"
    time = (
        f"{h % 12 or 12}:{m:02d}{ampm}",
        f"{h % 12 or 12}{ampm}",
        f"{h}:{m:02d}",
        f"{h % 12 or 12}:{m:02d} {ampm.upper()}",
    )[form]
    author = note.author if r[2] < 0.8 else None
    zone, who = f" {tz}" if tz else "", f" [{author}]" if author else ""
    text = f"{local.date().isoformat()} {time}{zone}{who}: Run {note.run_id}"
    return {
        "heading": text + (f" {note.title}" if note.title else ""),
        "date": local.date().isoformat(),
        "time": time,
        "timezone": tz,
        "ts_utc": iso(local.astimezone(UTC)),
        "author": author,
        "run_id": note.run_id,
        "chronology_anomaly": False,
    }


def mistype(head: dict[str, Any], days: int) -> dict[str, Any]:
    """The heading with its date written `days` off: a chronology anomaly, as typed."""
    written, typed = head["date"], (date.fromisoformat(head["date"]) + timedelta(days)).isoformat()
    local = datetime.fromisoformat(head["ts_utc"]).astimezone(ZONES[head["timezone"] or HOME])
    ts = datetime.combine(local.date() + timedelta(days), local.timetz()).astimezone(UTC)
    return head | {"heading": head["heading"].replace(written, typed, 1), "date": typed,
                   "ts_utc": iso(ts), "chronology_anomaly": True}


class _Browser(FPDF):
    """fpdf2 with the header and footer a browser prints on every page."""

    def __init__(self, name: str, stamp: str, total: int) -> None:
        super().__init__(unit="pt", format="letter")
        self.name, self.stamp, self.total = name, stamp, total
        self.set_auto_page_break(False)
        self.alias_nb_pages(None)  # the page count is known: layout is done before drawing

    def header(self) -> None:
        self.set_font("helvetica", "", 8)
        self.set_text_color(0)
        self.text(18, 20, self.stamp)
        self.text(PAGE_W / 2 - 40, 20, self.name)

    def footer(self) -> None:
        self.set_font("helvetica", "", 8)
        self.set_text_color(0)
        self.text(18, PAGE_H - 14, f"file:///tmp/{self.name}.html")
        self.text(PAGE_W - 50, PAGE_H - 14, f"{self.page_no()}/{self.total}")


def render(out: Path, doc: Doc) -> tuple[Path, list[dict[str, Any]], int]:
    """Write NAME.pdf; return its path, the truth rows in document order and the page count."""
    rng = np.random.default_rng([doc.seed, 2])
    name, title = doc.name, doc.title
    newest = sorted(doc.notes, key=lambda n: n.ts, reverse=True)
    typos = rng.random(len(newest)) < TYPO_RATE
    heads = [heading(n, rng) for n in newest]
    days = [datetime.fromisoformat(h["ts_utc"]).astimezone(ZONES[HOME]).date() for h in heads]
    slips = np.random.default_rng([doc.seed, 3])  # its own stream: typos leave the rest as it was
    last = -3
    for i in np.flatnonzero(typos[1:-1]) + 1:
        shift = typo_shift(days, i, slips) if i - last > 2 else None  # two near typos: ambiguous
        if shift is not None:
            heads[i], last = mistype(heads[i], shift), i
    rows = [truth_row(name, 1, title, None, set(), set())]
    rows += [
        truth_row(
            name,
            i,
            h.pop("heading"),
            h.pop("date"),
            n.faults,
            n.interventions,
            **h,
            events=n.events,
        )
        for i, (n, h) in enumerate(zip(newest, heads, strict=True), start=2)
    ]
    lines = block_lines(title, "title") + block_lines(doc.intro, "body")
    lines += [ln for r in rows[1:] for ln in block_lines(r["heading"], "toc")]
    for note, row in zip(newest, rows[1:], strict=True):
        lines += block_lines(row["heading"], "head") + body(note)
    pages = paginate(lines)
    last = newest[0].ts if newest else datetime(2022, 1, 1, tzinfo=ZONES[HOME])
    printed = (
        last + timedelta(days=int(rng.integers(30, 400)), minutes=int(rng.integers(1440)))
    ).astimezone(ZONES[HOME])
    stamp = f"{printed.month}/{printed.day}/{printed:%y}, {printed.hour % 12 or 12}:{printed:%M %p}"
    pdf = _Browser(name, stamp, len(pages))
    pdf.set_creation_date(printed)
    pdf.set_title(title)
    for page in pages:
        pdf.add_page()
        current = ""
        for style, text, y in page:
            font, emphasis, size, _, indent, _ = STYLES[style]
            if style != current:
                pdf.set_font(font, emphasis, size)
                pdf.set_text_color(17, 85, 204) if style == "toc" else pdf.set_text_color(0)
                current = style
            pdf.text(MARGIN + indent, y, text)
    path = out / f"{name}.pdf"
    pdf.output(str(path))
    return path, rows, len(pages)
