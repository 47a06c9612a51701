"""Demo documentation (CONTRACT.md): a category tree and published articles the helpdesk can suggest,
plus a draft, an archived article and one in the trash. Deterministic ids: seeding twice changes nothing.
"""

from __future__ import annotations

from datetime import timedelta

from local_db.models.docs import DocCategory, DocDocument, DocTemplate
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder

# key, name, parent key
CATEGORIES = (
    ("customers", "Customer help", None),
    ("orders", "Orders and delivery", "customers"),
    ("returns", "Returns and refunds", "customers"),
    ("account", "Account and sign-in", "customers"),
    ("floor", "Shop floor", None),
    ("machines", "Machines", "floor"),
)
# key, category, status, title, tags, body
ARTICLES = (
    (
        "track-parcel",
        "orders",
        "published",
        "Tracking a parcel",
        ["shipping", "tracking"],
        "# Tracking a parcel\n\nEvery shipped order has a **tracking number** in the shipping e-mail. "
        "The courier's first scan can take up to 24 hours after the label is created, so a tracking "
        "number that does not work yet usually starts working the next day.\n\n"
        "If a parcel has not arrived after 10 days, open a ticket with the order number: we ask the "
        "courier to trace it and send a replacement when it is lost.",
    ),
    (
        "wrong-address",
        "orders",
        "published",
        "Changing the delivery address",
        ["shipping", "address"],
        "# Changing the delivery address\n\nThe address can be changed until the order is packed. "
        "After that, ask the courier to redirect the parcel with the tracking number. A parcel "
        "delivered to a neighbour is listed as delivered; the courier's note names the neighbour.",
    ),
    (
        "refunds",
        "returns",
        "published",
        "Refunds: when the money arrives",
        ["refund", "billing"],
        "# Refunds\n\nA refund is issued on the day the return is checked. It reaches the card "
        "statement within **5 business days**. A double charge is refunded at once: send the order "
        "number and the two transaction dates.\n\nCharges after cancelling a subscription are refunded in full.",
    ),
    (
        "return-item",
        "returns",
        "published",
        "Returning or exchanging an item",
        ["returns", "exchange"],
        "# Returning or exchanging an item\n\n1. Open a ticket with the order number.\n2. Print the return "
        "label we send.\n3. Pack the item, with a photo if it arrived damaged.\n\nA wrong item is "
        "collected free of charge. An exchange for another size ships when the return is scanned.",
    ),
    (
        "password-reset",
        "account",
        "published",
        "Cannot sign in after a password reset",
        ["account", "password", "login"],
        "# Cannot sign in after a password reset\n\nThe reset link works once and for one hour. After "
        "five wrong passwords the account is locked for 15 minutes. Clear the browser's saved password, "
        "then use the newest reset e-mail. To change the e-mail address of an account, sign in and open "
        "*Profile*, or ask support to verify the change.",
    ),
    (
        "invoice-vat",
        "returns",
        "published",
        "Invoices with a VAT number",
        ["billing", "invoice"],
        "# Invoices with a VAT number\n\nAdd the company's VAT number under *Profile > Billing* before "
        "ordering. For an order already placed, support issues a corrected invoice on request.",
    ),
    (
        "press-e42",
        "machines",
        "published",
        "Press alarm E42: die temperature high",
        ["alarm", "press"],
        "# Press alarm E42\n\nThe die is above 180 °C. Stop the press, let the cooling run for ten "
        "minutes, check the coolant level, acknowledge the alarm and restart. Call maintenance when "
        "it comes back within the hour.",
    ),
    (
        "changeover",
        "machines",
        "draft",
        "CNC changeover checklist",
        ["cnc", "setup"],
        "# CNC changeover checklist\n\nDraft: tools, fixtures, first-part inspection.",
    ),
    (
        "old-returns",
        "returns",
        "archived",
        "Returns policy 2024",
        ["returns"],
        "# Returns policy 2024\n\nReplaced by *Returning or exchanging an item*.",
    ),
    (
        "trashed",
        "orders",
        "published",
        "Old courier list",
        ["shipping"],
        "# Old courier list\n\nNo longer used.",
    ),
)

TEMPLATE_BODY = (
    "Reported by {{author}} at {{time}}.\n\n## What happened\n\n{{symptom}}\n\n"
    "## What was done\n\n- \n\n## Next steps\n\n- "
)


@demo_seeder
def seed_docs(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    now = ctx.now()
    with ctx.write() as s:
        for n, (key, name, parent) in enumerate(CATEGORIES):
            cid = demo_id("docs-category", key)
            if s.get(DocCategory, cid) is None:
                s.add(
                    DocCategory(
                        id=cid,
                        name=name,
                        parent_id=demo_id("docs-category", parent) if parent else None,
                        position=n,
                        created_at=now,
                    )
                )
        for n, (key, cat, status, title, tags, body) in enumerate(ARTICLES):
            did = demo_id("docs-document", key)
            if s.get(DocDocument, did) is not None:
                continue
            when = now - timedelta(days=len(ARTICLES) - n)
            s.add(
                DocDocument(
                    id=did,
                    title=title,
                    body=body,
                    category_id=demo_id("docs-category", cat),
                    status=status,
                    tags=tags,
                    created_at=when,
                    updated_at=when,
                    published_at=when if status != "draft" else None,
                    deleted_at=now if key == "trashed" else None,
                )
            )
        tid = demo_id("docs-template", "machine-fault")
        if s.get(DocTemplate, tid) is None:
            s.add(
                DocTemplate(
                    id=tid,
                    name="Machine fault",
                    description="A fault on a machine: what happened, what was done, what is next.",
                    title="Fault on {{machine}}, {{date}}",
                    body=TEMPLATE_BODY,
                    category_id=demo_id("docs-category", "machines"),
                    tags=["fault"],
                    created_at=now,
                    updated_at=now,
                )
            )
