"""logbook-miner: training logbooks -> incident dataset and reliability analytics.

The stages, in the order data flows through them:
read -> segment -> classify -> store -> analyse / draw / export.
"""

__version__ = "0.1.0"

from .api import Store  # after __version__, which the stages import

__all__ = ["Store", "__version__"]
