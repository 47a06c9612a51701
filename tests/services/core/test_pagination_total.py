"""A list's ``meta.total`` without a count where the page tells it (issue 38, part 1): exact for every
page, a count only for a full page or an empty one past the start."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Integer, String, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from services.core.pagination import ListQuery, paginate


class _Base(DeclarativeBase):
    pass


class Row(_Base):
    __tablename__ = "rows"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(10))


@pytest.fixture(scope="module")
def session() -> Any:
    engine = create_engine("sqlite://")
    _Base.metadata.create_all(engine)
    with Session(engine) as s:
        s.add_all(Row(id=i, name=f"r{i:02d}") for i in range(1, 24))  # 23 rows
        s.commit()
        yield s
    engine.dispose()


@pytest.mark.parametrize(
    ("query", "rows", "counted"),
    [
        ({"limit": 10}, 10, True),  # a full page: the rest is unknown
        ({"limit": 10, "page": 3}, 3, False),  # ends before the limit: 20 + 3
        ({"limit": 30}, 23, False),
        ({"limit": 10, "page": 4}, 0, True),  # empty past the end: how far is unknown
        ({"offset": 20, "limit": 5}, 3, False),
        ({"offset": 23, "limit": 5}, 0, True),
        ({"limit": 23}, 23, True),  # exactly full
    ],
)
def test_total_is_exact_and_counted_only_when_the_page_cannot_tell(
    session: Session, query: dict[str, int], rows: int, counted: bool
) -> None:
    from sqlalchemy import select

    seen: list[str] = []

    def record(_c: Any, _cur: Any, statement: str, *_a: Any) -> None:
        seen.append(statement)

    engine = session.get_bind()
    event.listen(engine, "before_cursor_execute", record)
    try:
        page = paginate(session, select(Row), ListQuery(**query), columns={"name": Row.name}, default_sort="name")
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert len(page.items) == rows and page.total == 23
    assert page.meta()["meta"]["total"] == 23 and page.meta()["pagination"]["total"] == 23
    assert any("count(" in s for s in seen) is counted
    assert len(seen) == (2 if counted else 1)


def test_an_empty_list_is_zero_without_a_count(session: Session) -> None:
    from sqlalchemy import select

    page = paginate(
        session, select(Row).where(Row.id < 0), ListQuery(), columns={"name": Row.name}, default_sort="name"
    )
    assert page.items == [] and page.total == 0
