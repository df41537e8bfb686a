"""The package's data files — rules, SQL, the dashboard page, samples — found in one place.

They ship inside the package, so `importlib.resources` finds them the same way in a
source checkout, an editable install and an installed wheel.
"""

from importlib.resources import files
from pathlib import Path


def resource(*parts: str) -> Path:
    """The file or folder `parts` inside the installed package, as a filesystem path."""
    found = files(__package__).joinpath(*parts)
    if not isinstance(found, Path):  # a zipped install: readers and DuckDB need real files
        raise RuntimeError(f"{'/'.join(parts)}: logbook_miner must be installed unzipped")
    return found


DATA = resource("data")
QUERIES = resource("queries")
DASHBOARDS = resource("dashboards")
