"""SDS: ingredients, formulas with sub-formulas, EU allergens, certificates and safety data sheets."""

from services.sds import (  # noqa: F401 - declarations, event types and demo seeders register on import
    demo,
    documents,
    events,
    formulas,
    ingredients,
)
