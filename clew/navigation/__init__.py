"""Moves from a passage to the passages around it (tree, reading order, graph)."""
