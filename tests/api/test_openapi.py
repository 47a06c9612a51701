"""The OpenAPI document: valid 3.1, complete, usable by a generated client, and schemathesis over it.

Schemathesis runs every phase over every operation, signed in as the demo owner, and fails on a
server error, an undocumented status, a response that does not match its schema or a wrong
content type. ``SCHEMATHESIS_MAX_EXAMPLES`` (default 2) sets the examples per operation; by hand:

    SCHEMATHESIS_MAX_EXAMPLES=50 QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q tests/api/test_openapi.py
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from openapi_spec_validator import validate

from api.openapi import SIGNATURES
from services.core.commands import REGISTRY
from tests.conftest import ON_POSTGRES, LiveServer, login

# The document and its clients: the same on either database (the PostgreSQL pass leaves it out).
pytestmark = pytest.mark.dialect_free


HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
ERROR_CODES = ("400", "401", "403", "404", "409", "413", "429")


def _doc(client: httpx.Client) -> dict[str, Any]:
    r = client.get("/openapi.json")
    assert r.status_code == 200
    doc: dict[str, Any] = r.json()
    return doc


def test_the_document_is_valid_openapi_31_and_says_everything(client: httpx.Client) -> None:
    doc = _doc(client)
    validate(doc)
    assert doc["openapi"].startswith("3.1")
    ops = {o["operationId"]: (path, method, o) for path, item in doc["paths"].items() for method, o in item.items()}
    mounted = {n for n, op in REGISTRY.items() if not n.startswith("test.")}
    assert mounted <= set(ops)  # every declaration, its name as the operationId
    assert {t["name"] for t in doc["tags"]} >= {"fulfillment", "upgrade", "support", "events", "platform"}
    assert set(doc["components"]["securitySchemes"]) >= {"session", "apiKey", "bearer"}
    assert doc["components"]["securitySchemes"]["session"] == {**doc["components"]["securitySchemes"]["session"],
                                                              "in": "cookie", "name": "service_token"}  # fmt: skip
    for name, (path, _method, o) in ops.items():
        declared = {p["name"] for p in o.get("parameters", []) if p["in"] == "path"}
        assert declared == set(re.findall(r"{(\w+)}", path)), name
        success = [c for c in o["responses"] if c.startswith("2")]
        assert len(success) == 1 or set(success) == {"200", "201"}, name  # an upsert: made or updated
        errors = ("400", "401", "429") if name.startswith("platform.auth.") else ERROR_CODES
        for code in errors:
            assert code in o["responses"], (name, code)
        answer = o["responses"][success[0]]
        if success[0] != "204":
            assert answer.get("content"), name
        op = REGISTRY.get(name)
        if op is not None:
            assert o["tags"] == [op.module]
            # DECISIONS (2026-11-26): a route that takes a signature declares it; [] is truly public.
            signed = [s for h, s in SIGNATURES.items() if h in op.headers]
            assert ("security" in o and o["security"] == []) == (op.auth in ("public", "platform") and not signed), name
            assert not signed or o["security"] == [{signed[0]: []}], name
    lst = ops["fulfillment.orders.list"][2]["responses"]["200"]["content"]["application/json"]["schema"]
    assert lst["required"] == ["data", "meta", "pagination"]
    label = ops["fulfillment.labels.get"][2]["responses"]["200"]["content"]
    assert "application/pdf" in label
    status = {p["name"]: p["schema"] for p in ops["fulfillment.orders.list"][2]["parameters"]}
    assert status["limit"]["anyOf"][0]["type"] == "integer"  # query parameters carry their real types


# make fuzz: a time budget of its own (SCHEMATHESIS_MAX_TIME seconds) on top of the usual ten minutes.
FUZZ_SECONDS = int(os.environ.get("SCHEMATHESIS_MAX_TIME", "0"))


@pytest.mark.timeout(600 + FUZZ_SECONDS)
@pytest.mark.skipif(ON_POSTGRES, reason="run on SQLite; the PostgreSQL pass keeps the suite in its time budget")
def test_schemathesis_finds_no_server_error_and_no_schema_error(server: LiveServer, client: httpx.Client,
                                                                tmp_path: Path) -> None:  # fmt: skip
    token = login(client, "owner@demo.test")
    # make test: the examples and fuzzing phases (about two minutes for 400 operations); a longer
    # run by hand adds SCHEMATHESIS_PHASES=examples,coverage,fuzzing,stateful and more examples.
    examples = os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "2")
    report = tmp_path / "report.json"
    cmd = [
        str(BIN / "schemathesis"), "--config-file", str(HERE / "schemathesis.toml"), "run", f"{server.url}/openapi.json",
        "-H", f"Authorization: Bearer {token}",
        "--phases", os.environ.get("SCHEMATHESIS_PHASES", "examples,fuzzing"),
        "--checks", "not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance",
        "--max-examples", examples, "--workers", "2", "--seed", os.environ.get("SCHEMATHESIS_SEED", "20261123"),
        "--generation-database", "none", "--no-color", "--report", "ndjson",
        "--report-ndjson-path", str(report), "--request-timeout", "30",
        # A sign-out would end the session every other operation is called with (the rest 401).
        "--exclude-operation-id-regex", r"\.auth\.logout$",
    ]  # fmt: skip
    if FUZZ_SECONDS:  # fuzzing and the stateful phase (links inferred between operations) go on this long
        cmd += ["--max-time", str(FUZZ_SECONDS)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=580 + FUZZ_SECONDS, cwd=tmp_path)
    tail = run.stdout[-6000:]
    print(run.stdout[-60000:] if FUZZ_SECONDS else tail)  # the figures (make fuzz: the failures too)
    assert run.returncode == 0, tail
    assert "generated" in tail and "passed" in tail, tail


@pytest.fixture(scope="module")
def generated_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A client generated from the served document by openapi-python-client (a well-kept generator)."""
    from app.server import build_app
    from app.settings import Settings

    where = tmp_path_factory.mktemp("client")
    app, rt = build_app(Settings(data_dir=where / "data", secret_key="x" * 40, demo=False))
    (where / "openapi.json").write_text(json.dumps(app.openapi()))
    rt.db.dispose()
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = subprocess.run(
        [str(BIN / "openapi-python-client"), "generate", "--path", str(where / "openapi.json"), "--meta", "none",
         "--output-path", str(where / "platform_client")],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert (where / "platform_client" / "client.py").exists(), out.stdout + out.stderr
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module("platform_client")
    finally:
        sys.path.remove(str(where))


def test_a_generated_client_lists_orders_and_ships_one(generated_client: Any, server: LiveServer,
                                                       client: httpx.Client) -> None:  # fmt: skip
    pc = generated_client
    api = importlib.import_module("platform_client.api.fulfillment")
    lst = importlib.import_module("platform_client.api.fulfillment.fulfillment_orders_list")
    operate = importlib.import_module("platform_client.api.fulfillment.fulfillment_orders_operate")
    models = importlib.import_module("platform_client.models")
    assert api is not None
    c = pc.AuthenticatedClient(base_url=server.url, token=login(client, "owner@demo.test"))
    page = lst.sync(tenant="demo", client=c, status="packed", limit=5)
    assert page.meta.total >= 1 and all(o.status == "packed" for o in page.data)
    order = page.data[0]
    shipped = operate.sync(tenant="demo", id=order.id, client=c, body=models.ShipOperation(operation="ship"))
    assert shipped.data.status == "shipped" and shipped.data.tracking_number
    # A refusal is the typed error envelope: shipping it again is 409 with the current state.
    again = operate.sync_detailed(tenant="demo", id=order.id, client=c, body=models.ShipOperation(operation="ship"))
    assert again.status_code == 409 and again.parsed.code == "CONFLICT"
