"""The embedded demo: a small runbook corpus that ships inside the package."""

from pathlib import Path

DEMO_DIR = Path(__file__).resolve().parent
DEMO_CORPUS = DEMO_DIR / "corpus"
DEMO_EDGES = DEMO_DIR / "workflow.jsonl"
