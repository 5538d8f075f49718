from pathlib import Path

from clew import tooltable
from clew.surface import surface

PAGE = Path(__file__).parents[1] / "docs" / "reference" / "tools.md"


def test_the_docs_tool_table_is_generated_from_the_declarations() -> None:
    """Regenerate: python -m clew.tooltable docs/reference/tools.md"""
    found = tooltable.current(PAGE.read_text(encoding="utf-8"))
    assert found == tooltable.block(), "the tool table is stale; run python -m clew.tooltable docs/reference/tools.md"
    for name in surface.names():
        assert f"| `{name}` |" in found
    assert "`top_k`: integer 1-50 (clamped) = 20" in found  # read's bound, from its Clamp


def test_check_says_stale(tmp_path: Path) -> None:
    stale = tmp_path / "tools.md"
    stale.write_text(f"# x\n\n{tooltable.BEGIN}\n| old |\n{tooltable.END}\n", encoding="utf-8")
    assert tooltable.main([str(stale), "--check"]) == 1
    assert tooltable.main([str(stale)]) == 0 and tooltable.main([str(stale), "--check"]) == 0
