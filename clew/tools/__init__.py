"""The agent's tools: argument models, JSON schemas, dispatch and tool permissions."""
