"""Who may read what: principals and document-field filters, compiled into SQL.

A filter is the shape users of search engines already write (all keys are document
``fields``; a list field matches a term when it contains it)::

    {"term": {"status": "published"}}
    {"terms": {"acl": ["oncall", "sre"]}}          # any of
    {"range": {"year": {"gte": 2020, "lt": 2025}}}
    {"exists": {"field": "owner"}}
    {"path": "v2.0"}                               # the document's key: a glob (``Path``)
    {"bool": {"must": [...], "should": [...], "must_not": [...]}}

A :class:`Principal` names the collections it may read (``None``: all), a row filter
over document fields, and the tool permissions it holds (``None``: all). Filters are
compiled to a SQL predicate over ``document_versions.fields`` (alias ``v``; a ``path`` clause
over the document's key) with bound parameters, so that every query applies them inside the
query, before any limit. A row filter is over fields alone (``RowFilter``): ``path`` narrows a
request, it grants or denies nothing.

Numbers in a filter are finite: NaN and the infinities are errors naming the field, in a
request and in ``clew.toml`` alike (``lt = nan`` would compare true against every row).
"""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    Tag,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from clew.budgets.bounds import MAX_CLAUSES, MAX_FILTER_CLAUSES, MAX_FILTER_DEPTH, MAX_LIST_ITEMS
from clew.corpus.globs import glob_regex
from clew.errors import InputError

_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*(\.[A-Za-z_][A-Za-z0-9_\-]*)*")


def _finite(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"must be a finite number, not {value}")
    return value


Scalar = Annotated[str | int | float | bool, AfterValidator(_finite)]
"""A value a filter compares with: a number must be finite (NaN, inf: an error naming the field)."""
Bound = Annotated[float | str, AfterValidator(_finite)]
"""A range bound: a finite number or a string."""


def _check_field(name: str) -> str:
    if not isinstance(name, str) or not _FIELD.fullmatch(name):
        raise ValueError(f"invalid field name {name!r} (letters, digits, _ and -, dotted for nesting)")
    return name


class _Filter(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built on first use


class Term(_Filter):
    term: dict[str, Scalar]

    @field_validator("term")
    @classmethod
    def _one(cls, value: dict[str, Scalar]) -> dict[str, Scalar]:
        if len(value) != 1:
            raise ValueError("term takes exactly one field")
        _check_field(next(iter(value)))
        return value


class Terms(_Filter):
    terms: dict[str, list[Scalar]]

    @field_validator("terms")
    @classmethod
    def _one(cls, value: dict[str, list[Scalar]]) -> dict[str, list[Scalar]]:
        if len(value) != 1:
            raise ValueError("terms takes exactly one field")
        name, values = next(iter(value.items()))
        _check_field(name)
        if not values:
            raise ValueError(f"terms on {name!r} needs at least one value")
        if len(values) > MAX_LIST_ITEMS:
            raise ValueError(f"terms on {name!r} takes at most {MAX_LIST_ITEMS} values, got {len(values)}")
        return value


class Bounds(_Filter):
    gt: Bound | None = None
    gte: Bound | None = None
    lt: Bound | None = None
    lte: Bound | None = None

    @model_validator(mode="after")
    def _some(self) -> Bounds:
        given = [v for v in (self.gt, self.gte, self.lt, self.lte) if v is not None]
        if not given:
            raise ValueError("range needs at least one of gt, gte, lt, lte")
        if len({isinstance(v, str) for v in given}) > 1:
            raise ValueError("range bounds must be all numbers or all strings")
        return self


class Range(_Filter):
    range: dict[str, Bounds]

    @field_validator("range")
    @classmethod
    def _one(cls, value: dict[str, Bounds]) -> dict[str, Bounds]:
        if len(value) != 1:
            raise ValueError("range takes exactly one field")
        _check_field(next(iter(value)))
        return value


class ExistsSpec(_Filter):
    field: Annotated[str, BeforeValidator(_check_field)]


class Exists(_Filter):
    exists: ExistsSpec


class Path(_Filter):
    """The document's key (its path in the collection, as ``clew ls`` prints it) matches a glob
    (``clew.corpus.globs``: the one ``--exclude``'s patterns with a ``/`` are read by): ``*`` is any run of
    characters, ``/`` included (``**`` too), ``**/`` also none; ``?`` one character; ``[abc]``, ``[a-z]``,
    ``[!abc]`` one of them or none of them; a pattern naming a folder takes everything below it
    (``v2.0`` and ``v2.0/`` match ``v2.0/install.html``); a leading ``/`` is the collection's root."""

    path: str

    @field_validator("path")
    @classmethod
    def _glob(cls, value: str) -> str:
        glob_regex(value)
        return value


def field_filter(flt: AnyFilter) -> AnyFilter:
    """``flt`` when it has no ``path`` clause (a row filter matches document fields), else a ``ValueError``."""
    inner = (*flt.bool.must, *flt.bool.should, *flt.bool.must_not) if isinstance(flt, Bool) else ()
    if isinstance(flt, Path):
        raise ValueError("a row filter matches document fields; path narrows a request's filter only")
    for clause in inner:
        field_filter(clause)
    return flt


class BoolSpec(_Filter):
    must: list[AnyFilter] = Field(default_factory=list, max_length=MAX_CLAUSES)
    should: list[AnyFilter] = Field(default_factory=list, max_length=MAX_CLAUSES)
    must_not: list[AnyFilter] = Field(default_factory=list, max_length=MAX_CLAUSES)


class Bool(_Filter):
    bool: BoolSpec

    @model_validator(mode="after")
    def _shallow(self) -> Bool:
        if _depth(self) > MAX_FILTER_DEPTH:
            raise ValueError(f"bool filters nest at most {MAX_FILTER_DEPTH} deep")
        clauses = _clauses(self)
        if clauses > MAX_FILTER_CLAUSES:
            raise ValueError(f"a filter takes at most {MAX_FILTER_CLAUSES} clauses in all (every bool list at every "
                             f"depth), got {clauses}")
        return self


def _clauses(flt: object) -> int:
    """Clauses of the bool lists in ``flt``, nested ones included."""
    if not isinstance(flt, Bool):
        return 0
    spec = flt.bool
    inner = (*spec.must, *spec.should, *spec.must_not)
    return len(inner) + sum(_clauses(f) for f in inner)


def _depth(flt: object) -> int:
    if not isinstance(flt, Bool):
        return 0
    spec = flt.bool
    return 1 + max((_depth(f) for f in (*spec.must, *spec.should, *spec.must_not)), default=0)


def _kind(value: object) -> str | None:
    if isinstance(value, dict):
        return next(iter(value)) if len(value) == 1 else None
    return type(value).__name__.lower() if isinstance(value, _Filter) else None


AnyFilter = Annotated[
    Annotated[Term, Tag("term")] | Annotated[Terms, Tag("terms")] | Annotated[Range, Tag("range")]
    | Annotated[Exists, Tag("exists")] | Annotated[Bool, Tag("bool")] | Annotated[Path, Tag("path")],
    Discriminator(_kind, custom_error_type="filter_kind",
                  custom_error_message="a filter is one of term, terms, range, exists, bool or path"),
]
"""A filter of any kind, as the models nest it (errors located inside it)."""
_TAGS = {"term", "terms", "range", "exists", "bool", "path"}


@functools.cache
def _filter_adapter() -> TypeAdapter[AnyFilter]:
    return TypeAdapter(AnyFilter)  # on first use: the filter models' validators are not built at import


def _checked(value: object) -> object:
    """The one filter parser: a filter of any kind, or a ``ValueError`` saying where inside it what is wrong."""
    if isinstance(value, Term | Terms | Range | Exists | Bool | Path):
        return value
    try:
        return _filter_adapter().validate_python(value)
    except ValidationError as error:
        first = error.errors()[0]
        loc = first["loc"]
        where = ".".join(str(part) for i, part in enumerate(loc) if not _tag_echo(loc, i))
        message = first["msg"].removeprefix("Value error, ")
        raise ValueError(f"malformed filter{f' at {where}' if where else ''}: {message}") from None


def _tag_echo(loc: tuple[int | str, ...], i: int) -> bool:
    """pydantic locates an error inside a tagged filter as ``range.range...``: the tag, then the field."""
    return loc[i] in _TAGS and (i == 0 or isinstance(loc[i - 1], int)) and loc[i + 1:i + 2] == (loc[i],)


class _Parsed:
    """How a model validates a ``Filter`` field: with ``_checked`` alone (a filter model passes as
    it is), so that a model holding one does not build the filter union's validator into its own
    (``Principal`` at import, the search arguments and request at a search: about a fifth of
    ``clew search``); the union is built once, when a filter is first parsed. Its JSON schema is
    the union's."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_plain_validator_function(_checked)

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return handler(_filter_adapter().core_schema)


Filter = Annotated[AnyFilter, _Parsed]
"""A filter wherever one is accepted (requests, tool arguments, ``clew.toml``): its errors name
the field holding it and say where inside it (``malformed filter at range.year.lt: ...``)."""
FilterArgument = Annotated[Filter | None, WithJsonSchema({"type": ["object", "null"]})]
"""An optional filter as a tool's argument: validated as ``Filter``, but its JSON schema says only "an object"
(its field's description gives the form): the whole grammar is about 650 tokens (cl100k_base) that every
client listing the tools puts before its model on every turn, and an error still names the clause."""
RowFilter = Annotated[Filter, AfterValidator(field_filter)]
"""A principal's row filter: a ``Filter`` over document fields alone (a ``path`` clause is an error naming it)."""


class Principal(BaseModel):
    """The caller: what it may read and which tools it may use. Immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "anonymous"
    collections: frozenset[str] | None = None
    """Collections this principal may read; None means every collection."""
    row_filter: RowFilter | None = None
    """Only documents whose fields match this filter are readable (and usable as routes)."""
    tools: frozenset[str] | None = None
    """Tool permissions held: tool names, the walks' (``WALK_PERMISSIONS``) and ``ingest``; None means all."""
    models: frozenset[str] | None = None
    """Models (litellm strings, ``provider/model``) a retrieval may name as its generator; None
    means any (a Python caller's own). A server's principals always carry a set: the
    configured model and the principal's ``models``."""

    def may_read_collection(self, name: str) -> bool:
        return self.collections is None or name in self.collections

    @property
    def reads_everything(self) -> bool:
        """No collection list and no row filter: every document is readable to it."""
        return self.collections is None and self.row_filter is None

    def may_use(self, tool: str) -> bool:
        return self.tools is None or tool in self.tools

    def may_use_model(self, model: str) -> bool:
        return self.models is None or model in self.models


WALK_PERMISSIONS = {"tree": "tree_search", "graph": "graph_search"}
"""The permission each walk strategy of the agent needs (permissions that are not tools)."""
INGEST_PERMISSION = "ingest"
"""Permission to add documents (``POST /v1/collections/{name}/documents``)."""


def parse_filter(value: object, field: str = "filter") -> Filter | None:
    """Validate a filter given as a dict (or JSON text); errors name ``field``."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as error:
            raise InputError(field, f"not valid JSON: {error.msg}") from error
    try:
        return _checked(value)  # type: ignore[return-value]
    except ValueError as error:
        raise InputError(field, str(error)) from error



def matched_filter(value: object, field: str = "filter") -> dict[str, Any] | None:
    """``parse_filter``'s filter written as it is matched (``status=published`` and ``{"term": {"status":
    "published"}}`` alike): what a batch runs every question with and records in its answers lines."""
    parsed = parse_filter(value, field)
    return None if parsed is None else parsed.model_dump(exclude_defaults=True)

def parse_field_expression(expression: str) -> Term | Path:
    """``FIELD=VALUE`` (the CLI's ``--filter``) as a term filter, numbers staying numbers; ``path=GLOB`` as a
    ``path`` filter (a field named path: the JSON form, ``{"term": {"path": ...}}``)."""
    if not isinstance(expression, str) or "=" not in expression:
        raise InputError("filter", f"expected FIELD=VALUE, got {expression!r}")
    name, _, raw = expression.partition("=")
    name = name.strip()
    if not _FIELD.fullmatch(name) or not raw.strip():
        raise InputError("filter", f"expected FIELD=VALUE, got {expression!r}")
    if name == "path":
        return parse_filter({"path": raw.strip()})  # type: ignore[return-value]
    value: Scalar = raw.strip()
    for cast in (int, float):
        try:
            number = cast(raw.strip())
        except ValueError:
            continue
        if math.isfinite(number):  # "nan" and "inf" stay text: the filter matches that word, never every row
            value = number
        break
    return Term(term={name: value})


def _path(name: str) -> str:
    return "$." + ".".join(f'"{part}"' for part in name.split("."))


def compile_filter(flt: Filter, params: list[Any], alias: str = "v", key: str | None = None) -> str:
    """A SQL predicate over ``{alias}.fields`` and, for a ``path`` clause, the document's key (the SQL
    ``key``: a query without one takes row filters alone); values are appended to ``params``."""
    col = f"{alias}.fields"
    if isinstance(flt, Path):
        if key is None:
            raise ValueError("a path filter needs the document's key in the query (a row filter cannot hold one)")
        params.append(glob_regex(flt.path))
        return f"regexp_full_match({key}, ?)"
    if isinstance(flt, Term | Terms):
        if isinstance(flt, Term):
            name, value = next(iter(flt.term.items()))
            values: list[Scalar] = [value]
        else:
            name, values = next(iter(flt.terms.items()))
        encoded = [json.dumps(v) for v in values]
        params.extend([_path(name), encoded, _path(name) + "[*]", encoded])
        return (
            f"coalesce(json_extract({col}, ?)::VARCHAR IN (SELECT unnest(?::VARCHAR[])) "
            f"OR list_has_any(json_extract({col}, ?)::VARCHAR[], ?::VARCHAR[]), FALSE)"
        )
    if isinstance(flt, Range):
        name, bounds = next(iter(flt.range.items()))
        parts = []
        for op, sql in (("gt", ">"), ("gte", ">="), ("lt", "<"), ("lte", "<=")):
            bound = getattr(bounds, op)
            if bound is None:
                continue
            if isinstance(bound, str):
                parts.append(f"json_extract_string({col}, ?) {sql} ?")
            else:
                parts.append(f"TRY_CAST(json_extract_string({col}, ?) AS DOUBLE) {sql} ?")
            params.extend([_path(name), bound])
        return "coalesce(" + " AND ".join(parts) + ", FALSE)"
    if isinstance(flt, Exists):
        params.append(_path(flt.exists.field))
        return f"(coalesce(json_type({col}, ?), 'NULL') != 'NULL')"
    spec = flt.bool
    clauses = [compile_filter(f, params, alias, key) for f in spec.must]
    if spec.should:
        clauses.append("(" + " OR ".join(compile_filter(f, params, alias, key)
                                         for f in _one_terms_per_field(spec.should)) + ")")
    clauses.extend(f"NOT {compile_filter(f, params, alias, key)}" for f in spec.must_not)
    return "(" + " AND ".join(clauses) + ")" if clauses else "TRUE"


def _one_terms_per_field(should: list[Any]) -> list[Any]:
    """``should`` with its term and terms clauses on one field merged into one terms clause (one
    IN-list: any of them matches exactly when one of its values does), at the first one's place."""
    merged: dict[str, dict[str, Scalar]] = {}  # field -> its values by their JSON form (no duplicates)
    out: list[Any] = []
    for flt in should:
        if not isinstance(flt, Term | Terms):
            out.append(flt)
            continue
        values: list[Scalar]
        if isinstance(flt, Term):
            name, value = next(iter(flt.term.items()))
            values = [value]
        else:
            name, values = next(iter(flt.terms.items()))
        if name not in merged:
            merged[name] = {}
            out.append(name)
        for value in values:
            merged[name].setdefault(json.dumps(value), value)
    return [Terms.model_construct(terms={f: list(merged[f].values())}) if isinstance(f, str) else f for f in out]
