"""Org-mode logbooks (Emacs): `*` headings with their depth, blocks as code, settings left out.

An Org journal dates its headings with timestamps (`* <2023-03-04 Sat 10:00> NCCL hang`)
or plain dates (`** 2023-03-04 Sat`); a timestamp is written as the date and time the
segmenter reads (the weekday between them would hide the time).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..models import Document, Line

# stars, an optional TODO keyword and priority, the title, optional :tags: at the end
_HEADING = re.compile(r"^(?P<stars>\*+)\s+(?:(?:TODO|DONE|NEXT|WAITING|CANCELL?ED)\s+)?"
                      r"(?:\[#[A-Z]\]\s+)?(?P<title>.*?)(?:\s+:[\w@#%:]+:)?\s*$")
_TIMESTAMP = re.compile(r"[<\[](?P<date>\d{4}-\d{2}-\d{2})(?:\s+[A-Za-z]{2,3}\.?)?"
                        r"(?P<time>\s+\d{1,2}:\d{2}(?:-\d{1,2}:\d{2})?)?[>\]]")
_SETTING = re.compile(r"^\s*#\+(?P<key>\w+):\s*(?P<value>.*)$")  # #+TITLE: ..., #+AUTHOR: ...
_BLOCK = re.compile(r"^\s*#\+(?P<edge>begin|end)_\w+", re.IGNORECASE)  # #+BEGIN_SRC ... #+END_SRC
_DRAWER = re.compile(r"^\s*:(?P<name>[\w-]+):\s*$")  # :PROPERTIES: ... :END:
_COMMENT = re.compile(r"^\s*#(?:\s|$)")


def read_org(path: Path, text: str) -> Document:
    """Headings with their level (the title a level-1 heading), body lines, code blocks."""
    lines: list[Line] = []
    in_block = in_drawer = False
    for raw in text.split("\n"):
        line = raw.rstrip().expandtabs(4)
        if block := _BLOCK.match(line):
            in_block = block.group("edge").lower() == "begin"
            continue
        if in_block:
            lines.append(Line(line, code=True))
            continue
        if drawer := _DRAWER.match(line):
            in_drawer = drawer.group("name").upper() != "END"
            continue
        if in_drawer or _COMMENT.match(line):
            continue
        if setting := _SETTING.match(line):
            if setting.group("key").upper() == "TITLE":
                lines.append(Line(setting.group("value").strip(), level=1))
            continue
        if heading := _HEADING.match(line):
            title = _TIMESTAMP.sub(_plain_timestamp, heading.group("title"))
            lines.append(Line(title, level=min(len(heading.group("stars")), 6)))
            continue
        lines.append(Line(line, indent=float(len(line) - len(line.lstrip()))))
    return Document(path=path, format="org", lines=lines)


def _plain_timestamp(stamp: re.Match) -> str:
    """`<2023-03-04 Sat 10:00>` -> `2023-03-04 10:00`."""
    return stamp.group("date") + (stamp.group("time") or "")
