"""Demo content of Support: categories and 20 tickets across the states, with conversations."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from local_db.models.support import SupportCategory, SupportConfig, SupportMessage, SupportTicket
from services.core.commands import next_value
from services.core.context import Ctx
from services.core.demo import demo_id, demo_seeder
from services.core.signing import token_hash
from services.support.helpdesk import _set_sla, config_written, load_config
from services.support.schemas import CannedResponse, HelpdeskConfig

# (key, name, description, keywords)
CATEGORIES: list[tuple[str, str, str, list[str]]] = [
    (
        "billing",
        "Billing",
        "Invoices, charges, payment methods and refunds of charges",
        ["invoice", "charge", "charged", "payment", "card", "billing", "receipt", "subscription", "price", "refund"],
    ),
    (
        "shipping",
        "Shipping & delivery",
        "Where an order is, delivery times, tracking and addresses",
        ["shipping", "delivery", "package", "parcel", "tracking", "courier", "arrived", "late", "shipment", "address"],
    ),
    (
        "returns",
        "Returns & exchanges",
        "Returning, exchanging or reporting damaged and wrong items",
        ["return", "exchange", "damaged", "broken", "defective", "wrong", "label", "rma", "replacement"],
    ),
    (
        "account",
        "Account & login",
        "Signing in, passwords, e-mail changes and locked accounts",
        ["login", "password", "account", "sign", "reset", "email", "locked", "two-factor", "username"],
    ),
    (
        "technical",
        "Technical problem",
        "Errors in the app or the website, sync problems, outages",
        ["error", "app", "crash", "bug", "website", "sync", "api", "outage", "slow", "page"],
    ),
    (
        "product",
        "Product question",
        "Sizes, compatibility, features, stock and warranty of products",
        ["size", "compatible", "feature", "stock", "warranty", "specification", "colour", "question", "battery"],
    ),
]

C, A, N = "customer", "agent", "note"
# (subject, category, priority, state, requester name, e-mail, hours ago, conversation after the description)
TICKETS: list[tuple[str, str, str, str, str, str, int, str, list[tuple[str, str]]]] = [
    (
        "Charged twice for order 1042",
        "billing",
        "high",
        "open",
        "Alice Martin",
        "alice@example.com",
        2,
        "My card was charged twice for the same order 1042. Please refund the duplicate charge.",
        [],
    ),
    (
        "Package not arrived after 10 days",
        "shipping",
        "normal",
        "open",
        "Bruno Costa",
        "bruno@example.com",
        5,
        "I ordered a lamp ten days ago and the package has still not arrived. The tracking page has not changed.",
        [],
    ),
    (
        "Cannot log in after password reset",
        "account",
        "high",
        "open",
        "Chen Wei",
        "chen@example.com",
        30,
        "I reset my password but the login page keeps saying my password is wrong.",
        [(N, "Checked the auth log: three failed attempts, account not locked.")],
    ),
    (
        "Website checkout error 500",
        "technical",
        "urgent",
        "open",
        "Dana Kowalski",
        "dana@example.com",
        1,
        "The checkout page shows error 500 when I press pay. This is urgent, I need the order today.",
        [],
    ),
    (
        "Is the X200 charger compatible with the X100?",
        "product",
        "low",
        "open",
        "Eli Novak",
        "eli@example.com",
        50,
        "Question: is the X200 charger compatible with my older X100 model?",
        [],
    ),
    (
        "Wrong item in my parcel",
        "returns",
        "normal",
        "open",
        "Fatima Ali",
        "fatima@example.com",
        26,
        "I received a blue kettle instead of the red one I ordered. How do I exchange it?",
        [
            (A, "Hello Fatima, sorry about the mix-up. We are checking the stock of the red kettle."),
            (C, "Thank you, I can wait a few days."),
        ],
    ),
    (
        "Invoice needs our VAT number",
        "billing",
        "low",
        "pending",
        "Gustav Berg",
        "gustav@example.com",
        72,
        "Could you re-issue invoice 2231 with our company VAT number on it?",
        [(A, "Hello Gustav, happy to help. Could you send us the VAT number you want on the invoice?")],
    ),
    (
        "Tracking number does not work",
        "shipping",
        "normal",
        "pending",
        "Hana Sato",
        "hana@example.com",
        40,
        "The tracking number in my shipping e-mail says not found on the courier website.",
        [
            (N, "Label created yesterday, courier scan pending."),
            (
                A,
                "Hello Hana, the courier usually shows the parcel within 24 hours of the first scan. Could you try again tomorrow?",
            ),
        ],
    ),
    (
        "App crashes when opening orders",
        "technical",
        "high",
        "pending",
        "Ivan Petrov",
        "ivan@example.com",
        20,
        "The mobile app crashes every time I open the orders tab.",
        [(A, "Hello Ivan, which app version and phone model do you use? A screenshot would help too.")],
    ),
    (
        "Change e-mail address on my account",
        "account",
        "low",
        "pending",
        "Julia Rossi",
        "julia@example.com",
        90,
        "I want to change the e-mail address of my account to my new work address.",
        [(A, "Hello Julia, for your security please confirm the change from your current e-mail address.")],
    ),
    (
        "Refund for returned jacket",
        "billing",
        "normal",
        "resolved",
        "Alice Martin",
        "alice@example.com",
        120,
        "I returned a jacket two weeks ago and have not received my refund yet.",
        [
            (A, "Hello Alice, your refund was issued today; it shows on your card statement within 5 business days."),
            (C, "Great, thanks!"),
        ],
    ),
    (
        "Delivery address wrong",
        "shipping",
        "high",
        "resolved",
        "Lena Fischer",
        "lena@example.com",
        100,
        "I typed the wrong street in the delivery address. Can you change it before shipping?",
        [
            (
                A,
                "Hello Lena, we updated the delivery address before the parcel left the warehouse. You will get new tracking details by e-mail.",
            )
        ],
    ),
    (
        "Damaged mug on arrival",
        "returns",
        "normal",
        "resolved",
        "Marco Bianchi",
        "marco@example.com",
        150,
        "The mug arrived broken, the handle snapped off in the box.",
        [
            (N, "Photo received, breakage in transit."),
            (
                A,
                "Hello Marco, sorry the mug arrived damaged. We are sending a replacement today, no need to return the broken one.",
            ),
        ],
    ),
    (
        "Locked out of my account",
        "account",
        "urgent",
        "resolved",
        "Nina Larsen",
        "nina@example.com",
        80,
        "My account is locked after too many login attempts and I cannot sign in.",
        [(A, "Hello Nina, we unlocked your account. Please reset your password with the link on the login page.")],
    ),
    (
        "Sync error between shop and app",
        "technical",
        "high",
        "resolved",
        "Dana Kowalski",
        "dana@example.com",
        60,
        "Orders from the shop do not sync to the app; the app shows a sync error.",
        [(A, "Hello Dana, the sync error came from an expired connection. We renewed it and the orders sync again.")],
    ),
    (
        "Battery life of the P3 speaker",
        "product",
        "low",
        "resolved",
        "Paula Gomez",
        "paula@example.com",
        200,
        "How long does the battery of the P3 speaker last on a full charge?",
        [(A, "Hello Paula, the P3 speaker plays about 12 hours on a full charge at medium volume.")],
    ),
    (
        "Charged after cancelling subscription",
        "billing",
        "high",
        "closed",
        "Quentin Roy",
        "quentin@example.com",
        400,
        "I cancelled my subscription last month but my card was charged again.",
        [(A, "Hello Quentin, we refunded the charge and confirmed the cancellation of your subscription.")],
    ),
    (
        "Parcel delivered to a neighbour",
        "shipping",
        "normal",
        "closed",
        "Rosa Lind",
        "rosa@example.com",
        380,
        "The courier says the parcel was delivered but it is not at my door.",
        [(A, "Hello Rosa, the courier left the parcel with your neighbour at number 12, as the delivery note says.")],
    ),
    (
        "Exchange shoes for a bigger size",
        "returns",
        "low",
        "closed",
        "Sam Okafor",
        "sam@example.com",
        500,
        "The shoes are too small. Can I exchange them for one size bigger?",
        [
            (
                A,
                "Hello Sam, yes: print the return label from your order page and we ship the bigger size when the return arrives.",
            )
        ],
    ),
    (
        "Error when uploading a photo",
        "technical",
        "normal",
        "closed",
        "Tara Nguyen",
        "tara@example.com",
        450,
        "The website shows an error when I upload a photo of my receipt.",
        [(A, "Hello Tara, photos over 20 MB are refused; please resize the photo and upload it again.")],
    ),
]

# Canned responses of the demo helpdesk (placeholders filled by services.support.tickets.fill).
CANNED = [
    (
        "thanks",
        "Thanks, we are on it",
        'Hello {requester_name},\n\nthank you for your message about "{subject}" ({ticket_number}). '
        "We are looking into it and come back to you today.\n\n{agent_name}",
    ),
    (
        "more-info",
        "Ask for details",
        'Hello {requester_name},\n\nto help with "{subject}", could you send us the order number and a '
        "screenshot of what you see?\n\n{agent_name}",
    ),
    (
        "resolved",
        "Resolved: anything else?",
        "Hello {requester_name},\n\nwe believe {ticket_number} is solved. If anything is still wrong, just "
        "reply to this message and the ticket opens again.\n\n{agent_name}",
    ),
]

DEMO_ACCESS_TOKEN = "demo-guest-token-{n}"  # tickets' guest tokens in the demo (documented in docs/support.md)


@demo_seeder
def seed_support(ctx: Ctx) -> None:
    if ctx.tenant is None or ctx.tenant.slug != "demo":
        return
    with ctx.write() as s:
        for key, name, desc, keywords in CATEGORIES:
            cid = demo_id("support-category", key)
            if s.get(SupportCategory, cid) is None:
                s.add(SupportCategory(id=cid, name=name, description=desc, keywords=keywords, created_at=ctx.now()))
        s.flush()
        if s.execute(select(SupportConfig)).scalar_one_or_none() is None:
            canned = [CannedResponse(id=i, title=t, body=b) for i, t, b in CANNED]
            data = HelpdeskConfig(canned_responses=canned).model_dump(mode="json")
            config_written(s)
            s.add(SupportConfig(id=demo_id("support-config"), data=data, updated_at=ctx.now()))
            s.flush()
        cfg = load_config(s)
        now = ctx.now()
        agent_id, agent_name = demo_id("user", "operator@demo.test"), "Omar Operator"
        for i, (subject, cat, prio, state, rname, email, hours, desc, convo) in enumerate(TICKETS, start=1):
            tid = demo_id("support-ticket", str(i))
            if s.get(SupportTicket, tid) is not None:
                continue
            created = now - timedelta(hours=hours)
            year = now.year
            seq = next_value(ctx, ctx.tenant_id, f"ticket-{year}")
            t = SupportTicket(
                id=tid,
                number=f"TKT-{year}-{seq:06d}",
                subject=subject,
                description=desc,
                requester_email=email,
                requester_name=rname,
                state=state,
                priority=prio,
                category_id=demo_id("support-category", cat),
                assignee_id=agent_id if i % 3 != 1 else None,
                tags=[],
                source="public",
                access_token_hash=token_hash(DEMO_ACCESS_TOKEN.format(n=i)),
                created_at=created,
                updated_at=created,
            )
            _set_sla(t, cfg)
            s.add(t)
            s.flush()
            s.add(
                SupportMessage(
                    id=demo_id("support-message", str(i), "0"),
                    ticket_id=tid,
                    author_kind="customer",
                    author_name=rname,
                    body=desc,
                    internal=False,
                    created_at=created,
                )
            )
            at = created
            for j, (kind, body) in enumerate(convo, start=1):
                at = at + timedelta(minutes=37 * j)
                is_agent = kind in (A, N)
                s.add(
                    SupportMessage(
                        id=demo_id("support-message", str(i), str(j)),
                        ticket_id=tid,
                        author_kind="agent" if is_agent else "customer",
                        author_id=agent_id if is_agent else None,
                        author_name=agent_name if is_agent else rname,
                        body=body,
                        internal=kind == N,
                        created_at=at,
                    )
                )
                if kind == A and t.first_response_at is None:
                    t.first_response_at = at
            t.updated_at = at
            if state in ("resolved", "closed"):
                t.resolved_at = at + timedelta(hours=1)
                t.updated_at = t.resolved_at
            if state == "closed":
                t.closed_at = at + timedelta(hours=49)
                t.updated_at = t.closed_at
