"""`python -m logbook_miner ...` is `logbook ...`."""

from .cli import main

main(prog_name="logbook")
