"""The one error readers raise: a file that cannot be read, with a one-line reason."""


class ReadError(Exception):
    """The file cannot be read as a logbook; str() is the reason shown to the user."""
