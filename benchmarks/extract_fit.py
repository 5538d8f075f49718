"""Fit the extract's unit score from many weak features, one set held out at a time. Prints JSON.

The extract (``clew.agent.generate.extractive_answer``) ranks the units of the fetched evidence
(sentences, list items, table rows) by a hand-tuned score. Here each unit the extract scores gets a
vector of features (``FEATURES``: the shipped score's parts in log form, and signals it does not
use: the share of the question's IDF the unit holds, its place in its passage, the walk's score of
its passage, identifiers, the question's form, ...) and, for each gold evidence phrase its pack
holds, whether the unit holds it (``clew.evals.metrics.evidence_found``). The weights ``w`` of a
linear model are fitted on the units of all the sets but one and the extract is run with ``exp(w . x)``
as its unit score (``Model``) on every set's packs, once with each set held out (with two sets: fitted
on one, tested on the other, then the reverse). The sets are ``--sets`` (resolved by
``benchmarks/evalsets.py``, as ``extract.py`` takes them); each dump row names its set (a row without
one belongs to the set whose questions hold its id). ``--loss``:

- ``listwise`` (default): for each phrase, the softmax of the units' scores puts its mass on the
  units holding it (any one of them is enough, as for retention);
- ``pairwise``: the logistic loss on the score difference of a unit holding a phrase and one
  holding none, of the same question;
- ``logistic``: logistic regression of "holds a phrase"; its probability over the unit's length
  is the score;
- ``search``: no loss; coordinate ascent on the training set's retention at 200, 250 and 300
  tokens, from the shipped weights.

The fitted losses pull the weights towards the shipped score (L2 in standardised units; strength by
cross-validation over the training sets, by retention, unless ``--strength``: each training set held
out in turn where there are two or more, else 5 folds of the one set's questions).
The packs are those ``benchmarks/extract.py --dump`` wrote: the extract alone on them gives that
benchmark's numbers (``shipped`` in the report; ``Model`` with the shipped weights gives them too).

    SETS=sqlite-docs,npm-docs,evals/postgresql-docs,evals/bootstrap-docs
    python benchmarks/extract.py --sets $SETS --budget 2000 --dump /tmp/d2000.jsonl
    python benchmarks/extract.py --sets $SETS --budget 8192 --dump /tmp/d8192.jsonl
    python benchmarks/extract_fit.py /tmp/d2000.jsonl --sets $SETS --check /tmp/d8192.jsonl --loss listwise

``--check``: packs of another budget, on which the fitted weights are run too (not fitted on).
``--knobs``: no fit; the shipped score with one of its weights (``KNOBS``) changed at a time.
``--free``: only these features are fitted (the others keep the shipped weights); ``--agree``: in
each fold, only those (of ``--free``) whose weights, fitted on each training set alone, all move the
same way from the shipped ones.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import clew.agent.generate as generate
from clew.agent.declarations import other_case_terms
from clew.agent.generate import CITATION, extractive_answer
from clew.agent.units import Unit, passage_units
from clew.budgets.tokens import count_tokens
from clew.evals.metrics import answer_found, evidence_found

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from evalsets import EvalSet, resolve_all  # noqa: E402

SETS = "sqlite-docs,npm-docs,evals/postgresql-docs,evals/bootstrap-docs"
"""The default ``--sets``: the two shared dev sets and the repository's own two."""
SHIPPED_SCORE = generate._score

FEATURES = (
    "lexical",     # log of the shipped lexical sum (own + CONTEXT context + PATH path + PHRASE pairs)
    "context",     # log(1 + IDF of question terms only in the unit's context)
    "path",        # log(1 + IDF of question terms only in its passage's heading path)
    "pairs",       # log(1 + IDF of adjacent question-term pairs adjacent in the unit)
    "share",       # IDF of the question terms the unit holds / IDF of all the pack holds
    "terms",       # number of question terms the unit holds
    "length",      # log(1 + words / LENGTH)
    "rank",        # log(1 + RANK / (1 + passage rank))
    "document",    # log of the document-share weight
    "row",         # a table row
    "item",        # a list item
    "quantity",    # the question asks for a quantity or default and the unit holds a digit
    "digit",       # the unit holds a digit
    "first",       # the first unit of its passage
    "position",    # log(1 + its place in the passage)
    "identifier",  # it holds an identifier (snake_case, CamelCase, --option, a.b, a())
    "walk",        # its passage's walk score / the best walk score of the pack
    "lead_in",     # it introduces a list, rows or code (ends in ":")
    "introduced",  # a lead-in introduces it
    "how_item",    # the question asks how, and the unit is a list item or a lead-in
    "what_sentence",  # the question asks what/which is, and the unit is a sentence
    "changelog",   # its passage is a changelog / release notes / index page
    "new_number",  # the question asks for a quantity or default, and the unit holds a number it does not
    "new_name",    # the question asks for a named thing (option, command, field, ...), and the unit holds
                   # an identifier it does not
    "polar",       # the question asks yes or no, and the unit holds a term of that clause and says no, only, must
)
SHIPPED = {"lexical": 1.0, "length": -1.0, "rank": 1.0, "document": 1.0, "row": math.log(generate.ROW),
           "quantity": math.log(1 + generate.NUMBER), "polar": math.log(1 + generate.POLAR)}
"""The shipped score in these features (its log, up to a constant per question)."""
_IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b|(?<!\w)--?[a-z][\w-]*|\b\w+\.\w+\b|\b\w+\(\)")
_HOW = re.compile(r"\bhow (do|can|to|does|should)\b|\bsteps?\b", re.IGNORECASE)
_WHAT = re.compile(r"\b(what|which) (is|are|does|value|byte|option|command|field)\b", re.IGNORECASE)
_NAMED = re.compile(r"\b(option|command|flag|field|setting|config\w*|key|pragma|function|method|variable|file|"
                    r"directory|script|package|name|argument|parameter|keyword|value)s?\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_CHANGELOG = re.compile(r"changelog|release notes|release history|changes in|index", re.IGNORECASE)


@dataclass
class Pack:
    """One question and the evidence the walk fetched for it."""

    id: str
    question: str
    answers: list[str]
    phrases: list[str]
    kind: str
    evidence: list[tuple[str, str]]
    paths: dict[str, list[str]]
    walk: dict[str, float]
    held: list[str] = field(default_factory=list)
    """The gold phrases the evidence holds."""
    titles: dict[str, str] = field(default_factory=dict)
    """Each passage's document title, by evidence id (none in a dump written before task X28)."""


def load(dump: Path, sets: list[EvalSet]) -> dict[str, list[Pack]]:
    """The dump's packs by set name, in the order of ``sets``; each row's gold question comes from
    the set the row names (or, for a row naming none, the set whose questions hold its id)."""
    gold = {s.name: {q["id"]: q for q in s.questions()} for s in sets}
    packs: dict[str, list[Pack]] = {name: [] for name in gold}
    for n, row in enumerate(map(json.loads, dump.read_text().splitlines()), 1):
        name = row.get("set") or next((k for k, qs in gold.items() if row["id"] in qs), None)
        if name not in gold or row["id"] not in gold[name]:
            where = f"set {name!r}" if name else "no set"
            raise SystemExit(f"{dump} line {n}: question {row['id']!r} of {where} is not in --sets "
                             f"({', '.join(gold)}): name the sets the dump was written for")
        q = gold[name][row["id"]]
        evidence = [(e, text) for e, text, *_ in row["evidence"]]
        scores = {e: (s or 0.0) for e, _, s, *_ in row["evidence"]}
        best = max(scores.values(), default=0.0) or 1.0
        pack = Pack(row["id"], row["question"], q["answers"], q["evidence"], q["kind"], evidence,
                    {e: p or [] for e, _, _, p, *_ in row["evidence"]}, {e: s / best for e, s in scores.items()},
                    titles={r[0]: r[4] for r in row["evidence"] if len(r) > 4 and r[4]})
        texts = [t for _, t in evidence]
        pack.held = [p for p, found in zip(pack.phrases, evidence_found(pack.phrases, texts), strict=True) if found]
        packs[name].append(pack)
    return packs


def features(unit: Unit, wanted: set[str], pairs: set[tuple[str, str]], idf: dict[str, float], *, numeric: bool,
             order: int, weight: float, path: set[str], pack: Pack, positions: dict[tuple[str, str], int],
             polar: frozenset[str] = frozenset(), options: frozenset[str] = frozenset()) -> np.ndarray | None:
    """The unit's features, None where the shipped score is 0 (no question term, or code); an option the
    question writes counts only in its letter case, as in the shipped score."""
    own = wanted & unit.vocabulary - other_case_terms(options, unit.own)
    if not own or unit.kind == "code":
        return None
    s_own = sum(idf[t] for t in own)
    s_context = sum(idf[t] for t in (wanted & unit.context) - own)
    s_path = sum(idf.get(t, 0.0) for t in path - own)
    s_pairs = sum(idf[a] + idf[b] for a, b in pairs & unit.pairs)
    lexical = s_own + generate.CONTEXT * s_context + generate.PATH * s_path + generate.PHRASE * s_pairs
    total = sum(idf.values()) or 1.0
    digit = generate._DIGIT.search(unit.own) is not None
    position = positions.get((unit.evidence_id, unit.own), 0)
    lead_in = bool(unit.follow) or unit.own.endswith(":")
    values = {
        "lexical": math.log(lexical), "context": math.log1p(s_context), "path": math.log1p(s_path),
        "pairs": math.log1p(s_pairs), "share": s_own / total, "terms": float(len(own)),
        "length": math.log1p(len(unit.own.split()) / generate.LENGTH),
        "rank": math.log1p(generate.RANK / (1 + order)), "document": math.log(weight),
        "row": float(unit.kind == "row"), "item": float(unit.kind == "item"), "quantity": float(numeric and digit),
        "digit": float(digit), "first": float(position == 0), "position": math.log1p(position),
        "identifier": float(_IDENTIFIER.search(unit.own) is not None),
        "walk": pack.walk.get(unit.evidence_id, 0.0), "lead_in": float(lead_in),
        "introduced": float(unit.intro is not None),
        "how_item": float(_HOW.search(pack.question) is not None and (unit.kind == "item" or lead_in)),
        "what_sentence": float(_WHAT.search(pack.question) is not None and unit.kind == "sentence"),
        "changelog": float(_CHANGELOG.search(" ".join(pack.paths.get(unit.evidence_id, []))) is not None),
        "new_number": float(numeric and bool(set(_NUMBER.findall(unit.own)) - set(_NUMBER.findall(pack.question)))),
        "new_name": float(_NAMED.search(pack.question) is not None
                          and bool(set(_IDENTIFIER.findall(unit.own)) - set(_IDENTIFIER.findall(pack.question)))),
        "polar": float(bool(polar & own) and generate._POLARITY.search(unit.own) is not None),
    }
    return np.array([values[f] for f in FEATURES])


@contextmanager
def scoring(score: Callable[..., float], keep: float) -> Iterator[None]:
    kept = generate.KEEP
    generate._score, generate.KEEP = score, keep  # the extract looks both up at each call
    try:
        yield
    finally:
        generate._score, generate.KEEP = SHIPPED_SCORE, kept


@dataclass(frozen=True)
class Model:
    """A unit's score: ``exp(w . x - cost * length)``, or with ``bias`` (logistic regression) the
    fitted probability that the unit holds a gold phrase over its length: ``sigmoid(w . x + bias) /
    exp(cost * length)`` (a budget buys the most phrases per token)."""

    weights: np.ndarray
    bias: float | None = None
    cost: float = 0.0
    keep: float = 0.0
    """``KEEP`` under this score: the shipped 0.2 of the best cuts a fitted score's spread (its
    extracts fall to a median of 190-235 tokens); the shipped score gives the same retention at 0."""

    def score(self, x: np.ndarray) -> float:
        logit = float(self.weights @ x)
        length = x[FEATURES.index("length")]
        if self.bias is None:
            return math.exp(min(50.0, logit - self.cost * length))
        return math.exp(-math.log1p(math.exp(-min(50.0, max(-50.0, logit + self.bias)))) - self.cost * length)


def run(pack: Pack, weights: Model | None, record: list[tuple[np.ndarray, Unit]] | None = None,
        max_tokens: int = generate.EXTRACT_TOKENS) -> str:
    """The extract of ``pack`` with the unit score of ``weights`` (the shipped one when None);
    ``record`` gets each scored unit's features."""
    positions = {(u.evidence_id, u.own): k for e, text in pack.evidence
                 for k, u in enumerate(passage_units(text, e, 0))}

    def score(unit: Unit, wanted: set[str], pairs: set[tuple[str, str]], idf: dict[str, float],
              **kw: Any) -> float:
        x = features(unit, wanted, pairs, idf, pack=pack, positions=positions, **kw)
        if x is None:
            return 0.0
        if record is not None:
            record.append((x, unit))
        if weights is None:
            return SHIPPED_SCORE(unit, wanted, pairs, idf, **kw)
        return weights.score(x)

    with scoring(score, generate.KEEP if weights is None else weights.keep):
        generation = extractive_answer(pack.question, pack.evidence, max_tokens=max_tokens, paths=pack.paths,
                                       titles=pack.titles)
    return generation.answer if generation is not None else ""


def evaluate(packs: list[Pack], weights: Model | None) -> dict[str, Any]:
    kept = held = 0
    found: list[float] = []
    sizes: list[int] = []
    kinds: dict[str, list[float]] = {}
    for pack in packs:
        answer = run(pack, weights)
        text = CITATION.sub("", answer)
        k = sum(evidence_found(pack.held, [text]))
        kept, held = kept + k, held + len(pack.held)
        found.append(answer_found(text, pack.answers) or 0.0)
        sizes.append(count_tokens(answer))
        c = kinds.setdefault(pack.kind, [0, 0, 0, 0])
        c[0], c[1], c[2], c[3] = c[0] + k, c[1] + len(pack.held), c[2] + found[-1], c[3] + 1
    return {"retention": round(kept / held, 3) if held else None, "answer_found": round(statistics.mean(found), 3),
            "median_tokens": statistics.median(sizes),
            "by_kind": {k: [round(c[0] / c[1], 3) if c[1] else None, round(c[2] / c[3], 3)]
                        for k, c in sorted(kinds.items())}}


def examples(packs: list[Pack]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each question's scored units: features, and for each gold phrase the pack holds whether the
    unit holds it (units x phrases)."""
    out = []
    for pack in packs:
        record: list[tuple[np.ndarray, Unit]] = []
        run(pack, None, record)
        if not record or not pack.held:
            continue
        x = np.array([r[0] for r in record])
        y = np.array([evidence_found(pack.held, [u.text]) for _, u in record], dtype=float)
        out.append((x, y))
    return out


def fit(data: list[tuple[np.ndarray, np.ndarray]], strength: float, loss: str, cost: float,
        free: tuple[str, ...] = FEATURES) -> Model:
    """Weights in raw feature units, by Newton's method on the mean loss per question plus
    ``strength`` * |w - prior|^2 / 2 in standardised units; the prior is the shipped score with
    ``cost`` taken out of its length weight (the model's score puts it back). Features not in
    ``free`` keep their prior weight."""
    allx = np.vstack([x for x, _ in data])
    mu, sd = allx.mean(axis=0), allx.std(axis=0)
    sd[sd == 0] = 1.0
    prior = np.array([SHIPPED.get(f, 0.0) + cost * (f == "length") for f in FEATURES]) * sd
    pairwise = loss == "pairwise"
    if loss == "listwise":
        return _listwise(data, mu, sd, prior, strength, free, cost)
    rows, targets, sample = [], [], []
    for x, labels in data:
        z = (x - mu) / sd
        y = labels.max(axis=1)
        if pairwise:
            pos, neg = z[y == 1], z[y == 0]
            if len(pos) and len(neg):
                diff = (pos[:, None, :] - neg[None, :, :]).reshape(-1, z.shape[1])
                rows.append(diff)
                targets.append(np.ones(len(diff)))
                sample.append(np.full(len(diff), 1.0 / len(diff)))
        else:
            rows.append(np.hstack([z, np.ones((len(z), 1))]))
            targets.append(y)
            sample.append(np.full(len(z), 1.0 / len(z)))
    a, t, s = np.vstack(rows), np.concatenate(targets), np.concatenate(sample)
    s = s / s.sum()
    p = np.append(prior, 0.0) if not pairwise else prior
    mask = np.array([1.0 if f in free else 1e6 for f in FEATURES] + ([] if pairwise else [1.0]))
    if not pairwise:
        mask[-1] = 0.0  # the intercept is not pulled
    w = p.copy()
    for _ in range(50):
        q = 1 / (1 + np.exp(-(a @ w)))
        grad = a.T @ (s * (q - t)) + strength * mask * (w - p)
        hess = (a * (s * q * (1 - q))[:, None]).T @ a + np.diag(strength * mask + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    raw = w[: len(FEATURES)] / sd
    if pairwise:
        return Model(raw, None, cost)
    return Model(raw, float(w[-1] - raw @ mu), cost)


def objective(packs: list[Pack], model: Model | None, budgets: tuple[int, ...] = (200, 250, 300)) -> float:
    """Retention over ``packs`` at several extract sizes together (smoother than one)."""
    kept = held = 0
    for pack in packs:
        for budget in budgets:
            text = CITATION.sub("", run(pack, model, max_tokens=budget))
            kept += sum(evidence_found(pack.held, [text]))
            held += len(pack.held)
    return kept / held if held else 0.0


def _listwise(data: list[tuple[np.ndarray, np.ndarray]], mu: np.ndarray, sd: np.ndarray, prior: np.ndarray,
              strength: float, free: tuple[str, ...], cost: float) -> Model:
    """For each gold phrase, the softmax of the units' ``w . z`` puts the most mass on the units
    holding it: mean over phrases of ``-log(sum over holders / sum over all)`` plus the L2 pull, by
    gradient descent preconditioned with the covariance of all units (the loss is not convex)."""
    zs = [((x - mu) / sd, y) for x, y in data]
    n = sum(y.shape[1] for _, y in zs)
    pull = np.array([strength if f in free else 1e6 for f in FEATURES])

    def loss_grad(w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        loss, grad, hess = 0.0, np.zeros_like(w), np.zeros((len(w), len(w)))
        for z, y in zs:
            s = z @ w
            e = np.exp(s - s.max())
            p_all = e / e.sum()
            mean_all = p_all @ z
            cov = (z * p_all[:, None]).T @ z - np.outer(mean_all, mean_all)
            for j in range(y.shape[1]):
                held = y[:, j] > 0
                if not held.any():
                    continue
                p_pos = e * held / (e * held).sum()
                loss += -math.log((e * held).sum() / e.sum())
                grad += mean_all - p_pos @ z
                hess += cov
        d = w - prior
        return (loss / n + 0.5 * float(pull @ (d * d)), grad / n + pull * d, hess / n + np.diag(pull))

    w = prior.copy()
    loss, grad, hess = loss_grad(w)
    for _ in range(100):
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-4:
            trial = w - t * step
            trial_loss, trial_grad, trial_hess = loss_grad(trial)
            if trial_loss < loss:
                break
            t /= 2
        else:
            break
        converged = loss - trial_loss < 1e-9
        w, loss, grad, hess = trial, trial_loss, trial_grad, trial_hess
        if converged:
            break
    return Model(w / sd, None, cost)


STEPS = (-1.0, -0.5, -0.25, 0.25, 0.5, 1.0)


def search(packs: list[Pack], rounds: int = 2, margin: float = 0.005) -> tuple[Model, list[str]]:
    """Coordinate ascent on ``objective`` from the shipped weights: each feature's weight moved by
    ``STEPS`` (in units of its standard deviation over the packs' units), kept when the retention
    gains more than ``margin``."""
    allx = np.vstack([x for x, _ in examples(packs)])
    sd = allx.std(axis=0)
    sd[sd == 0] = 1.0
    w = np.array([SHIPPED.get(f, 0.0) for f in FEATURES])
    best = objective(packs, Model(w, keep=generate.KEEP))
    log = [f"start {best:.3f}"]
    for _ in range(rounds):
        moved = False
        for i, name in enumerate(FEATURES):
            trials = []
            for step in STEPS:
                trial = w.copy()
                trial[i] += step / sd[i]
                trials.append((objective(packs, Model(trial, keep=generate.KEEP)), -abs(step), trial))
            value, _, trial = max(trials, key=lambda t: (t[0], t[1]))
            if value > best + margin:
                best, w, moved = value, trial, True
                log.append(f"{name} -> {w[i]:.3f}: {best:.3f}")
                print(log[-1], file=sys.stderr, flush=True)
        if not moved:
            break
    return Model(w, keep=generate.KEEP), log


LOSSES = ("listwise", "pairwise", "logistic", "search")
STRENGTHS = (0.001, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0)


def splits(packs: dict[str, list[Pack]], folds: int = 5) -> list[tuple[list[Pack], list[Pack]]]:
    """(training packs, held-out packs): each set held out in turn where there are two sets or more,
    else ``folds`` folds of the one set's questions (every ``folds``-th question)."""
    names = list(packs)
    if len(names) > 1:
        return [([p for other in names if other != name for p in packs[other]], packs[name]) for name in names]
    only = packs[names[0]]
    return [([p for i, p in enumerate(only) if i % folds != k], [p for i, p in enumerate(only) if i % folds == k])
            for k in range(folds)]


def agreeing(packs: dict[str, list[Pack]], loss: str, cost: float, strength: float = 0.3,
             among: tuple[str, ...] = FEATURES) -> tuple[str, ...]:
    """The features of ``among`` whose weights, fitted on each set of ``packs`` alone, all move the
    same way from the shipped weights (a property of answers, not one set's habit)."""
    prior = np.array([SHIPPED.get(f, 0.0) + cost * (f == "length") for f in FEATURES])
    moves = np.array([np.sign(fit(examples(group), strength, loss, cost, among).weights - prior)
                      for group in packs.values()])
    return tuple(f for i, f in enumerate(FEATURES) if f in among and abs(moves[:, i].sum()) == len(packs))


def choose(packs: dict[str, list[Pack]], loss: str, cost: float,
           free: tuple[str, ...] = FEATURES) -> tuple[float, dict[float, float]]:
    """The L2 strength with the best held-out retention (mean over the ``splits`` of the training
    sets ``packs``)."""
    data = {id(p): examples([p]) for group in packs.values() for p in group}
    results = {}
    for strength in STRENGTHS:
        scores = []
        for train, test in splits(packs):
            w = fit([e for p in train for e in data[id(p)]], strength, loss, cost, free)
            scores.append(evaluate(test, w)["retention"] or 0.0)
        results[strength] = round(statistics.mean(scores), 3)
    best = max(STRENGTHS, key=lambda s: (results[s], s))  # ties: the stronger pull to the shipped score
    return best, results


def pooled(packs: dict[str, list[Pack]], loss: str, strength: float, cost: float, folds: int = 5) -> dict[str, Any]:
    """All sets' questions in ``folds`` folds (each set's questions dealt in turn): fitted on the
    others, run on each fold; retention and answer found over the folds, by set."""
    data = {id(p): examples([p]) for group in packs.values() for p in group}
    kept = {name: [0, 0, 0.0] for name in packs}
    for k in range(folds):
        train = [e for group in packs.values() for i, p in enumerate(group) if i % folds != k for e in data[id(p)]]
        w = fit(train, strength, loss, cost)
        for name, group in packs.items():
            for i, pack in enumerate(group):
                if i % folds == k:
                    text = CITATION.sub("", run(pack, w))
                    kept[name][0] += sum(evidence_found(pack.held, [text]))
                    kept[name][1] += len(pack.held)
                    kept[name][2] += answer_found(text, pack.answers) or 0.0
    return {name: {"retention": round(c[0] / c[1], 3), "answer_found": round(c[2] / len(packs[name]), 3)}
            for name, c in kept.items()}


KNOBS: dict[str, tuple[float, ...]] = {
    "PATH": (0.0, 0.5, 1.0), "CONTEXT": (0.25, 0.75, 1.0), "ROW": (1.0, 1.5, 3.0), "RANK": (0.0, 0.5, 2.0),
    "LENGTH": (20.0, 40.0, 60.0), "DOCUMENT": (0.0, 0.5, 2.0), "KEEP": (0.0, 0.1, 0.3),
}
"""The shipped score's weights that ``--knobs`` moves, one at a time, and the values it tries."""


@contextmanager
def knob(name: str, value: float) -> Iterator[None]:
    shipped = getattr(generate, name)
    setattr(generate, name, type(shipped)(value))  # the extract looks it up at each call
    try:
        yield
    finally:
        setattr(generate, name, shipped)


def knobs(packs: dict[str, list[Pack]]) -> dict[str, Any]:
    """Retention, answer found and median extract of each set with each ``KNOBS`` value (the others shipped)."""
    out: dict[str, Any] = {}
    for name, values in KNOBS.items():
        for value in values:
            with knob(name, value):
                out[f"{name}={value:g}"] = {s: {k: v for k, v in evaluate(group, None).items() if k != "by_kind"}
                                            for s, group in packs.items()}
            print(json.dumps({f"{name}={value:g}": out[f"{name}={value:g}"]}), file=sys.stderr, flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dump", type=Path, help="benchmarks/extract.py --dump output (of the sets in --sets)")
    parser.add_argument("--sets", default=SETS, help="the dump's sets, as extract.py takes them (comma-separated)")
    parser.add_argument("--check", type=Path, help="packs of another budget, to run the fitted weights on")
    parser.add_argument("--loss", choices=LOSSES, default="listwise",
                        help="what the weights minimise (search: coordinate ascent on retention)")
    parser.add_argument("--strength", type=float, help="the L2 strength (default: chosen by cross-validation)")
    parser.add_argument("--cost", type=float, default=1.0, help="the length's cost in the score (Model)")
    parser.add_argument("--pooled", action="store_true",
                        help="5-fold cross-validation over all the sets' questions together instead")
    parser.add_argument("--knobs", action="store_true", help="no fit: the shipped score's weights moved one at a time")
    parser.add_argument("--agree", action="store_true",
                        help="fit only the features (of --free) whose weights, fitted on each training set alone, "
                             "move the same way")
    parser.add_argument("--free", help="the features fitted, comma-separated (the others keep the shipped weight); "
                                       "default: all")
    args = parser.parse_args()
    sets = resolve_all(args.sets)
    free = tuple(f.strip() for f in args.free.split(",")) if args.free else FEATURES
    if unknown := [f for f in free if f not in FEATURES]:
        raise SystemExit(f"--free: no feature {', '.join(unknown)}; the features are {', '.join(FEATURES)}")
    packs = load(args.dump, sets)
    check = load(args.check, sets) if args.check else None
    if args.knobs:
        print(json.dumps({"knobs": knobs(packs), "check": knobs(check) if check else None}, indent=1))
        return
    shipped = {name: evaluate(group, None) for name, group in packs.items()}
    if args.pooled:
        brief = {name: {k: v for k, v in r.items() if k != "by_kind"} for name, r in shipped.items()}
        print(json.dumps({"loss": args.loss, "strength": args.strength, "cost": args.cost, "shipped": brief,
                          "pooled": pooled(packs, args.loss, args.strength or 0.3, args.cost)}))
        return
    if len(packs) < 2:
        raise SystemExit("--sets names one set: holding one out needs two or more (or use --pooled)")
    report: dict[str, Any] = {"features": FEATURES, "free": free, "loss": args.loss, "cost": args.cost,
                              "shipped": shipped,
                              "shipped check": ({name: evaluate(group, None) for name, group in check.items()}
                                                if check else None),
                              "folds": {}}
    for test in packs:
        train = {name: group for name, group in packs.items() if name != test}
        fold: dict[str, Any] = {}
        fitted = agreeing(train, args.loss, args.cost, among=free) if args.agree else free
        fold["free"] = fitted
        if args.loss == "search":
            w, fold["search"] = search([p for group in train.values() for p in group])
        else:
            if args.strength is None:
                fold["strength"], fold["cv"] = choose(train, args.loss, args.cost, fitted)
            else:
                fold["strength"] = args.strength
            w = fit(examples([p for group in train.values() for p in group]), fold["strength"], args.loss, args.cost,
                    fitted)
        fold["weights"] = {f: round(float(v), 3) for f, v in zip(FEATURES, w.weights, strict=True)}
        fold["bias"] = w.bias
        for name, group in packs.items():
            fold[name] = evaluate(group, w)
            if check is not None:
                fold[f"{name} check"] = evaluate(check[name], w)
        report["folds"][f"held out {test}"] = fold
        print(json.dumps({test: {k: v for k, v in fold.items() if k != "weights"}}), file=sys.stderr, flush=True)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
