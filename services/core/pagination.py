"""The one pagination helper: both documented forms, with sort validation.

Form A (``page``, default limit 20) unless ``offset`` is present (form B,
default limit 50). ``limit`` over 100 is clamped; ``page`` < 1, a negative
offset, ``limit`` < 1 or a non-integer is 400. ``sort=created_at&order=desc``
and ``sort=-created_at`` both work; an unknown sort field is 400. The body
carries both ``meta`` and ``pagination``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from services.core.errors import ValidationFailed
from services.core.search import has_word

T = TypeVar("T")
MAX_LIMIT = 100
# Databases take a signed 64-bit OFFSET; anything past it could only be an empty page.
MAX_POSITION = 2**63 - 1


def contains(column: Any, term: str) -> Any:
    """``column`` contains ``term``, any case, with ``%`` and ``_`` in the term taken as text:
    the ``search`` of a list."""
    return has_word(column, term)


class ListQuery(BaseModel):
    """Query parameters every list accepts; modules subclass it for their filters."""

    model_config = ConfigDict(extra="ignore")

    page: int | None = None
    limit: int | None = None
    offset: int | None = None
    sort: str | None = None
    order: str | None = None
    search: str | None = Field(default=None, max_length=200)

    @field_validator("page", "offset")
    @classmethod
    def _position(cls, v: int | None) -> int | None:
        # Checked with the query, so a list under a record (/surveys/{id}/responses) answers 400
        # before it looks the record up; page_spec checks again for callers of the service.
        if v is not None and v > MAX_POSITION // MAX_LIMIT:
            raise ValueError(f"too large (at most {MAX_POSITION // MAX_LIMIT})")
        return v

    @field_validator("order")
    @classmethod
    def _order(cls, v: str | None) -> str | None:
        if v is not None and v.lower() not in ("asc", "desc"):
            raise ValueError("order must be asc or desc")
        return v.lower() if v else v


@dataclass(frozen=True)
class PageSpec:
    form: str  # "A" or "B"
    page: int
    limit: int
    offset: int
    sort: str | None
    descending: bool


def page_spec(q: ListQuery, *, sortable: Sequence[str], default_sort: str | None = None) -> PageSpec:
    if q.limit is not None and q.limit < 1:
        raise ValidationFailed("limit must be at least 1", {"limit": q.limit})
    for name in ("page", "offset"):
        value = getattr(q, name)
        if value is not None and value > MAX_POSITION // MAX_LIMIT:
            raise ValidationFailed(f"{name} is too large", {name: str(value), "max": MAX_POSITION // MAX_LIMIT})
    if q.offset is not None:
        if q.offset < 0:
            raise ValidationFailed("offset must not be negative", {"offset": q.offset})
        limit = min(q.limit or 50, MAX_LIMIT)
        form, offset, page = "B", q.offset, q.offset // limit + 1
    else:
        page = 1 if q.page is None else q.page
        if page < 1:
            raise ValidationFailed("page must be at least 1", {"page": q.page})
        limit = min(q.limit or 20, MAX_LIMIT)
        form, offset = "A", (page - 1) * limit
    sort = q.sort or default_sort
    descending = False
    if sort is not None:
        if sort.startswith("-"):
            sort, descending = sort[1:], True
        elif q.order:
            descending = q.order == "desc"
        elif q.sort is None and default_sort and default_sort.startswith("-"):
            descending = True
        if sort not in sortable:
            raise ValidationFailed(f"cannot sort by {sort!r}", {"sort": sort, "allowed": list(sortable)})
    return PageSpec(form, page, limit, offset, sort, descending)


@dataclass
class Page(Generic[T]):
    items: list[T]
    total: int
    spec: PageSpec

    def meta(self) -> dict[str, Any]:
        s = self.spec
        return {
            "meta": {"page": s.page, "limit": s.limit, "total": self.total},
            "pagination": {"total": self.total, "limit": s.limit, "offset": s.offset},
        }

    def map(self, fn: Callable[[Any], Any]) -> Page[Any]:
        return Page([fn(i) for i in self.items], self.total, self.spec)


def paginate(
    session: Session,
    stmt: Select[Any],
    q: ListQuery,
    *,
    columns: Mapping[str, Any],
    default_sort: str | None = "-created_at",
    plan: Callable[[Select[Any], int, PageSpec], Select[Any]] | None = None,
) -> Page[Any]:
    """Count and slice an ORM select; ``columns`` maps sort names to columns.

    ``plan(stmt, total, spec)`` may swap the page query for an equivalent one that runs
    better at that size (e.g. walking an index in sort order when most rows match).
    """
    spec = page_spec(q, sortable=list(columns), default_sort=default_sort)
    total = session.execute(select(func.count()).select_from(stmt.order_by(None).subquery())).scalar_one()
    if plan is not None:
        stmt = plan(stmt, int(total), spec)
    if spec.sort:
        col = columns[spec.sort]
        stmt = stmt.order_by(col.desc() if spec.descending else col.asc())
    rows = list(session.execute(stmt.limit(spec.limit).offset(spec.offset)).scalars())
    return Page(rows, int(total), spec)
