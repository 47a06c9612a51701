"""SDS: ingredients, formulas with sub-formulas, EU allergens, certificates and safety data sheets."""

from services.core.modules import Module
from services.sds import classification, demo, documents, events, formulas, ingredients  # noqa: F401 - declarations, event types and demo seeders register on import

MODULE = Module(
    name="sds",
    events=(
        "formula.created",
        "formula.revised",
        "formula.status_changed",
        "formula.allergens_computed",
        "formula.certificate_issued",
        "formula.sds_issued",
        "ingredient.changed",
    ),
    records=("sds.ingredient", "sds.formula"),
    seeders=(demo.seed_sds,),
    position=130,
    title="Safety data sheets",
)
