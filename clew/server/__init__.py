"""REST and MCP front ends over the same tools."""
