"""Org-mode logbooks (Emacs): `*` headings with their depth, blocks as code, settings left out.

An Org journal dates its headings with timestamps (`* <2023-03-04 Sat 10:00> NCCL hang`)
or plain dates (`** 2023-03-04 Sat`); a timestamp is written as the date and time the
segmenter reads (the weekday between them would hide the time).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..models import Document, Line

_HEADING = re.compile(r"(?P<stars>\*+)\s+(?P<title>.*)")
# what opens a heading's title but is not its text: a TODO keyword, a priority
_KEYWORDS = re.compile(r"(?:(?:TODO|DONE|NEXT|WAITING|CANCELL?ED)\s+)?(?:\[#[A-Z]\]\s+)?")
_TAGS = re.compile(r":[\w@#%:]+:")  # a title's last word ":incident:ops:"
_TIMESTAMP = re.compile(r"[<\[](?P<date>\d{4}-\d{2}-\d{2})(?:\s+[A-Za-z]{2,3}\.?)?"
                        r"(?P<time>\s+\d{1,2}:\d{2}(?:-\d{1,2}:\d{2})?)?"
                        r"(?:\s+[.+-]{1,2}\d+[hdwmy])*[>\]]")  # a repeater or warning: +1w, -2d
_SETTING = re.compile(r"^\s*#\+(?P<key>\w+):\s*(?P<value>.*)$")  # #+TITLE: ..., #+AUTHOR: ...
_BLOCK = re.compile(r"^\s*#\+(?P<edge>begin|end)_\w+", re.IGNORECASE)  # #+BEGIN_SRC ... #+END_SRC
# :PROPERTIES: ... :END: (a drawer of another name, or one left open, ends at the next heading)
_DRAWER = re.compile(r"^\s*:(?P<name>PROPERTIES|LOGBOOK|END):\s*$", re.IGNORECASE)
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
        if heading := _HEADING.fullmatch(line):
            in_drawer = False
            lines.append(Line(_title(heading.group("title")),
                              level=min(len(heading.group("stars")), 6)))
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
        lines.append(Line(line, indent=float(len(line) - len(line.lstrip()))))
    return Document(path=path, format="org", lines=lines)


def _title(title: str) -> str:
    """A heading's title without its keyword, priority and tags, timestamps made plain."""
    title = title[_KEYWORDS.match(title).end():].rstrip()
    words = title.rsplit(None, 1)
    if len(words) == 2 and _TAGS.fullmatch(words[1]):
        title = words[0].rstrip()
    return _TIMESTAMP.sub(_plain_timestamp, title)


def _plain_timestamp(stamp: re.Match) -> str:
    """`<2023-03-04 Sat 10:00>` -> `2023-03-04 10:00`."""
    return stamp.group("date") + (stamp.group("time") or "")
