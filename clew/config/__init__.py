"""Configuration, a room of its own: it names settings and runs nothing.

- ``clew.config.settings``: ``clew.toml`` with ``CLEW_*`` on top (``ServerConfig``, ``load_config``),
  and the one place a configured principal is built (``ServerConfig.principal``), for REST, MCP
  and the CLI alike.
- ``clew.config.model_options``: how clew reaches a model (``ModelOptions``).
- ``clew.config.hosts``: host names as ``allowed_hosts`` and the servers read them.

It sits below the agent and the front ends and imports neither (nor the model client): a
command that only searches reads its ``clew.toml`` without loading them. This package's own
module imports nothing, so that the agent can read ``ModelOptions`` without the settings.
"""
