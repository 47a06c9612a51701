"""Issue 35 part 4: an import error says the row, the column and what was expected, never the
schema's regular expression, and never echoes the cell (it may be personal data)."""

from __future__ import annotations

import json

from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import demo_id
from services.core.files import Upload


def ctx_for(rt: Runtime) -> Ctx:
    tenant = auth.load_tenant(rt.db, "demo")
    return Ctx(rt, tenant, auth.user_principal(rt.db, demo_id("user", "owner@demo.test"), tenant))


def test_each_bad_row_names_its_column_and_what_was_expected(runtime: Runtime) -> None:
    before = execute(ctx_for(runtime), "campaign.contacts.list", query={}).total
    long_name = "N" * 201
    csv_text = (
        "Email,name,phone,status,list_ids,city\r\n"
        "ok1@shop.test,Ok,,,,Rome\r\n"
        "secret-person-at-example.com,Bad,,,,Oslo\r\n"
        ",Empty,,,,Oslo\r\n"
        "p@shop.test,Phone,call me maybe,,,Oslo\r\n"
        "s@shop.test,Status,,vip,,Oslo\r\n"
        f"n@shop.test,{long_name},,,,Oslo\r\n"
        "l@shop.test,List,,,no-such-list,Oslo\r\n"
        "f@shop.test,Fields\r\n"
        "ok2@shop.test,Ok two,+4723000000,active,,Lyon\r\n"
    )
    out = execute(
        ctx_for(runtime), "campaign.contacts.import", query={}, upload=Upload("c.csv", "text/csv", csv_text.encode())
    )
    assert out.imported == 2
    assert [(e.row, e.error) for e in out.errors] == [
        (2, "column email: expected an e-mail address such as name@example.com"),
        (3, "column email: expected an e-mail address such as name@example.com (the cell is empty)"),
        (4, "column phone: expected a phone number of 3 to 40 digits, spaces and + ( ) . / -"),
        (5, "column status: expected one of active, pending, unsubscribed, bounced, blocked"),
        (6, "column name: expected a name of at most 200 characters"),
        (7, "column list_ids: expected ids of existing lists, not no-such-list"),
        (8, "expected 6 columns as in the header, the row has 2"),
    ]
    text = json.dumps([e.model_dump() for e in out.errors])
    assert "^[" not in text and "pattern" not in text and "secret-person" not in text and long_name not in text
    assert execute(ctx_for(runtime), "campaign.contacts.list", query={}).total == before + 2  # bad rows stored nothing

    rows = [
        {"email": "j@shop.test", "attributes": ["not", "an", "object"]},
        {"email": 42},
        "a string",
        {"email": "k@shop.test", "name": "Kay"},
    ]
    out = execute(
        ctx_for(runtime),
        "campaign.contacts.import",
        query={},
        upload=Upload("c.json", "application/json", json.dumps(rows).encode()),
    )
    assert out.imported == 1
    assert [(e.row, e.error) for e in out.errors] == [
        (1, "column attributes: expected an object of attributes"),
        (2, "column email: expected an e-mail address such as name@example.com"),
        (3, "expected an object with an email key"),
    ]
