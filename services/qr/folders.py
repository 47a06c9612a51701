"""Qr: folders."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from local_db import new_id
from local_db.models.qr import QrCode, QrFolder
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import Conflict, NotFound, ValidationFailed
from services.core.pagination import ListQuery, Page, contains, paginate
from services.qr.schemas import (
    FolderCreate,
    FolderOut,
    FolderUpdate,
)

FOLDER = record_kind("qr.folder", get="qr.folders.get", label="name")


def _folder_out(f: QrFolder) -> FolderOut:
    return FolderOut(id=f.id, name=f.name, parent_id=f.parent_id, created_at=f.created_at)


def _check_parent(s: Session, fid: str | None, parent_id: str | None) -> None:
    seen = {fid} if fid else set()
    p = parent_id
    while p:
        if p in seen:
            raise ValidationFailed("a folder cannot be inside itself", {"parent_id": parent_id})
        seen.add(p)
        parent = s.get(QrFolder, p)
        if parent is None:
            raise ValidationFailed("unknown parent folder", {"parent_id": parent_id})
        p = parent.parent_id


@use_case("qr.folders.list", "GET /folders", tx="read", record=FOLDER, summary="list folders")
def list_folders(ctx: Ctx, query: ListQuery) -> Page[FolderOut]:
    with ctx.read() as s:
        stmt = select(QrFolder)
        if query.search and query.search.strip():
            stmt = stmt.where(contains(QrFolder.name, query.search.strip()))
        page = paginate(s, stmt, query, columns={"created_at": QrFolder.created_at, "name": QrFolder.name})
        return Page([_folder_out(f) for f in page.items], page.total, page.spec)


@use_case("qr.folders.get", "GET /folders/{id}", tx="read", record=FOLDER, summary="a folder")
def get_folder(ctx: Ctx, id: str) -> FolderOut:
    with ctx.read() as s:
        f = s.get(QrFolder, id)
        if f is None:
            raise NotFound("folder not found", {"id": id})
        return _folder_out(f)


@use_case(
    "qr.folders.create",
    "POST /folders",
    tx="write",
    status=201,
    says="New folder",
    record=FOLDER,
    summary="create a folder",
)
def create_folder(ctx: Ctx, body: FolderCreate) -> FolderOut:
    with ctx.write() as s:
        _check_parent(s, None, body.parent_id)
        f = QrFolder(
            id=new_id(), tenant_id=ctx.tenant_id, name=body.name, parent_id=body.parent_id, created_at=ctx.now()
        )
        s.add(f)
        s.flush()
        return _folder_out(f)


@use_case(
    "qr.folders.update",
    "PATCH /folders/{id}",
    tx="write",
    says="Folder changed",
    record=FOLDER,
    summary="rename or move a folder",
)
def update_folder(ctx: Ctx, id: str, body: FolderUpdate) -> FolderOut:
    with ctx.write() as s:
        f = s.get(QrFolder, id)
        if f is None:
            raise NotFound("folder not found", {"id": id})
        if body.name is not None:
            f.name = body.name
        if "parent_id" in body.model_fields_set:
            _check_parent(s, f.id, body.parent_id)
            f.parent_id = body.parent_id
        s.flush()
        return _folder_out(f)


@use_case(
    "qr.folders.delete",
    "DELETE /folders/{id}",
    tx="write",
    says="Folder deleted",
    record=FOLDER,
    summary="delete an empty folder",
)
def delete_folder(ctx: Ctx, id: str) -> None:
    with ctx.write() as s:
        f = s.get(QrFolder, id)
        if f is None:
            raise NotFound("folder not found", {"id": id})
        busy = (
            s.execute(select(QrCode.id).where(QrCode.folder_id == id).limit(1)).first()
            or s.execute(select(QrFolder.id).where(QrFolder.parent_id == id).limit(1)).first()
        )
        if busy:
            raise Conflict("the folder is not empty: move its codes and folders first", {"id": id})
        s.delete(f)
