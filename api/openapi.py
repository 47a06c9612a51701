"""The OpenAPI 3.1 document, built from the declarations.

Every declared use case is one operation: its operationId is the declaration's name, its tag
the module; path parameters, query parameters (typed from the query model), the request body,
the success answer (the ``data`` envelope, the list envelope with ``meta`` and ``pagination``,
a file with its media types, or 204) and the error answers (one envelope) all come from the
declaration and its annotations. Security schemes follow who may call it.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from typing import Any, get_args

from pydantic import BaseModel, TypeAdapter

from services.core.commands import REGISTRY, Operation
from services.core.files import FileResult, Redirect
from services.core.numbers import INT64_MAX, INT64_MIN
from services.core.pagination import Page

REF = "#/components/schemas/{model}"
ERRORS = {
    400: "The request is malformed or failed validation (VALIDATION_ERROR)",
    401: "Missing, invalid or expired credentials (UNAUTHORIZED)",
    403: "Valid credentials without access: role, module, tenant (FORBIDDEN, TENANT_INACTIVE)",
    404: "No such record or address (NOT_FOUND)",
    409: "The record's state does not allow it (CONFLICT, with the current state)",
    413: "The body or upload is too large (PAYLOAD_TOO_LARGE)",
    429: "Rate limited (RATE_LIMITED, with retryAfter and the Retry-After header)",
}
# What each kind of file answer is sent as (labels: PDF or ZPL; photos: images; mail: rfc822).
FILE_TYPES = (
    "application/pdf",
    "image/png",
    "image/jpeg",
    "image/svg+xml",
    "text/csv",
    "text/plain",
    "text/html",  # the campaign unsubscribe page
    "image/gif",  # the campaign open pixel
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",  # analytics reports
    "message/rfc822",
    "application/zip",  # a docs category exported as Markdown files
    "application/octet-stream",
)
# Signature headers of the routes that take no credentials but a signature, and their schemes.
SIGNATURES = {"x-webhook-signature": "webhookSignature", "x-station-signature": "stationSignature"}
SLUG = {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]{0,62}$", "description": "the tenant's slug"}
MODULE_TAGS = {
    "platform": "Tenant settings: profile, users, API keys, modules, jobs, mail, station sync",
    "fulfillment": "Orders, pick/pack/ship operations, shipping labels, device settings, inbound webhooks",
    "upgrade": "Trade-in submissions, offers, kits and returns, inspection, valuations",
    "support": "Tickets, guest follow-up, categories, attachments, helpdesk settings, triage",
    "events": "Event history, webhook subscriptions and their deliveries",
}


class Builder:
    def __init__(self) -> None:
        self.schemas: dict[str, Any] = {}
        # Which model owns each component name: two modules' ``CategoryOut`` must not share one
        # (the second would be documented with the first's fields).
        self.owners: dict[str, type] = {}

    def name_of(self, model: type) -> str:
        name = model.__name__
        owner = self.owners.setdefault(name, model)
        if owner is model:
            return name
        parts = model.__module__.split(".")
        qualified = (parts[1].title() if len(parts) > 1 and parts[0] == "services" else parts[0].title()) + name
        self.owners.setdefault(qualified, model)
        return qualified

    def merge_defs(self, js: dict[str, Any], owner: Any) -> dict[str, Any]:
        """Move ``js``'s nested models to ``components``. A nested model whose name another module's
        model already holds (two ``CategoryOut``) gets a name of its own, prefixed with its owner's
        module, and ``js``'s references follow: no answer is documented with another model's fields."""
        defs: dict[str, Any] = js.pop("$defs", {})
        parts = getattr(owner, "__module__", "").split(".")
        prefix = parts[1].title() if len(parts) > 1 and parts[0] == "services" else ""
        renames: dict[str, str] = {}
        while True:
            clash = [k for k, sub in defs.items() if k not in renames and self.schemas.get(k, sub) != sub]
            if not clash:
                break
            for key in clash:
                new, n = f"{prefix}{key}", 2
                while new in self.schemas and self.schemas[new] != defs[key]:
                    new, n = f"{prefix}{key}{n}", n + 1
                renames[key] = new
            # References to a renamed model change the models that hold them: compare again.
            text = json.dumps({"js": js, "defs": defs})
            for old, new in renames.items():
                text = text.replace(json.dumps(REF.format(model=old)), json.dumps(REF.format(model=new)))
            loaded = json.loads(text)
            js.clear()
            js.update(loaded["js"])
            defs = {renames.get(k, k): v for k, v in loaded["defs"].items()}
            for old, new in renames.items():
                if new in defs and defs[new].get("title") == old:
                    defs[new]["title"] = new  # generators name models by their title
        for key, sub in defs.items():
            self.schemas.setdefault(key, sub)
        return js

    def schema_of(self, tp: Any) -> dict[str, Any]:
        """The JSON schema of a type, its models moved to ``components``."""
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            js = tp.model_json_schema(ref_template=REF, mode="serialization")
        else:
            js = TypeAdapter(tp).json_schema(ref_template=REF, mode="serialization")
        self.merge_defs(js, tp if isinstance(tp, type) else next(iter(get_args(tp)), None))
        if isinstance(tp, type) and issubclass(tp, BaseModel) and "title" in js:
            name = self.name_of(tp)
            if name != tp.__name__:
                js["title"] = name  # generators name models by their title
            self.schemas.setdefault(name, js)
            return {"$ref": REF.format(model=name)}
        return js

    def request_schema_of(self, model: type[BaseModel]) -> dict[str, Any]:
        js = self.merge_defs(model.model_json_schema(ref_template=REF, mode="validation"), model)
        name = model.__name__
        if self.schemas.get(name, js) != js:  # read and written differently: a model of its own
            name = f"{name}Input"
            js["title"] = name  # generators name models by their title
        self.schemas.setdefault(name, js)
        return {"$ref": REF.format(model=name)}

    def operation(self, op: Operation, path: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "operationId": op.name,
            "tags": [op.module],
            "summary": op.summary or op.name,
            "parameters": self.parameters(op, path),
            "responses": self.responses(op),
        }
        if op.body is not None:
            out["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": self.request_schema_of(op.body)}},
            }
        elif op.upload:
            out["requestBody"] = {
                "required": True,
                "content": {
                    "multipart/form-data": {
                        "schema": {
                            "type": "object",
                            "required": ["file"],
                            "properties": {"file": {"type": "string", "format": "binary"}},
                        }
                    },
                    "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
                },
            }
        security = self.security(op)
        if security is not None:
            out["security"] = security
        if op.changes:
            out["parameters"].append(
                {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": False,
                    "description": "a retry with the same key gets the first answer again",
                    "schema": {"type": "string", "minLength": 1, "maxLength": 200},
                }
            )
        return out

    def parameters(self, op: Operation, path: str) -> list[dict[str, Any]]:
        hints = typing.get_type_hints(op.handler)
        params: list[dict[str, Any]] = []
        for name in _path_params(path):
            if name == "tenant":
                params.append({"name": "tenant", "in": "path", "required": True, "schema": SLUG})
                continue
            schema = self.schema_of(hints.get(name, str))
            params.append({"name": name, "in": "path", "required": True, "schema": schema})
        if op.query is not None:
            js = op.query.model_json_schema(ref_template=REF, mode="validation")
            self.schemas.update(js.pop("$defs", {}))
            required = set(js.get("required", []))
            for name, prop in js.get("properties", {}).items():
                field = op.query.model_fields.get(name)
                alias = (field.alias if field is not None and field.alias else name) if field else name
                params.append({"name": alias, "in": "query", "required": name in required, "schema": prop})
        for header in op.headers:
            params.append({"name": header, "in": "header", "required": False, "schema": {"type": "string"}})
        return params

    def responses(self, op: Operation) -> dict[str, Any]:
        out: dict[str, Any] = {}
        resp = op.response
        status = str(op.status_code)
        if resp is None:
            out["204"] = {"description": "Done; no content"}
        elif resp is FileResult:
            out[status] = {
                "description": "The file",
                "content": {t: {"schema": {"type": "string", "format": "binary"}} for t in FILE_TYPES},
            }
        elif typing.get_origin(resp) is Page:
            (item,) = typing.get_args(resp)
            out[status] = {
                "description": "One page of the list",
                "content": {"application/json": {"schema": self.list_envelope(item)}},
            }
        elif set(typing.get_args(resp)) == {Redirect, FileResult}:
            # The QR scan: a redirect, or a page of its own (a landing page, 410 for a code gone).
            out[status] = {
                "description": "A page (a landing page; 410 when the code does not serve)",
                "content": {"text/html": {"schema": {"type": "string"}}},
            }
            out["302"] = {
                "description": "Redirect to the destination or the fallback address",
                "headers": {"Location": {"description": "Where to go", "schema": {"type": "string"}}},
            }
        elif FileResult in typing.get_args(resp):
            # A record or its file, as the query asks (a barcode as JSON or as an image): both documented.
            rest = [t for t in typing.get_args(resp) if t is not FileResult]
            record: Any = rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]  # noqa: UP007 - built at run time
            out[status] = {
                "description": "The answer, or the file the query asks for",
                "content": {
                    "application/json": {"schema": self.data_envelope(record)},
                    **{
                        t: {"schema": {"type": "string", "format": "binary"}}
                        for t in FILE_TYPES
                        if t != "application/json"
                    },
                },
            }
        else:
            out[status] = {
                "description": "The answer",
                "content": {"application/json": {"schema": self.data_envelope(resp)}},
            }
            if resp is Redirect:
                # The HTTP door answers a redirect with its status and Location (api/app.py).
                out["302"] = {
                    "description": "Redirect to the destination",
                    "headers": {"Location": {"description": "Where to go", "schema": {"type": "string"}}},
                }
            if "_http_status" in getattr(resp, "__private_attributes__", {}):
                # An upsert: 201 when it made the record, 200 when it updated one (api/app.py).
                out["200" if status == "201" else "201"] = out[status]
        for code in ERRORS:
            out[str(code)] = {"$ref": f"#/components/responses/E{code}"}
        return out

    def data_envelope(self, tp: Any) -> dict[str, Any]:
        return {"type": "object", "required": ["data"], "properties": {"data": self.schema_of(tp)}}

    def list_envelope(self, item: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "required": ["data", "meta", "pagination"],
            "properties": {
                "data": {"type": "array", "items": self.schema_of(item)},
                "meta": {"$ref": REF.format(model="PageMeta")},
                "pagination": {"$ref": REF.format(model="Pagination")},
            },
        }

    @staticmethod
    def security(op: Operation) -> list[dict[str, list[str]]] | None:
        # A route that takes a signature instead of credentials declares it (DECISIONS: ``[]``
        # means truly public), so a client generator or a fuzzer does not take it for public.
        for header, scheme in SIGNATURES.items():
            if header in op.headers:
                return [{scheme: []}]
        if op.auth in ("public", "platform"):
            return []
        if op.auth == "user":
            return [{"session": []}, {"bearer": []}]
        if op.auth == "customer":
            staff: list[dict[str, list[str]]] = [{"session": []}, {"apiKey": []}] if op.staff_too else []
            return [{"customerSession": []}, {"bearer": []}, *staff]
        if op.keys_only:
            return [{"apiKey": []}, {"bearer": []}]
        if op.module == "platform":
            return [{"session": []}, {"bearer": []}]  # tenant settings need a signed-in person
        return [{"session": []}, {"apiKey": []}, {"bearer": []}]


def bound_integers(node: Any) -> None:
    """Every integer of the document says the database's 64-bit bounds (services.core.numbers),
    which the edge enforces on every query and body whether or not its model declared them."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("type") == "integer":
                item.setdefault("minimum", INT64_MIN)
                item.setdefault("maximum", INT64_MAX)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _path_params(path: str) -> list[str]:
    import re

    return re.findall(r"{(\w+)}", path)


def components(schemas: dict[str, Any]) -> dict[str, Any]:
    schemas = dict(schemas)
    schemas["Error"] = {
        "type": "object",
        "required": ["error", "code"],
        "properties": {
            "error": {"type": "string", "description": "what happened, in words"},
            "code": {"type": "string", "examples": ["VALIDATION_ERROR", "NOT_FOUND", "CONFLICT"]},
            "details": {"type": "object", "additionalProperties": True},
            "retryAfter": {"type": "integer", "description": "seconds (RATE_LIMITED only)"},
        },
    }
    schemas["PageMeta"] = {
        "type": "object",
        "required": ["page", "limit", "total"],
        "properties": {"page": {"type": "integer"}, "limit": {"type": "integer"}, "total": {"type": "integer"}},
    }
    schemas["Pagination"] = {
        "type": "object",
        "required": ["total", "limit", "offset"],
        "properties": {"total": {"type": "integer"}, "limit": {"type": "integer"}, "offset": {"type": "integer"}},
    }
    error = {"application/json": {"schema": {"$ref": REF.format(model="Error")}}}
    return {
        "schemas": schemas,
        "responses": {f"E{code}": {"description": text, "content": error} for code, text in ERRORS.items()},
        "securitySchemes": {
            "session": {
                "type": "apiKey",
                "in": "cookie",
                "name": "service_token",
                "description": "set by POST /api/auth/login (HttpOnly, 24 h)",
            },
            "customerSession": {
                "type": "apiKey",
                "in": "cookie",
                "name": "upgrade_token",
                "description": "a module's customer session (Upgrade)",
            },
            "apiKey": {
                "type": "apiKey",
                "in": "header",
                "name": "X-API-Key",
                "description": "pk_live_... or pk_test_..., scoped to modules",
            },
            "bearer": {
                "type": "http",
                "scheme": "bearer",
                "bearerFormat": "JWT",
                "description": "the session token, or an API key (a value starting pk_)",
            },
            "webhookSignature": {
                "type": "apiKey",
                "in": "header",
                "name": "X-Webhook-Signature",
                "description": "inbound webhooks: sha256=<HMAC-SHA256 of the body with the tenant's webhook secret>",
            },
            "stationSignature": {
                "type": "apiKey",
                "in": "header",
                "name": "X-Station-Signature",
                "description": "station sync: the station's signature, beside X-Station-Id and X-Station-Timestamp",
            },
        },
    }


def build(
    title: str,
    version: str,
    route_path: Callable[[Operation], str],
    extra_paths: Callable[[Builder], dict[str, Any]],
    skip: Callable[[Operation], bool],
) -> dict[str, Any]:
    """The whole document: every mounted declaration plus the hand-written routes (``extra_paths``)."""
    b = Builder()
    paths: dict[str, dict[str, Any]] = {}
    for op in sorted(REGISTRY.values(), key=lambda o: (o.module, o.path, o.method)):
        if skip(op):
            continue
        path = route_path(op)
        paths.setdefault(path, {})[op.method.lower()] = b.operation(op, path)
    for path, ops in extra_paths(b).items():
        paths.setdefault(path, {}).update(ops)
    tags = sorted({o["tags"][0] for p in paths.values() for o in p.values()})
    bound_integers(paths)
    bound_integers(b.schemas)
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": version},
        "tags": [{"name": t, "description": MODULE_TAGS.get(t, f"The {t} module")} for t in tags],
        "paths": paths,
        "components": components(b.schemas),
    }
