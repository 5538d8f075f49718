"""``--model``, ``--model-option`` and ``--config`` on the commands that call a model."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.commands.models import configured_model
from clew.demo import DEMO_CORPUS
from clew.errors import InputError
from tests.conftest import Prebuilt
from tests.envelope import result

runner = CliRunner()

pytestmark = pytest.mark.filterwarnings(
    r"ignore:Items? .* on TypedDict class .* the `ReadOnly` qualifier:UserWarning"
)


def build_demo(folder: Path) -> None:
    """The demo's runbooks as ``clew ingest`` writes them: once a session (``prebuilt``)."""
    result = runner.invoke(app, ["ingest", str(DEMO_CORPUS), "--db", str(folder / "demo.duckdb"), "--collection",
                                 "runbooks"])
    assert result.exit_code == 0, result.output


@pytest.fixture
def demo_db(tmp_path: Path, prebuilt: Prebuilt) -> Path:
    """The test's own copy of the corpus."""
    return prebuilt(build_demo, tmp_path) / "demo.duckdb"


def test_options_on_the_command_line_go_over_the_config(tmp_path: Path) -> None:
    toml = tmp_path / "clew.toml"
    toml.write_text('model = "openai/smollm2"\n[model_options]\napi_base = "http://127.0.0.1:8080/v1"\n'
                    'temperature = 0.5\n')
    model, options = configured_model(None, ["temperature=0", "max_tokens=16"], toml)
    assert model is not None and model.name == "openai/smollm2"
    assert (options.api_base, options.temperature, options.max_tokens) == ("http://127.0.0.1:8080/v1", 0, 16)
    other, _ = configured_model("openai/other", [], toml)
    assert other is not None and other.name == "openai/other"
    assert configured_model(None, ["temperature=0"], None)[0] is None  # no model named anywhere
    with pytest.raises(InputError, match="unknown model option 'temprature'"):
        configured_model("openai/m", ["temprature=0"], None)


def test_ask_reaches_the_model_with_its_options(demo_db: Path) -> None:
    # litellm's mock_response answers offline: the options travel from the command line to the call
    ran = runner.invoke(app, ["ask", "who is paged for a SEV1", "--db", str(demo_db), "--collection", "runbooks",
                              "--model", "openai/smollm2", "--model-option", "extra.mock_response=No idea.",
                              "--model-option", "max_tokens=8", "--json"])
    assert ran.exit_code == 0, ran.output
    body = result(ran.stdout)
    assert body["usage"]["model_calls"] == 1
    generation = body["generation"]  # "No idea." cited nothing: the extract stands in for it, and says so
    assert generation["kind"] == "extract" and generation["citations"] and "No idea" not in generation["answer"]
    assert generation["fallback"].startswith("the answer of openai/smollm2 cited no evidence fetched in full")
    assert body["applied"]["timeout_seconds"] == 600.0


def test_ask_names_a_bad_option(demo_db: Path) -> None:
    ran = runner.invoke(app, ["ask", "q", "--db", str(demo_db), "--collection", "runbooks", "--model", "openai/m",
                              "--model-option", "temprature=0"])
    assert ran.exit_code == 2 and "unknown model option 'temprature'" in ran.output
    ran = runner.invoke(app, ["ask", "q", "--db", str(demo_db), "--collection", "runbooks", "--model", "openai/m",
                              "--model-option", "api_key_env=CLEW_NO_SUCH_KEY_VARIABLE"])
    assert ran.exit_code == 2 and "CLEW_NO_SUCH_KEY_VARIABLE" in ran.output and "is not set" in ran.output
