"""What every command module shares: consoles, common options, the configuration, the JSON
envelope and the exit statuses.

Exit statuses, the same for every command (errors carry theirs: ``ClewError.exit_code``;
a result's ``status`` maps through ``EXIT_CODES``)::

    0  ok            the command did what was asked (a run that ended ``incomplete`` too)
    1  not found     nothing matched, or what was named is unavailable
    2  bad input     an option, argument, file or configuration that is wrong (click's usage errors too)
    3  failure       the store or the model failed

Every ``--json`` output is one envelope, on success and on error alike::

    {"status": "ok", "exit_code": 0, "command": "search", "result": {...}, "applied": {...}, "error": null}

``result`` is what the Python API returns (``model_dump``); ``applied`` is every setting the
command chose for you: the database, collection, model and configuration file it resolved,
and the result's own clamped bounds; ``error`` is ``{"kind", "message", "field"}`` or null.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.exceptions import TyperException

from clew.errors import ClewError, InputError

if TYPE_CHECKING:
    from rich.console import Console

    from clew.config.settings import ServerConfig
    from clew.corpus.rewrite import FileCompaction
    from clew.corpus.store import Corpus

    err: Console
    """The console on stderr (made on first use: see ``__getattr__``)."""
    out: Console
    """The console on stdout."""

log = logging.getLogger("clew.cli")


def __getattr__(name: str) -> Any:
    """``err`` and ``out``, the rich consoles, made on first use: a command that prints only its
    JSON envelope (``clew search --json``) never imports rich."""
    if name not in ("err", "out"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _console(name)


def _console(name: str) -> Console:
    made: Console | None = globals().get(name)
    if made is None:
        from rich.console import Console

        # no emoji codes: a path or a document's text may hold ``:smile:``, printed as written
        made = globals()[name] = Console(stderr=name == "err", soft_wrap=True, emoji=False)
        made.on_broken_pipe = _reader_left  # type: ignore[method-assign]  # rich's own exits 1, "nothing found"
    return made


def _reader_left() -> None:
    raise pipe_closed()

DbOption = Annotated[Path | None, typer.Option("--db", help="DuckDB corpus file (default: database in clew.toml).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON envelope instead of a summary.")]
CollectionOption = Annotated[str | None, typer.Option(
    help="Collection (default: default_collection in clew.toml, else the corpus's only collection).")]
ConfigOption = Annotated[Path | None, typer.Option(
    "--config", help="clew.toml to read (default: $CLEW_CONFIG, else ./clew.toml if present).")]

EXIT_CODES = {"ok": 0, "incomplete": 0, "no_match": 1, "unavailable": 1, "invalid": 2, "malformed": 2, "failed": 3}
"""The exit status of each result status."""
ERROR_STATUS = {1: "unavailable", 2: "invalid", 3: "failed"}
"""The envelope's status when a command ends on an error of that exit status."""


@dataclass
class Invocation:
    """One command as it runs: its name, its output mode, and what it resolved for the caller."""

    command: str
    as_json: bool = False
    config: Path | None = None
    applied: dict[str, Any] = field(default_factory=dict)
    settings: ServerConfig | None = None


_current: ContextVar[Invocation | None] = ContextVar("clew_invocation", default=None)


def current() -> Invocation:
    """The running command (a bare one outside a command, for helpers called from Python)."""
    return _current.get() or Invocation("clew")


@contextmanager
def invocation(command: str, as_json: bool, config: Path | None) -> Iterator[Invocation]:
    running = Invocation(command, as_json=as_json, config=config)
    token = _current.set(running)
    try:
        yield running
    finally:
        _current.reset(token)


def command(app: typer.Typer, name: str | None = None, *, example: str, config: bool = True,
            **settings: Any) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register ``function`` as a command of ``app`` with one example in its help, ``--config``
    (unless ``config=False``), and a ``ClewError`` turned into its exit status (and envelope)."""

    def register(function: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(function, eval_str=True)
        parameters = list(signature.parameters.values())
        if config and "config" not in signature.parameters:
            parameters.append(inspect.Parameter("config", inspect.Parameter.KEYWORD_ONLY, default=None,
                                                annotation=ConfigOption))
        takes_config = "config" in signature.parameters

        @functools.wraps(function)
        def run(*args: Any, **values: Any) -> None:
            chosen = values.get("config") if takes_config else values.pop("config", None)
            with invocation(name or function.__name__, bool(values.get("as_json")), chosen):
                try:
                    function(*args, **values)
                except ClewError as error:
                    raise fail(error) from error
                except (typer.Exit, typer.Abort, TyperException):
                    raise
                except BrokenPipeError:  # the reader left (clew ask ... --json | head -c 100): not a failure of ours
                    raise pipe_closed() from None
                except Exception as error:  # the last line: a bug exits 3 (a failure), never 1 (nothing found)
                    log.debug("unexpected error", exc_info=True)
                    raise fail(f"unexpected {type(error).__name__}: {error} (clew -vv COMMAND logs the traceback)",
                               code=3) from error

        run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        app.command(name, epilog=f"Example: {example}", **settings)(run)
        return function

    return register


PIPE_CLOSED = 141
"""The exit status when the reader of stdout left before the output ended (``clew search ... | head``):
what a shell gives a command that the closed pipe ended (128 + SIGPIPE), with no message."""


def pipe_closed() -> typer.Exit:
    """Point stdout at the null device, so that no later write or flush fails again, and return the
    quiet exit with ``PIPE_CLOSED`` for the caller to raise."""
    try:
        out = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a stream with no descriptor (a test's runner): nothing to flush
        return typer.Exit(code=PIPE_CLOSED)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, out)
    finally:
        os.close(null)
    return typer.Exit(code=PIPE_CLOSED)


def envelope(status: str, code: int, result: Any = None, error: dict[str, Any] | None = None) -> str:
    """The one JSON object a command prints under ``--json``."""
    running = current()
    dumped = result.model_dump(mode="json") if hasattr(result, "model_dump") else result
    own = dumped.get("applied") if isinstance(dumped, dict) else None
    return json.dumps({"status": status, "exit_code": code, "command": running.command, "result": dumped,
                       "applied": {**running.applied, **(own if isinstance(own, dict) else {})}, "error": error},
                      default=str)


def respond(result: Any, show: Callable[[], None], *, status: str | None = None) -> None:
    """Print ``result``: the envelope under ``--json``, else ``show()``; then exit with its status's code."""
    chosen = status or getattr(result, "status", None) or "ok"
    if current().as_json:
        print(envelope(chosen, EXIT_CODES[chosen], result))
    else:
        show()
    if EXIT_CODES[chosen]:
        raise typer.Exit(code=EXIT_CODES[chosen])


def print_wrapped(console: Console, renderable: Any) -> None:
    """Print a tree whose rows are too long for the terminal: each wraps under its branch (no
    evidence id is cut) and no wrapped row keeps the space it broke at (a pasted or piped row
    then ends where its text does)."""
    with console.capture() as captured:
        console.print(renderable, soft_wrap=False)
    console.file.write(_TRAILING.sub(r"\1", captured.get()))


_TRAILING = re.compile(r"[ \t]+((?:\x1b\[[0-9;]*m)*)$", re.MULTILINE)
"""Blanks at a row's end, before any closing style codes (kept: a terminal's colours stay closed)."""


def say_compacted(done: FileCompaction | None) -> None:
    """The stderr line of a write that rewrote the file without its free blocks (``clew ingest``, ``clew rm``)."""
    if done is not None:
        _console("err").print(f"file compacted: {done.free_share_before:.0%} -> {done.free_share_after:.0%} free, "
                  f"{done.mb_before:.1f} -> {done.mb_after:.1f} MB, {done.seconds:.2f} s", highlight=False)


def plural(count: int, word: str) -> str:
    """A count with its noun, for human output: ``1 passage``, ``0 passages``, ``2 tool calls``,
    ``8,106 context tokens`` (thousands grouped, as in the stop line beside it)."""
    return f"{count:,} {word if count == 1 else word + 's'}"


def fail(error: ClewError | str, code: int | None = None) -> typer.Exit:
    """Print ``error`` (and, under ``--json``, the envelope) and return the exit for the caller to raise.

    A ``ClewError`` exits with its own ``exit_code``; a message with ``code`` (default 2, bad input)."""
    status = code if code is not None else getattr(error, "exit_code", 2)
    from rich.markup import escape

    _console("err").print(f"[red]error:[/red] {escape(str(error))}", markup=True, highlight=False)
    if current().as_json:
        kind = getattr(error, "kind", None) or ("input" if status == 2 else ERROR_STATUS[status])
        if status == 1 and kind == "input":
            kind = "unavailable"
        print(envelope(ERROR_STATUS[status], status, error={"kind": kind, "message": str(error),
                                                            "field": getattr(error, "field", None)}))
    return typer.Exit(code=status)


CONFIG_FILE = "clew.toml"
"""The configuration file looked for in the working folder."""
SETTING_VARIABLES = ("CLEW_DATABASE", "CLEW_DEFAULT_COLLECTION", "CLEW_MODEL", "CLEW_BUDGETS", "CLEW_PRINCIPALS",
                     "CLEW_API_KEYS", "CLEW_ALLOWED_HOSTS", "CLEW_MAX_PARSE_SECONDS")
"""Prefixes of the environment variables that set a field of ``ServerConfig`` (``CLEW_MODEL``
also covers ``CLEW_MODEL_OPTIONS__*``); a test keeps them in step with its fields."""


def find_config(explicit: Path | None = None) -> Path | None:
    """The configuration file to read: ``explicit``, else ``$CLEW_CONFIG``, else ``./clew.toml`` when it
    exists, else None. A file that ``$CLEW_CONFIG`` names but that is missing is bad input."""
    if explicit is not None:
        return explicit
    named = os.environ.get("CLEW_CONFIG", "").strip()
    if named:
        if not Path(named).is_file():
            raise InputError("CLEW_CONFIG", f"{named}: no such file")
        return Path(named)
    local = Path(CONFIG_FILE)
    return local if local.is_file() else None


def configured() -> ServerConfig | None:
    """The running command's configuration, or None when there is none to read (no file, no
    ``CLEW_*`` setting): then a command such as ``clew search`` loads no configuration code."""
    running = current()
    if running.settings is None:
        path = find_config(running.config)
        if path is None and not any(k.upper().startswith(SETTING_VARIABLES) for k in os.environ):
            return None
        from clew.config.settings import load_config

        if path is not None:
            log.info("configuration: %s", path)
            running.applied["config"] = str(path)
        running.settings = load_config(path)
    return running.settings


def settings() -> ServerConfig:
    """The running command's configuration (its defaults where there is none to read)."""
    found = configured()
    if found is not None:
        return found
    from clew.config.settings import load_config

    running = current()
    running.settings = load_config(None)
    return running.settings


def database(db: Path | None, *, exists: bool = True) -> Path:
    """``--db``, else the configuration's ``database``; a missing file is bad input when it must exist."""
    config = configured()
    chosen = db or (config.database if config is not None else None)
    if chosen is None:
        raise fail("no corpus: pass --db FILE, or set database in clew.toml")
    if exists and not chosen.exists():
        raise fail(f"{chosen}: no such corpus file")
    if chosen.is_dir():  # was exit 3 with DuckDB's "IO Error: Could not read from file ...: Is a directory"
        raise fail(f"{chosen}: a folder, not a corpus file (--db names a file such as docs.duckdb)")
    log.info("corpus: %s", chosen)
    current().applied["database"] = str(chosen)
    return chosen


def require_db(db: Path) -> None:
    if not db.exists():
        raise fail(f"{db}: no such corpus file")


def collection(corpus: Corpus, given: str | None, *, needed: str | None = None,
               otherwise: str | None = None) -> str | None:
    """``--collection``, else the configuration's ``default_collection``, else the corpus's only
    collection, else ``otherwise``. With ``needed`` (what needs one) and none found: bad input."""
    names = corpus.collections(with_documents=True)
    chosen, why = given, "--collection"
    config = configured() if chosen is None else None
    if chosen is None and config is not None and config.default_collection is not None:
        chosen, why = config.default_collection, "default_collection"
    if chosen is None and len(names) == 1:
        chosen, why = names[0], "the corpus's only collection"
    if chosen is None:
        chosen, why = otherwise, "the default"
    if chosen is None and needed is not None:
        if not names:
            raise fail("the corpus holds no documents yet: clew ingest PATH first", code=1)
        raise fail(f"{needed} needs one collection and the corpus has {len(names)} ({', '.join(names)}): "
                   "pass --collection NAME, or set default_collection in clew.toml")
    if chosen is not None:
        log.info("collection: %s (%s)", chosen, why)
        current().applied["collection"] = chosen
    return chosen


LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING}


def configure_logging(verbose: int) -> None:
    """Log the ``clew`` logger to stderr: ``-v`` info, ``-vv`` debug, else ``$CLEW_LOG`` (default warning)."""
    word = os.environ.get("CLEW_LOG", "warning").strip().lower() or "warning"
    if word not in LEVELS:
        raise fail(f"CLEW_LOG: {word!r} is not one of {', '.join(LEVELS)}")
    level = LEVELS[word] if not verbose else logging.INFO if verbose == 1 else logging.DEBUG
    logger = logging.getLogger("clew")
    for handler in [h for h in logger.handlers if isinstance(h, _Stderr)]:
        logger.removeHandler(handler)
    handler = _Stderr()
    handler.setFormatter(logging.Formatter("clew: %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False  # one line per record, also where the root logger has a handler (clew mcp)


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to ``sys.stderr`` as it is when a record comes (a test runner swaps it per command)."""

    @property
    def stream(self) -> Any:  # whatever sys.stderr is
        return sys.stderr

    @stream.setter
    def stream(self, value: object) -> None:
        """``StreamHandler`` sets its stream; this one always reads ``sys.stderr`` instead."""


FILTER_HELP = ('Only documents whose fields match: FIELD=VALUE, or JSON such as {"term": {"status": "published"}}; '
               "also terms, range, exists, bool; path=GLOB: whose key (path in the collection) matches, e.g. "
               "path=v2.0.")


def filter_argument(value: str) -> Any:
    """A ``--filter`` as typed: JSON, or ``FIELD=VALUE`` as a term filter (``clew search``, ``clew ask``)."""
    if not value.lstrip().startswith("{"):
        from clew.corpus.access import parse_field_expression

        return parse_field_expression(value).model_dump(exclude_none=True)
    try:
        return json.loads(value)
    except json.JSONDecodeError as error:
        raise InputError("filter", f"not valid JSON: {error.msg}") from error


def checked_filter(value: str | None) -> dict[str, Any] | None:
    """A ``--filter`` as typed (``filter_argument``), checked at once (an error names ``filter``) and written as
    it is matched: what a batch runs every question with and records in its answers (``clew batch``)."""
    if value is None:
        return None
    from clew.corpus.access import matched_filter

    return matched_filter(filter_argument(value))
