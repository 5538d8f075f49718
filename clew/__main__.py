"""``python -m clew``: the same command line as ``clew``."""

from clew.cli import run

run()
