from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.core.errors import ValidationFailed
from services.core.pagination import ListQuery, Page, page_spec

SORTABLE = ["created_at", "name"]


def spec(**kw: object):  # type: ignore[no-untyped-def]
    return page_spec(ListQuery(**kw), sortable=SORTABLE, default_sort="-created_at")


def test_form_a_defaults() -> None:
    s = spec()
    assert (s.form, s.page, s.limit, s.offset, s.sort, s.descending) == ("A", 1, 20, 0, "created_at", True)


def test_form_b_when_offset_present() -> None:
    s = spec(offset=100)
    assert (s.form, s.limit, s.offset, s.page) == ("B", 50, 100, 3)


def test_limit_is_clamped_to_100() -> None:
    assert spec(limit=1000).limit == 100
    assert spec(limit=1000, offset=0).limit == 100


@pytest.mark.parametrize("kw", [{"limit": 0}, {"page": 0}, {"page": -1}, {"offset": -1}, {"limit": -5, "offset": 0}])
def test_out_of_range_is_a_validation_error(kw: dict[str, int]) -> None:
    with pytest.raises(ValidationFailed):
        spec(**kw)


def test_non_integer_is_refused() -> None:
    with pytest.raises(ValueError):
        ListQuery(page="two")  # type: ignore[arg-type]


def test_both_sort_forms() -> None:
    assert (spec(sort="name", order="desc").sort, spec(sort="name", order="desc").descending) == ("name", True)
    assert (spec(sort="-name").sort, spec(sort="-name").descending) == ("name", True)
    assert spec(sort="name").descending is False
    assert spec(sort="name", order="asc").descending is False


def test_unknown_sort_field_is_400() -> None:
    with pytest.raises(ValidationFailed) as e:
        spec(sort="password_hash")
    assert e.value.details == {"sort": "password_hash", "allowed": SORTABLE}


def test_body_carries_both_meta_forms() -> None:
    p = Page([1, 2], 42, spec(page=3, limit=2))
    assert p.meta() == {
        "meta": {"page": 3, "limit": 2, "total": 42},
        "pagination": {"total": 42, "limit": 2, "offset": 4},
    }


@given(page=st.integers(1, 10_000), limit=st.integers(1, 10_000))
def test_offset_matches_page_and_limit(page: int, limit: int) -> None:
    s = spec(page=page, limit=limit)
    assert s.limit == min(limit, 100)
    assert s.offset == (page - 1) * s.limit
