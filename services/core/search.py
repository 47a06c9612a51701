"""Full-text search, one path per database, for every module that searches text (support, docs).

* SQLite with FTS5: a trigram index per searched table, made by the module's migration (its
  virtual table and triggers). ``fts_tables`` says which exist (looked up once per runtime), and
  ``fts_phrase`` quotes one word as an FTS5 phrase, so no word is read as query syntax. Words
  shorter than ``MIN_TRIGRAM`` cannot use trigrams and are matched with the LIKE path.
* PostgreSQL, or an SQLite without FTS5: ``has_word`` (``ILIKE '%word%'``, with ``%``, ``_`` and
  ``\\`` in the word taken as text), the same inside-word, any-case matches as the trigram index.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement

from services.core.context import Ctx

MIN_TRIGRAM = 3
# Control characters (a NUL above all) are not text anyone searches for, and FTS5 refuses them.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_lock = threading.Lock()


def clean(text: str) -> str:
    """The search text without control characters, trimmed."""
    return _CONTROL.sub(" ", text).strip()


def words_of(text: str) -> list[str]:
    """The distinct whitespace-separated words of a search, in order (the whole text when none)."""
    text = clean(text)
    return list(dict.fromkeys(w for w in text.split() if w)) or ([text] if text else [])


def like_pattern(term: str) -> str:
    """``%term%`` with LIKE's own characters escaped (``escape="\\"``)."""
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def has_word(column: Any, word: str) -> ColumnElement[bool]:
    """``column`` contains ``word``, any case: the search where no FTS5 index serves it."""
    found: ColumnElement[bool] = column.ilike(like_pattern(word), escape="\\")
    return found


def fts_phrase(word: str) -> str:
    """``word`` as one FTS5 phrase (quotes doubled): matched as text, never as query syntax."""
    return '"' + word.replace('"', '""') + '"'


@dataclass
class FtsTables:
    """Per runtime: the FTS5 tables found so far (name -> exists), each looked up once."""

    found: dict[str, bool] = field(default_factory=dict)


def fts_tables(ctx: Ctx, *names: str) -> set[str]:
    """Those of ``names`` that exist as FTS5 tables (none on PostgreSQL: it searches with ``has_word``)."""
    db = ctx.runtime.db
    if not db.is_sqlite:
        return set()
    known = ctx.runtime.part(FtsTables).found
    missing = [n for n in names if n not in known]
    if missing:
        with _lock, db.engine.connect() as conn:
            marks = ", ".join("?" for _ in missing)
            rows = conn.exec_driver_sql(f"SELECT name FROM sqlite_master WHERE name IN ({marks})", tuple(missing))
            there = {r[0] for r in rows}
        known.update({n: n in there for n in missing})
    return {n for n in names if known[n]}
