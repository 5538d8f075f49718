"""The question's words that neither the evidence nor the corpus holds: the evidence cannot speak to them.

BM25 finds something for almost any question (a passage sharing one of its words), and the extract
quotes what scores best, so an answer comes back whether or not the corpus can answer. A run's
generation says which words of the question (as written) no evidence passage holds and no passage
of the collection it was asked of (as the caller may read it) holds either
(``Generation.absent_terms``): "kubernetes" asked of SQLite's manual. It is information, not a guess at
confidence, and not a stop: the answer is still given.

The question is read with the search index's own tokenizer (``clew.corpus.tokenize``): its stopwords
are dropped, and a word matches its stemmed forms ("indexes" is held by "index") in a passage's text
or heading path, as a search matches. A compound token (``max_wal_size``, ``2.0.0-rc.1``,
``printf-style``) is held whole, or by all of its parts. A few English function words that the index
keeps (``FUNCTION_WORDS``: "besides", "myself", "everything") are never reported, nor the verb of the
question's frame (``QUESTION_FRAMES``: "what does X mean", "what is meant by", "how does X work", "what
happens when"): a manual that never writes "means" still answers what its error rate means. The frame is
read from the question's shape, so "the mean of the samples" stays a word of its subject.

Why the corpus and not only the evidence (measured on six eval sets at 2,000 tokens, task N1 in
docs/measurements/callers-2026-12-05.md): real questions are written in the asker's words, and 60-88%
of them hold a word that the 2,000 tokens of evidence lack ("already", "roughly"), so that signal
would be on for nearly every answer; a word the whole corpus lacks flags 2.5-34% of the real questions
(mostly words the documents say otherwise: "mandatory" for "required") and 75-100% of questions
asked of another set's corpus.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from clew.corpus.reader import Scope
from clew.corpus.search.stats import term_stats
from clew.corpus.tokenize import TOKEN, count_terms, folded, tokenize

FUNCTION_WORDS = frozenset(tokenize(
    "about above after again against all also among apart any away before behind below beside besides between "
    "both during each either else even every ever few further herself himself itself just many may might more "
    "most much must myself neither nor once only other ourselves own per same some still themselves through "
    "too toward towards under until upon very via whether while within without yet yourself yourselves "
    "anybody anyone anything anywhere everybody everyone everything everywhere nobody nothing nowhere "
    "somebody someone something somewhere whatever whenever wherever whichever whoever"))
"""Index terms of English function words the index keeps, never reported: a question's "besides",
"myself" or "everything" absent from a manual says nothing about its subject."""

_PHRASE = r"(?:[^\s?!,;:]+\s+){1,6}?"
_VERBLESS = r"(?:(?!(?:is|are|was|were|be|do|does|did)\s)[^\s?!,;:]+\s+){1,6}?"
_SUBJECT = rf"(?:(?:i|you|we|they)\s+|(?!(?:i|you|we|they)\s){_PHRASE})"
_AUXILIARY = r"(?:do|does|did|will|would|can|could|should|might|may)"
_CLAUSE_END = r"(?=\s*(?:$|[?!.,;:)]|(?:by|in|here|there|exactly|for|to|when|if|with|on|under|together)\b))"
_CLAUSE_START = r"(?=\s+(?:that|a|an|the|this|these|those|it|you|we|i|my|your|our|its|there|no|not)\b)"
QUESTION_FRAMES = re.compile("|".join((
    rf"\bwhat\s+(?:do|does|did)\s+{_SUBJECT}(?<!\bthe\s)(?<!\ba\s)(?<!\ban\s)(mean){_CLAUSE_END}",
    rf"\bhow\s+{_AUXILIARY}\s+{_SUBJECT}(?<!\bthe\s)(?<!\ba\s)(?<!\ban\s)(work){_CLAUSE_END}",
    rf"\b(?:what|which|how)\s+{_VERBLESS}(means|works)(?:{_CLAUSE_END}|{_CLAUSE_START})",
    r"\b(?:is|are|was|were|be|been)\s+(meant)\b",
    rf"\bwhat\s+(?:{_AUXILIARY}\s+)?(happens|happened|happen)\b",
)))
"""The verb of a question's frame, read from its shape (a match's group is the verb): "what does X mean"
(the subject a phrase, or a pronoun alone: "what do you need to compute a weighted mean" is not the
frame; "mean" after "the"/"a" is the noun), "how does X work", "what (X) means/works" with no other
verb before it ("what are the column means" is the noun), closing the clause or opening another ("What
error rate means a deploy should be rolled back?"), "is meant", "what happens"."""

Word = tuple[str, tuple[str, ...]]
"""A word of the question as written, and its index terms (the whole token first, then its parts)."""


def question_words(question: str) -> list[Word]:
    """Each searchable word of ``question`` once, as written, with its index terms; stopwords,
    ``FUNCTION_WORDS`` and the verb of its frame (``QUESTION_FRAMES``) left out."""
    lowered = folded(question)  # as tokenize reads it: a letter and its combining accent one character
    source = question if len(lowered) == len(question) else lowered  # a few letters lengthen when lowered or folded
    frame = {frame.span(frame.lastindex) for frame in QUESTION_FRAMES.finditer(lowered) if frame.lastindex}
    seen: dict[str, tuple[str, ...]] = {}
    for match in TOKEN.finditer(lowered):
        terms = tuple(tokenize(match.group()))
        if (terms and match.span() not in frame and terms[0] not in FUNCTION_WORDS
                and terms[0] not in {t[0] for t in seen.values()}):
            seen[source[match.start():match.end()]] = terms
    return list(seen.items())


def held_terms(passages: Iterable[tuple[str, Sequence[str]]]) -> set[str]:
    """Every index term of the passages (their text and heading path), as the index holds them."""
    held: set[str] = set()
    for text, path in passages:
        held.update(count_terms(text))
        held.update(count_terms(" ".join(path)))
    return held


def unheld(words: Iterable[Word], held: set[str]) -> list[Word]:
    """The words ``held`` holds neither whole nor by all of their parts."""
    return [(word, terms) for word, terms in words
            if terms[0] not in held and (len(terms) == 1 or not all(t in held for t in terms[1:]))]


def absent_terms(scope: Scope, question: str, passages: Iterable[tuple[str, Sequence[str]]]) -> list[str]:
    """The words of ``question`` (as written) that none of ``passages`` (text, heading path) holds, nor any
    passage ``scope`` reads: the collection the question was asked of (and its filter), as its principal
    may read it, so that a word only another collection holds is absent here (the search index's
    document frequencies, counted over those rows).

    Where ``scope`` reads the whole corpus (one collection, no filter), its statistics are the
    corpus's (cached until the next write) and are asked first: the passages' terms (0.3-0.4 ms of CPU a question
    for a 2,000-token pack, 5% of a warm walk) are read only for the words the corpus lacks, which few
    questions hold. Otherwise the scoped count is a query, asked only for the words the passages lack."""
    words = question_words(question)
    if not words:
        return []
    if scope.reads_everything():
        held = _scope_terms(scope, words)
        missing = unheld(words, held)
        return [word for word, _ in unheld(missing, held | held_terms(passages))] if missing else []
    held = held_terms(passages)
    missing = unheld(words, held)
    if not missing:
        return []
    return [word for word, _ in unheld(missing, held | _scope_terms(scope, missing))]


def _scope_terms(scope: Scope, words: Sequence[Word]) -> set[str]:
    """The index terms of ``words`` that some passage ``scope`` reads holds."""
    stats = term_stats(scope, {t for _, terms in words for t in terms}, narrowed=True)
    return {term for term, (_, df, _) in stats.terms.items() if df > 0}
