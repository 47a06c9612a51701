"""Taking an inspection photo with the station's camera (Qt Multimedia).

Only opened where ``camera_available()`` found Qt Multimedia and a camera
(PySide6-Essentials ships without Qt Multimedia; the bench then attaches
photos from files). Space or Enter takes the photo; Esc closes.
"""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Signal
from PySide6.QtGui import QImage
from PySide6.QtMultimedia import QCamera, QImageCapture, QMediaCaptureSession, QMediaDevices
from PySide6.QtMultimediaWidgets import QVideoWidget
from PySide6.QtWidgets import QDialog, QLabel, QPushButton, QVBoxLayout, QWidget


class CameraDialog(QDialog):
    captured = Signal(bytes)  # the photo, JPEG

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Take photo")
        lay = QVBoxLayout(self)
        self.view = QVideoWidget()
        self.view.setMinimumSize(640, 480)
        lay.addWidget(self.view, 1)
        self.status = QLabel("Space or Enter takes the photo; Esc closes.")
        lay.addWidget(self.status)
        self.shoot = QPushButton("&Take photo")
        self.shoot.setDefault(True)
        self.shoot.clicked.connect(self._take)
        lay.addWidget(self.shoot)
        self.camera = QCamera(QMediaDevices.defaultVideoInput())
        self.capture = QImageCapture()
        self.session = QMediaCaptureSession()
        self.session.setCamera(self.camera)
        self.session.setImageCapture(self.capture)
        self.session.setVideoOutput(self.view)
        self.capture.imageCaptured.connect(self._taken)
        self.capture.errorOccurred.connect(lambda _id, _e, text: self.status.setText(f"The camera failed: {text}"))
        self.camera.start()

    def _take(self) -> None:
        if self.capture.isReadyForCapture():
            self.capture.capture()

    def _taken(self, _id: int, image: QImage) -> None:
        data = QByteArray()
        buf = QBuffer(data)
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buf, "JPEG", 90)  # type: ignore[call-overload]  # the stubs say bytes; PySide6 takes str
        self.captured.emit(bytes(data.data()))
        self.accept()

    def done(self, result: int) -> None:
        self.camera.stop()
        super().done(result)
