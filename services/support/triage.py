"""Offline triage: TF-IDF cosine similarity to resolved tickets and to the categories' own words.

Deterministic and explainable, no model files:

* Text is lower-cased, split into words, stop words dropped and a light
  suffix stemmer applied ("refunds", "refunded" -> "refund").
* Every resolved ticket (subject + description) and every category (name,
  description, keywords) is a TF-IDF vector; IDF is computed over all of them.
* Category: the score of a category is the summed cosine similarity of the
  ``K`` nearest resolved tickets of that category plus ``CATEGORY_WEIGHT``
  times the similarity to the category's own text. Confidence is the
  winner's share of all scores, with a small ``UNKNOWN_MASS`` in the
  denominator so weak evidence gives a low confidence.
* Priority: the neighbours' priorities, similarity-weighted, plus fixed
  boosts for urgency words ("outage", "asap", ...); ``normal`` has a prior.
* Suggested reply: the first public agent reply of the most similar resolved
  ticket that has one.

``TriageEngine`` is the interface a stronger model can implement later.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Protocol

METHOD = "tfidf-cosine-v1"
K = 10
CATEGORY_WEIGHT = 1.5
UNKNOWN_MASS = 0.15
# A resolved ticket counts as evidence only this similar (cosine) or more: a faint likeness (a shared
# filler sentence) is no evidence, and on new wordings it out-voted the categories' own words.
NEIGHBOUR_FLOOR = 0.6
# Below this score (the winner's share of the evidence) nothing is suggested: weak evidence is said so.
MIN_SCORE = 0.3
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

_STOP = """a about above after again against all am an and any are as at be because been before being below between
    both but by can could did do does doing down during each few for from further had has have having he her here
    hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other
    our ours out over own same she should so some such than that the their them then there these they this those
    through to too under until up very was we were what when where which while who whom why will with would you your
    yours hi hello thanks thank please regards dear team"""
STOP_WORDS = frozenset(_STOP.split())

PRIORITY_WORDS: dict[str, frozenset[str]] = {
    "urgent": frozenset(
        {
            "urgent",
            "asap",
            "immediately",
            "outage",
            "emergency",
            "critical",
            "hacked",
            "fraud",
            "security",
            "breach",
            "production",
            "down",
        }
    ),
    "high": frozenset(
        {
            "broken",
            "fail",
            "error",
            "cannot",
            "can't",
            "unable",
            "wrong",
            "twice",
            "charg",
            "missing",
            "damag",
            "lost",
            "crash",
        }
    ),
    "low": frozenset(
        {"question", "wonder", "suggestion", "feedback", "curious", "feature", "idea", "tip", "info", "information"}
    ),
}
PRIORITY_BOOST = 0.6
NORMAL_PRIOR = 0.5
# A word of a customer's own text used by fewer tickets than this may be theirs alone (a relative's
# name, a street): a suggested reply does not repeat it capitalised (services/support/redact.py).
COMMON_WORD_TICKETS = 10


def stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def name_words(name: str, email: str = "") -> set[str]:
    """The lower-case words of a person's name and of their e-mail's local part (two letters or more)."""
    local = email.split("@", 1)[0]
    parts = re.split(r"[\s._+\-'’]+", f"{name} {local}".lower())
    return {p for p in parts if len(p) >= 2 and p.isalpha()}


def tokens(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and len(w) > 1]


@dataclass(frozen=True)
class CorpusTicket:
    id: str
    number: str
    subject: str
    text: str
    category_id: str | None
    priority: str
    reply: str | None = None
    requester_name: str = ""
    requester_email: str = ""


@dataclass(frozen=True)
class CategoryText:
    id: str
    name: str
    text: str


@dataclass
class Guess:
    category_id: str | None
    category_confidence: float
    priority: str
    priority_confidence: float
    matched_terms: list[str]
    similar: list[tuple[CorpusTicket, float]]

    @property
    def confidence(self) -> float:
        # Both parts must hold for the suggestion as a whole.
        return round(self.category_confidence * self.priority_confidence, 3)


@dataclass
class Reply:
    text: str | None
    source: CorpusTicket | None
    score: float


class TriageEngine(Protocol):
    customer_words: set[str]

    def classify(self, text: str) -> Guess: ...

    def suggest_reply(self, text: str) -> Reply: ...

    def rare_words(self, ticket: CorpusTicket) -> set[str]: ...


@dataclass
class TfidfIndex:
    """Inverted index of L2-normalised TF-IDF vectors; a query touches only its terms' postings."""

    tickets: list[CorpusTicket]
    categories: list[CategoryText]
    idf: dict[str, float] = field(default_factory=dict)
    postings: dict[str, list[tuple[int, float]]] = field(default_factory=dict)
    category_vectors: dict[str, dict[str, float]] = field(default_factory=dict)
    # Every requester's name words: a suggested reply never carries one (services/support/redact.py).
    customer_words: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        for t in self.tickets:
            self.customer_words |= name_words(t.requester_name, t.requester_email)
        bags = [Counter(tokens(t.text)) for t in self.tickets]
        cat_bags = {c.id: Counter(tokens(c.text)) for c in self.categories}
        df: Counter[str] = Counter()
        for bag in [*bags, *cat_bags.values()]:
            df.update(bag.keys())
        n = len(bags) + len(cat_bags)
        self.idf = {t: math.log((n + 1) / (d + 1)) + 1.0 for t, d in df.items()}
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, bag in enumerate(bags):
            for term, w in self._vector(bag).items():
                postings[term].append((i, w))
        self.postings = dict(postings)
        self.category_vectors = {cid: self._vector(bag) for cid, bag in cat_bags.items()}

    def _vector(self, bag: Counter[str]) -> dict[str, float]:
        vec = {t: (1.0 + math.log(c)) * self.idf.get(t, 1.0) for t, c in bag.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {t: v / norm for t, v in vec.items()}

    def query_vector(self, text: str) -> dict[str, float]:
        # Words never seen anywhere carry no evidence: leave them out of the norm too.
        bag = Counter(t for t in tokens(text) if t in self.idf)
        return self._vector(bag) if bag else {}

    def nearest(self, q: dict[str, float], k: int = K) -> list[tuple[CorpusTicket, float]]:
        scores: dict[int, float] = defaultdict(float)
        for term, qw in q.items():
            for i, w in self.postings.get(term, ()):
                scores[i] += qw * w
        # Ties broken by position (newest resolved first in the corpus): deterministic.
        best = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
        return [(self.tickets[i], s) for i, s in best if s > 0]

    def classify(self, text: str) -> Guess:
        q = self.query_vector(text)
        near = self.nearest(q)
        cat_scores: dict[str, float] = defaultdict(float)
        for t, s in near:
            if t.category_id and s >= NEIGHBOUR_FLOOR:
                cat_scores[t.category_id] += s
        for cid, vec in self.category_vectors.items():
            sim = sum(qw * vec.get(term, 0.0) for term, qw in q.items())
            if sim > 0:
                cat_scores[cid] += CATEGORY_WEIGHT * sim
        category_id, cat_conf = None, 0.0
        if cat_scores:
            category_id = min(cat_scores, key=lambda c: (-cat_scores[c], c))
            cat_conf = cat_scores[category_id] / (sum(cat_scores.values()) + UNKNOWN_MASS)
            if cat_conf < MIN_SCORE:
                category_id = None  # weak evidence: suggest nothing rather than a guess
        priority, prio_conf = self._priority(text, near)
        return Guess(
            category_id=category_id,
            category_confidence=round(cat_conf, 3),
            priority=priority,
            priority_confidence=round(prio_conf, 3),
            matched_terms=self._evidence(text, q, category_id, near),
            similar=near[:5],
        )

    def _priority(self, text: str, near: list[tuple[CorpusTicket, float]]) -> tuple[str, float]:
        scores: dict[str, float] = {"low": 0.0, "normal": NORMAL_PRIOR, "high": 0.0, "urgent": 0.0}
        for t, s in near:
            if t.priority in scores:
                scores[t.priority] += s
        words = set(tokens(text)) | set(_WORD.findall(text.lower()))
        for prio, cues in PRIORITY_WORDS.items():
            hits = sum(1 for w in words if w in cues)
            scores[prio] += PRIORITY_BOOST * hits
        best = min(scores, key=lambda p: (-scores[p], p))
        return best, scores[best] / sum(scores.values())

    def _evidence(
        self, text: str, q: dict[str, float], category_id: str | None, near: list[tuple[CorpusTicket, float]]
    ) -> list[str]:
        """The query's words that point to the chosen category, heaviest first, each as the ticket
        wrote it (its first form): an agent read the stems ("charg" for "charged")."""
        if category_id is None:
            return []
        support = set(self.category_vectors.get(category_id, {}))
        for t, _s in near:
            if t.category_id == category_id:
                support.update(tokens(t.text))
        written: dict[str, str] = {}
        for w in _WORD.findall(text.lower()):
            written.setdefault(stem(w), w)
        terms = [term for term, _w in sorted(q.items(), key=lambda kv: (-kv[1], kv[0])) if term in support][:8]
        return [written.get(term, term) for term in terms]

    def rare_words(self, ticket: CorpusTicket) -> set[str]:
        """The stemmed words of ``ticket``'s text that fewer than ``COMMON_WORD_TICKETS`` tickets use."""
        return {t for t in set(tokens(ticket.text)) if len(self.postings.get(t, ())) < COMMON_WORD_TICKETS}

    def suggest_reply(self, text: str) -> Reply:
        for t, s in self.nearest(self.query_vector(text), k=25):
            if t.reply:
                return Reply(t.reply, t, round(s, 3))
        return Reply(None, None, 0.0)
