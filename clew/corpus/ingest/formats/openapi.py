"""OpenAPI (3.x) and Swagger (2.0) descriptions (``openapi.yaml``, ``openapi.json``, ``swagger.json``), read as a
reader of the API reference that Redoc or Swagger UI draws from them wants it (task O1; Redoc 2's rendered page is
``html_redoc``'s). The description is written as Markdown and read by the Markdown reader, so that its descriptions'
headings, lists and code read as they do elsewhere:

- the document's title is ``info.title`` and its version; ``info.description`` follows (its headings under the
  title), then the servers, the authentication schemes (with their OAuth scopes) and ``externalDocs`` as a link;
- a section per tag (its description), under it a section per operation, ``METHOD /path`` (anchor
  ``operation-<operationId>``), with its summary, description, whether it is deprecated, the security it needs
  (scopes), a table of parameters (name, in, type, required, description), the request body's schema, a table of
  responses (status, description, schema) and examples as code; an operation under several tags is read under its
  first, one without a tag under "Other operations";
- a section "Schemas" with one per component schema (``#/components/schemas``, Swagger 2.0's ``#/definitions``;
  anchor ``schema-<name>``) holding its properties as a table (name, type, required, description); a reference to a
  schema anywhere is a link to its section. An inline object's properties are rows of their own (``a.b``), at most
  ``MAX_DEPTH`` deep.

Other local references (``#/components/parameters/...``, ``#/responses/...``) are followed, ``MAX_REFS`` in a chain
and each once in a chain (a cycle ends); one that names nothing is a warning naming it. Parsing is JSON's where the
file is JSON, else YAML's safe loader (libyaml's where installed: plain data, never objects). Aliases may repeat one
part many times (a YAML bomb of a few hundred bytes holds 10^9 strings), and references may write one parameter or
response again in every operation, so what is written is bounded (``output_limit``), and an example's JSON is cut at
``EXAMPLE_VALUES`` values: past the bound the rest is left out with a warning saying how much was written. The
file's size is bounded as every text file's is (``FileLimits``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import yaml

from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.ingest.parsed import ParsedDocument, UnreadableDocument

OPENAPI_SIGN = re.compile(rb"""(?:^|[{,\s])["']?(?:openapi|swagger)["']?[ \t]*:[ \t]*["']?[23]\.\d""", re.MULTILINE)
"""What a file's bytes hold where it may be an OpenAPI description: an ``openapi: 3.x`` or ``swagger: "2.0"`` key (a
JSON description may hold it last: Kubernetes' ``swagger.json`` sorts its keys). The parse checks it is top-level."""
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
MAX_DEPTH = 6
"""How deep an inline object's properties are written as rows (``a.b.c``); deeper ones are named, not opened."""
TYPE_DEPTH = 3
"""How deep a type is spelled out (``array of one of A, array of B``); deeper is ``...``."""
MAX_REFS = 16
"""References followed in one chain (a parameter's ``$ref`` to another's)."""
EXAMPLE_VALUES = 400
"""Values written of one example (its JSON cut with ``...`` past them)."""
ENUM_VALUES = 30
MIN_OUTPUT = 512 * 1024
OUTPUT_FACTOR = 2
"""Markdown written per character of the description, at most: of the 11 real descriptions of task O1 Kubernetes'
writes the most, 1.40 (3.8 MB -> 5.4 MB; GitHub's 0.57 to 0.77, Stripe's 0.48, its dereferenced 73 MB 0.07)."""
MAX_OUTPUT = 16 * 1024 * 1024
"""Markdown written for one description, at most: the most clew reads from a Markdown file (``FileLimits``'s 16 MiB,
about 50 times that in memory while it is parsed; the Markdown reader takes about 5 s a MB of it). The largest real
description seen, GitHub Enterprise Cloud's 14.1 MB, writes 8.2 MB."""


def is_openapi(data: bytes) -> bool:
    """Whether ``data`` (a ``.json``, ``.yaml`` or ``.yml`` file's bytes) may be an OpenAPI description: the words
    looked for first, ``OPENAPI_SIGN`` matched where one is (the pattern alone reads 30 MB a second, ``find`` 2 GB)."""
    for word in (b"openapi", b"swagger"):
        at = data.find(word)
        while at >= 0:
            if OPENAPI_SIGN.search(data, max(0, at - 2), at + 256) is not None:
                return True
            at = data.find(word, at + len(word))
    return False


def output_limit(size: int) -> int:
    """The characters of Markdown written for a description of ``size`` characters: ``OUTPUT_FACTOR`` times it, at
    least ``MIN_OUTPUT``, at most ``MAX_OUTPUT`` (GitHub's 8.9 MB description writes 6.7 MB)."""
    return min(MAX_OUTPUT, max(MIN_OUTPUT, OUTPUT_FACTOR * size))


def load_description(content: str) -> dict[str, Any]:
    """The description ``content`` holds; ``UnreadableDocument`` where it is not valid JSON or YAML, or its top
    level is not a mapping with an ``openapi`` or ``swagger`` key."""
    content = content.removeprefix("\ufeff")
    try:
        spec = json.loads(content)
    except RecursionError:
        raise UnreadableDocument("JSON nested too deep to read: not ingested") from None
    except ValueError:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            spec = yaml.load(content, Loader=loader)  # a safe loader: plain data only
        except yaml.YAMLError as error:
            raise UnreadableDocument(f"not valid YAML or JSON ({' '.join(str(error).split())}): not ingested") from None
        except RecursionError:
            raise UnreadableDocument("YAML nested too deep to read: not ingested") from None
    if not isinstance(spec, dict) or not ({"openapi", "swagger"} & set(spec)):
        raise UnreadableDocument("not an OpenAPI description: its top level has no openapi or swagger key")
    return spec


def parse_openapi(content: str) -> ParsedDocument:
    """Read an OpenAPI or Swagger description (see the module)."""
    spec = load_description(content)
    writer = _Writer(spec, output_limit(len(content)))
    try:
        writer.document()
    except _Full:
        writer.warnings.append(
            f"the description writes more than {writer.limit:,} characters of Markdown (twice its size, at least "
            f"{MIN_OUTPUT // 1024:,} KiB, at most {MAX_OUTPUT // 1024 ** 2:,} MiB; aliases or references repeating "
            "one part many times?): the "
            f"rest is left out; written: {writer.written['operations']:,} of {writer.operation_total():,} "
            f"operations, {writer.written['schemas']:,} of {len(writer.schemas):,} schemas")
    parsed = parse_markdown("\n".join(writer.lines) + "\n")
    parsed.warnings.extend(writer.warnings)
    return parsed


class _Full(Exception):
    """The writer reached its bound."""


def _text(value: object) -> str:
    """``value`` (a string, number or, where a description puts one, a list or mapping) as text: a list or mapping as
    its JSON cut at ``ENUM_VALUES`` values, as aliases may repeat one part many times."""
    if isinstance(value, (dict, list)):
        return json.dumps(pruned(value, [ENUM_VALUES]), ensure_ascii=False, default=str)
    return str(value)


def _cell(text: object) -> str:
    """``text`` as a table cell: one line, its pipes escaped."""
    return " ".join(_text(text).split()).replace("|", "\\|")


def _code(text: object) -> str:
    """``text`` as a code span in a paragraph: one line, its delimiter longer than any run of backticks it holds and
    spaced from one it starts or ends with, as CommonMark reads it (a pipe is no table's there: left as it is)."""
    line = " ".join(_text(text).split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", line)), default=0) + 1)
    return f"{fence} {line} {fence}" if line.startswith("`") or line.endswith("`") else f"{fence}{line}{fence}"


def _anchor(kind: str, name: str) -> str:
    return f"{kind}-" + (re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "x")


_HEADING = re.compile(r"^(#{1,6})(?=[ \t]|$)")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")


def nested(markdown: str, level: int) -> str:
    """``markdown`` (a description) with its ATX headings moved under a heading of ``level``: its highest becomes
    ``level + 1`` (at most 6); a fenced code block's lines stay as they are."""
    lines = markdown.split("\n")
    fence = None
    levels = []
    for line in lines:
        if (opening := _FENCE.match(line)) is not None:
            fence = None if fence and opening[1].startswith(fence) else fence or opening[1][:3]
        elif fence is None and (heading := _HEADING.match(line)) is not None:
            levels.append(len(heading[1]))
    if not levels or min(levels) > level:
        return markdown
    shift = level + 1 - min(levels)
    fence = None
    out = []
    for line in lines:
        if (opening := _FENCE.match(line)) is not None:
            fence = None if fence and opening[1].startswith(fence) else fence or opening[1][:3]
        elif fence is None and (heading := _HEADING.match(line)) is not None:
            line = "#" * min(6, len(heading[1]) + shift) + line[len(heading[1]):]
        out.append(line)
    return "\n".join(out)


def _list(value: object) -> list[Any]:
    """``value`` where a list is looked for (tags, servers, parameters), else an empty one: a description that puts a
    number or mapping there reads as one without it."""
    return value if isinstance(value, list) else []


def _names(value: object) -> list[str]:
    """A schema's ``required`` list: its names (strings; anything else in it names no property)."""
    return [name for name in value if isinstance(name, str)] if isinstance(value, list) else []


def pruned(value: object, budget: list[int]) -> object:
    """``value`` with at most ``budget[0]`` values (strings, numbers, members), the rest ``"..."``: an example's
    JSON, bounded where aliases repeat one part many times."""
    budget[0] -= 1
    if budget[0] < 0:
        return "..."
    if isinstance(value, dict):
        out: dict[str, object] = {}
        for key, item in value.items():
            if budget[0] <= 0:
                out["..."] = "..."
                break
            out[str(key)] = pruned(item, budget)
        return out
    if isinstance(value, list):
        items: list[object] = []
        for item in value:
            if budget[0] <= 0:
                items.append("...")
                break
            items.append(pruned(item, budget))
        return items
    return value


class _Writer:
    """One description written as Markdown (``lines``), with what it could not read (``warnings``)."""

    def __init__(self, spec: dict[str, Any], limit: int) -> None:
        self.spec = spec
        self.limit = limit
        self.size = 0
        self.lines: list[str] = []
        self.warnings: list[str] = []
        self.swagger = "openapi" not in spec
        components = self._map(spec.get("components"))
        self.schemas = self._map(spec.get("definitions") if self.swagger else components.get("schemas"))
        self.schema_prefix = "#/definitions/" if self.swagger else "#/components/schemas/"
        self.by_tag: dict[str, list[tuple[str, str, dict[str, Any], list[object]]]] | None = None
        self.written = {"operations": 0, "schemas": 0}  # written whole: said where the bound cuts the rest

    def add(self, *lines: str) -> None:
        for line in lines:
            self.size += len(line) + 1
            if self.size > self.limit:
                raise _Full
            self.lines.append(line)

    @staticmethod
    def _map(value: object) -> dict[str, Any]:
        return {str(key): item for key, item in value.items()} if isinstance(value, dict) else {}

    def text(self, value: object, level: int) -> None:
        """A description (Markdown), its headings under ``level``."""
        if isinstance(value, str) and value.strip():
            self.add(nested(value.strip(), level), "")

    def resolve(self, node: object) -> dict[str, Any]:
        """``node`` with its local ``$ref`` chain followed (``MAX_REFS``, each once); a dangling one is a warning
        and ``{}``."""
        seen: set[str] = set()
        while isinstance(node, dict) and isinstance(ref := node.get("$ref"), str):
            if ref in seen or len(seen) >= MAX_REFS:
                self.warn(f"the $ref {ref!r} refers to itself (a cycle): not followed")
                return {}
            seen.add(ref)
            node = self.target(ref)
            if node is None:
                self.warn(f"the $ref {ref!r} names nothing in the description (a dangling reference)"
                          if ref.startswith("#") else f"the $ref {ref!r} names another file: not read")
                return {}
        return self._map(node)

    def target(self, ref: str) -> object:
        if not ref.startswith("#/"):
            return None  # another file's: not read
        node: object = self.spec
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            node = self._map(node).get(part) if isinstance(node, dict) else None
            if node is None:
                return None
        return node

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def document(self) -> None:
        info = self._map(self.spec.get("info"))
        title = _cell(info.get("title") or "API")
        version = info.get("version")
        self.add(f"# {title}" + (f" {_cell(version)}" if version not in (None, "") else ""), "")
        self.text(info.get("description"), 1)
        self.servers()
        self.external(self.spec.get("externalDocs"))
        self.security_schemes()
        by_tag = self.by_tag = self.operations()
        tags = [self._map(tag) for tag in _list(self.spec.get("tags")) if isinstance(tag, dict)]
        named = {_text(tag.get("name")): tag for tag in tags}
        for name in [*named, *(tag for tag in by_tag if tag not in named)]:
            if name not in by_tag and not named.get(name, {}).get("description"):
                continue
            tag = named.get(name, {})
            self.add(f"## {_cell(name or 'Other operations')} {{#{_anchor('tag', name or 'other')}}}", "")
            self.text(tag.get("description"), 2)
            self.external(tag.get("externalDocs"))
            for path, method, operation, shared in by_tag.get(name, []):
                self.operation(path, method, operation, shared)
                self.written["operations"] += 1
        if self.schemas:
            self.add("## Schemas {#schemas}", "")
            for name, schema in self.schemas.items():
                self.schema_section(name, schema)
                self.written["schemas"] += 1

    def servers(self) -> None:
        if self.swagger:
            host = self.spec.get("host")
            if host:
                schemes = _list(self.spec.get("schemes")) or ["https"]
                base = self.spec.get("basePath") or ""
                urls = [f"`{_text(scheme)}://{_text(host)}{_text(base)}`" for scheme in schemes]
                self.add("Base URL: " + ", ".join(urls), "")
            return
        servers = [self._map(server) for server in _list(self.spec.get("servers"))]
        urls = [f"`{_text(server['url'])}`"
                + (f" ({_cell(server['description'])})" if server.get("description") else "")
                for server in servers if server.get("url")]
        if urls:
            self.add("Servers: " + ", ".join(urls), "")

    def external(self, docs: object) -> None:
        docs = self._map(docs)
        if isinstance(url := docs.get("url"), str):
            self.add(f"See [{_cell(docs.get('description') or url)}]({url}).", "")

    def security_schemes(self) -> None:
        schemes = self._map(self.spec.get("securityDefinitions") if self.swagger
                            else self._map(self.spec.get("components")).get("securitySchemes"))
        if not schemes:
            return
        self.add("## Authentication {#authentication}", "")
        for name, scheme in schemes.items():
            scheme = self.resolve(scheme)
            kind = " ".join(str(scheme[key]) for key in ("type", "scheme", "in", "name", "flow")
                            if isinstance(scheme.get(key), str))
            self.add(f"### {_cell(name)} {{#{_anchor('security', name)}}}", "", f"Type: {_cell(kind)}", "")
            self.text(scheme.get("description"), 3)
            flows = self._map(scheme.get("flows")) or ({"": scheme} if "scopes" in scheme else {})
            for flow_name, flow in flows.items():
                flow = self._map(flow)
                urls = [f"{key}: {_text(flow[key])}" for key in ("authorizationUrl", "tokenUrl") if flow.get(key)]
                if flow_name or urls:
                    self.add(f"Flow {_cell(flow_name)}" + (f" ({_cell(', '.join(urls))})" if urls else ""), "")
                scopes = self._map(flow.get("scopes"))
                if scopes:
                    self.add("| Scope | Description |", "| --- | --- |")
                    self.add(*(f"| `{_cell(scope)}` | {_cell(text or '')} |" for scope, text in scopes.items()))
                    self.add("")

    def operation_total(self) -> int:
        """The description's operations, counted where the bound cut what is written before them (a server's or the
        info's description repeated by aliases): "0 of 2 operations", not "0 of 0"."""
        if self.by_tag is None:
            self.by_tag = self.operations()
        return sum(map(len, self.by_tag.values()))

    def operations(self) -> dict[str, list[tuple[str, str, dict[str, Any], list[object]]]]:
        """Each operation, by its first tag ("" for none), in the order of the paths."""
        by_tag: dict[str, list[tuple[str, str, dict[str, Any], list[object]]]] = {}
        for path, item in self._map(self.spec.get("paths")).items():
            item = self.resolve(item)
            shared = _list(item.get("parameters"))
            for method in METHODS:
                operation = item.get(method)
                if isinstance(operation, dict):
                    tags = _list(operation.get("tags")) or [""]
                    by_tag.setdefault(_text(tags[0]), []).append((path, method, self._map(operation), shared))
        return by_tag

    def operation(self, path: str, method: str, operation: dict[str, Any], shared: list[object]) -> None:
        name = operation.get("operationId")
        anchor = _anchor("operation", _text(name) if name else f"{method}-{path}")
        self.add(f"### {method.upper()} {_cell(path)} {{#{anchor}}}", "")
        if operation.get("summary"):
            self.add(_cell(operation["summary"]), "")
        if operation.get("deprecated"):
            self.add("Deprecated: this operation may be removed.", "")
        self.text(operation.get("description"), 3)
        if name:
            self.add(f"Operation ID: `{_cell(name)}`", "")
        self.external(operation.get("externalDocs"))
        self.security(operation.get("security", self.spec.get("security")))
        parameters = self.parameters([*shared, *_list(operation.get("parameters"))])
        body = [parameter for parameter in parameters if parameter.get("in") == "body"]
        parameters = [parameter for parameter in parameters if parameter.get("in") != "body"]
        if parameters:  # a lead-in naming the operation: a row quoted with it says whose it is (task X23, rule R2)
            self.add("#### Parameters", "", f"Parameters of {_code(f'{method.upper()} {path}')}:", "",
                     "| Name | In | Type | Required | Description |",
                     "| --- | --- | --- | --- | --- |")
            for parameter in parameters:
                schema = parameter if self.swagger else self._map(parameter.get("schema"))
                note = "Deprecated. " if parameter.get("deprecated") else ""
                self.add(f"| {_cell(parameter.get('name', ''))} | {_cell(parameter.get('in', ''))} | "
                         f"{self.type_of(schema)} | {'yes' if parameter.get('required') else 'no'} | "
                         f"{note}{_cell(parameter.get('description') or '')} |")
            self.add("")
        if body:
            self.request(body[0], {"": {"schema": body[0].get("schema")}})
        elif "requestBody" in operation:
            request = self.resolve(operation["requestBody"])
            self.request(request, self._map(request.get("content")))
        self.responses(self._map(operation.get("responses")), f"{method.upper()} {path}")

    def parameters(self, listed: list[object]) -> list[dict[str, Any]]:
        """The operation's parameters, its own over its path's of the same name and place."""
        found: dict[tuple[str, str], dict[str, Any]] = {}
        for parameter in listed:
            resolved = self.resolve(parameter)
            if resolved:
                found[(_text(resolved.get("name")), _text(resolved.get("in")))] = resolved
        return list(found.values())

    def security(self, requirements: object) -> None:
        if not isinstance(requirements, list):
            return
        needs = []
        for requirement in requirements:
            needs.append(" and ".join(
                f"[{_cell(name)}](#{_anchor('security', _text(name))})"
                + (f" (scopes: {', '.join(f'`{_cell(scope)}`' for scope in _list(scopes))})" if _list(scopes) else "")
                for name, scopes in self._map(requirement).items()) or "none")
        if needs:
            self.add("Security: " + "; or ".join(needs), "")

    def request(self, request: dict[str, Any], content: dict[str, Any]) -> None:
        self.add("#### Request body", "")
        required = " (required)" if request.get("required") else ""
        if required and not content:
            self.add("Required.", "")
        self.text(request.get("description"), 4)
        for media, body in content.items():  # "required" on the schema's line: a paragraph "Required." of its own
            body = self._map(body)  # was a passage alone, cut from the schema (task X23, U37's A1)
            schema = body.get("schema")
            self.add(f"Content type `{media}`{required}: {self.type_of(schema)}" if media
                     else f"Schema{required}: {self.type_of(schema)}", "")
            self.properties(self.inline(schema))
            self.examples(body, f"Request example{f' ({media})' if media else ''}")

    def responses(self, responses: dict[str, Any], operation: str) -> None:
        if not responses:
            return
        self.add("#### Responses", "", f"Responses of {_code(operation)}:", "", "| Status | Description | Schema |",
                 "| --- | --- | --- |")
        resolved = {status: self.resolve(response) for status, response in responses.items()}
        for status, response in resolved.items():
            schemas = [f"{self.type_of(self._map(body).get('schema'))} (`{media}`)"
                       for media, body in self._map(response.get("content")).items() if self._map(body).get("schema")]
            if "schema" in response:
                schemas.append(self.type_of(response["schema"]))
            self.add(f"| {_cell(status)} | {_cell(response.get('description') or '')} | {', '.join(schemas)} |")
        self.add("")
        for status, response in resolved.items():
            for media, body in self._map(response.get("content")).items():
                self.examples(self._map(body), f"Response {status} example ({media})")
            for media, example in self._map(response.get("examples")).items():
                self.example(example, f"Response {status} example ({media})")

    def examples(self, body: dict[str, Any], label: str) -> None:
        if "example" in body:
            self.example(body["example"], label)
        for name, example in self._map(body.get("examples")).items():
            example = self.resolve(example)
            if "value" in example:
                summary = example.get("summary")
                self.example(example["value"], f"{label}, {_cell(summary or name)}")

    def example(self, value: object, label: str) -> None:
        written = value if isinstance(value, str) else json.dumps(pruned(value, [EXAMPLE_VALUES]), indent=2,
                                                                   ensure_ascii=False, default=str)
        fence = "~~~~" if "```" in written or "~~~" in written else "```"
        language = "" if isinstance(value, str) else "json"
        self.add(f"{label}:", "", f"{fence}{language}", *written.split("\n"), fence, "")

    def schema_section(self, name: str, schema: object) -> None:
        self.add(f"### {_cell(name)} {{#{_anchor('schema', name)}}}", "")
        node = self._map(schema)
        if node.get("deprecated"):
            self.add("Deprecated.", "")
        self.text(node.get("description"), 3)
        self.add(f"Type: {self.type_of(schema, link_self=False)}", "")
        self.properties(self.inline(schema, top=True))
        self.external(node.get("externalDocs"))
        if "example" in node:
            self.example(node["example"], "Example")

    def inline(self, schema: object, top: bool = False) -> dict[str, Any]:
        """``schema`` where its properties are written here: an inline object (a component schema's own,
        ``top``), its ``allOf`` parts' properties merged; a reference is a link, not opened."""
        node = self._map(schema)
        if "$ref" in node and not top:
            return {}
        if "$ref" in node:
            node = self.resolve(node)
        properties = dict(self._map(node.get("properties")))
        required = set(_names(node.get("required")))
        for part in _list(node.get("allOf")):
            part = self._map(part)
            if "$ref" not in part:
                properties.update(self._map(part.get("properties")))
                required.update(_names(part.get("required")))
        return {"properties": properties, "required": required} if properties else {}

    def properties(self, node: dict[str, Any]) -> None:
        if not node:
            return
        self.add("| Property | Type | Required | Description |", "| --- | --- | --- | --- |")
        for row in self.rows(node, "", 0):  # one at a time: a bound stops them
            self.add(row)
        self.add("")

    def rows(self, node: dict[str, Any], prefix: str, depth: int) -> Iterator[str]:
        for name, schema in node["properties"].items():
            prop = self._map(schema)
            note = "Deprecated. " if prop.get("deprecated") else ""
            note += "Read-only. " if prop.get("readOnly") else "Write-only. " if prop.get("writeOnly") else ""
            yield (f"| {_cell(prefix + str(name))} | {self.type_of(schema)} | "
                   f"{'yes' if name in node['required'] else 'no'} | {note}{_cell(prop.get('description') or '')} |")
            items = prop.get("items") if prop.get("type") == "array" else None
            inner = self.inline(items if isinstance(items, dict) else schema)
            if inner and depth + 1 < MAX_DEPTH:
                yield from self.rows(inner, f"{prefix}{name}{'[]' if items else ''}.", depth + 1)

    def type_of(self, schema: object, link_self: bool = True, depth: int = 0) -> str:
        """A schema's type in a few words: a referenced schema as a link to its section."""
        node = self._map(schema)
        if depth > TYPE_DEPTH:
            return "..."
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref.startswith(self.schema_prefix) and link_self:
                name = ref[len(self.schema_prefix):].replace("~1", "/").replace("~0", "~")
                if name not in self.schemas:
                    self.warn(f"the $ref {ref!r} names nothing in the description (a dangling reference)")
                return f"[{_cell(name)}](#{_anchor('schema', name)})"
            return self.type_of(self.resolve(node), link_self, depth + 1)
        for key, words in (("oneOf", "one of"), ("anyOf", "any of"), ("allOf", "all of")):
            parts = node.get(key)
            if isinstance(parts, list) and parts:
                named = [self.type_of(part, True, depth + 1) for part in parts[:ENUM_VALUES]]
                if key == "allOf" and len(named) == 1:
                    return named[0]
                return f"{words} " + ", ".join(named)
        kind = node.get("type")
        kind = " or ".join(map(_text, kind)) if isinstance(kind, list) else str(kind) if kind else ""
        if kind == "array" or "items" in node:
            kind = f"array of {self.type_of(node.get('items'), True, depth + 1)}"
        elif not kind:
            kind = "object" if "properties" in node else "any"
        if node.get("format"):
            kind += f" ({_cell(node['format'])})"
        if isinstance(node.get("enum"), list):
            values = [f"`{_cell(value)}`" for value in node["enum"][:ENUM_VALUES]]
            more = ", ..." if len(node["enum"]) > ENUM_VALUES else ""
            kind += f", one of {', '.join(values)}{more}"
        if node.get("nullable"):
            kind += ", nullable"
        if "default" in node and not isinstance(node["default"], (dict, list)):
            kind += f", default `{_cell(node['default'])}`"
        return kind
