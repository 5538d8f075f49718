"""The REST API's routers, one small module each; ``clew.server.rest.create_app`` includes them.

A router reads what the app serves (``Served``: the corpus, the config, the model) and who
asks (``principal_of``) from ``clew.server.routers.common``; adding a family of routes is one
more module and one more line in ``ROUTERS``.
"""

from clew.server.routers import agent, evidence, health, ingest, tools

ROUTERS = [tools.router, agent.router, evidence.router, ingest.router, health.router, tools.unknown]
"""In order: ``tools.unknown`` answers a name that no route before it took."""
