"""The tool surface every front end serves: the registry's tools, and ``retrieve``.

``clew.tools.builtin`` lists the tools the agent itself calls; ``retrieve`` (the agent) sits
on top of them, so it joins them here. The CLI subcommands, the REST routes
(``/v1/tools/<name>``), the MCP tools and the docs' tool table are all generated from
``surface``: one declaration per tool, read by every front end.

``retrieve`` takes a retrieval request (``clew.agent.request``). The caller's principal
always replaces the one a request carries, and a server's defaults (budgets, model, default
collection: ``ToolContext.request_defaults``) fill in what a request leaves out. A principal
that lacks the walk's permission (``tree_search`` for a tree walk, ``graph_search`` for a
graph walk) is refused with ``Forbidden`` before the run starts.
"""

from __future__ import annotations

from typing import Any

from clew.agent.api import retrieve as run_agent
from clew.agent.brief import brief
from clew.agent.request import UNNAMED, RetrievalRequest
from clew.agent.result import RetrievalResult
from clew.corpus.access import WALK_PERMISSIONS, Principal
from clew.corpus.reader import Scope
from clew.errors import Forbidden
from clew.tools.builtin import registry
from clew.tools.registry import Tool, ToolContext

RETRIEVE_DOC = """Run the retrieval agent: a seed search (queries[]), a bounded walk \
(steps.retrieval.navigation: tree or graph), then an answer with the evidence it read."""


def walk_permission(request: RetrievalRequest, model: object = None) -> str | None:
    """The permission ``request``'s walk needs (None: a free run, which calls only the tools)."""
    nav = request.navigation
    if nav is None:  # without a model the embedded default is a tree walk
        return None if model is not None or request.generator is not None else WALK_PERMISSIONS["tree"]
    return WALK_PERMISSIONS[nav.strategy]


def authorized(context: ToolContext, request: RetrievalRequest) -> RetrievalRequest:
    """``request`` as the context's principal asks it; a walk it may not make is ``Forbidden``."""
    principal = context.scope.principal
    request = request.model_copy(update={"principal": principal})
    for query in request.queries:  # an unknown or unreadable collection first: it reads as missing to anyone
        if query.collection != UNNAMED:  # left out: planning fills in the one this principal may read
            Scope(context.scope.corpus, principal, query.collection)
    needed = walk_permission(request, context.model)
    if needed is not None and not principal.may_use(needed):
        strategy = next(k for k, v in WALK_PERMISSIONS.items() if v == needed)
        raise Forbidden(needed, f"{strategy} navigation needs the {needed} permission")
    return request


async def retrieve(context: ToolContext, request: RetrievalRequest) -> RetrievalResult:
    """Run the agent as the context's principal."""
    return await run_agent(authorized(context, request), corpus=context.scope.corpus, model=context.model,
                           model_options=context.model_options)


def _prepare(values: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    """The request as sent, minus its own principal, with the server's defaults under it."""
    request = {k: v for k, v in values.items() if k != "principal"}
    for name, value in context.request_defaults.items():
        request.setdefault(name, value)
    return request


def _may_walk(principal: Principal) -> bool:
    return any(principal.may_use(permission) for permission in WALK_PERMISSIONS.values())


RETRIEVE = Tool(name="retrieve", description=RETRIEVE_DOC, arguments=RetrievalRequest, result=RetrievalResult,
                handler=retrieve, permission=_may_walk, prepare=_prepare, hidden=frozenset({"principal"}), text=brief)

surface = registry.extended(RETRIEVE)
"""Every tool a front end serves, declared once."""
