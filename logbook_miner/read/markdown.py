"""Markdown logbooks, parsed by markdown-it-py so a `#` inside a fence is never a heading."""

from __future__ import annotations

import html
import re
from pathlib import Path

from markdown_it import MarkdownIt

from ..models import Document, Line
from .text import latex_heading, underline_level

_PARSER = MarkdownIt("commonmark").enable("table")
# a folded section's line in raw HTML, as GitHub shows it: "<details><summary>2024-03-12 — launch
# </summary>" is the line "2024-03-12 — launch" over what it folds; "</details>" shows nothing
_SUMMARY = re.compile(r"\s*(?:<details\b[^>]*>\s*)?<summary\b[^>]*>(?P<text>.*?)</summary>\s*",
                      re.IGNORECASE)
_DETAILS_TAG = re.compile(r"\s*</?details\b[^>]*>\s*", re.IGNORECASE)
_DETAILS_END = re.compile(r"</details>\s*$", re.IGNORECASE)
_TAG = re.compile(r"<[^<>]+>")
_LISTS = ("bullet_list_open", "ordered_list_open")


def read_markdown(path: Path, text: str) -> Document:
    """Headings carry their level; fenced and indented code become `code` lines; in a document
    without headings, a one-line paragraph set in bold as a whole ("**@kiri · Mar 3, 2025**")
    is a bold line, as a Word or PDF reader reports one.

    Other blocks keep their source lines as written, so the stored text is the
    author's, Markdown marks included; a LaTeX sectioning line among them ("\\section*{14
    March 2024}") is the heading it typesets, and an HTML folded section's summary the line it
    shows (`_shown`). Blocks are set a blank line apart, but for two lists that meet in the
    source with no blank line between them: Markdown parses a list that changes its bullet as
    two ("* Restarted after ECC" over "- nvidia-smi showed ..." in an Org outline pasted as
    Markdown), where the source has one block.
    """
    source = text.split("\n")
    lines: list[Line] = []
    tokens = _parsed(source)
    # bold lines title entries only where no heading does but the document's title over a run
    # of them (under "## Week 1", a bold line is emphasis; under "# kestrel nights" alone,
    # "**3/3 (Mon) nights**" titles a night, and so does each bold line after it; a lone
    # "**2. Next steps**" under "# 2024-03-05 Training log" stays emphasis)
    headings = [token.tag for token in tokens if token.type == "heading_open"]
    titled = bool(headings) and (headings != ["h1"] or sum(
        _bold_line(tokens, i) for i, token in enumerate(tokens) if token.level == 0) < 2)
    list_end = None  # the source line where the block before, if a list, ended
    for i, token in enumerate(tokens):
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        first, last = token.map
        if token.type in _LISTS and first == list_end:
            lines.pop()  # no blank line where the source has none
        list_end = last if token.type in _LISTS else None
        if token.type == "heading_open":
            heading = " ".join(tokens[i + 1].content.split())
            lines.append(Line(heading, level=int(token.tag[1])))
        elif not titled and _bold_line(tokens, i):
            lines.append(Line(tokens[i + 1].content.strip()[2:-2].strip(), bold=True))
        elif token.type in ("fence", "code_block"):
            lines.extend(Line(code.rstrip(), code=True) for code in token.content.split("\n")[:-1])
        elif token.type == "html_block":
            lines.extend(shown for s in source[first:last] for shown in _shown(s))
        else:
            lines.extend(latex_heading(s) or Line(s.rstrip()) for s in source[first:last])
        lines.append(Line(""))  # blocks are separated by a blank line, as in the source
    title = next((line.text for line in lines if line.level == 1), None)
    return Document(path=path, format="markdown", lines=lines, title=title)


def _parsed(source: list[str]) -> list:
    """markdown-it's tokens, a plain-text writer's underline of another symbol than Markdown's
    (`underline_level`: "Saturday 16 March 2024" / "~~~~~~", "****", "++++") read as the "---"
    that makes its line a heading; Markdown would read it as a code fence (running on to the
    next row of "~"), a rule or a paragraph's line. Rows are found block by block, so a row in
    a fence stays code; after a fence's row the rest is parsed again."""
    text = list(source)
    while True:
        tokens = _PARSER.parse("\n".join(text))
        rows = _underlines(tokens, text)
        if not rows:
            return tokens
        for row in rows:
            text[row] = "-" * len(text[row].strip())


def _underlines(tokens: list, source: list[str]) -> list[int]:
    """The rows (up to the first that opened a fence) that underline the one-line paragraph
    above them, as a Markdown parser reads them: the paragraph's second line ("+++"), a rule
    after it ("***") or a fence's opening ("~~~")."""
    rows: list[int] = []
    previous = None  # the last outermost block's opening token
    for token in tokens:
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        first, last = token.map
        if token.type == "paragraph_open" and last - first >= 2:
            rows += [first + 1] if _underlining(source, first + 1) else []
        elif (token.type in ("hr", "fence") and previous is not None
              and previous.type == "paragraph_open" and previous.map == [first - 1, first]
              and _underlining(source, first)):
            rows.append(first)
            if token.type == "fence":
                break
        previous = token
    return rows


def _underlining(source: list[str], row: int) -> bool:
    """Line `row` is another symbol's row under a line that opens its block."""
    title = source[row - 1]
    opens = row < 2 or not source[row - 2].strip()
    return (source[row].strip()[:1] not in "=-"
            and underline_level(source[row], title, opens) is not None)


def _shown(source: str) -> list[Line]:
    """A line of raw HTML as written, but a folded section's summary as the line it shows (its
    text, entities as they show: "&mdash;" is "—") and a bare `<details>` tag as a blank line:
    a logbook that folds each day under its date ("<details><summary>2024-03-12 — launch
    </summary>") reads as one with a line a day. A section folded on one line ("<details>
    <summary>2024-03-12 — launch</summary>Launched …</details>") shows its summary over its
    text, when that is plain text."""
    summary = _SUMMARY.match(source)
    if not summary:
        return [Line("") if _DETAILS_TAG.fullmatch(source) else Line(source.rstrip())]
    rest = _DETAILS_END.sub("", source[summary.end():]).strip()
    if not rest:
        return [Line(_text_of(summary["text"]))]
    if "<" in rest:  # the folded text is HTML of its own: the line stays as written
        return [Line(source.rstrip())]
    return [Line(_text_of(summary["text"])), Line(""), Line(_text_of(rest))]


def _text_of(html_text: str) -> str:
    """HTML's text as it shows: tags dropped, entities read, spaces collapsed."""
    return " ".join(html.unescape(_TAG.sub("", html_text)).split())


def _bold_line(tokens: list, i: int) -> bool:
    """Whether tokens[i] opens a one-line paragraph whose one inline run is a single strong
    span."""
    first, last = tokens[i].map or (0, 0)
    if tokens[i].type != "paragraph_open" or last - first != 1:
        return False
    children = [child for child in tokens[i + 1].children or []
                if child.type != "text" or child.content.strip()]
    if len(children) < 3 or (children[0].type, children[-1].type) != ("strong_open",
                                                                       "strong_close"):
        return False
    depth = 0
    for child in children[:-1]:  # the first strong span must close only at the end
        depth += {"strong_open": 1, "strong_close": -1}.get(child.type, 0)
        if depth == 0:
            return False
    return True
