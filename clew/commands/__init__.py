"""Command families of the ``clew`` CLI, assembled by ``clew.cli``."""
