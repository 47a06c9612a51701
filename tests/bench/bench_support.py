"""Support benchmarks (not part of `make test`): run

    .venv/bin/python tests/bench/bench_support.py [tickets]

On a platform database (file SQLite) with 100,000 extra tickets in the demo tenant (default;
plus 5,000 in the ``other`` tenant, so tenant filtering has something to skip) it prints p50/p95 of
the service calls, through ``services.core.commands.execute`` with an operator's Ctx:

- search (``support.tickets.list?search=``): words of subjects and bodies, an e-mail fragment,
  a full ticket number; next to the raw sqlite3 LIKE scan the search used before;
- queue counts (``support.queues``), next to a raw sqlite3 count;
- a queue list page (``support.tickets.list?queue=``, first page, default sort);
- triage (``support.triage``) on varied texts, after the first call built the tenant's model.

The first call of each kind (index build, model build) is timed separately. No asserts on time.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import fmt, timed  # noqa: E402 - tests/bench/timing.py, next to this script

from app.settings import Settings  # noqa: E402
from app.wiring import platform_runtime  # noqa: E402
from services.core import auth  # noqa: E402
from services.core.commands import execute  # noqa: E402
from services.core.context import Ctx  # noqa: E402
from services.core.demo import DEMO_PASSWORD, demo_id, seed_demo  # noqa: E402

FIRST = ["Alice", "Bruno", "Chen", "Dana", "Eli", "Fatima", "Gustav", "Hana", "Ivan", "Julia", "Karl", "Lena",
         "Marco", "Nora", "Oscar", "Priya", "Quinn", "Rosa", "Sven", "Tara", "Umar", "Vera", "Wim", "Yara"]  # fmt: skip
LAST = ["Martin", "Costa", "Wei", "Kowalski", "Novak", "Ali", "Berg", "Sato", "Petrov", "Rossi", "Meyer", "Dubois",
        "Jansen", "Silva", "Nagy", "Horvat", "Larsen", "Moreau", "Schmidt", "Okafor"]  # fmt: skip
DOMAINS = ["example.com", "mail.test", "shop.example.org", "acme.test", "post.example.net"]
ITEMS = ["kettle", "lamp", "jacket", "blender", "charger", "headphones", "backpack", "toaster", "monitor", "chair"]
# category key -> (subjects, bodies, agent replies); {item}, {n} filled in.
TEMPLATES: dict[str, tuple[list[str], list[str], list[str]]] = {
    "billing": (
        [
            "Charged twice for order {n}",
            "Refund not received for order {n}",
            "Invoice {n} shows the wrong amount",
            "Payment failed but money was taken",
            "Cancel my subscription",
        ],
        [
            "My card was charged twice for the same order {n}. Please refund the duplicate charge.",
            "I returned the {item} three weeks ago and the refund has still not reached my card.",
            "The invoice for order {n} lists a price that is higher than the one shown at checkout.",
            "The payment page showed an error but my bank statement shows the charge for the {item}.",
        ],
        [
            "Hello {name}, we refunded the duplicate charge; it shows on your card within 5 days.",
            "Hello {name}, a corrected invoice is attached. Sorry for the trouble.",
        ],
    ),
    "shipping": (
        [
            "Package not arrived after {d} days",
            "Tracking number does not work",
            "Parcel delivered to wrong address",
            "Where is my order {n}?",
            "Delivery is late",
        ],
        [
            "I ordered a {item} {d} days ago and the package has still not arrived.",
            "The tracking number in the shipping e-mail says not found on the courier website.",
            "The courier says the parcel with my {item} was delivered but nobody received it.",
        ],
        [
            "Hello {name}, the courier confirmed the parcel is on its way and arrives tomorrow.",
            "Hello {name}, we opened an investigation with the courier and will send a replacement.",
        ],
    ),
    "returns": (
        [
            "Wrong item in my parcel",
            "Damaged {item} on arrival",
            "How do I return the {item}?",
            "Exchange for a different size",
            "Return label missing",
        ],
        [
            "I received a blue {item} instead of the red one I ordered. How do I exchange it?",
            "The {item} arrived broken, the box was damaged too. I want a replacement.",
            "I would like to return the {item} from order {n}, it does not fit.",
        ],
        [
            "Hello {name}, here is your prepaid return label; the replacement ships once we scan it.",
            "Hello {name}, sorry about the damaged item, a replacement is on its way.",
        ],
    ),
    "account": (
        [
            "Cannot log in after password reset",
            "Account locked",
            "Change e-mail address on my account",
            "Two-factor code not arriving",
            "Delete my account",
        ],
        [
            "I reset my password but the login page keeps saying my password is wrong.",
            "My account was locked after too many attempts and the unlock e-mail never came.",
            "I want to change the e-mail address of my account to my new work address.",
        ],
        [
            "Hello {name}, we unlocked your account; please set a new password from the link.",
            "Hello {name}, the e-mail address of your account is changed.",
        ],
    ),
    "technical": (
        [
            "App crashes when opening orders",
            "Website checkout error 500",
            "Sync fails on the mobile app",
            "Page loads very slowly",
            "API returns error 502",
        ],
        [
            "The mobile app crashes every time I open the orders tab.",
            "The checkout page shows error 500 when I press pay. This is urgent.",
            "The website is very slow today, every page takes a minute to load.",
        ],
        [
            "Hello {name}, the fix is in app version 4.2, please update from the store.",
            "Hello {name}, the outage is over; checkout works again.",
        ],
    ),
    "product": (
        [
            "Is the {item} compatible with the older model?",
            "Warranty of the {item}",
            "When is the {item} back in stock?",
            "Battery life of the {item}",
            "Which size should I order?",
        ],
        [
            "Question: is the {item} compatible with my older model from last year?",
            "How long is the warranty on the {item} and does it cover the battery?",
            "I wonder when the {item} in green will be back in stock.",
        ],
        [
            "Hello {name}, yes, it is compatible with every model since 2022.",
            "Hello {name}, the warranty is two years and covers the battery.",
        ],
    ),
}
STATES = ["open"] * 8 + ["pending"] * 4 + ["resolved"] * 30 + ["closed"] * 58  # a helpdesk's usual mix
PRIORITIES = ["low"] * 2 + ["normal"] * 5 + ["high"] * 2 + ["urgent"]
TS = "%Y-%m-%d %H:%M:%S.%f"


def bulk_tickets(db_path: Path, tenant_id: str, n: int, start: int, agents: list[str], seed: int) -> list[str]:
    """n tickets with their first message (and an agent reply once answered), raw executemany; returns numbers."""
    rng = random.Random(seed)
    cats = list(TEMPLATES)
    now = datetime.now(UTC)
    year = now.year
    tickets: list[tuple[Any, ...]] = []
    messages: list[tuple[Any, ...]] = []
    numbers: list[str] = []
    for i in range(n):
        cat = rng.choice(cats)
        subjects, bodies, replies = TEMPLATES[cat]
        first, last = rng.choice(FIRST), rng.choice(LAST)
        name = f"{first} {last}"
        email = f"{first.lower()}.{last.lower()}{rng.randint(1, 999)}@{rng.choice(DOMAINS)}"
        fill = {"item": rng.choice(ITEMS), "n": rng.randint(1000, 99999), "d": rng.randint(3, 20), "name": first}
        subject = rng.choice(subjects).format(**fill)
        body = rng.choice(bodies).format(**fill) + rng.choice(["", " Thanks.", " Regards, " + first, " Please help."])
        state = rng.choice(STATES)
        prio = rng.choice(PRIORITIES)
        created = now - timedelta(minutes=5 * (n - i) + rng.randint(0, 4))
        answered = state != "open" or rng.random() < 0.4
        first_resp = created + timedelta(minutes=rng.randint(10, 600)) if answered else None
        resolved = created + timedelta(hours=rng.randint(2, 72)) if state in ("resolved", "closed") else None
        closed = resolved + timedelta(hours=48) if resolved and state == "closed" else None
        updated = closed or resolved or first_resp or created
        if updated > now:
            updated = now
        tid = str(uuid.uuid4())
        number = f"TKT-{year}-{start + i:06d}"
        numbers.append(number)
        assignee = rng.choice(agents) if rng.random() < 0.7 else None

        def ts(d: datetime | None) -> str | None:
            return d.strftime(TS) if d is not None else None

        tickets.append((tid, number, 0, subject, body, email, name, state, prio, demo_id("support-category", cat)
                        if tenant_id == demo_id("tenant", "demo") else None, assignee, "[]", "public", None,
                        ts(created), ts(updated), ts(first_resp), ts(resolved), ts(closed),
                        ts(created + timedelta(hours=8)), ts(created + timedelta(hours=48)), tenant_id))  # fmt: skip
        messages.append((str(uuid.uuid4()), tid, "customer", None, name, body, 0, ts(created), tenant_id))
        if first_resp is not None:
            messages.append((str(uuid.uuid4()), tid, "agent", assignee, "Agent", rng.choice(replies).format(**fill),
                             0, ts(first_resp), tenant_id))  # fmt: skip
    conn = sqlite3.connect(db_path)
    conn.executemany(
        "INSERT INTO support_tickets (id, number, provisional, subject, description, requester_email, requester_name,"
        " state, priority, category_id, assignee_id, tags, source, access_token_hash, created_at, updated_at,"
        " first_response_at, resolved_at, closed_at, first_response_due, resolution_due, tenant_id)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        tickets,
    )
    conn.executemany(
        "INSERT INTO support_messages (id, ticket_id, author_kind, author_id, author_name, body, internal,"
        " created_at, tenant_id) VALUES (?,?,?,?,?,?,?,?,?)",
        messages,
    )
    conn.execute(
        "UPDATE counters SET value = ? WHERE scope = ? AND name = ?", (start + n - 1, tenant_id, f"ticket-{year}")
    )
    conn.commit()
    conn.close()
    return numbers


TRIAGE_TEXTS = [
    ("Refund", "I was charged twice on my card for the same order, please refund"),
    ("Parcel late", "My package has not arrived and the tracking page says nothing"),
    ("Broken on arrival", "The kettle arrived damaged, I want a replacement or a return label"),
    ("Login", "I cannot log in, my account is locked after the password reset"),
    ("Outage", "The website is down, checkout shows error 500, urgent"),
    ("Compatibility", "Is the charger compatible with the older model? Just a question"),
    ("Invoice", "The invoice shows the wrong amount and the wrong VAT"),
    ("App", "The app crashes when I open my orders, sync fails too"),
]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), secret_key="bench-secret-key-0123456789abcdef", demo=True)
        rt = platform_runtime(settings)
        seed_demo(rt)
        db_path = Path(tmp) / "data.db"
        if not db_path.exists():
            db_path = Path(rt.db.url.removeprefix("sqlite:///"))
        demo, other = demo_id("tenant", "demo"), demo_id("tenant", "other")
        agents = [demo_id("user", "operator@demo.test"), demo_id("user", "admin@demo.test")]
        t0 = time.perf_counter()
        numbers = bulk_tickets(db_path, demo, n, 21, agents, seed=7)
        bulk_tickets(db_path, other, 5_000, 1, [demo_id("user", "owner@other.test")], seed=8)
        conn = sqlite3.connect(db_path)
        conn.execute("ANALYZE")
        conn.commit()
        print(f"{n:,} tickets (+5,000 in another tenant) inserted in {time.perf_counter() - t0:.1f} s")

        tenant = auth.load_tenant(rt.db, "demo")
        user = auth.authenticate_password(rt.db, "operator@demo.test", DEMO_PASSWORD)
        principal = auth.user_principal(rt.db, user.id, tenant)

        def ctx() -> Ctx:
            return Ctx(rt, tenant, principal)

        rng = random.Random(11)
        picked = rng.sample(numbers, 50)
        terms = ["refund", "kettle", "error 500", "tracking", "berg", "okafor12", "mail.test", "locked account",
                 "zzqx-nothing"]  # fmt: skip

        def search(term: str) -> Any:
            return execute(ctx(), "support.tickets.list", query={"search": term})

        t = time.perf_counter()
        first = search("warm-up")
        print(f"first search after start-up: {(time.perf_counter() - t) * 1e3:.0f} ms")
        del first
        results: dict[str, list[float]] = {}
        totals: dict[str, int] = {}
        for term in terms:
            totals[term] = search(term).total
            results[term] = timed(partial(search, term), 20)
        num_it = iter(picked * 3)
        results["<ticket number>"] = timed(lambda: search(next(num_it)), 100)
        all_search = [x for xs in results.values() for x in xs]

        like = ("SELECT count(*) FROM support_tickets WHERE tenant_id = ? AND (number LIKE ? ESCAPE '\\'"
                " OR subject LIKE ? ESCAPE '\\' OR requester_email LIKE ? ESCAPE '\\')")  # fmt: skip
        raw_like = []
        for term in terms:
            pat = f"%{term}%"
            raw_like += timed(partial(conn.execute, like, (demo, pat, pat, pat)), 10)

        # Queue counts and a queue page.
        counts = execute(ctx(), "support.queues")
        q_counts = timed(lambda: execute(ctx(), "support.queues"), 100)
        raw_counts = timed(lambda: conn.execute("SELECT count(*), state FROM support_tickets WHERE tenant_id = ?"
                                                " GROUP BY state", (demo,)).fetchall(), 50)  # fmt: skip
        queues = ["new", "mine", "unassigned", "waiting", "breaching", "all"]
        q_list: dict[str, list[float]] = {}

        def queue_page(q: str) -> Any:
            return execute(ctx(), "support.tickets.list", query={"queue": q})

        for q in queues:
            queue_page(q)
            q_list[q] = timed(partial(queue_page, q), 20)
        all_list = [x for xs in q_list.values() for x in xs]

        # Triage: the first call builds the tenant's model, the others use it.
        body = {"subject": TRIAGE_TEXTS[0][0], "description": TRIAGE_TEXTS[0][1]}
        t = time.perf_counter()
        execute(ctx(), "support.triage", body=body)
        first_triage = time.perf_counter() - t
        tri_it = iter(TRIAGE_TEXTS * 40)

        def triage() -> None:
            s, d = next(tri_it)
            execute(ctx(), "support.triage", body={"subject": s, "description": d})

        tri = timed(triage, 200)
        rep_it = iter(TRIAGE_TEXTS * 10)
        reply = timed(lambda: execute(ctx(), "support.triage.reply",
                                      body=dict(zip(("subject", "description"), next(rep_it), strict=True))), 50)  # fmt: skip
        conn.close()
        rt.db.dispose()

    print()
    print("search (support.tickets.list?search=, first page + total):")
    for term, xs in results.items():
        total = f"{totals[term]:>6,} hits" if term in totals else "     1 hit "
        print(f"  {term:<18} {total}  {fmt(xs)}")
    print(f"  all searches                    {fmt(all_search)}")
    print(f"  raw sqlite3 LIKE count (old way) {fmt(raw_like)}")
    print(f"queue counts (support.queues) {json.dumps(counts.model_dump())}")
    print(f"  service                         {fmt(q_counts)}")
    print(f"  raw sqlite3 GROUP BY state      {fmt(raw_counts)}")
    print("queue list page (support.tickets.list?queue=, first 20, -updated_at):")
    for q, xs in q_list.items():
        print(f"  {q:<12}                    {fmt(xs)}")
    print(f"  all queues                      {fmt(all_list)}")
    print(f"triage (support.triage): first call (model build) {first_triage * 1e3:.0f} ms")
    print(f"  classify                        {fmt(tri)}")
    print(f"  suggested reply                 {fmt(reply)}")


if __name__ == "__main__":
    main()
