"""The inspection bench's photos: enlarged, taken with the station's camera, attached from disk.

A part of ``InspectionWorkspace`` (its photo actions), kept in a file of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QFileDialog, QListWidgetItem, QPushButton

from services.core.files import FileResult, Upload
from services.upgrade.photos import get_photo, thumbnails, upload_photo
from services.upgrade.schemas import PhotoOut, PhotoQuery, SubmissionDetail, ThumbnailQuery, ThumbnailsOut
from views.inspection.parts import PhotoViewer

if TYPE_CHECKING:  # the workspace these methods belong to (a mixin of it at run time)
    from views.base import Workspace as _Base
else:
    _Base = object


class PhotoActions(_Base):
    """Photo actions of the inspection workspace; the attributes below are the workspace's."""

    sub: SubmissionDetail | None  # the open submission
    new_photos: list[str]
    thumbs: dict[str, QPixmap]
    viewer: PhotoViewer | None
    has_camera: bool
    attach_btn: QPushButton
    camera_btn: QPushButton
    say: Callable[..., None]
    _failed: Callable[[BaseException], None]
    _show_thumbs: Callable[[ThumbnailsOut], None]

    def enlarge_photo(self, item: QListWidgetItem) -> None:
        """The photo large, in a window of its own (the full file where this station has it)."""
        pid = str(item.data(Qt.ItemDataRole.UserRole))
        label = item.text()

        def show(result: FileResult | None) -> None:
            pm = QPixmap()
            if result is not None:
                pm.loadFromData(result.content)
            if pm.isNull():
                pm = self.thumbs.get(pid, QPixmap())  # another station's photo: its thumbnail is what is here
            self.viewer = PhotoViewer(
                pm, QCoreApplication.translate("InspectionWorkspace", "Photo: {label}").format(label=label), self
            )
            self.viewer.open()

        self.session.ops.run(
            self.session.call(get_photo, id=pid, query=PhotoQuery()),
            on_success=show,
            on_failure=lambda _e: show(None),
        )

    def take_photo(self) -> None:
        """A photo from the station's camera (Qt Multimedia), attached as if picked from disk."""
        if self.sub is None or not self.has_camera or not self.camera_btn.isVisible():
            return
        from views.inspection.camera import CameraDialog

        dlg = CameraDialog(self)
        dlg.captured.connect(lambda data: self._upload(f"camera-{datetime.now(UTC):%Y%m%d-%H%M%S}.jpg", data))
        dlg.open()

    def _upload(self, filename: str, data: bytes) -> None:
        upload = Upload(filename, "application/octet-stream", data)
        self.session.ops.run(
            self.session.call(upload_photo, upload=upload),
            on_success=self._photo_added,
            on_failure=self._failed,
            parent=self.attach_btn,
        )

    def attach_photos(self) -> None:
        if self.sub is None or not self.attach_btn.isVisible():
            return
        paths, _ = QFileDialog.getOpenFileNames(
            self,
            QCoreApplication.translate("PhotoActions", "Attach photos"),
            "",
            "Images (*.png *.jpg *.jpeg *.gif *.webp)",
        )
        for p in paths:
            path = Path(p)
            self._upload(path.name, path.read_bytes())

    def _photo_added(self, photo: PhotoOut) -> None:
        self.new_photos.append(photo.id)
        self.say(
            QCoreApplication.translate("PhotoActions", "Photo {photo.filename} attached").format(photo=photo), "ok"
        )
        if self.sub is not None:
            ids = ",".join([*self.sub.photos, *self.new_photos])
            self.session.ops.run(
                self.session.call(thumbnails, query=ThumbnailQuery(ids=ids)),
                on_success=self._show_thumbs,
                on_failure=lambda _e: None,
            )
