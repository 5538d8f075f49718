"""``retrieve``: the Python entry point (async first, with a sync wrapper)."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Coroutine
from typing import Any

from clew.agent.controller import Controller
from clew.agent.model import Model, model_from_name
from clew.agent.prompts import answer_prompt, new_marker
from clew.agent.request import UNNAMED, Generator, Navigation, QuerySpec, RetrievalRequest, parse_request
from clew.agent.result import Instruction, RetrievalResult, Step
from clew.agent.run import Deps, Run, RunState
from clew.agent.scoring import Scorer
from clew.agent.selection import selector_for
from clew.agent.strategy import strategy_for
from clew.agent.walk import START_FIELD
from clew.budgets.limits import Budget, Usage
from clew.config.model_options import ModelOptions
from clew.config.model_options import model_options as model_options_of
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import Forbidden, InputError
from clew.llm import run_loop

DEFAULT_PLAN = "no navigation block and no model: a ranked tree walk (the embedded default)"


def plan(request: RetrievalRequest, model: Model | None, corpus: Corpus) -> RetrievalRequest:
    """What runs: without a navigation block and without a model, the embedded default (a ranked
    tree walk); a walk without queries[] searches the collection its start names, else the one
    collection the principal may read (several: an error listing them). A queries[] entry that
    names no collection gets that same one, whatever runs: every surface (Python, REST, MCP)
    plans here, so the rule and its error are the same everywhere."""
    walks = request.navigation is not None or model is None
    if walks and not request.queries:
        request = request.model_copy(update={"queries": [QuerySpec(collection=_collection(request, corpus))]})
    unnamed = [i for i, q in enumerate(request.queries) if q.collection == UNNAMED]
    if unnamed:
        named = _collection(request, corpus, f"queries.{unnamed[0]}.collection")
        request = request.model_copy(update={"queries": [
            q.model_copy(update={"collection": named}) if q.collection == UNNAMED else q for q in request.queries]})
    if request.navigation is not None or model is not None:
        return request
    retrieval = request.steps.retrieval.model_copy(update={"navigation": Navigation()})
    return request.model_copy(update={"steps": request.steps.model_copy(update={"retrieval": retrieval})})


def _collection(request: RetrievalRequest, corpus: Corpus, field: str = "queries") -> str:
    """The collection a query-only walk, or a query naming none, is bounded by (errors name ``field``)."""
    principal, nav = request.principal, request.navigation
    starts = [nav.start_key] if nav is not None and nav.start_key else [
        k.strip() for k in (nav.start_nodes or "").split(",") if k.strip() and not k.strip().startswith("$")
    ] if nav is not None else []
    if starts:
        found = Scope(corpus, principal).resolve_keys(starts[:1], field=START_FIELD)
        if found:
            return found[starts[0]].collection
    readable = [c for c in corpus.collections(with_documents=True) if principal.may_read_collection(c)]
    if len(readable) == 1:
        return readable[0]
    if not readable:
        raise InputError(field, "no collection the caller may read holds documents (ingest some first)")
    raise InputError(field, f"the caller may read {len(readable)} collections ({', '.join(readable)}): name "
                            "one in queries[], e.g. {\"collection\": \"" + readable[0] + "\"}")


async def retrieve(
    request: RetrievalRequest | dict[str, Any] | str,
    *,
    corpus: Corpus,
    model: Model | None = None,
    model_options: ModelOptions | dict[str, Any] | None = None,
    on_step: Callable[[Step], None] | None = None,
    offload: bool = True,
) -> RetrievalResult:
    """Run one retrieval. ``model`` overrides ``request.generator`` (tests pass fakes here);
    ``model_options`` say how to reach the generator (``api_base``, ``temperature`` ...).
    A generator the request's principal may not use (``Principal.models``) is ``Forbidden``
    before any model is built or called.

    ``offload=False`` runs the store reads inline on the event loop instead of in worker
    threads: faster for a batch whose loop does nothing else, wrong for a server. A run with
    neither a model nor ``on_step`` waits on nothing but the store, so with ``offload`` it runs
    whole in one worker thread rather than hopping to one for each read (a warm ranked walk
    spent a third of its time on those hops).
    """
    run, whole_in_thread = _prepared(request, corpus, model, model_options, on_step, offload)
    if whole_in_thread:
        import asyncio

        return await asyncio.to_thread(_run_inline, Controller(run).execute())
    return await Controller(run).execute()


def _prepared(request: RetrievalRequest | dict[str, Any] | str, corpus: Corpus, model: Model | None,
              model_options: ModelOptions | dict[str, Any] | None, on_step: Callable[[Step], None] | None,
              offload: bool) -> tuple[Run, bool]:
    """The run ``retrieve`` executes, and whether it runs whole in one worker thread."""
    asked = parse_request(request)
    usage = Usage()
    generator = asked.generator if not isinstance(asked.generator, Generator) else asked.generator.model_string()
    if generator is not None and not asked.principal.may_use_model(generator):
        raise Forbidden("model", f"this key may not use model {generator!r}")  # refused before any call
    if model is None and generator is not None:
        model = model_from_name(generator, model_options_of(model_options))
    whole_in_thread = offload and model is None and on_step is None
    offload = offload and not whole_in_thread
    req = plan(asked, model, corpus)
    nav = req.navigation
    if nav is not None and nav.selection == "agentic" and model is None:
        raise InputError("steps.retrieval.navigation.selection",
                         "agentic selection needs a model (generator, or --model); use ranked without one")
    spec = req.seed_query
    scope = Scope(corpus, req.principal, spec.collection if spec else None, spec.filter if spec else None)
    applied = req.applied()
    if asked.navigation is None and nav is not None:  # planned: the default tree walk
        applied = applied.adding(planned=DEFAULT_PLAN)
    left_out = asked.seed_query is None or asked.seed_query.collection == UNNAMED
    if left_out and spec is not None:  # a query-only request, or a seed query naming none: the collection it was given
        applied = applied.adding(collection=spec.collection)
    deps = Deps(corpus=corpus, request=req, limits=req.limits(), applied=applied, scope=scope, model=model,
                marker=new_marker(), fields=spec.fields if spec else None, on_step=on_step, offload=offload)
    state = RunState(budget=Budget(deps.limits, usage))
    if nav is not None and nav.instruction:
        state.instructions.append(Instruction(text=nav.instruction, source="request", origin="request"))
    if model is not None and nav is not None:  # a walk that ends in the answer prompt: keep room for its words
        state.budget.reserve(answer_prompt(deps.marker, state.instructions, req.query, [])[1])
    run = Run(deps=deps, state=state, strategy=strategy_for(req, applied),
              selector=selector_for(nav.selection if nav else None), scorer=Scorer(scope, req.query))
    return run, whole_in_thread


def retrieve_sync(request: RetrievalRequest | dict[str, Any] | str, *, corpus: Corpus, model: Model | None = None,
                  model_options: ModelOptions | dict[str, Any] | None = None) -> RetrievalResult:
    """``retrieve`` for code without an event loop.

    A run without a model reads the store inline and waits on nothing, so it runs without an
    event loop at all (``_run_inline``: asyncio is not even imported, a fifth of what a cold
    ``clew ask`` imported beyond a search); a run with a model runs on its own ``asyncio.run``
    loop (``clew.llm.run_loop``: the model's logging callbacks end with it)."""
    run, _ = _prepared(request, corpus, model, model_options, None, True)
    if run.deps.model is None:
        return _run_inline(Controller(run).execute())
    return run_loop(Controller(run).execute())


def _run_inline(coroutine: Coroutine[Any, Any, RetrievalResult]) -> RetrievalResult:
    """Run a walk that awaits nothing (no model, the store read inline) to its end without an event
    loop, in a copy of the caller's context as ``asyncio.run`` would: the controller's handlers are
    coroutines, but without a model none of them suspends. One that did would be a bug here (nothing
    would ever wake it): it is closed and reported."""
    context = contextvars.copy_context()
    try:
        awaited = context.run(coroutine.send, None)
    except StopIteration as done:
        result: RetrievalResult = done.value
        return result
    coroutine.close()
    raise RuntimeError(f"a walk without a model awaited {awaited!r}, which only an event loop can wake")
