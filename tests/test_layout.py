"""The module map (the Layout section of the README and of docs/development.md) lists the layers
of the import-linter contracts, in their order."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]
PAGES = ("README.md", "docs/development.md")


def test_every_layout_lists_every_layer_of_the_contract_in_order() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in contracts if c["type"] == "layers")
    expected = [name.strip().removeprefix("clew.") for layer in layers for name in layer.split("|")]
    maps = {page: text[text.index("## Layout\n"):].split("```\n")[1]
            for page in PAGES if "## Layout\n" in (text := (ROOT / page).read_text())}
    assert "docs/development.md" in maps
    for page, block in maps.items():
        listed = [part.strip().removesuffix("/").removesuffix(".py") for line in block.splitlines()
                  if line[:1] not in (" ", "(") for part in line[:20].split(",") if part.strip()]
        assert listed == expected, page


def test_the_package_names_no_made_up_address() -> None:
    """No [project.urls] while clew has no public repository or documentation site: an address with a
    placeholder owner would be published as if it were real. Add real ones when they exist."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "urls" not in project, project.get("urls")
    assert "OWNER" not in (ROOT / "pyproject.toml").read_text()
