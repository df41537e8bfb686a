"""Tables a PDF draws with rules: which lines are one row, and the row's columns.

A page's drawn shapes give its rules: thin strips or lines (Chromium, WeasyPrint and Word
print borders so) and the sides of boxes a cell's size that adjoin (a rectangle around each
cell, as fpdf2 draws one). A row lies between two rules that span the table; its columns
lie between the vertical rules that cross it. `pdf.with_ruled_tables` writes each row.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .pdf import Box, PdfLine

RULE = 3.0  # points: a drawn box this thin, and twice as long, is a rule (a table's border)
_LEAST_CELL = 8.0  # points: a drawn box smaller than this on a side is no cell (a bullet)
_MOST_CELLS = 2000  # cell-sized boxes a page may draw; more is a chart, not a table
_SPANNED = 0.9  # of a row's width: a rule that covers this much bounds the row

Row = tuple[tuple[float, float, tuple[float, ...]], list[int]]  # (top, bottom, columns), lines


def ruled_rows(lines: list[PdfLine], shapes: list[Box]) -> list[Row]:
    """Each row of a ruled table: the heights of the rules above and below it, the x of the
    rules between its cells, and the indexes of its lines. Where no rule parts a row's lines
    and each of them fills every column, each is a row (a table ruled only around its
    header). A frame of fewer than two cells, or a ruled box of one row (a page's border),
    is no table."""
    down, along = _rules(shapes)
    if len(down) < 3:
        return []
    columns = _distinct(x for x, _, _ in down)  # one x for a border and a fill beside it
    spanning: dict[tuple[float, ...], list[float]] = {}
    rows: dict[tuple[float, float, tuple[float, ...]], list[int]] = {}
    for i, line in enumerate(lines):
        middle = (line.top + line.bottom) / 2
        edges = tuple(sorted({columns[bisect.bisect(columns, x + RULE) - 1]
                              for x, top, bottom in down if top <= middle <= bottom}))
        if line.code or len(edges) < 3 or not edges[0] <= line.x0 < edges[-1]:
            continue
        if edges not in spanning:
            spanning[edges] = _spanning(along, edges[0], edges[-1])
        ceiling = max((y for y in spanning[edges] if y < middle), default=None)
        floor = min((y for y in spanning[edges] if y > middle), default=None)
        if ceiling is not None and floor is not None:
            rows.setdefault((ceiling, floor, edges), []).append(i)
    found = [(ruled, group) for ruled, members in rows.items()
             for group in _row_lines([lines[i] for i in members], members, ruled[2])]
    tables = Counter(ruled[2] for ruled, _ in found)
    return [(ruled, members) for ruled, members in found if tables[ruled[2]] >= 2]


def _spanning(along: list[tuple[float, float, float]], left: float, right: float) -> list[float]:
    """The heights of the horizontal rules that run (nearly) from `left` to `right`: a row's
    top and bottom, drawn whole or cell by cell (not an underline, nor a header's rule that
    spans part of it)."""
    covered: dict[int, float] = {}
    for y, x0, x1 in along:
        overlap = min(x1, right) - max(x0, left)
        if overlap > 0:
            covered[round(y)] = covered.get(round(y), 0.0) + overlap
    return sorted(float(y) for y, length in covered.items()
                  if length >= _SPANNED * (right - left))


def _row_lines(row: list[PdfLine], members: list[int],
               edges: tuple[float, ...]) -> list[list[int]]:
    """The rows between one pair of rules: one, or one a line where two or more lines each
    fill every column the rows use (rules drawn only around a table's header)."""
    def columns(line: PdfLine) -> set[int]:
        return {bisect.bisect(edges, (x0 + x1) / 2) for x0, x1, _ in line.words}
    used = set().union(*map(columns, row))
    if sum(columns(line) >= used for line in row) >= 2:
        return [[i] for i in members]
    return [members]


def _rules(shapes: list[Box]) -> tuple[list[tuple[float, float, float]],
                                        list[tuple[float, float, float]]]:
    """The page's vertical rules (x, top, bottom) and horizontal ones (y, x0, x1): thin boxes
    (a border drawn as a filled strip, or a line), and the four sides of a box a cell's size
    that another such box adjoins (a border drawn as a rectangle around each cell; not a
    quotation's or a code block's background, nor the bar over its left side)."""
    down, along = [], []
    boxes = []
    for x0, top, x1, bottom in shapes:
        width, height = x1 - x0, bottom - top
        if width <= RULE and height >= 2 * max(width, 1.0):
            down.append(((x0 + x1) / 2, top, bottom))
        elif height <= RULE and width >= 2 * max(height, 1.0):
            along.append(((top + bottom) / 2, x0, x1))
        elif min(width, height) >= _LEAST_CELL:
            boxes.append((x0, top, x1, bottom))
    for x0, top, x1, bottom in _adjoined(boxes) if len(boxes) <= _MOST_CELLS else ():
        down += [(x0, top, bottom), (x1, top, bottom)]
        along += [(top, x0, x1), (bottom, x0, x1)]
    return down, along


def _adjoined(boxes: list[Box]) -> list[Box]:
    """The boxes another box adjoins, side to side or top to bottom (looked up by where a
    box starts: a chart may draw thousands)."""
    starts: dict[tuple[int, int], list[Box]] = {}
    for box in boxes:
        starts.setdefault((0, round(box[0])), []).append(box)
        starts.setdefault((1, round(box[1])), []).append(box)
    found = set()
    for box in boxes:
        x0, top, x1, bottom = box
        for axis, end in ((0, x1), (1, bottom)):
            for key in range(round(end) - round(RULE), round(end) + round(RULE) + 1):
                for other in starts.get((axis, key), ()):
                    across = (other[1] < bottom and other[3] > top) if axis == 0 else (
                        other[0] < x1 and other[2] > x0)
                    if other is not box and abs(other[axis] - end) <= RULE and across:
                        found.update((box, other))
    return [box for box in boxes if box in found]


def _distinct(xs: Iterable[float]) -> tuple[float, ...]:
    """The sorted x positions, one of each run closer than a rule's width."""
    found: list[float] = []
    for x in sorted(xs):
        if not found or x - found[-1] > RULE:
            found.append(x)
    return tuple(round(x, 1) for x in found)
