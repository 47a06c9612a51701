"""SDS tables: the tenant's ingredient library, formulas with their lines and revisions, the last
allergen computation, and generated documents (certificates and safety data sheets).

Percents are kept as decimal text ("0.0005"): allergen thresholds sit at 0.001 %, below what a
float adds up exactly, and SQLite has no decimal type.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from local_db.base import Base, TenantScoped, new_id, utcnow


class SdsIngredient(TenantScoped, Base):
    __tablename__ = "sds_ingredients"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    inci: Mapped[str | None] = mapped_column(String(200), default=None)
    cas: Mapped[str | None] = mapped_column(String(12), default=None, index=True)
    # GHS hazard statements ("H315", ...).
    hazards: Mapped[list[Any]] = mapped_column(default=list)
    # [{"allergen": CAS, "percent": "0.5"}]: the supplier's declaration of what it contains.
    allergens: Mapped[list[Any]] = mapped_column(default=list)
    # CLP classification data beyond the H codes (services/sds/classify.py): {"categories": {H: cat},
    # "ate": {route: value}, "unknown_acute": [route], "m_acute", "m_chronic", "limits": {H: "%"}}.
    ghs: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default="{}")
    pubchem_cid: Mapped[int | None] = mapped_column(Integer, default=None)
    molecular_formula: Mapped[str | None] = mapped_column(String(100), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class SdsFormula(TenantScoped, Base):
    __tablename__ = "sds_formulas"
    __synced__ = True  # stations cache it: changes reach them by the sync pull
    __table_args__ = (UniqueConstraint("tenant_id", "code", name="uq_sds_formulas_tenant_code"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    code: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(20), default="draft")
    revision: Mapped[int] = mapped_column(Integer, default=1)
    product_type: Mapped[str] = mapped_column(String(10), default="leave_on")
    # The mixture's own measured data the classification needs: {"physical_state", "inhalation_form",
    # "flash_point_c", "boiling_point_c"} (decimals as text).
    properties: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default="{}")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class SdsFormulaLine(TenantScoped, Base):
    """One line of a formula's current revision: an ingredient or a sub-formula, and its percent."""

    __tablename__ = "sds_formula_lines"
    __synced__ = True  # stations cache it: changes reach them by the sync pull

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    formula_id: Mapped[str] = mapped_column(String(36), ForeignKey("sds_formulas.id", ondelete="CASCADE"), index=True)
    ingredient_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("sds_ingredients.id", ondelete="RESTRICT"), default=None, index=True
    )
    sub_formula_id: Mapped[str | None] = mapped_column(
        String(36), ForeignKey("sds_formulas.id", ondelete="RESTRICT"), default=None, index=True
    )
    percent: Mapped[str] = mapped_column(String(32))
    position: Mapped[int] = mapped_column(Integer, default=0)


class SdsFormulaRevision(TenantScoped, Base):
    """Every revision of a formula as it was saved (its lines and product type)."""

    __tablename__ = "sds_formula_revisions"
    __table_args__ = (UniqueConstraint("tenant_id", "formula_id", "revision", name="uq_sds_formula_revisions_rev"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    formula_id: Mapped[str] = mapped_column(String(36), ForeignKey("sds_formulas.id", ondelete="CASCADE"), index=True)
    revision: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SdsAllergenResult(TenantScoped, Base):
    """The last allergen computation of a formula (GET detect-allergens answers it)."""

    __tablename__ = "sds_allergen_results"
    __table_args__ = (UniqueConstraint("tenant_id", "formula_id", name="uq_sds_allergen_results_formula"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    formula_id: Mapped[str] = mapped_column(String(36), ForeignKey("sds_formulas.id", ondelete="CASCADE"))
    revision: Mapped[int] = mapped_column(Integer)
    results: Mapped[list[Any]] = mapped_column(default=list)
    computed_at: Mapped[datetime] = mapped_column(default=utcnow)


class SdsDocument(TenantScoped, Base):
    """A generated certificate or safety data sheet of one formula revision, with its PDF."""

    __tablename__ = "sds_documents"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    formula_id: Mapped[str] = mapped_column(String(36), ForeignKey("sds_formulas.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(12))  # certificate | sds
    formula_revision: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer, default=1)
    status: Mapped[str] = mapped_column(String(10), default="succeeded")
    compliant: Mapped[bool] = mapped_column(Boolean, default=True)
    summary: Mapped[dict[str, Any]] = mapped_column(default=dict)
    file_sha256: Mapped[str | None] = mapped_column(String(64), default=None)
    size: Mapped[int | None] = mapped_column(Integer, default=None)
    pages: Mapped[int | None] = mapped_column(Integer, default=None)
    created_by: Mapped[str | None] = mapped_column(String(36), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    note: Mapped[str] = mapped_column(Text, default="")
