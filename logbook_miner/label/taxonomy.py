"""The taxonomy (data/taxonomy.yaml): the fault and intervention codes, the contract.

The file also holds every code's cues (370 KB), which only the classifier needs. A
command that only checks a code a user typed (`search --code`, a review's decisions)
reads each code's name and kind from the lines that open its block, in milliseconds.
"""

from __future__ import annotations

import re
from functools import cache

from ..resources import DATA

TAXONOMY_PATH = DATA / "taxonomy.yaml"
# a code's block opens with its name, then its kind: "  hardware.gpu:\n    kind: fault"
_CODE_OPENS = re.compile(r"^  (?P<code>[\w.]+):\n    kind: (?P<kind>\w+)$", re.MULTILINE)


@cache
def code_kinds() -> dict[str, str]:
    """Code -> kind ("fault" or "intervention"), in the taxonomy's order."""
    text = TAXONOMY_PATH.read_text(encoding="utf-8")
    return {m["code"]: m["kind"] for m in _CODE_OPENS.finditer(text, text.index("\ncodes:\n"))}


def unknown_code(code: str) -> str:
    """Why `code` is not a taxonomy code, with the nearest codes: one line for an error."""
    import difflib

    near = difflib.get_close_matches(code, code_kinds(), n=3, cutoff=0.5)
    hint = f"did you mean {' or '.join(near)}?" if near else "see data/taxonomy.yaml"
    return f"unknown code {code!r} ({hint})"
