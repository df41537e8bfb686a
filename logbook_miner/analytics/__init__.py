"""Stage 5: named questions over the store, reliability statistics, the cost model."""
