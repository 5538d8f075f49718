"""The agent's tools: argument models, JSON schemas, dispatch and tool permissions."""

from clew.tools.builtin import registry
from clew.tools.registry import Registry, Tool, ToolContext

__all__ = ["Registry", "Tool", "ToolContext", "registry"]
