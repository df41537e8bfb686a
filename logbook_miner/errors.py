"""Errors the API raises about what it was given (the store's own are in store.py)."""


class ArgumentError(ValueError):
    """A bad argument. The message names arguments in backticks (`mttr_hours`), so that
    the CLI can name its flag instead (--mttr-hours)."""
