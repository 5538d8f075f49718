"""The default tool registry: one line per tool.

Each tool is declared by where it lives (module, function, argument model) and imported on
first use: ``clew search`` loads the search tool alone, not the navigation tools and their
models. ``tests/tools/test_registry.py`` loads every declaration.
"""

from __future__ import annotations

from clew.tools.registry import Registry

registry = Registry()
registry.declare("clew.tools.search", "search", "SearchArgs")
registry.declare("clew.navigation.tree", "navigate_document_tree", "TreeArgs")
registry.declare("clew.navigation.reading", "get_chunk", "GetChunkArgs")
registry.declare("clew.navigation.reading", "navigate", "NavigateArgs")
registry.declare("clew.navigation.reading", "read", "ReadArgs")
registry.declare("clew.navigation.reading", "grep", "GrepArgs")
registry.declare("clew.navigation.graph", "expand_neighbors", "ExpandArgs")
registry.declare("clew.navigation.slices", "fetch_slice", "SliceArgs")
registry.declare("clew.navigation.evidence", "fetch_evidence", "FetchArgs")
registry.declare("clew.navigation.evidence", "check_citations", "CitationArgs")
