"""A QR code's content type in the person's words ("wifi" is "Wi-Fi"), never the stored value."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication as Qc


def kind_word(kind: str) -> str:
    words = {
        "url": Qc.translate("QrDesignWorkspace", "web address"),
        "text": Qc.translate("QrDesignWorkspace", "text"),
        "email": Qc.translate("QrDesignWorkspace", "e-mail"),
        "phone": Qc.translate("QrDesignWorkspace", "phone call"),
        "sms": Qc.translate("QrDesignWorkspace", "text message"),
        "vcard": Qc.translate("QrDesignWorkspace", "contact card"),
        "wifi": Qc.translate("QrDesignWorkspace", "Wi-Fi"),
    }
    return words.get(kind, kind)
