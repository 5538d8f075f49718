import ast
from pathlib import Path

import pytest

import clew


def test_all_is_sorted_and_complete() -> None:
    assert clew.__all__ == sorted(clew.__all__)
    tree = ast.parse(Path(clew.__file__).read_text())
    (typing_block,) = [node for node in tree.body if isinstance(node, ast.If)]  # if TYPE_CHECKING:
    declared = {alias.asname or alias.name: node.module for node in typing_block.body
                for alias in node.names}  # type: ignore[attr-defined]
    assert declared | {"__version__": "clew"} == clew._HOMES | {"__version__": "clew"}
    assert set(declared) | {"__version__"} == set(clew.__all__)
    for name in clew.__all__:
        assert getattr(clew, name) is not None
    assert clew.Corpus.__module__ == "clew.corpus.store"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        clew.no_such_name  # the attribute access itself is what raises


def test_imports_run_one_way() -> None:
    """corpus <- navigation <- tools <- agent <- evals, server, integrations <- cli; budgets is a leaf."""
    root = Path(clew.__file__).parent
    forbidden = {
        "corpus": (
            "clew.navigation",
            "clew.tools",
            "clew.agent",
            "clew.evals",
            "clew.server",
            "clew.cli",
            "clew.commands",
            "clew.integrations",
        ),
        "navigation": ("clew.tools", "clew.agent", "clew.evals", "clew.server", "clew.cli", "clew.commands",
                       "clew.integrations"),
        "tools": ("clew.agent", "clew.evals", "clew.server", "clew.cli", "clew.commands", "clew.integrations"),
        "agent": ("clew.evals", "clew.server", "clew.cli", "clew.commands", "clew.integrations"),
        "integrations": ("clew.evals", "clew.server", "clew.cli", "clew.commands"),
        "budgets": ("clew.corpus", "clew.navigation", "clew.tools", "clew.agent", "clew.evals", "clew.server"),
    }
    offenders = []
    for package, banned in forbidden.items():
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else (
                    [a.name for a in node.names] if isinstance(node, ast.Import) else [])
                offenders += [f"{path.relative_to(root)} imports {n}" for n in names if n.startswith(banned)]
    assert offenders == []


def test_dir_shows_the_public_surface_only() -> None:
    import clew

    assert dir(clew) == sorted(clew.__all__)
    assert not {"TYPE_CHECKING", "annotations", "importlib", "_HOMES"} & set(dir(clew))
