"""The default tool registry: one line per tool."""

from __future__ import annotations

from clew.navigation.evidence import CitationArgs, FetchArgs, check_citations, fetch_evidence
from clew.navigation.graph import ExpandArgs, expand_neighbors
from clew.navigation.reading import GetChunkArgs, GrepArgs, NavigateArgs, ReadArgs, get_chunk, grep, navigate, read
from clew.navigation.slices import SliceArgs, fetch_slice
from clew.navigation.tree import TreeArgs, navigate_document_tree
from clew.tools.registry import Registry
from clew.tools.search import SearchArgs, search

registry = Registry()
registry.add(search, SearchArgs)
registry.add(navigate_document_tree, TreeArgs)
registry.add(get_chunk, GetChunkArgs)
registry.add(navigate, NavigateArgs)
registry.add(read, ReadArgs)
registry.add(grep, GrepArgs)
registry.add(expand_neighbors, ExpandArgs)
registry.add(fetch_slice, SliceArgs)
registry.add(fetch_evidence, FetchArgs)
registry.add(check_citations, CitationArgs)
