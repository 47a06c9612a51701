"""Sign: documents sent for signature, signed by link or in person, sealed with a PAdES signature
(docs/sign.md).

Importing the package imports the modules that declare its use cases and its demo
content; the composition root imports every services/<module> package.
"""

from services.core.modules import Module
from services.sign import demo, documents, pages, schedule, sealing, signers, signing, templates, tradein  # noqa: F401 - declarations, event types and demo seeders register on import

MODULE = Module(
    name="sign",
    events=("document.sent", "document.viewed", "document.signed", "document.declined"),
    records=("sign.document", "sign.template"),
    seeders=(demo.seed_sign,),
    position=40,
    title="Signing",
)
