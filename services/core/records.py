"""The records every module declares, read from the declarations themselves.

A *resource* is a collection the declarations serve: its list (a GET answering
a ``Page``), its read (GET ``.../{id}``), create (POST on the collection),
change (PUT/PATCH on the record), delete and actions (writes under the
record's path). The records workspace of the desktop is built from these, so
a module appears there by being declared.
"""

from __future__ import annotations

import re
import typing
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from services.core.commands import RECORDS, REGISTRY, Operation, check_access
from services.core.context import Ctx
from services.core.errors import ServiceError
from services.core.files import FileResult
from services.core.pagination import Page

# Actions that cannot be taken back: the desktop asks before it runs them.
IRREVERSIBLE = re.compile(r"(delete|revoke|cancel|void|reject|decline|remove|discard|complete|ship|issue)", re.I)


@dataclass
class Resource:
    module: str
    path: str  # the collection's path as declared ("/orders", "/api/tenants/{tenant}/support/tickets")
    title: str
    listing: Operation
    get: Operation | None = None
    create: Operation | None = None
    update: Operation | None = None
    delete: Operation | None = None
    actions: list[Operation] = field(default_factory=list)
    # Lists under one record (a ticket's messages): (operation, name of the record's id parameter).
    children: list[tuple[Operation, str]] = field(default_factory=list)
    files: list[Operation] = field(default_factory=list)
    # The spec address of the same records, when the staff one (/admin/...) is shown.
    alias: str | None = None

    @property
    def key(self) -> str:
        return f"{self.module}:{self.path}"

    @property
    def item_model(self) -> type[BaseModel] | None:
        return page_item(self.listing.response)

    @property
    def detail_model(self) -> type[BaseModel] | None:
        r = self.get.response if self.get else None
        return r if isinstance(r, type) and issubclass(r, BaseModel) else self.item_model

    @property
    def record(self) -> str | None:
        return (self.get.record if self.get else None) or self.listing.record

    def id_param(self, op: Operation) -> str | None:
        """The parameter of ``op`` that names one record of this resource."""
        for base in (self.path, self.alias):
            m = re.match(re.escape(base) + r"/{(\w+)}", op.path) if base else None
            if m:
                return m.group(1)
        return None


def page_item(tp: Any) -> type[BaseModel] | None:
    """``Page[Model]`` -> ``Model``."""
    if typing.get_origin(tp) is Page:
        (arg,) = typing.get_args(tp)
        return arg if isinstance(arg, type) and issubclass(arg, BaseModel) else None
    return None


def is_file(op: Operation) -> bool:
    return op.response is FileResult


def gives_file(op: Operation) -> bool:
    """A read that answers its record, or its file with ``?format=`` (an SDS: the record, or its PDF)."""
    return op.response is not FileResult and FileResult in typing.get_args(op.response)


def file_query(op: Operation) -> dict[str, Any]:
    """The query that asks ``op`` for its file: the first ``format`` its query model allows."""
    field = op.query.model_fields.get("format") if op.query is not None else None
    if field is None or not gives_file(op):
        return {}
    for arg in typing.get_args(field.annotation):
        if typing.get_origin(arg) is typing.Literal:
            return {"format": typing.get_args(arg)[0]}
    return {}


def staff_facing(op: Operation) -> bool:
    return op.auth == "tenant" or (op.auth == "customer" and op.staff_too)


def needs_parameters(op: Operation) -> bool:
    """The operation's query has a field without a default (``q`` of a search)."""
    return op.query is not None and any(f.is_required() for f in op.query.model_fields.values())


def resources(modules: set[str] | None = None) -> list[Resource]:
    """Every resource of the declared staff operations (of ``modules``), in a stable order."""
    ops = [o for o in REGISTRY.values() if staff_facing(o) and (modules is None or o.module in modules)]
    found: dict[tuple[str, str], Resource] = {}
    for o in ops:
        if (
            o.method == "GET"
            and page_item(o.response) is not None
            and "{" not in o.path.replace("{tenant}", "")
            and not needs_parameters(o)  # a search that wants its words is not a list to browse
        ):
            found[(o.module, o.path)] = Resource(o.module, o.path, _title(o.path), o)
    # A spec path that also has a staff address (/admin/...): one resource, shown at the staff
    # address, with the actions declared under either.
    paths: dict[tuple[str, str], Resource] = dict(found)
    for module, path in list(found):
        admin = re.sub(r"/([\w-]+)$", r"/admin/\1", path)
        if (module, admin) in found and admin != path:
            del found[(module, path)]
            paths[(module, path)] = found[(module, admin)]
            found[(module, admin)].alias = path
    for o in ops:
        for (module, path), res in paths.items():
            if o.module != module or not o.path.startswith(path + "/"):
                continue
            rest = o.path[len(path) :]
            single = re.fullmatch(r"/{\w+}", rest)
            if o.moves is not None and o.changes and (single or re.fullmatch(r"/{\w+}/[\w-]+", rest)):
                res.actions.append(o)  # a state move, even by PATCH: offered as its actions
            elif single and o.method == "GET":
                if is_file(o):
                    res.files.append(o)
                else:
                    res.get = res.get or o
            elif single and o.method in ("PUT", "PATCH") and o.body is not None:
                res.update = res.update or o
            elif single and o.method == "DELETE":
                res.delete = o
            elif single and o.method == "POST" and o.changes:
                res.actions.append(o)
            elif re.fullmatch(r"/{\w+}/[\w-]+", rest):
                if o.method == "GET" and page_item(o.response) is not None:
                    res.children.append((o, rest.split("/")[1].strip("{}")))
                elif o.method == "GET" and (is_file(o) or gives_file(o)):
                    res.files.append(o)
                elif o.changes:
                    res.actions.append(o)
        for (module, path), res in paths.items():
            if o.module == module and o.path == path and o.method == "POST" and o.changes and (o.body or o.upload):
                res.create = res.create or o
    return sorted(found.values(), key=lambda r: (r.module, r.title))


def may(ctx: Ctx, op: Operation | None) -> bool:
    """Whether the caller may run ``op`` (the one permission check, asked ahead)."""
    if op is None:
        return False
    try:
        check_access(ctx, op)
    except ServiceError:
        return False
    return True


def irreversible(op: Operation, action: str | None = None) -> bool:
    """Whether running ``op`` (its state ``action``) cannot be taken back. A use case linked to its
    transitions says so by their ``irreversible`` fact; others are read from their name."""
    if op.method == "DELETE":
        return True
    if op.moves is not None:
        if action is None:
            return op.moves.irreversible
        found = [t for t in op.moves.machine.transitions if t.action == action]
        return bool(found) and all(t.irreversible for t in found)
    return bool(IRREVERSIBLE.search(op.name.rsplit(".", 1)[-1]))


def state_actions(op: Operation) -> tuple[str, ...]:
    """The state actions a person picks among for ``op``: each of them is a button of its own
    (``{"action": "start"}``), where the body names the action."""
    return op.moves.actions if op.moves is not None and op.moves.field is not None else ()


_PLACEHOLDER = re.compile(r"{[^{}]*}")


def title_of(op: Operation, action: str | None = None) -> str:
    """What a button running ``op`` reads, from its declaration alone (no body yet): its ``says``
    with a state ``action`` in its placeholder ("Start claim"); never a raw ``{placeholder}``."""
    says = op.says
    if says and not _PLACEHOLDER.search(says):
        words = says
    else:
        rest = " ".join(_PLACEHOLDER.sub(" ", says).split())
        if action is not None:
            lead = action
        elif op.moves is not None and len(op.moves.actions) == 1:
            lead = op.moves.actions[0]
        elif says:
            lead = op.name.rsplit(".", 1)[-1]
        else:
            lead = ""
        if not rest and op.moves is not None:
            rest = op.moves.machine.record
        words = f"{lead.replace('_', ' ')} {rest}".strip() or op.summary or op.name.rsplit(".", 1)[-1]
    return words[:1].upper() + words[1:]


def _title(path: str) -> str:
    last = [p for p in path.split("/") if p and not p.startswith("{")][-1]
    words = last.replace("-", " ").replace("_", " ").capitalize()
    return re.sub(r"\bApi\b", "API", words)


# --- a call in people's words (sync issues, history) ----------------------------------------------


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "change"  # "{operation} order" without an operation: "Change order"


def words_for(op: Operation, body: dict[str, Any] | None = None) -> str:
    """What a call does, as its declaration says it ("Ship order": ``says="{operation} order"``)."""
    if op.says:
        fields = {k: str(v).replace("_", " ") for k, v in (body or {}).items() if v not in (None, "")}
        text = op.says.format_map(_Blank(fields))
    else:
        parts = op.name.split(".")
        noun = parts[-2].replace("_", " ").rstrip("s") if len(parts) >= 2 else op.name
        verb = parts[-1]
        text = {"create": f"New {noun}", "update": f"Change to {noun}"}.get(verb, f"{verb.replace('_', ' ')} {noun}")
    text = " ".join(text.split())
    return text[:1].upper() + text[1:]


def path_params(op: Operation, path: str) -> dict[str, str]:
    """The parameters of ``op``'s route in a concrete path (``/orders/abc/operations`` -> id=abc)."""
    route = op.path if op.path.startswith("/api/") else "/{tenant}/" + op.module + "/api" + op.path
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/?]+)", re.escape(route))
    m = re.match(pattern + r"(?:\\?|$)", path)
    return dict(m.groupdict()) if m else {}


def record_of_call(op: Operation, path: str, body: dict[str, Any] | None = None) -> tuple[str, str] | None:
    """(record kind, id) of the record a call is about, where its declaration names one."""
    kind = RECORDS.get(op.record or "")
    if kind is None:
        return None
    found = {**(body or {}), **path_params(op, path)}
    rid = next((str(found[k]) for k in kind.keys if found.get(k)), None)
    return (kind.name, rid) if rid else None


def record_label(ctx: Ctx, kind_name: str, record_id: str) -> str | None:
    """How people know the record (its number), read with the kind's read operation; None when it
    cannot be read (gone, or not for this person)."""
    from services.core.commands import execute

    kind = RECORDS[kind_name]
    get = REGISTRY[kind.get]
    param = next(iter(get.path_params), "id")
    try:
        params: dict[str, Any] = {param: record_id}
        value = getattr(execute(ctx, get, **params), kind.label, None)
    except ServiceError:
        return None
    return str(value) if value else None
