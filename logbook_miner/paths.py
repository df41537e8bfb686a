"""Where the project's data lives: `data/` (taxonomy, patterns, samples) and `queries/`."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
QUERIES = ROOT / "queries"
