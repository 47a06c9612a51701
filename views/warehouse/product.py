"""The product on scan: its full name (wrapped, never cut as in the lines table) and its picture.

The picture is the catalogue product's image (``catalog.products.image.get`` by SKU). A product
without one, a station without the catalogue module, or a call that fails shows a drawn
placeholder: the packer is never left with a broken image or an error for a missing picture.
Pictures are kept per SKU for the shift, so only the first scan of an item asks for it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from services.catalog.products import get_image
from services.core.files import FileResult
from views.base import StationSession

SIZE = 140  # pixels: big enough to tell two colours of a cap apart at arm's length


def placeholder(size: int = SIZE) -> QPixmap:
    """A quiet grey tile with "No picture": clearly not a broken image."""
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
        self.hide()

    def clear(self) -> None:
        self.sku = None
        self.hide()

    def show_product(self, sku: str, name: str, detail: str = "") -> None:
        self.sku = sku
        self.name.setText(name)
        self.name.setToolTip(name)
        self.detail.setText(f"SKU {sku}" + (f" · {detail}" if detail else ""))
        self.show()
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
        shown = placeholder() if pix is None else pix
        self.picture.setPixmap(
            shown.scaled(SIZE, SIZE, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)
        )
