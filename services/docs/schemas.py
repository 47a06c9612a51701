"""Requests and responses of Documentation: the one definition the HTTP door, the desktop and sync use."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from services.core.pagination import ListQuery
from services.core.schemas import FreeText, NonBlankText, Strict

DocStatus = Literal["draft", "published", "archived"]
MAX_BODY = 500_000  # characters of Markdown; the request limit (1 MiB) bounds it too


def _tags(v: list[str]) -> list[str]:
    out: list[str] = []
    for t in v:
        t = t.strip()
        if not t:
            raise ValueError("a tag is not empty")
        if t not in out:
            out.append(t)
    return out


PLACEHOLDER_NAME = r"^[A-Za-z_][A-Za-z0-9_.-]{0,49}$"
PlaceholderValues = dict[
    Annotated[str, StringConstraints(pattern=PLACEHOLDER_NAME)], Annotated[str, StringConstraints(max_length=2000)]
]


class DocumentIn(Strict):
    """A new document; with ``from_template`` the template gives what the request leaves out
    (title, body, category, tags) and ``values`` fill its ``{{placeholders}}``."""

    title: str | None = Field(default=None, min_length=1, max_length=300)
    body: FreeText | None = Field(default=None, max_length=MAX_BODY)
    category_id: str | None = Field(default=None, max_length=36)
    status: DocStatus = "draft"
    tags: list[str] | None = Field(default=None, max_length=50)
    from_template: str | None = Field(default=None, max_length=36)
    values: PlaceholderValues = Field(default_factory=dict, max_length=50)

    @field_validator("tags")
    @classmethod
    def _t(cls, v: list[str] | None) -> list[str] | None:
        return None if v is None else _tags(v)

    @model_validator(mode="after")
    def _title_or_template(self) -> DocumentIn:
        if self.from_template is None:
            if self.title is None:
                raise ValueError("title: a document needs a title (or from_template)")
            if self.values:
                raise ValueError("values: only with from_template")
        return self


class DocumentUpdate(Strict):
    title: str | None = Field(default=None, min_length=1, max_length=300)
    body: FreeText | None = Field(default=None, max_length=MAX_BODY)
    category_id: str | None = Field(default=None, max_length=36)
    status: DocStatus | None = None
    tags: list[str] | None = Field(default=None, max_length=50)

    @field_validator("tags")
    @classmethod
    def _t(cls, v: list[str] | None) -> list[str] | None:
        return None if v is None else _tags(v)


class DocumentOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    title: str
    body: FreeText
    category_id: str | None
    status: DocStatus
    tags: list[str]
    created_at: datetime
    updated_at: datetime
    published_at: datetime | None
    deleted_at: datetime | None


class DocumentQuery(ListQuery):
    status: DocStatus | None = None
    category_id: str | None = Field(default=None, max_length=36)
    tag: str | None = Field(default=None, max_length=100)
    trashed: bool = False


class DeleteQuery(BaseModel):
    model_config = ConfigDict(extra="ignore")

    permanent: bool = False


class SearchQuery(ListQuery):
    q: str = Field(min_length=1, max_length=200)
    category_id: str | None = Field(default=None, max_length=36)
    status: DocStatus | None = None


class SearchHit(BaseModel):
    id: str
    title: str
    snippet: str
    score: float
    category_id: str | None
    status: DocStatus


class SuggestQuery(BaseModel):
    """Text to find articles for (a ticket's subject and description): any of its words, ranked."""

    model_config = ConfigDict(extra="ignore")

    text: NonBlankText = Field(min_length=1, max_length=4000)
    limit: int = Field(default=5, ge=1, le=20)


class CategoryIn(Strict):
    name: str = Field(min_length=1, max_length=200)
    parent_id: str | None = Field(default=None, max_length=36)
    position: int = Field(default=0, ge=0, le=10_000)


class TemplateIn(Strict):
    """A template: its own fields, or (``from_document``) a copy of a document's title, body,
    category and tags, with the fields given here winning."""

    name: str = Field(min_length=1, max_length=200)
    description: FreeText = Field(default="", max_length=2000)
    title: str | None = Field(default=None, min_length=1, max_length=300)
    body: FreeText | None = Field(default=None, max_length=MAX_BODY)
    category_id: str | None = Field(default=None, max_length=36)
    tags: list[str] | None = Field(default=None, max_length=50)
    from_document: str | None = Field(default=None, max_length=36)

    @field_validator("tags")
    @classmethod
    def _t(cls, v: list[str] | None) -> list[str] | None:
        return None if v is None else _tags(v)

    @model_validator(mode="after")
    def _title(self) -> TemplateIn:
        if self.title is None and self.from_document is None:
            raise ValueError("title: a template needs a title (or from_document)")
        return self


class TemplateUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    description: FreeText | None = Field(default=None, max_length=2000)
    title: str | None = Field(default=None, min_length=1, max_length=300)
    body: FreeText | None = Field(default=None, max_length=MAX_BODY)
    category_id: str | None = Field(default=None, max_length=36)
    tags: list[str] | None = Field(default=None, max_length=50)

    @field_validator("tags")
    @classmethod
    def _t(cls, v: list[str] | None) -> list[str] | None:
        return None if v is None else _tags(v)


class TemplateOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    description: FreeText
    title: str
    body: FreeText
    category_id: str | None
    tags: list[str]
    # The names of the template's {{placeholders}}, in order of first use (built-ins included).
    placeholders: list[str] = Field(default_factory=list)
    created_at: datetime
    updated_at: datetime


class CategoryOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    parent_id: str | None
    position: int
    created_at: datetime
    path: list[str] = Field(default_factory=list)
    depth: int = 0


class MediaOut(BaseModel):
    id: str
    document_id: str
    filename: str
    content_type: str
    size: int
    url: str
    created_at: datetime
