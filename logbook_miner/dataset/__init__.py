"""The incident dataset: one file per table, its datapackage and card."""
