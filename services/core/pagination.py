"""The one pagination helper: both documented forms, with sort validation.

Form A (``page``, default limit 20) unless ``offset`` is present (form B,
default limit 50). ``limit`` over 100 is clamped; ``page`` < 1, a negative
offset, ``limit`` < 1 or a non-integer is 400. ``sort=created_at&order=desc``
and ``sort=-created_at`` both work; an unknown sort field is 400. The body
carries both ``meta`` and ``pagination``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import Select, func, or_, select
from sqlalchemy import inspect as sa_inspect
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

    model_config = ConfigDict(extra="ignore", defer_build=True)  # built on first use, as schemas.Strict

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
    rows_of: Any = None,
) -> Page[Any]:
    """Slice and count an ORM select; ``columns`` maps sort names to columns. The page is read first
    and the count runs only when the page cannot tell the total (``told_total``): ``meta.total``
    stays exact, and a list that fits one page costs one statement.

    ``plan(stmt, total, spec)`` may swap the page query for an equivalent one that runs
    better at that size (e.g. walking an index in sort order when most rows match).

    ``rows_of`` (a mapped class): the page reads that entity's columns and answers rows (attribute
    access by the same names) instead of ORM objects, for a list that only reads columns: building
    and tracking the objects was a list request's largest cost after the SQL (issue 38).
    """
    spec = page_spec(q, sortable=list(columns), default_sort=default_sort)
    total: int | None = None
    if plan is not None:
        total = count_of(session, stmt)
        stmt = plan(stmt, total, spec)
    if spec.sort:
        col = columns[spec.sort]
        stmt = stmt.order_by(col.desc() if spec.descending else col.asc())
    page_stmt = stmt.limit(spec.limit).offset(spec.offset)
    if rows_of is not None:
        rows: list[Any] = list(session.execute(page_stmt.with_only_columns(*entity_columns(rows_of))).all())
    else:
        rows = list(session.execute(page_stmt).scalars())
    if total is None:
        total = told_total(spec, len(rows))
    return Page(rows, count_of(session, stmt) if total is None else total, spec)


def entity_columns(entity: Any) -> tuple[Any, ...]:
    """The mapped column attributes of ``entity`` (a row of them reads like the object's columns)."""
    found = _ENTITY_COLUMNS.get(entity)
    if found is None:
        found = _ENTITY_COLUMNS[entity] = tuple(getattr(entity, a.key) for a in sa_inspect(entity).column_attrs)
    return found


_ENTITY_COLUMNS: dict[Any, tuple[Any, ...]] = {}


def reads_only_columns(entity: Any, out: Any) -> bool:
    """Whether a response model takes nothing but ``entity``'s columns, by name (``Out`` of a table):
    its page can be read as rows."""
    if not (isinstance(out, type) and issubclass(out, BaseModel) and out.model_config.get("from_attributes")):
        return False
    found = _READS_COLUMNS.get((entity, out))
    if found is None:
        names = {a.key for a in sa_inspect(entity).column_attrs}
        fields = out.model_fields
        found = (
            all(name in names and f.validation_alias is None and f.alias is None for name, f in fields.items())
            and not out.__pydantic_decorators__.model_validators.keys() - _SAFE_MODEL_VALIDATORS
        )
        _READS_COLUMNS[(entity, out)] = found
    return found


_READS_COLUMNS: dict[tuple[Any, type], bool] = {}
# Model validators known to read the built model only (mode "after"), never the source object.
_SAFE_MODEL_VALIDATORS = {"_allowed_actions"}


def told_total(spec: PageSpec, n: int) -> int | None:
    """The total a page of ``n`` rows tells by itself, as the documentation search does
    (services/docs/search.py): a page that ends before the limit, with rows or at the start, ends
    the list; a full page, or an empty one past the start, tells nothing (``None``: count)."""
    if n < spec.limit and (n > 0 or spec.offset == 0):
        return spec.offset + n
    return None


def count_of(session: Session, stmt: Select[Any]) -> int:
    return int(session.execute(select(func.count()).select_from(stmt.order_by(None).subquery())).scalar_one())


# --- a list declared once ----------------------------------------------------------------------

# How a query field narrows a list: (the field's name, its value) -> a WHERE clause.
Filter = Callable[[str, Any], Any]


def equals(column: Any) -> Filter:
    """The field's value, equal (text taken without its surrounding blanks)."""
    return lambda _name, v: column == (v.strip() if isinstance(v, str) else v)


def one_of(column: Any, allowed: Sequence[str] | None = None) -> Filter:
    """A comma-separated list of values (``status=open,acknowledged``); with ``allowed``, an unknown
    value is 400 naming it and the allowed ones."""

    def clause(name: str, raw: Any) -> Any:
        wanted = [x.strip() for x in str(raw).split(",") if x.strip()] if isinstance(raw, str) else list(raw)
        if allowed is not None:
            unknown = sorted(set(wanted) - set(allowed))
            if unknown:
                raise ValidationFailed(
                    f"unknown {name}: {', '.join(unknown)}", {name: unknown, "allowed": list(allowed)}
                )
        return column.in_(wanted)

    return clause


def at_least(column: Any) -> Filter:
    """``from=``: the column at or after the value."""
    return lambda _name, v: column >= v


def at_most(column: Any) -> Filter:
    """``to=``: the column at or before the value."""
    return lambda _name, v: column <= v


def any_equals(*columns: Any) -> Filter:
    """One value that may be any of the columns (a scanned code: the barcode or the SKU)."""

    def clause(_name: str, v: Any) -> Any:
        v = v.strip() if isinstance(v, str) else v
        return or_(*(c == v for c in columns))

    return clause


@dataclass(frozen=True)
class Listing:
    """One list, declared once beside its use case: which query field narrows it how (a column:
    equal; or ``one_of``, ``at_least``, ...), the columns its ``search`` looks in (or a function of
    the words giving a clause: a related record's column), and the columns it sorts by. ``page`` reads a page of it; ``out`` turns each row into the response
    (``model_validate(row)`` of a ``from_attributes`` response). A page read as rows (``rows``, or an
    ``out`` model of the entity's columns only) builds no ORM objects."""

    entity: Any
    filters: Mapping[str, Any] = field(default_factory=dict)
    search: Sequence[Any] = ()
    sort: Mapping[str, Any] = field(default_factory=dict)
    default_sort: str | None = "-created_at"
    # The page's items as rows of the entity's columns, not ORM objects: True where the list's ``out``
    # (or its caller, given the page) reads columns only, by name. A response model (``out``) that
    # takes only the entity's columns gets rows without saying so.
    rows: bool = False

    def select(self, query: ListQuery) -> Select[Any]:
        stmt = select(self.entity)
        for name, how in self.filters.items():
            value = getattr(query, name, None)
            if value is None or value == "":
                continue
            stmt = stmt.where(how == _plain(value) if _is_column(how) else how(name, value))
        term = (query.search or "").strip()
        if self.search and term:
            stmt = stmt.where(or_(*(contains(c, term) if _is_column(c) else c(term) for c in self.search)))
        return stmt

    def page(
        self,
        session: Session,
        query: ListQuery,
        out: Callable[[Any], Any] | type[BaseModel] | None = None,
        *,
        stmt: Select[Any] | None = None,
        plan: Callable[[Select[Any], int, PageSpec], Select[Any]] | None = None,
    ) -> Page[Any]:
        """A page of the list (``stmt``: the list's select, narrowed further by the caller)."""
        stmt = self.select(query) if stmt is None else stmt
        as_rows = (self.rows or reads_only_columns(self.entity, out)) and not stmt._with_options
        page = paginate(
            session,
            stmt,
            query,
            columns=self.sort,
            default_sort=self.default_sort,
            plan=plan,
            rows_of=self.entity if as_rows else None,
        )
        if out is None:
            return page
        convert = out.model_validate if isinstance(out, type) and issubclass(out, BaseModel) else out
        return page.map(convert)


def _is_column(x: Any) -> bool:
    # A mapped column or a column expression (equal), else a filter function.
    return hasattr(x, "__clause_element__") or hasattr(x, "expression")


def _plain(v: Any) -> Any:
    return v.strip() if isinstance(v, str) else v
