"""Sign's state machines as data (services/core/states.py), published in docs/sign.md.

Document: draft -> sent -> completed | declined | voided | expired; a draft is deleted, not voided.
Signer: pending -> sent -> viewed -> signed | declined (an in-person signer goes pending -> signed).
"""

from services.core.states import machine, move

DOCUMENT_STATES: tuple[str, ...] = ("draft", "sent", "completed", "declined", "voided", "expired")

DOCUMENT = machine(
    "document",
    DOCUMENT_STATES,
    [
        move("draft", "send", "sent"),
        move("draft", "edit", "draft", note="signers and fields change only in draft"),
        move("draft", "delete", "draft"),
        move("sent", "sign", "sent", note="one signer signs; the last one completes it"),
        move("sent", "complete", "completed", "system"),
        move("sent", "decline", "declined"),
        move("sent", "void", "voided"),
        move("sent", "expire", "expired", "system"),
        move("sent", "remind", "sent", "system"),
    ],
    terminal=("completed", "declined", "voided", "expired"),
)

SIGNER_STATES: tuple[str, ...] = ("pending", "sent", "viewed", "signed", "declined")

SIGNER = machine(
    "signer",
    SIGNER_STATES,
    [
        move("pending", "send", "sent"),
        move("sent", "view", "viewed"),
        move("viewed", "view", "viewed"),
        move("sent", "sign", "signed"),
        move("viewed", "sign", "signed"),
        move("pending", "sign", "signed", "in_person"),
        move("sent", "decline", "declined"),
        move("viewed", "decline", "declined"),
        move("pending", "decline", "declined", "in_person"),
    ],
    terminal=("signed", "declined"),
)
