"""Generate the labelled triage set (deterministic): templates per category, slot fillers and noise.

    .venv/bin/python tests/services/support/data/make_triage_set.py

Noise: shared filler sentences, dropped letters (typos), mixed-in words of another
category, and unequal class sizes so the majority baseline is not 1/6.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

SIZES = {"billing": 60, "shipping": 50, "returns": 40, "account": 35, "technical": 35, "product": 20}
ITEMS = ["jacket", "kettle", "lamp", "speaker", "mug", "shoes", "backpack", "charger", "headphones", "desk chair"]
TEMPLATES: dict[str, list[str]] = {
    "billing": [
        "I was charged twice for my {item} order, please refund one payment",
        "The invoice for my {item} shows the wrong price",
        "My card got billed again after I cancelled the subscription",
        "Can you send a receipt for the {item}? I need it for expenses",
        "Payment failed but money left my account for the {item}",
        "Please add our VAT number to the invoice",
        "Why is there an extra fee on my bill?",
        "Refund of the charge has not reached my card yet",
    ],
    "shipping": [
        "My {item} has not arrived, the tracking has not moved for days",
        "Where is my parcel? Delivery was due last week",
        "The courier left the {item} package at the wrong address",
        "Can I change the delivery address of my order?",
        "Tracking number says not found for my shipment",
        "How long does shipping to Norway take?",
        "The delivery of the {item} is late again",
        "Parcel marked delivered but nothing at my door",
    ],
    "returns": [
        "The {item} arrived broken, I want a replacement",
        "How do I return the {item}? I need a return label",
        "I got the wrong item instead of the {item} I ordered",
        "Can I exchange the {item} for a different size?",
        "The {item} is defective and stopped working after a day",
        "Damaged box and the {item} inside is cracked",
        "I want to send back the {item}, it does not fit",
    ],
    "account": [
        "I cannot log in, the password reset link does not work",
        "My account is locked after too many attempts",
        "How do I change the e-mail address on my account?",
        "Two-factor code never arrives when I sign in",
        "I forgot my username and cannot sign in",
        "Please delete my account and personal data",
        "Login page keeps saying wrong password",
    ],
    "technical": [
        "The app crashes when I open my orders",
        "Website shows error 500 at checkout",
        "Sync between the shop and the app fails with an error",
        "The page is very slow and times out",
        "Bug: the {item} page does not load images",
        "The API returns an error when I connect my store",
        "Upload of a photo fails with an error message",
    ],
    "product": [
        "Is the {item} compatible with the older model?",
        "What size should I order for the {item}?",
        "Does the {item} come with a warranty?",
        "How long does the battery of the {item} last?",
        "Will the {item} be back in stock soon?",
        "What colours does the {item} come in?",
    ],
}
FILLERS = [
    "Thanks in advance.", "I have been a customer for years.", "Please help me with this.",
    "Order number 55{n}.", "I wrote last week too.", "Sent from my phone.", "Kind regards, {name}.",
    "This is quite annoying.", "Hope you can sort it out quickly.", "My neighbour had the same issue.",
]  # fmt: skip
NAMES = ["Anna", "Ben", "Carla", "Dev", "Emma", "Farid", "Greta", "Hugo", "Ines", "Jon"]


def typo(word: str, rng: random.Random) -> str:
    if len(word) > 4 and rng.random() < 0.12:
        i = rng.randrange(1, len(word) - 1)
        return word[:i] + word[i + 1 :]
    return word


def generate(seed: int = 7) -> list[dict[str, str]]:
    rng = random.Random(seed)
    out: list[dict[str, str]] = []
    cats = list(SIZES)
    for cat, n in SIZES.items():
        for _ in range(n):
            template = rng.choice(TEMPLATES[cat])
            text = template.format(item=rng.choice(ITEMS))
            if rng.random() < 0.25:  # a phrase of another category: real tickets wander
                other = rng.choice([c for c in cats if c != cat])
                text += ". Also " + rng.choice(TEMPLATES[other]).format(item=rng.choice(ITEMS)).lower()
            extras = [f.format(n=rng.randrange(100, 999), name=rng.choice(NAMES)) for f in rng.sample(FILLERS, 2)]
            words = " ".join([text + ".", *extras]).split()
            body = " ".join(typo(w, rng) for w in words)
            subject = " ".join(body.split()[:7])
            # Which template made it: an honest evaluation holds whole templates out of training.
            tid = f"{cat}/{TEMPLATES[cat].index(template)}"
            out.append({"subject": subject, "description": body, "category": cat, "template": tid})
    rng.shuffle(out)
    return out


if __name__ == "__main__":
    path = Path(__file__).with_name("triage_labelled.json")
    path.write_text(json.dumps(generate(), indent=1) + "\n")
    print(f"wrote {path}")
