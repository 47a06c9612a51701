"""The product on scan: its full name (wrapped, never cut as in the lines table) and its picture.

The picture is the catalogue product's image (``catalog.products.image.get`` by SKU). A product
without one, a station without the catalogue module, or a call that fails shows a drawn
placeholder: the packer is never left with a broken image or an error for a missing picture.
Pictures are kept per SKU for the shift, so only the first scan of an item asks for it. The panel
keeps its place when empty: showing and hiding it would move the lines table under the packer's
eyes and relayout the whole window on every order (measured: tests/bench/bench_fulfillment.py).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from services.catalog.products import get_image
from services.core.files import FileResult
from views.base import StationSession

SIZE = 140  # pixels: big enough to tell two colours of a cap apart at arm's length


_PLACEHOLDER: list[QPixmap] = []  # drawn once (a QPixmap needs the application, so not at import)


def placeholder(size: int = SIZE) -> QPixmap:
    """A quiet grey tile with "No picture": clearly not a broken image."""
    if size == SIZE and _PLACEHOLDER:
        return _PLACEHOLDER[0]
    pix = QPixmap(size, size)
    pix.fill(QColor("#eceff1"))
    p = QPainter(pix)
    p.setPen(QColor("#90a4ae"))
    p.drawRect(0, 0, size - 1, size - 1)
    font = QFont()
    font.setPointSize(11)
    p.setFont(font)
    p.drawText(pix.rect(), Qt.AlignmentFlag.AlignCenter, "No picture")
    p.end()
    if size == SIZE:
        _PLACEHOLDER.append(pix)
    return pix


class ProductPanel(QWidget):
    """The last scanned product: picture left, full name and SKU right."""

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("productPanel")
        self.session = session
        self.sku: str | None = None
        self.pictures: dict[str, QPixmap | None] = {}  # SKU -> picture (None: it has none)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.picture = QLabel()
        self.picture.setObjectName("productPicture")
        self.picture.setFixedSize(SIZE, SIZE)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        row.addWidget(self.picture)
        text = QVBoxLayout()
        self.name = QLabel("")
        self.name.setObjectName("productName")
        self.name.setWordWrap(True)  # the full name, on as many lines as it takes
        self.name.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail = QLabel("")
        self.detail.setObjectName("productDetail")
        self.detail.setWordWrap(True)
        text.addWidget(self.name)
        text.addWidget(self.detail)
        text.addStretch(1)
        row.addLayout(text, 1)
        self.has_picture = False
        self.clear()

    def clear(self) -> None:
        """Nothing scanned: an empty tile and a hint, in the same place."""
        self.sku = None
        self.has_picture = False
        self.picture.clear()
        self.name.setText("")
        self.name.setToolTip("")
        self.detail.setText(self.tr("Scan an item: its name and picture show here"))

    def show_product(self, sku: str, name: str, detail: str = "") -> None:
        self.sku = sku
        self.name.setText(name)
        self.name.setToolTip(name)
        self.detail.setText(f"SKU {sku}" + (f" · {detail}" if detail else ""))
        if sku in self.pictures:
            self._paint(self.pictures[sku])
            return
        self._paint(None)

        def got(f: FileResult) -> None:
            pix = QPixmap()
            self.pictures[sku] = pix if pix.loadFromData(f.content) else None
            if self.sku == sku:
                self._paint(self.pictures[sku])

        def none(_exc: BaseException) -> None:
            self.pictures[sku] = None  # no picture, no catalogue here, or not allowed: the placeholder

        self.session.ops.run(self.session.call(get_image, id=sku), on_success=got, on_failure=none)

    def _paint(self, pix: QPixmap | None) -> None:
        self.has_picture = pix is not None
        if pix is None:
            self.picture.setPixmap(placeholder())
            return
        self.picture.setPixmap(
            pix.scaled(SIZE, SIZE, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        )
