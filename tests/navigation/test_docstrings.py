"""Field docstrings become descriptions without pydantic's module walk (``clew.navigation.docstrings``)."""

from typing import Annotated

from clew.budgets.bounds import Clamp
from clew.navigation.docstrings import attribute_docstrings
from clew.navigation.models import Args, InCollection
from clew.navigation.tree import TreeArgs


class Outer:
    class Inner(Args):
        depth: int = 1
        """How deep,
        at most."""
        plain: int = 0
        described: str = "x"
        """Not this one: the field below has its own."""


def test_each_documented_field_of_a_class_body_and_only_those() -> None:
    assert attribute_docstrings(Outer.Inner) == {"depth": "How deep,\nat most.",
                                                 "described": "Not this one: the field below has its own."}
    assert attribute_docstrings(Outer) == {}
    assert attribute_docstrings(int) == {}  # no source file: nothing, no error


def test_a_model_defined_in_a_function_reads_its_own_docstrings() -> None:
    class Local(InCollection):
        top_k: Annotated[int, Clamp(1, 5)] = 3
        """Passages to return."""

    schema = Local.model_json_schema()["properties"]
    assert schema["top_k"]["description"] == "Passages to return (1-5; clamped)."
    assert schema["collection"]["description"] == "Only this collection."


def test_an_explicit_description_wins_and_the_tools_keep_theirs() -> None:
    from pydantic import Field

    class Explicit(Args):
        name: str = Field("a", description="given")
        """ignored"""

    assert Explicit.model_fields["name"].description == "given"
    assert TreeArgs.model_fields["relation"].description
