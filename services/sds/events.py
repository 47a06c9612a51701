"""SDS's event types (the spec lists none for the module; DECISIONS: modules register their own)."""

from services.core.events import register_event_type

M = "sds"

for _name, _desc in [
    ("formula.created", "a formula was created (by hand or by an import)"),
    ("formula.revised", "a formula's lines or product type changed: a new revision"),
    ("formula.status_changed", "a formula moved through its states"),
    ("formula.allergens_computed", "a formula's allergens were computed against the thresholds"),
    ("formula.certificate_issued", "a compliance certificate was generated for a formula revision"),
    ("formula.sds_issued", "a 16-section safety data sheet was generated for a formula revision"),
    (
        "ingredient.changed",
        "an ingredient's data changed (PUT or PATCH): the documents of the formulas using it are stale",
    ),
]:
    register_event_type(_name, M, _desc)
