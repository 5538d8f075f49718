"""Which surfaces take a principal: REST (a key), MCP (``--principal``), Python (a request's ``principal``); the
command line reads the file itself and takes none, and the permissions page says so (task U40: it named
REST, MCP and Python only, and a caller looked for ``clew ask --principal``)."""

from typer.testing import CliRunner

from clew.cli import app
from tests.conftest import ROOT


def test_only_mcp_takes_a_principal_on_the_command_line_and_the_permissions_page_says_so() -> None:
    runner = CliRunner()
    helps = {name: runner.invoke(app, [name, "--help"], terminal_width=200).output
             for name in ("ask", "search", "retrieve", "batch", "eval", "serve", "mcp")}
    assert all("Usage:" in text for text in helps.values())
    assert [name for name, text in helps.items() if "--principal" in text] == ["mcp"]
    page = " ".join((ROOT / "docs" / "concepts" / "permissions.md").read_text().split())
    assert "The command line (`clew ask`, `search`, `batch`, ...) opens the file itself and reads everything" in page
    assert "`clew mcp --principal NAME`" in page


def test_the_permissions_page_gives_mcp_its_principal_from_the_flag_not_a_key() -> None:
    """``clew mcp`` reads no API key (its HTTP transport neither): one principal per server, ``--principal NAME``.
    The page said "Over REST and MCP the principal comes from the API key" (task V16)."""
    page = " ".join((ROOT / "docs" / "concepts" / "permissions.md").read_text().split())
    assert "Over REST and MCP the principal comes from the API key" not in page
    assert "Over REST the principal comes from the API key" in page
    assert "over MCP from `clew mcp --principal NAME`" in page
