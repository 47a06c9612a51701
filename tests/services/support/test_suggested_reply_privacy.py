"""The suggested reply never carries another ticket's customer data (issue 35, part 3).

A corpus of resolved tickets whose agent replies name their customer (greeting, sign-off, surname),
their e-mail, phone, order and ticket numbers and a relative the customer mentioned; a held-out set of
new tickets from other people asks for suggestions. No name, e-mail, phone number or order number of
any corpus ticket may appear in any suggestion, and each suggestion greets its own requester.
"""

from __future__ import annotations

import re

from services.core.commands import execute
from services.core.context import Runtime
from services.support import redact
from services.support.triage import CorpusTicket, TfidfIndex
from tests.services.support.test_support_service import agent

FIRST = [
    "Quentin",
    "Amelie",
    "Bruno",
    "Chloe",
    "Dmitri",
    "Elodie",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Katya",
    "Luca",
    "Mira",
    "Nadia",
    "Omar",
]
LAST = [
    "Dupont",
    "Moreau",
    "Keller",
    "Novak",
    "Rossi",
    "Jansen",
    "Silva",
    "Berg",
    "Haddad",
    "Laurent",
    "Petrov",
    "Lindqvist",
    "Okafor",
    "Varga",
]
RELATIVE = ["Emma", "Theo", "Lucie", "Malik", "Sven", "Ada", "Basile", "Cyrus"]
NEW_FIRST = ["Pauline", "Rafael", "Sofia", "Tomas", "Ursula", "Victor", "Wanda", "Xavier", "Yara", "Zeno"]

TOPICS = [
    (
        "Refund for order {order}",
        "I returned order {order} two weeks ago and still have no refund. Call me on {phone}.",
        "Hello {first},\n\nwe refunded order {order} today; it reaches your card within 5 business days. "
        "We also tried you on {phone} and wrote to {email}.\n\nThanks again, {first}!",
    ),
    (
        "Parcel for my son {relative}",
        "The parcel {order} for my son {relative} never arrived at the address.",
        "Dear {first} {last}, the courier left parcel {order} with a neighbour. "
        "We told {relative} by phone ({phone}) where to collect it. Ticket {ticket}.",
    ),
    (
        "Cannot log in to my account",
        "My account {email} is locked after the password reset.",
        "Hi {first}, we unlocked the account {email}. Please reset your password with the link on the "
        "login page, Ms {last}. Reference #{order}.",
    ),
    (
        "Wrong size delivered",
        "I ordered a large jacket (order {order}) and received a small one.",
        "Hello {first}, sorry about the wrong size. Print the return label for {order} from your order page "
        "and we ship the large one at once. Mr {last} from our warehouse checked it: call {phone} if needed.",
    ),
]


def _person(i: int) -> dict[str, str]:
    first, last = FIRST[i % len(FIRST)], LAST[i % len(LAST)]
    return {
        "first": first,
        "last": last,
        "relative": RELATIVE[i % len(RELATIVE)],
        "email": f"{first.lower()}.{last.lower()}{i}@mail.example",
        "phone": f"+33 6 {10 + i:02d} {20 + i:02d} 45 {60 + i:02d}",
        "order": f"SO-{70000 + 37 * i}",
        "ticket": f"TKT-2026-{400 + i:06d}",
    }


def _corpus() -> tuple[list[CorpusTicket], list[dict[str, str]]]:
    tickets, people = [], []
    for i in range(32):
        p = _person(i)
        subject, description, reply = (part.format(**p) for part in TOPICS[i % len(TOPICS)])
        people.append(p)
        tickets.append(
            CorpusTicket(
                id=f"t{i}",
                number=p["ticket"],
                subject=subject,
                text=f"{subject}\n{description}",
                category_id=None,
                priority="normal",
                reply=reply,
                requester_name=f"{p['first']} {p['last']}",
                requester_email=p["email"],
            )
        )
    return tickets, people


def _leaks(text: str, people: list[dict[str, str]]) -> list[str]:
    """Every piece of a corpus person's data found in ``text``."""
    found = []
    digits = re.sub(r"\D", "", text)
    for p in people:
        for key in ("first", "last", "relative"):
            if re.search(rf"\b{p[key]}\b", text, re.IGNORECASE):
                found.append(p[key])
        for key in ("email", "order", "ticket"):
            if p[key].lower() in text.lower() or p[key].split("-")[-1] in digits:
                found.append(p[key])
        if re.sub(r"\D", "", p["phone"]) in digits:
            found.append(p["phone"])
    return found


def test_held_out_suggestions_carry_no_other_customers_data() -> None:
    tickets, people = _corpus()
    index = TfidfIndex(tickets, [])
    suggested = 0
    for j, new_first in enumerate(NEW_FIRST):
        stranger = {"first": new_first, "last": "Quist", "order": f"SO-{90000 + j}", "relative": "Noor"}
        stranger.update(email=f"{new_first.lower()}@else.example", phone="+1 555 0100", ticket="TKT-2026-999999")
        subject, description, _reply = (part.format(**stranger) for part in TOPICS[j % len(TOPICS)])
        r = index.suggest_reply(f"{subject}\n{description}")
        assert r.text is not None and r.source is not None
        text = redact.clean_reply(
            r.text,
            r.source,
            new_name=f"{new_first} Quist",
            customer_words=index.customer_words,
            rare_in_source=index.rare_words(r.source),
        )
        assert _leaks(text, people) == [], text
        assert re.match(rf"(Hello|Dear|Hi) {new_first}\b", text), text
        suggested += 1
    assert suggested == len(NEW_FIRST)
    # Without a ticket there is nobody to greet: a placeholder the agent fills.
    r = index.suggest_reply(TOPICS[0][0].format(order="SO-1"))
    assert r.text is not None and r.source is not None
    text = redact.clean_reply(
        r.text, r.source, new_name=None, customer_words=index.customer_words, rare_in_source=set()
    )
    assert text.startswith("Hello [name],") and "[number]" in text and "[phone]" in text and "[e-mail]" in text
    assert _leaks(text, people) == []


def test_the_redaction_keeps_the_answer_itself() -> None:
    source = CorpusTicket("x", "TKT-1", "Refund", "Refund\nrefund please", None, "normal", requester_name="Ann Lee")
    reply = "Hello Ann, your refund was issued today; it shows on your statement within 5 business days."
    out = redact.clean_reply(reply, source, new_name="Bea Ray", customer_words={"ann", "lee"}, rare_in_source=set())
    assert out == "Hello Bea, your refund was issued today; it shows on your statement within 5 business days."


def test_suggested_reply_route_on_a_ticket_whose_answer_names_its_customer(runtime: Runtime) -> None:
    a = agent(runtime)
    old = execute(
        a,
        "support.tickets.create",
        body={
            "email": "quentin.dupont@mail.example",
            "name": "Quentin Dupont",
            "subject": "Kettle lid cracked",
            "description": "The kettle lid of order SO-55123 cracked on the first day.",
        },
    )
    execute(
        a,
        "support.messages.create",
        ticket_id=old.id,
        body={
            "body": "Hello Quentin, we ship a new kettle lid for SO-55123 today. "
            "Mr Dupont, call +33 6 12 34 56 78 if it does not arrive. Write to quentin.dupont@mail.example."
        },
    )
    execute(a, "support.tickets.update", ticket_id=old.id, body={"state": "resolved"})
    new = execute(
        a,
        "support.tickets.create",
        body={
            "email": "gina@else.example",
            "name": "Gina Brown",
            "subject": "Kettle lid cracked",
            "description": "My kettle lid cracked too.",
        },
    )
    r = execute(a, "support.triage.reply", body={"ticket_id": new.id})
    assert r.source_number == old.number and r.reply is not None
    assert r.reply.startswith("Hello Gina, we ship a new kettle lid for [number] today.")
    for secret in ("Quentin", "Dupont", "55123", "12 34 56 78", "quentin.dupont"):
        assert secret not in r.reply
