"""Fault families as data/taxonomy.yaml defines them: root-cause order, failures, colours.

A code's family is its part before the dot. The taxonomy's `families` block is the one
place that says in which order families name an incident, which codes mean training
stopped unplanned (and which families' failures are no stop of the job), and the colour
of each family: the views take all but the colours as the parameters of
`queries/views/families.sql` (its macros), the charts and the page take the colours.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from ..resources import parse_yaml
from .taxonomy import TAXONOMY_PATH

NO_FAMILY = "none"  # the family of an entry without a fault label, on the dashboard
NO_FAMILY_COLOUR = "#7f7f7f"
_BLOCK = re.compile(r"^families:\n(?:(?:[ #].*)?\n)*", re.MULTILINE)


@cache
def families() -> dict[str, dict[str, Any]]:
    """Family -> {colour, failures}, in root-cause order.

    Every connection needs these few lines, and the whole taxonomy (its cues) takes 20-170 ms
    to parse, so the block is read alone: from `families:` to the next top-level key.
    """
    text = TAXONOMY_PATH.read_text(encoding="utf-8")
    block = _BLOCK.search(text)
    if block is None:
        raise ValueError(f"{TAXONOMY_PATH.name}: no top-level `families:` block")
    return parse_yaml(block.group())["families"]


def colours() -> dict[str, str]:
    """Family -> colour in root-cause order, then a grey for entries without a family."""
    return {name: spec["colour"] for name, spec in families().items()} | {
        NO_FAMILY: NO_FAMILY_COLOUR}


@cache
def view_params() -> dict[str, list[str]]:
    """The parameters of queries/views/families.sql."""
    failures = {name: spec.get("failures") for name, spec in families().items()}
    return {"family_order": list(failures),
            "failure_families": [f for f, codes in failures.items() if codes == "all"],
            "failure_codes": [c for codes in failures.values() if isinstance(codes, list)
                              for c in codes],
            "own_streams": [f for f, spec in families().items() if spec.get("own_stream")]}
