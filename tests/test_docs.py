"""The console blocks of README.md and docs/*.md show what the commands print (issue 14).

A console block is a fenced block whose first line starts with `$ `. Its `$ `
lines are commands (`> ` lines continue one), and the lines after a command,
up to the next, are what it prints, stdout and stderr together as a terminal
shows them. The blocks of one file run in order in one bash session, in a
fresh folder beside a link to `../shared`, so `export`, `cd` and the files
made carry over from block to block; `logbook` is this checkout's CLI.

Timings (`0.42s`) and the scratch folder's and checkout's paths (written `…`)
are masked before comparing. Right before a block's fence, an HTML comment
`<!-- illustrative: REASON -->` leaves it unchecked (a process ID, a key press,
minutes of work), and `<!-- setup: NAME -->` first makes files with SETUPS[NAME].

`LOGBOOK_UPDATE_DOCS=1 python -m pytest tests/test_docs.py` rewrites the output
of every block that differs (timings as measured, paths masked) instead of failing.

Why a pytest rather than cog: the output lives in the Markdown as a reader sees
it, with no generator code between the lines, and a block is checked by running
exactly the commands it shows, with the shell's pipes, loops and `$?`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers import ROOT, logbook
from test_bad_inputs import CASES

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
UPDATE = bool(os.environ.get("LOGBOOK_UPDATE_DOCS"))
_FENCE = re.compile(r"^(`{3,})")
_MARK = re.compile(r"^<!--\s*(illustrative|setup):\s*(.*?)\s*-->$")
_TIMING = re.compile(r"\b\d+\.\d+s\b")
_SEPARATOR = "@@ logbook-docs command {} @@"


@dataclass
class Command:
    text: str  # as written, `> ` continuation lines included
    output: list[str] = field(default_factory=list)

    @property
    def shell(self) -> str:
        """The command as bash takes it."""
        return "\n".join(line.removeprefix("$ ").removeprefix("> ")
                         for line in self.text.splitlines())


@dataclass
class Block:
    start: int  # index of the first line inside the fence
    end: int  # index of the closing fence
    commands: list[Command]
    illustrative: str | None = None
    setup: str | None = None


def fenced(lines: list[str]) -> list[tuple[int, int]]:
    """(first line inside, closing fence) of every fenced block; ```` may hold ```."""
    blocks, i = [], 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence:
            close = next(j for j in range(i + 1, len(lines)) if lines[j].startswith(fence[1]))
            blocks.append((i + 1, close))
            i = close
        i += 1
    return blocks


def console_blocks(lines: list[str]) -> list[Block]:
    """Every fenced block whose first line is a `$ ` command, with its marks."""
    blocks = []
    for start, end in fenced(lines):
        if start < end and lines[start].startswith("$ "):
            marks = {}
            for line in reversed(lines[:start - 1]):
                mark = _MARK.match(line.strip())
                if not mark:
                    break
                marks[mark[1]] = mark[2]
            blocks.append(Block(start, end, _commands(lines[start:end]),
                                marks.get("illustrative"), marks.get("setup")))
    return blocks


def _commands(body: list[str]) -> list[Command]:
    commands: list[Command] = []
    for line in body:
        if line.startswith("$ "):
            commands.append(Command(line))
        elif line.startswith("> ") and not commands[-1].output:
            commands[-1].text += "\n" + line
        else:
            commands[-1].output.append(line)
    return commands


def run(commands: list[Command], folder: Path) -> list[list[str]]:
    """What each command prints, run in order in one bash session in `folder`."""
    script = ['logbook() { "$LOGBOOK_PYTHON" -m logbook_miner.cli "$@"; }',
              "__status=0"]
    for n, command in enumerate(commands):
        script += [f"printf '%s\\n' '{_SEPARATOR.format(n)}'; (exit $__status)",
                   f"{{ {command.shell}\n}} 2>&1", "__status=$?"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOGBOOK_")}
    env |= {"LOGBOOK_PYTHON": sys.executable, "PYTHONPATH": str(ROOT), "COLUMNS": "120",
            "PYTHONUNBUFFERED": "1", "LC_ALL": "C.UTF-8"}
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)
    parts = re.split("^" + re.escape(_SEPARATOR).replace(r"\{\}", r"\d+") + "$\n?",
                     done.stdout, flags=re.MULTILINE)[1:]
    paths = sorted({str(folder.resolve()), str(folder), str(ROOT)}, key=len, reverse=True)
    masked = []
    for part in parts:
        for path in paths:
            part = part.replace(path, "…")
        masked.append(part.rstrip("\n").split("\n") if part.strip() else [])
    return masked


def _same(expected: list[str], got: list[str]) -> bool:
    return [_TIMING.sub("N.NNs", x) for x in expected] == [_TIMING.sub("N.NNs", x) for x in got]


def make_bad_files(folder: Path) -> None:
    """The files of the bad-files batch in docs/when-things-go-wrong.md."""
    for case in CASES:
        (folder / case.file).write_bytes(case.make())
    (folder / "notes.md").write_text(logbook(5))


SETUPS = {"bad-files": make_bad_files}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_console_blocks_show_what_their_commands_print(doc, tmp_path, shared):
    lines = doc.read_text(encoding="utf-8").split("\n")
    blocks = [b for b in console_blocks(lines) if b.illustrative is None]
    if not blocks:
        pytest.skip(f"{doc.name} has no checked console block")
    (tmp_path / "shared").symlink_to(shared)
    folder = tmp_path / "work"
    folder.mkdir()
    for block in blocks:
        if block.setup:
            SETUPS[block.setup](folder)
    commands = [c for b in blocks for c in b.commands]
    outputs = iter(run(commands, folder))
    stale = []
    for block in blocks:
        got = [next(outputs) for _ in block.commands]
        if not all(_same(c.output, g) for c, g in zip(block.commands, got, strict=True)):
            stale.append((block, got))
    if UPDATE:
        for block, got in reversed(stale):  # the last first, so earlier line numbers hold
            lines[block.start:block.end] = [x for c, g in zip(block.commands, got, strict=True)
                                            for x in (c.text, *g)]
        doc.write_text("\n".join(lines), encoding="utf-8")
        return
    for block, got in stale:
        diff = "\n".join(f"{c.text}\n  doc: {c.output}\n  now: {g}"
                         for c, g in zip(block.commands, got, strict=True)
                         if not _same(c.output, g))
        pytest.fail(f"{doc.name}, line {block.start}: the output changed "
                    f"(LOGBOOK_UPDATE_DOCS=1 rewrites it)\n{diff}")


def test_every_console_block_is_checked_or_says_why_not():
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").split("\n")
        for block in console_blocks(lines):
            assert block.illustrative != "", f"{doc.name}, line {block.start}: give a reason"
            assert block.setup in (None, *SETUPS), f"{doc.name}: unknown setup {block.setup}"
        for start, end in fenced(lines):  # a `$ logbook` line hiding in a block of another kind
            assert lines[start].startswith("$ ") or not any(
                line.startswith("$ logbook") for line in lines[start:end]), \
                f"{doc.name}, line {start}: a console block must start with its `$ ` line"
