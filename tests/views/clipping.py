"""Finding clipped or elided text: buttons, headings and banners (QLabel), table headers.

``clipped(root)`` walks the visible widgets under ``root`` and returns a line for each text that
does not fit its widget: a button or one-line label narrower than its size hint, a wrapping label
shorter than the height its text needs at its width, an input or button squeezed below its
minimum height, a header section narrower than its title.
"""

from __future__ import annotations

from PySide6.QtCore import QDeadlineTimer, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QToolBar,
    QWidget,
)

SLACK = 2  # pixels of rounding a style may take
# A spin box's cached size hint may lag a restyle by a few pixels; a squeezed input loses tens.
SQUEEZE_SLACK = 4
SETTLE_MS = 2000  # a wrapped label may need a second layout pass after its text arrived


def _name(w: QWidget) -> str:
    return f"{type(w).__name__}({w.objectName() or w.accessibleName() or ''})"


def _shown(w: QWidget, root: QWidget) -> bool:
    return w.isVisibleTo(root) and w.width() > 0 and w.height() > 0


def clipped(root: QWidget) -> list[str]:
    found: list[str] = []
    for b in root.findChildren(QAbstractButton):
        text = b.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        if not text or not _shown(b, root) or b.parentWidget() is None:
            continue
        if type(b).__name__ in ("QCheckBox", "QRadioButton") and b.property("clip_ok"):
            continue
        need = b.sizeHint().width()
        if need > b.width() + SLACK:
            found.append(f"{_name(b)} {text!r}: {b.width()} px wide, needs {need}")
    for lab in root.findChildren(QLabel):
        text = lab.text()
        if not text or not _shown(lab, root) or lab.pixmap() is not None and not lab.pixmap().isNull():
            continue
        if lab.wordWrap():
            need_h = lab.heightForWidth(lab.width())
            if need_h > lab.height() + SLACK:
                found.append(f"{_name(lab)} {text[:60]!r}: {lab.height()} px high, needs {need_h}")
        else:
            need = lab.sizeHint().width()
            if need > lab.width() + SLACK:
                found.append(f"{_name(lab)} {text[:60]!r}: {lab.width()} px wide, needs {need}")
    for h in root.findChildren(QHeaderView):
        model = h.model()
        if model is None or not _shown(h, root) or h.orientation() != Qt.Orientation.Horizontal:
            continue
        fm = h.fontMetrics()
        for i in range(h.count()):
            if h.isSectionHidden(i):
                continue
            title = str(model.headerData(i, Qt.Orientation.Horizontal) or "")
            need = max(fm.horizontalAdvance(line) for line in title.split("\n")) + 8  # a header on two lines
            if title and need > h.sectionSize(i) + SLACK:
                found.append(f"header {title!r}: {h.sectionSize(i)} px wide, needs {need}")
    for kind in (QLineEdit, QComboBox, QAbstractSpinBox, QAbstractButton):
        # An input squeezed below its height cuts its own text (a window too short for its layout).
        for box in root.findChildren(kind):  # type: ignore[type-var]
            if not _shown(box, root) or box.parentWidget() is None or isinstance(box.parentWidget(), QComboBox):
                continue
            # (Qt gives some spin boxes a minimum above their own size hint: the smaller one counts.)
            need_h = min(box.minimumSizeHint().height(), box.sizeHint().height())
            if need_h > box.height() + SQUEEZE_SLACK:
                found.append(f"{_name(box)}: {box.height()} px high, needs {need_h}")
    for bar in root.findChildren(QToolBar):
        if not _shown(bar, root):
            continue
        for a in bar.actions():
            w = bar.widgetForAction(a)
            if a.isVisible() and not a.isSeparator() and w is not None and not w.isVisible():
                found.append(f"toolbar {a.text().replace('&', '')!r}: fell off the toolbar")
    return found


def clipped_after_layout(root: QWidget) -> list[str]:
    """``clipped`` once the layouts have settled: wrapped text that arrived with the data takes a
    second height-for-width pass, later under load. Whatever is still clipped after that is."""
    from PySide6.QtWidgets import QApplication

    deadline = QDeadlineTimer(SETTLE_MS)
    found = clipped(root)
    while found and not deadline.hasExpired():
        QApplication.processEvents()
        QApplication.sendPostedEvents()
        found = clipped(root)
    return found
