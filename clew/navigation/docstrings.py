"""Attribute docstrings: the string literal under a field (``top_k: int = 20`` then ``\"\"\"...\"\"\"``).

The tools' argument models (``clew.navigation.models.Args``) describe each field this way,
and the text becomes the field's description in every schema. pydantic's own reader
(``use_attribute_docstrings``) finds a class's source by walking the loaded modules on
Python < 3.13, which cost a command tens of milliseconds at start-up; this one parses each
module's file once, on first use.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys


def attribute_docstrings(cls: type) -> dict[str, str]:
    """Each field of ``cls``'s own body that has a docstring, and that docstring (cleaned)."""
    module = sys.modules.get(cls.__module__)
    path = getattr(module, "__file__", None)
    return _by_class(path).get(cls.__qualname__, {}) if isinstance(path, str) else {}


@functools.cache
def _by_class(path: str) -> dict[str, dict[str, str]]:
    """Every class of a module file (by qualified name) and its fields' docstrings."""
    try:
        with open(path, encoding="utf-8") as source:
            tree = ast.parse(source.read(), path)
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}
    found: dict[str, dict[str, str]] = {}
    _visit(tree.body, "", found)
    return found


def _visit(body: list[ast.stmt], prefix: str, found: dict[str, dict[str, str]]) -> None:
    for statement in body:
        if isinstance(statement, ast.ClassDef):
            name = f"{prefix}{statement.name}"
            docs = found.setdefault(name, {})
            for here, after in zip(statement.body, statement.body[1:]):
                if (isinstance(here, ast.AnnAssign) and isinstance(here.target, ast.Name)
                        and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                        and isinstance(after.value.value, str)):
                    docs[here.target.id] = inspect.cleandoc(after.value.value)
            _visit(statement.body, f"{name}.", found)
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            _visit(statement.body, f"{prefix}{statement.name}.<locals>.", found)
