"""The retrieval request: what callers send, validated and clamped.

Malformed or contradictory input raises an error naming the field (every error of a
request at once: ``InputError.errors``); out-of-range numbers are clamped and the applied
values are reported in the result (``applied``).

The request shape users of retrieval agents already write runs unchanged:
``queries[].table`` names the collection; ``full_text_search: {"match": ..., "field":
"title"}`` searches one field (a document field, ``heading`` or ``text``);
``filter_query: {"term": "published", "field": "status"}`` is a term filter;
``generator: {"provider": "openai", "model": "gpt-4o-mini"}`` is the litellm model
``openai/gpt-4o-mini``; ``steps.generation: {}`` asks for the answer (as without it).

Each bounded number declares its range once, as ``Clamp`` metadata of its type (the budgets'
types come from ``clew.budgets.limits``, shared with the configuration): the clamping, the
``applied`` report, the JSON schema and the tool tables all read it from there.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from clew.budgets.bounds import MAX_CLAUSES, MAX_QUERY_CHARS, Clamp, bounds, clamp, clamped
from clew.budgets.limits import (
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_EXTRACT_TOKENS,
    DEFAULT_ITERATIONS,
    DEFAULT_TIMEOUT_SECONDS,
    HARD_MAX_TOOL_CALLS,
    ContextTokens,
    ExtractTokens,
    Iterations,
    Limits,
    Seconds,
    ToolCalls,
)
from clew.corpus.access import Filter, FilterArgument, Principal, Scalar
from clew.errors import InputError, field_error, input_error_from
from clew.navigation.models import NonBlank, state_bounds

TREE_FIELDS = ("max_depth", "beam_width", "follow_links")
GRAPH_FIELDS = ("direction", "max_steps", "neighbor_limit")
RANKED_ITERATIONS = 100
"""The least iteration bound of a ranked walk when the request sets none: an iteration there is one
passage taken or one node opened, not a model turn, and the context budget is what bounds it."""
RANKED_TOKENS = 20
"""A ranked walk without an iteration bound gets one iteration per this many tokens of its context
budget (:func:`ranked_iterations`), so that on small passages the budget, not the count, ends it."""
DEFAULT_SEED_LIMIT = 10
"""Seed hits of a query without a limit (a walk's: at least this many)."""
SEED_TOKENS = 80
"""A ranked walk without a seed limit asks for one seed hit per this many tokens of budget."""


def ranked_iterations(context_budget_tokens: int) -> int:
    """A ranked walk's iteration bound when the request sets none: 100, or one per ``RANKED_TOKENS``
    tokens of the (clamped) context budget when that is more. Above the request's own cap (100) on
    purpose: the request cannot ask for it, and the context budget is what raises it."""
    return max(RANKED_ITERATIONS, context_budget_tokens // RANKED_TOKENS)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=state_bounds)


class Applied(BaseModel):
    """Every bound a run uses, after clamping, and what was planned for it: frozen, read by
    attribute. ``report`` is what the result's ``applied`` says (what the run chooses on the way,
    its seed search and a free run's tools, is the run's own state: ``RunState.choices``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_internal_iterations: int
    max_tool_calls: int
    context_budget_tokens: int
    timeout_seconds: float
    max_depth: int = 0
    """A tree walk's (0 for any other run)."""
    beam_width: int = 0
    follow_links: bool = True
    index: str | None = None
    edge_types: tuple[str, ...] = ()
    max_steps: int = 0
    """A graph walk's (0 for any other run)."""
    neighbor_limit: int = 0
    direction: str | None = None
    strategy: str | None = None
    selection: str | None = None
    query_limits: tuple[int, ...] = ()
    extract_tokens: int
    planned: str | None = None
    """Why this walk runs when the request named none (the embedded default)."""
    collection: str | None = None
    """The collection a request without queries[], or whose seed query named none, was given."""
    reported: tuple[str, ...] = Field((), exclude=True)
    """The names ``report`` gives, in order: the bounds that apply to this run."""

    def adding(self, **values: Any) -> Applied:
        """These with ``values`` set and reported."""
        return self.model_copy(update={**values, "reported": (*self.reported, *values)})

    def report(self) -> dict[str, Any]:
        """The result's ``applied``: the names that apply to this run, lists as lists."""
        return {name: list(value) if isinstance(value := getattr(self, name), tuple) else value
                for name in self.reported}


def _renamed(data: Any, old: str, new: str, where: str = "") -> Any:
    """``old`` as another name of ``new`` (both given: an error naming ``old``)."""
    if isinstance(data, dict) and old in data:
        if new in data:
            raise field_error(f"{where}{old}", f"give {new} or {old}, not both")
        data = {(new if k == old else k): v for k, v in data.items()}
    return data


class TextQuery(_Strict):
    query: str | None = Field(None, max_length=MAX_QUERY_CHARS,
                              description="Text to search for (default: the request's query); also 'match'.")
    field: NonBlank | None = Field(None, description="full_text_search only: a field to match instead of the text "
                                   "(heading or a document field).")

    @model_validator(mode="before")
    @classmethod
    def _match(cls, data: Any) -> Any:
        return _renamed(data, "match", "query")


class FilterQuery(_Strict):
    """A term filter written as ``{"term": VALUE, "field": NAME}``."""

    term: Scalar
    field: str

    def as_filter(self) -> dict[str, Any]:
        return {"term": {self.field: self.term}}


UNNAMED = ""
"""``QuerySpec.collection`` left out: planning (``clew.agent.api.plan``) fills in the one collection the
caller may read before anything reads it; a name given blank is still refused."""


def _no_default(schema: dict[str, Any]) -> None:
    """Left out of the schema: a client that sends defaults would send the blank name, which is refused."""
    schema.pop("default", None)


class QuerySpec(_Strict):
    """One seed search: at most one of full_text_search, semantic_search or hybrid (none: the best the
    collection has)."""

    collection: str = Field(UNNAMED, description="The collection to search (also 'table'); may be left out "
                            "where the caller reads only one.", json_schema_extra=_no_default)
    full_text_search: TextQuery | None = None
    semantic_search: TextQuery | None = None
    hybrid: TextQuery | None = None
    filter: FilterArgument = Field(None, description="Only documents whose fields match, e.g. "
                                   '{"term": {"status": "published"}}; also terms, range, exists, bool, and '
                                   '{"path": GLOB} on the document key, e.g. "v2.0/*".')
    filter_query: FilterQuery | None = Field(None, description="A term filter {term, field}; with filter, both hold.")
    fields: list[str] | None = Field(None, max_length=MAX_CLAUSES)
    limit: Annotated[int | None, Clamp(1, 100)] = Field(
        None, description=f"Seed hits (default: {DEFAULT_SEED_LIMIT}, or enough to fill "
        "a walk's context budget)")

    @model_validator(mode="before")
    @classmethod
    def _table(cls, data: Any) -> Any:
        return _renamed(data, "table", "collection")

    @field_validator("collection")
    @classmethod
    def _collection(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the collection name is blank")
        return value

    @model_validator(mode="after")
    def _one_kind(self) -> QuerySpec:
        kinds = [k for k in ("full_text_search", "semantic_search", "hybrid") if getattr(self, k) is not None]
        if len(kinds) > 1:
            raise field_error(
                kinds[1], f"give one of full_text_search, semantic_search, hybrid (got {', '.join(kinds)})"
            )
        for kind in ("semantic_search", "hybrid"):
            if getattr(self, kind) is not None and getattr(self, kind).field is not None:
                raise field_error(f"{kind}.field", "field-targeted search is full_text_search only")
        if self.filter_query is not None:
            from pydantic import TypeAdapter

            term = TypeAdapter(Filter).validate_python(self.filter_query.as_filter())
            both = term if self.filter is None else TypeAdapter(Filter).validate_python(
                {"bool": {"must": [self.filter.model_dump(exclude_none=True), self.filter_query.as_filter()]}})
            self.filter, self.filter_query = both, None
        return self

    @property
    def field(self) -> str | None:
        """The field a full-text seed search matches (None: the text)."""
        return self.full_text_search.field if self.full_text_search is not None else None

    @property
    def mode(self) -> Literal["bm25", "vector", "hybrid"]:
        """The search asked for; bm25 when none was (a walk then seeds as ``seeded_by`` says)."""
        if self.semantic_search is not None:
            return "vector"
        return "hybrid" if self.hybrid is not None else "bm25"

    @property
    def asked(self) -> bool:
        """Whether the query names its search (full_text_search, semantic_search or hybrid)."""
        return any(k is not None for k in (self.full_text_search, self.semantic_search, self.hybrid))

    def text(self, default: str) -> str:
        chosen = self.full_text_search or self.semantic_search or self.hybrid
        return (chosen.query if chosen is not None and chosen.query else None) or default


class Navigation(_Strict):
    strategy: Literal["tree", "graph"] = "tree"
    selection: Literal["agentic", "ranked"] = "ranked"
    query_index: int = Field(0, description="Which entry of queries[] seeds the walk.")
    index: NonBlank | None = Field(None, description="Graph to walk: links, reading_order, section_hierarchy (a "
                              "tree walk's default) or a user graph.")
    start_key: NonBlank | None = Field(None, description="Document key to start from instead of the first seed hit.")
    start_nodes: str | None = Field(
        None, description="ranked only: '$roots', comma-separated keys, or '$hits' (the seed hits)."
    )
    max_depth: Annotated[int, Clamp(1, 20)] = 5
    beam_width: Annotated[int, Clamp(1, 20)] = 3
    follow_links: bool = Field(
        True, description="tree walk: also offer the passages a visited passage links to."
    )
    direction: Literal["out", "in", "both"] = "out"
    edge_types: list[str] = Field(default_factory=list, description="Edge types to follow (graph walk) or "
                                  "joining documents to their children (tree walk; default child).")
    max_steps: Annotated[int, Clamp(1, 20)] = 8
    neighbor_limit: Annotated[int, Clamp(1, 256)] = 8
    instruction: str | None = Field(None, max_length=MAX_QUERY_CHARS)
    instruction_field: NonBlank | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Navigation:
        given = self.model_fields_set
        if self.start_key is not None and self.start_nodes is not None:
            raise field_error("start_nodes", "give start_key or start_nodes, not both")
        if self.start_nodes is not None and self.selection != "ranked":
            raise field_error("start_nodes", "start_nodes is for ranked selection only")
        wrong = [f for f in (GRAPH_FIELDS if self.strategy == "tree" else TREE_FIELDS) if f in given]
        if wrong:
            raise field_error(
                wrong[0], f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} not for a {self.strategy} walk"
            )
        if self.strategy == "graph" and self.index is None:
            raise field_error("index", "a graph walk needs index (the graph's name)")
        if self.strategy == "tree" and self.edge_types and self.index in (None, "section_hierarchy"):
            raise field_error("edge_types", "edge_types is for a tree walk over a user graph (set index)")
        return self


class RetrievalSteps(_Strict):
    navigation: Navigation | None = None


class GenerationStep(_Strict):
    """``{}`` asks for the answer (as without it)."""


class Steps(_Strict):
    retrieval: RetrievalSteps = Field(default_factory=RetrievalSteps)
    generation: GenerationStep | None = None


class Generator(_Strict):
    """A model named by provider and model: ``{"provider": "openai", "model": "gpt-4o-mini"}``."""

    provider: str
    model: str

    def model_string(self) -> str:
        """The litellm model string (``provider/model``); an unknown provider is an error naming it."""
        if not self.model.strip():
            raise field_error("generator.model", "must not be blank")
        known = providers()
        provider = PROVIDER_ALIASES.get(self.provider.strip().lower(), self.provider.strip().lower())
        if provider not in known:
            raise field_error("generator.provider", f"unknown provider {self.provider!r}; known providers include "
                              f"{', '.join(COMMON_PROVIDERS)} (any litellm provider)")
        return f"{provider}/{self.model.strip()}"


PROVIDER_ALIASES = {"google": "gemini", "vertex": "vertex_ai", "azure_openai": "azure", "mistralai": "mistral",
                    "together": "together_ai", "aws": "bedrock", "hf": "huggingface"}
COMMON_PROVIDERS = ("openai", "anthropic", "gemini", "azure", "bedrock", "mistral", "ollama", "groq")


def providers() -> frozenset[str]:
    """litellm's provider names (and clew's test providers)."""
    from clew.llm import TEST_PROVIDER_PREFIX, import_litellm

    litellm = import_litellm()
    names = {getattr(p, "value", p) for p in litellm.provider_list}
    names |= {entry.get("provider") for entry in litellm.custom_provider_map or []
              if str(entry.get("provider", "")).startswith(TEST_PROVIDER_PREFIX)}
    return frozenset(str(n) for n in names)


class RetrievalRequest(_Strict):
    query: str = Field(max_length=MAX_QUERY_CHARS)
    queries: list[QuerySpec] = Field(default_factory=list, max_length=16)
    max_internal_iterations: Iterations = DEFAULT_ITERATIONS
    max_tool_calls: ToolCalls = HARD_MAX_TOOL_CALLS
    context_budget_tokens: ContextTokens = DEFAULT_CONTEXT_TOKENS
    timeout_seconds: Seconds = Field(DEFAULT_TIMEOUT_SECONDS, description="Seconds before the run ends "
                                     "incomplete (timeout) with the evidence so far.")
    generator: str | Generator | None = Field(
        None, description="A litellm model string, or {provider, model}, or none for the extractive answer."
    )
    steps: Steps = Field(default_factory=Steps)
    principal: Principal = Field(default_factory=Principal)
    stream: bool = False
    extract_tokens: ExtractTokens = Field(DEFAULT_EXTRACT_TOKENS, description="Tokens of the extractive answer "
                                "(no model), citations included")
    include_steps: bool = Field(False, description="Return every step of the walk "
                                "(steps), not a summary; a stream always does.")

    @field_validator("timeout_seconds")
    @classmethod
    def _finite(cls, value: float) -> float:
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("must be a finite number of seconds")
        return value

    @field_validator("query")
    @classmethod
    def _query(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the query is blank")
        return value

    @model_validator(mode="after")
    def _seed(self) -> RetrievalRequest:
        if isinstance(self.generator, Generator):
            self.generator = self.generator.model_string()
        nav = self.steps.retrieval.navigation
        if nav is not None and self.queries and not 0 <= nav.query_index < len(self.queries):
            raise field_error("steps.retrieval.navigation.query_index",
                              f"query_index {nav.query_index} is not an index of queries[]")
        fields = self.seed_query.fields if self.seed_query is not None else None
        if nav is not None and nav.instruction_field is not None and fields is not None \
                and nav.instruction_field not in fields:
            raise field_error("steps.retrieval.navigation.instruction_field",
                              f"{nav.instruction_field!r} is not in the seed query's fields projection {fields}")
        return self

    @classmethod
    def bounds(cls) -> dict[str, Clamp]:
        """The request's own bounds (clamped and reported in ``applied``), from its fields' ``Clamp``."""
        return bounds(cls)

    @property
    def seed_query(self) -> QuerySpec | None:
        """The query that seeds the walk (navigation.query_index), else the first."""
        if not self.queries:
            return None
        nav = self.navigation
        return self.queries[nav.query_index if nav is not None else 0]

    @property
    def navigation(self) -> Navigation | None:
        return self.steps.retrieval.navigation

    def limits(self) -> Limits:
        bound = self.bounds()
        budget = bound["context_budget_tokens"](self.context_budget_tokens)
        iterations = bound["max_internal_iterations"](self.max_internal_iterations)
        nav = self.navigation
        if "max_internal_iterations" not in self.model_fields_set and nav is not None and nav.selection == "ranked":
            iterations = ranked_iterations(budget)  # not clamped: see ranked_iterations
        return Limits(
            max_internal_iterations=iterations,
            max_tool_calls=bound["max_tool_calls"](self.max_tool_calls),
            context_budget_tokens=budget,
            timeout_seconds=bound["timeout_seconds"](self.timeout_seconds),
        )

    def applied(self) -> Applied:
        """Every bound the run uses, after clamping."""
        out: dict[str, Any] = self.limits().model_dump()
        nav = self.navigation
        if nav is not None:
            names = ("max_depth", "beam_width") if nav.strategy == "tree" else ("max_steps", "neighbor_limit")
            nav_bounds = clamped(nav)
            out.update({name: nav_bounds[name] for name in names})
            if nav.strategy == "tree":
                out.update(follow_links=nav.follow_links, index=nav.index or "section_hierarchy")
                if nav.edge_types:
                    out["edge_types"] = list(nav.edge_types)
            else:
                out.update(direction=nav.direction, edge_types=list(nav.edge_types), index=nav.index)
            out.update(strategy=nav.strategy, selection=nav.selection)
        out["query_limits"] = [self.query_limit(q) for q in self.queries]
        out["extract_tokens"] = self.bounds()["extract_tokens"](self.extract_tokens)
        return Applied(**out, reported=tuple(out))

    def query_limit(self, query: QuerySpec) -> int:
        """A seed query's limit: as asked (clamped), else 10, or for a walk enough seed hits to fill
        the context budget (a ranked walk takes passages until the budget is full, and so does an
        agentic one once the ranking takes over from its model)."""
        bound = bounds(QuerySpec)["limit"]
        if query.limit is not None:
            return bound(query.limit)
        if self.navigation is not None:
            return clamp(self.limits().context_budget_tokens // SEED_TOKENS, DEFAULT_SEED_LIMIT, bound.high)
        return DEFAULT_SEED_LIMIT


def parse_request(data: RetrievalRequest | dict[str, Any] | str) -> RetrievalRequest:
    """Validate a request (dict or JSON text); errors name the field. Text that does not open with ``{`` is the
    question alone, ``{"query": text}``: a Python caller's first try, ``retrieve_sync("How do I ...?", ...)``, was
    refused as "Invalid JSON: expected value at line 1 column 1" (task U30)."""
    if isinstance(data, RetrievalRequest):
        return data
    try:
        if isinstance(data, str) and not data.lstrip().startswith("{"):
            return RetrievalRequest.model_validate({"query": data})
        if isinstance(data, str):
            return RetrievalRequest.model_validate_json(data)
        return RetrievalRequest.model_validate(data)
    except ValidationError as error:
        raise input_error_from(error, model=RetrievalRequest) from error
    except ValueError as error:  # pragma: no cover - pydantic wraps validator errors
        raise InputError("request", str(error)) from error
