"""Stage 3: codes and numbers for each entry, from rules kept as data; human corrections."""

from __future__ import annotations

from ..models import Classify


def default_classify() -> Classify:
    """The taxonomy's classifier, built on first need: spaCy loads only when something is to
    be labelled."""
    from .classifier import Classifier

    return Classifier().classify
