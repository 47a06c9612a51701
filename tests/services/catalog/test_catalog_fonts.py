"""The PDF catalogue uses embedded fonts only (the guide says so): every font `pdffonts` lists in a
generated catalogue, barcodes and prices included, is embedded."""

from __future__ import annotations

import subprocess
from pathlib import Path

from services.core.commands import execute
from services.core.context import Runtime
from services.core.jobs import JobWorker
from tests.services.catalog.test_catalog_service import _until, ctx_for, worker  # noqa: F401 - the job worker fixture


def test_the_catalogue_embeds_every_font(runtime: Runtime, worker: JobWorker, tmp_path: Path) -> None:  # noqa: F811
    ctx = ctx_for(runtime)
    c = execute(ctx, "catalog.catalogs.generate", body={"title": "Fonts", "language": "en"})
    assert _until(ctx, c.id).status == "succeeded"  # type: ignore[attr-defined]
    path = tmp_path / "catalog.pdf"
    path.write_bytes(execute(ctx, "catalog.catalogs.download", id=c.id).content)
    listed = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    fonts = listed.splitlines()[2:]
    # The "emb" column of every font (name, type and encoding may hold spaces: read from the right).
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), listed
