"""Dump every table an ingest writes, sorted, for comparing two versions of the ingest code.

``python benchmarks/ingest_rows.py OUT`` runs a few ingest scenarios into fresh DuckDB files and
writes ``OUT/<scenario>/<table>.txt`` (every row, sorted; timestamps left out), the column types
(``_schema.txt``) and the ingest reports (``reports.txt``, without their timings). Run it on the
code before and after a change and ``diff -r`` the two folders (temporary paths differ by run:
``sed -E 's#/tmp/[^/]+/##'`` first). Scenarios: both shared dev sets (the npm docs also with
``--merge-sections``; each ingested twice, the second a no-op), a generated corpus in small
batches, and a sequence on the npm docs: half the files, the other half (links whose targets
arrive in a later ingest), a retirement, changed files with a prune, the original files, another
retirement and the changed files again.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_gen import write_markdown_corpus  # noqa: E402

from clew.corpus.documents import retire  # noqa: E402
from clew.corpus.ingest.api import IngestReport, ingest_paths  # noqa: E402
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS  # noqa: E402
from clew.corpus.store import Corpus  # noqa: E402

SHARED = ROOT.parent / "shared" / "evals"
NPM, SQLITE = SHARED / "npm-docs" / "corpus", SHARED / "sqlite-docs" / "corpus"
Step = Callable[[Corpus], IngestReport | None]


def dump(db: Path, folder: Path) -> dict[str, int]:
    with Corpus(db, read_only=True) as corpus:
        cur = corpus.cursor()
        tables = [r[0] for r in cur.execute("SELECT table_name FROM information_schema.tables ORDER BY 1").fetchall()]
        for table in tables:
            columns = [r[0] for r in cur.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
                "AND data_type NOT LIKE 'TIMESTAMP%' ORDER BY ordinal_position", [table]).fetchall()]
            rows = cur.execute(f'SELECT {", ".join(columns)} FROM "{table}" ORDER BY ALL').fetchall()
            (folder / f"{table}.txt").write_text("\n".join(map(repr, rows)))
        schema = cur.execute("SELECT table_name, column_name, data_type, is_nullable, ordinal_position "
                             "FROM information_schema.columns ORDER BY ALL").fetchall()
        (folder / "_schema.txt").write_text("\n".join(map(repr, schema)))
        return {table: cur.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] for table in tables}


def ingest(path: Path, glob: str = "**/*", **options: object) -> Step:
    return lambda corpus: ingest_paths(corpus, [path], glob=glob, chunk_tokens=DEFAULT_CHUNK_TOKENS,
                                       **options)


def retire_some(corpus: Corpus) -> None:
    with corpus.transaction() as cur:
        rows = cur.execute("SELECT id, current_version FROM documents WHERE key LIKE 'commands/npm-i%' "
                           "OR key LIKE 'using-npm/%' ORDER BY id LIMIT 6").fetchall()
        retire(cur, [(int(doc_id), int(version)) for doc_id, version in rows])


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)

        def scenario(name: str, steps: list[Step]) -> None:
            db, folder = work / f"{name}.duckdb", out / name
            folder.mkdir(exist_ok=True)
            with Corpus(db) as corpus:
                reports = [step(corpus) for step in steps]
            (folder / "reports.txt").write_text("\n".join(
                r.model_dump_json(exclude={"seconds"}, indent=1) for r in reports if r is not None))
            print(name, dump(db, folder), flush=True)

        generated = work / "generated"
        write_markdown_corpus(generated, 3000)
        scenario("npm", [ingest(NPM, batch_size=16), ingest(NPM)])
        scenario("npm_merge", [ingest(NPM, merge_sections=True)])
        scenario("sqlite", [ingest(SQLITE), ingest(SQLITE)])
        scenario("generated", [ingest(generated, "*.md", batch_size=16)])
        halves = [work / "a" / "corpus", work / "b" / "corpus"]
        for i, file in enumerate(sorted(NPM.rglob("*.md"))):
            target = halves[i % 2] / file.relative_to(NPM)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, target)
        changed = work / "npm-changed"
        shutil.copytree(NPM, changed)
        files = sorted(changed.rglob("*.md"))
        for file in files[:7]:
            file.write_text(file.read_text() + "\n\nChanged paragraph about npm install.\n")
        files[8].unlink()
        (changed / "new.md").write_text("# New\n\nSee [x](commands/npm-install.md) and [y](cli/v9/nothing.md).\n")
        scenario("npm_steps", [
            ingest(halves[1], batch_size=5), ingest(halves[0], batch_size=7), retire_some,
            ingest(changed, prune=True, batch_size=3), ingest(NPM, batch_size=11), retire_some,
            ingest(changed, batch_size=4)])


if __name__ == "__main__":
    main()
