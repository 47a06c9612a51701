"""A suggested reply is another customer's answer: take their personal data out before showing it.

The reply the triage finds was written to someone else. Before it reaches an agent's composer:

* the greeting's name becomes the new requester's first name (``[name]`` without a ticket);
* e-mail addresses, phone numbers and reference numbers (orders, tickets, anything with four digits
  or more, or letters and digits joined by dashes, or after ``#``) become ``[e-mail]``, ``[phone]``,
  ``[number]``;
* a word that is part of a customer's name or e-mail address (the source ticket's requester, or any
  requester of the corpus when it is written with a capital) becomes ``[name]``;
* a capitalised word inside a sentence that the source ticket's customer wrote and fewer than
  ``triage.COMMON_WORD_TICKETS`` tickets of the corpus use (a relative's name, a street; a product
  name is in many tickets) becomes ``[name]`` too.

Over-redacting is the safe side: a placeholder the agent fills is better than a stranger's name.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from services.support.triage import CorpusTicket, name_words, stem

NAME = "[name]"
EMAIL = "[e-mail]"
PHONE = "[phone]"
NUMBER = "[number]"

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# Seven digits or more with the separators people write phone numbers with.
_PHONE = re.compile(r"(?<![\w#])\+?\(?\d(?:[\d\s().-]*\d){6,}(?!\w)")
# Codes of letters and digits joined by dashes first (SO-1021, TKT-2026-000001): the phone pattern
# would otherwise take their digits.
_CODE = re.compile(r"\b(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+\b")
_REFERENCE = re.compile(
    r"#\s?\w+"  # "#1042", "# A-7"
    r"|\b[A-Za-z]*\d{4,}[A-Za-z0-9]*\b"  # 10423, INV20261, 1Z999AA10123456784
)
_GREETING = re.compile(
    r"^(\s*(?:hello|hi|hey|dear|good (?:morning|afternoon|evening))\b[ \t]+)([^,!\n:]{1,60})",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][\wÀ-ÖØ-öø-ÿ'’-]*")
_SENTENCE_END = re.compile(r"[.!?:\n]\s*$")


def clean_reply(
    reply: str,
    source: CorpusTicket,
    *,
    new_name: str | None,
    customer_words: Collection[str],
    rare_in_source: Collection[str],
) -> str:
    """``reply`` (written to ``source``'s requester) without that requester's or any customer's data.

    ``customer_words``: name words of every requester in the corpus; ``rare_in_source``: the
    stemmed words of the source ticket's text that few corpus tickets use (``TfidfIndex.rare_words``).
    """
    first = (new_name or "").split()
    greeting_name = first[0] if first else NAME
    text = _GREETING.sub(lambda m: m.group(1) + greeting_name, reply, count=1)
    text = _EMAIL.sub(EMAIL, text)
    text = _CODE.sub(NUMBER, text)
    text = _PHONE.sub(PHONE, text)
    text = _REFERENCE.sub(NUMBER, text)
    own = name_words(source.requester_name, source.requester_email)
    greeting = _GREETING.match(text)
    keep_until = greeting.end() if greeting else 0  # the greeting and the new name just put there stay

    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        if m.start() < keep_until:
            return w
        low = w.lower().strip("'’-")
        if low in own:
            return NAME
        capital = w[0].isupper()
        if capital and low in customer_words:
            return NAME
        mid_sentence = m.start() > 0 and not _SENTENCE_END.search(text[: m.start()])
        if capital and mid_sentence and stem(low) in rare_in_source:
            return NAME
        return w

    return _WORD.sub(word, text)
