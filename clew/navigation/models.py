"""Argument and result models shared by the navigation tools.

Input rules, the same for every tool (and for the CLI, REST and MCP front ends, which call
the same functions):

- *Shape* errors of a call raise :class:`clew.errors.InputError` naming the field: a wrong
  type (``limit="10"``, ``limit=True``), a blank string (``evidence_id="  "``), an unknown
  enum value (``relation="cousins"``), an unknown argument. Arguments are validated
  strictly: nothing is coerced.
- Out-of-range numbers are not errors: they are clamped, and every result reports the
  values it applied in ``applied``. A bounded argument declares its range once, as
  ``Annotated[int, Clamp(low, high)]``: ``Args.clamped`` applies it and the JSON schema
  states it.
- A non-blank id that does not decode as an evidence id is not an exception: it is reported
  in the result as status ``malformed`` (per id in the batch tools), so that a model that
  garbles an id gets feedback it can act on. So is a well-formed id of a kind the tool does
  not take (a section id where a passage id is needed); the detail says what was expected.
- An id the caller may not read is reported exactly like an id that never existed:
  ``unavailable``, same detail, same code path.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from clew.budgets.bounds import Clamp, bounds, clamped
from clew.corpus.location import Location as Location  # the wire view of a place, shared with search hits
from clew.errors import InputError, input_error_from
from clew.navigation.docstrings import attribute_docstrings

Status = Literal["ok", "no_match", "unavailable", "malformed", "failed"]
VersionStatus = Literal["current", "superseded"]
TruncationReason = Literal["limit", "chars"]
Relation = Literal["parent", "siblings", "children", "previous", "next", "table_context"]

UNAVAILABLE = "no readable passage has this id"
"""The one detail given for a missing *and* for a denied id."""
NO_DOCUMENT = "no readable document has this key"
"""The one detail given for a missing *and* for a denied document key (``read``, ``grep``, ``fetch_slice`` take
either): "no readable passage has this id" for ``clew slice 'Tags Overview'`` named an id the user never gave (task
U12)."""


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


NonBlank = Annotated[str, AfterValidator(_not_blank)]


def state_bounds(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """JSON schema: each bounded field's description ends with its range, read from its ``Clamp``
    metadata (for ``json_schema_extra``)."""
    for name, bound in bounds(model).items():
        prop = schema.get("properties", {}).get(name)
        if prop is not None:
            prop["description"] = f"{prop.get('description', '').rstrip('.')} ({bound}).".lstrip()


class Args(BaseModel):
    """Base of every tool's arguments: strict types, no unknown fields, bounds as ``Clamp`` metadata."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, json_schema_extra=state_bounds,
                              defer_build=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """Each field's docstring is its description (``clew.navigation.docstrings``; read before the
        model is first built, which ``defer_build`` leaves to its first use)."""
        super().__pydantic_init_subclass__(**kwargs)
        for name, doc in attribute_docstrings(cls).items():
            info = cls.model_fields.get(name)
            if info is not None and info.description is None:
                info.description = doc

    @classmethod
    def bounds(cls) -> dict[str, Clamp]:
        """Each bounded field's range, from its type's metadata."""
        return bounds(cls)

    def clamped(self) -> dict[str, int]:
        """The bounded fields' values after clamping (what a result reports in ``applied``)."""
        return clamped(self)


class InCollection(Args):
    """Arguments of a tool that reads: it may be narrowed to one collection."""

    collection: NonBlank | None = None
    """Only this collection."""


Chars = Annotated[int, Clamp(1, 20_000)]
"""A character budget of the navigation tools."""


A = TypeVar("A", bound=Args)


def parse_args(model: type[A], values: dict[str, Any] | str) -> A:
    """Validate tool arguments (a dict, or JSON text as models send it); errors name the field."""
    if not isinstance(values, dict | str):
        raise InputError("arguments", f"expected an object, got {type(values).__name__}")
    try:
        return model.model_validate_json(values) if isinstance(values, str) else model.model_validate(values)
    except ValidationError as error:
        named = input_error_from(error, model=model)
        if named.field == "input":  # no field to name: the arguments as a whole (e.g. invalid JSON)
            named = InputError("arguments", named.message)
        raise named from error


# -- results -------------------------------------------------------------------------------


class Result(BaseModel):
    """Base of the tools' results. Each is built on first use (``defer_build``): a command that
    returns one kind of result does not build the others' validators."""

    model_config = ConfigDict(defer_build=True)


class Item(Result):
    """One passage, as every navigation tool returns it."""

    evidence_id: str
    document_key: str
    heading_path: list[str]
    kind: Literal["text", "table"]
    text: str
    text_truncated: bool = False
    location: Location
    section_id: str | None = Field(None, description="the section this item stands for (parent, siblings)")


class PassagesResult(Result):
    """What every passage-returning tool answers."""

    status: Status
    items: list[Item] = Field(default_factory=list)
    truncated: bool = False
    truncation_reason: TruncationReason | None = None
    version_status: VersionStatus | None = None
    detail: str | None = None
    applied: dict[str, int] = Field(default_factory=dict, description="the bounds actually applied")


class NodeCard(Result):
    """A child of a tree node before it is read: enough to choose it, not its text."""

    id: str = Field(description="its evidence id: a passage (ev1:c:...) or a section / table (ev1:s:...)")
    kind: Literal["passage", "document", "section", "table"]
    heading_path: list[str]
    passages: int = Field(description="passages under it (1 for a passage)")
    tokens: int = Field(description="tokens of those passages")
    preview: str = Field(description="the start of its first passage")


class NavigationResult(PassagesResult):
    relation: Relation
    multi_section: bool = False
    """True when the starting passage spans more than one section."""
    children: list[NodeCard] = Field(default_factory=list, description="children of a section or document "
                                     "node (relation children on an ev1:s: or ev1:d: id), in reading order")


class ReadResult(PassagesResult):
    document_id: str | None = Field(None, description="the document version read (ev1:d:...)")
    document_key: str | None = None


class Neighbor(Result):
    id: str
    type: Literal["chunk", "section", "table", "document"]
    name: str
    relationship: str = Field(description="graph:type of the edge that reached it")
    direction: Literal["out", "in"]
    distance: int
    score: float
    content: str
    content_truncated: bool = False
    metadata: dict[str, Any] = Field(default_factory=dict)


class Unresolved(Result):
    id: object
    status: Literal["unavailable", "malformed", "dropped"]
    detail: str


class NeighborsResult(Result):
    status: Status
    origins: list[str] = Field(default_factory=list)
    unresolved: list[Unresolved] = Field(default_factory=list)
    neighbors: list[Neighbor] = Field(default_factory=list)
    total: int = Field(0, description="neighbours returned")
    depth: int
    limit: int
    truncated: bool = False
    filters: dict[str, Any] = Field(default_factory=dict)
    detail: str | None = None


class SlicePassage(Result):
    evidence_id: str
    index: int
    total: int
    breadcrumb: str
    kind: Literal["text", "table"]
    text: str
    text_truncated: bool = False
    location: Location


class SliceResult(Result):
    status: Status
    parent_id: str | None = Field(None, description="the document version a citation of this slice names")
    document_key: str | None = None
    passages: list[SlicePassage] = Field(default_factory=list)
    sliced: bool = Field(False, description="false when the document was never cut (one passage)")
    covers_parent: bool = False
    version_status: VersionStatus | None = None
    truncated: bool = False
    detail: str | None = None
    applied: dict[str, int] = Field(default_factory=dict)


class EvidenceEntry(Result):
    id: object
    status: Literal["ok", "unavailable", "malformed"]
    item: Item | None = None
    recorded: bool = Field(False, description="fetched in full, so now citable")
    version_status: Literal["current", "superseded", "removed"] | None = Field(
        None, description="superseded: a newer version of the document exists; removed: the document was retired "
        "(clew rm, ingest --prune) and has no current version")
    detail: str | None = None


class EvidenceResult(Result):
    status: Status
    evidence: list[EvidenceEntry] = Field(default_factory=list)
    applied: dict[str, int] = Field(default_factory=dict)


class CitationVerdict(Result):
    id: object
    citable: bool
    reason: Literal["ok", "not_fetched", "unavailable", "malformed"]


class CitationReport(Result):
    all_citable: bool
    citable: list[str] = Field(default_factory=list)
    verdicts: list[CitationVerdict] = Field(default_factory=list)
