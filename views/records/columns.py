"""Records' list columns sized to fit the view: each as wide as its header and its values read, and
when they cannot all stand side by side, the widest shortened alike (elided, the whole value in
the cell's tooltip) so that every header still reads in full and no column hides past the right
edge. Qt's own "resize to contents" sizes each column alone: a ticket list's eight columns then
ran 1,400 px into a 680 px view behind a horizontal scroll bar (seen at 1280x800).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QTableView, QTreeWidget, QTreeWidgetItemIterator


def scroll_bar_extent(view: QAbstractItemView) -> int:
    return view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, view)


def room(table: QTableView) -> int:
    """The width the columns may take: the view's without scroll bars (``maximumViewportSize``),
    less a vertical scroll bar's, shown or not yet (the next page of rows brings it, and the
    columns should not then spill past the edge)."""
    return table.maximumViewportSize().width() - scroll_bar_extent(table)


def widths(heads: list[int], wants: list[int], space: int) -> list[int]:
    """Each column's width: ``wants`` (header or values, the wider) where they fit in ``space``, the
    spare going to the widest; else one level L that caps every column (never below its header:
    ``heads``) so that they fill ``space`` exactly. Where even the headers do not fit, the headers."""
    if not wants:
        return []
    if sum(wants) <= space:
        out = list(wants)
        widest = max(range(len(out)), key=lambda i: out[i])
        out[widest] += space - sum(out)  # the longest text reads more of itself as the view grows
        return out
    if sum(heads) >= space:
        return list(heads)
    if len(wants) > 1 and wants[0] <= space // 3 and wants[0] + sum(heads[1:]) <= space:
        # The first column names the row (a ticket's number, an item's name): it reads whole,
        # the others share what is left.
        return [wants[0], *widths(heads[1:], wants[1:], space - wants[0])]

    def filled(level: int) -> int:
        return sum(max(h, min(w, level)) for h, w in zip(heads, wants, strict=True))

    low, high = 0, max(wants)  # the highest level that still fits
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if filled(mid) <= space else (low, mid - 1)
    out = [max(h, min(w, low)) for h, w in zip(heads, wants, strict=True)]
    spare = space - sum(out)
    for i in sorted(range(len(out)), key=lambda i: -wants[i]):  # the pixels the level rounded off
        if spare <= 0:
            break
        if out[i] < wants[i]:
            out[i] += 1
            spare -= 1
    return out


class ColumnFitter(QObject):
    """Keeps a table's columns fitted to its width: when a list opens, when its first rows arrive,
    and when the view is resized, until the person drags a column (their width then stays)."""

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self.table = table
        self.manual = False
        self._fitting = False
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        header.sectionResized.connect(self._resized_by_hand)
        table.installEventFilter(self)

    def reset(self) -> None:
        """A new list: fitted again, whatever the person did to the last one."""
        self.manual = False
        self.fit()

    def fit(self) -> None:
        model = self.table.model()
        if model is None or self.manual:
            return
        self.table.ensurePolished()  # measured in the style sheet's font
        header = self.table.horizontalHeader()
        count, space = model.columnCount(), room(self.table)
        wrap = getattr(model, "wrap", None)
        if wrap is not None:
            wrap(set())
        heads = [header.sectionSizeHint(c) for c in range(count)]
        wants = [max(h, self.table.sizeHintForColumn(c)) for c, h in enumerate(heads)]
        if sum(heads) > space and wrap is not None:
            # Too narrow for the headers on one line (German's "Diagnostiziert am"): the widest on
            # two, one by one, until they fit; the values' widths are kept.
            wrapped: set[int] = set()
            for c in sorted(range(count), key=lambda c: -heads[c]):
                wrapped.add(c)
                wrap(set(wrapped))
                heads[c] = header.sectionSizeHint(c)
                if sum(heads) <= space:
                    break
            wants = [
                max(h, w) for h, w in zip(heads, (self.table.sizeHintForColumn(c) for c in range(count)), strict=True)
            ]
        if wrap is not None and sum(wants) > space:
            # Values would be cut ("in …" beside a "Created at" wider than its dates): a header wider
            # than its column's values goes on two lines first, and its room goes to the values.
            values = [self.table.sizeHintForColumn(c) for c in range(count)]
            wrapped = set(getattr(model, "wrapped", set()))
            wider = {c for c in range(count) if heads[c] > values[c]}
            if wider:
                wrap(wrapped | wider)
                # Such a column is never cut below its values (its header was wider: it was not).
                heads = [max(header.sectionSizeHint(c), values[c] if c in wider else 0) for c in range(count)]
                wants = [max(h, v) for h, v in zip(heads, values, strict=True)]
        self._fitting = True
        try:
            for c, w in enumerate(widths(heads, wants, space)):
                header.resizeSection(c, w)
        finally:
            self._fitting = False

    def _resized_by_hand(self) -> None:
        if not self._fitting:
            self.manual = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.table and event.type() == QEvent.Type.Resize:
            self.fit()
        return False


def fit_tree(tree: QTreeWidget, least: int = 170) -> int:
    """The tree's width for its longest label at its depth (German's "Dokumentkategorien" was cut
    to "Dokumentkate…"), with room for a scroll bar; set as its minimum and answered."""
    tree.ensurePolished()  # the style sheet's font, not the default one, before it is first shown
    fm = tree.fontMetrics()
    need = 0
    it = QTreeWidgetItemIterator(tree)
    while item := it.value():
        depth, parent = 0, item.parent()
        while parent is not None:
            depth, parent = depth + 1, parent.parent()
        need = max(need, fm.horizontalAdvance(item.text(0)) + (depth + 1) * tree.indentation())
        it += 1
    frame = 2 * tree.frameWidth() + 2 * (tree.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1)
    width = max(least, need + frame + scroll_bar_extent(tree) + 4)
    tree.setMinimumWidth(width)
    return width
