"""Station settings: platform URL, station name, theme, scanner suffix, sound, printers, kiosk options."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from views.i18n import LANGUAGES
from views.shell.forms import FieldError, field_messages, with_error
from views.shell.prefs import StationPrefs
from views.shell.printing import LABEL_FORMATS, SAVE_AS_PDF, SYSTEM_DEFAULT, format_name, system_printers
from views.shell.theme import set_role


class SettingsDialog(QDialog):
    """Validated with ``services.core.station.StationSettings``; errors show under the field."""

    def __init__(self, prefs: StationPrefs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prefs = prefs
        self.setWindowTitle(self.tr("Station settings"))
        self.setObjectName("settings-dialog")
        self.setAccessibleName(self.tr("Station settings"))
        self.setMinimumWidth(560)  # German labels are long; an error line fits on one line
        cur = prefs.as_dict()
        self.errors: dict[str, FieldError] = {}

        lay = QVBoxLayout(self)
        # The dialog grows with its error lines: a message sits under its field, never over the next.
        lay.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        general = QGroupBox(self.tr("Station"))
        form = QFormLayout(general)
        self.platform_url = QLineEdit(str(cur["platform_url"]))
        self.platform_url.setPlaceholderText("https://platform.example.com")
        self.station_name = QLineEdit(str(cur["station_name"]))
        self.theme = QComboBox()
        for value, label in (
            ("light", self.tr("Light")),
            ("dark", self.tr("Dark")),
            ("kiosk", self.tr("Kiosk (large, touch)")),
        ):
            self.theme.addItem(label, value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(cur["theme"])))
        self.scanner_suffix = QComboBox()
        self.scanner_suffix.addItem(self.tr("Enter"), "enter")
        self.scanner_suffix.addItem(self.tr("Tab"), "tab")
        self.scanner_suffix.setCurrentIndex(max(0, self.scanner_suffix.findData(cur["scanner_suffix"])))
        self.sound = QCheckBox(self.tr("Play a sound on success and failure"))
        self.sound.setChecked(bool(cur["sound"]))
        self._row(form, self.tr("&Platform URL"), "platform_url", self.platform_url)
        self._row(form, self.tr("Station &name"), "station_name", self.station_name)
        self._row(form, self.tr("&Theme"), "theme", self.theme)
        self._row(form, self.tr("Scanner suffi&x"), "scanner_suffix", self.scanner_suffix)
        self._row(form, self.tr("S&ound"), "sound", self.sound)
        self.language = QComboBox()
        for value, label in LANGUAGES.items():
            # "System" in the current language; each language by its own name.
            self.language.addItem(self.tr("System") if value == "system" else label, value)
        self.language.setCurrentIndex(max(0, self.language.findData(cur["language"])))
        self.language.setToolTip(self.tr("Shown from the next start of the app."))
        self._row(form, self.tr("Lan&guage"), "language", self.language)
        lay.addWidget(general)
        lay.addWidget(self._printing(cur))

        kiosk = QGroupBox(self.tr("Kiosk"))
        kform = QFormLayout(kiosk)
        self.idle = QSpinBox()
        self.idle.setRange(1, 240)
        self.idle.setSuffix(self.tr(" min"))
        self.idle.setValue(int(cur["kiosk_idle_minutes"]))
        self.kiosk_theme = QCheckBox(self.tr("Use the kiosk theme in kiosk mode"))
        self.kiosk_theme.setChecked(bool(cur["kiosk_theme"]))
        self.new_pin = QLineEdit()
        self.new_pin.setEchoMode(QLineEdit.EchoMode.Password)
        # Short enough for the field at 1280x800 in both languages (the walk of issue 32 read "leave
        # empty to keep the current …"); the whole sentence is the tooltip.
        self.new_pin.setPlaceholderText(self.tr("leave empty to keep the PIN"))
        self.new_pin.setToolTip(self.tr("leave empty to keep the current PIN"))
        self.confirm_pin = QLineEdit()
        self.confirm_pin.setEchoMode(QLineEdit.EchoMode.Password)
        self._row(kform, self.tr("&Lock after"), "kiosk_idle_minutes", self.idle)
        self._row(kform, self.tr("Kiosk t&heme"), "kiosk_theme", self.kiosk_theme)
        self._row(kform, self.tr("New admin P&IN"), "new_pin", self.new_pin)
        self._row(kform, self.tr("&Confirm PIN"), "confirm_pin", self.confirm_pin)
        lay.addWidget(kiosk)

        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.hide()
        lay.addWidget(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        # Alt+S is Save (no field label takes the S); Esc cancels.
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setText(self.tr("&Save"))
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.saved: dict[str, str | int | bool] | None = None

    def _printing(self, cur: dict[str, str | int | bool]) -> QGroupBox:
        """The desk's label printer, label format and document printer (kept in station.ini)."""
        box = QGroupBox(self.tr("Printing"))
        form = QFormLayout(box)
        names = system_printers()
        self.label_printer = self._printer_choice(names, str(cur["label_printer"]))
        self.label_format = QComboBox()
        for value in LABEL_FORMATS:
            self.label_format.addItem(format_name(value), value)
        self.label_format.setCurrentIndex(max(0, self.label_format.findData(cur["label_format"])))
        self.document_printer = self._printer_choice(names, str(cur["document_printer"]))
        self._row(form, self.tr("La&bel printer"), "label_printer", self.label_printer)
        self._row(form, self.tr("Label &format"), "label_format", self.label_format)
        self._row(form, self.tr("&Document printer"), "document_printer", self.document_printer)
        return box

    def _printer_choice(self, names: list[str], current: str) -> QComboBox:
        combo = QComboBox()
        combo.addItem(self.tr("System default printer"), SYSTEM_DEFAULT)
        combo.addItem(self.tr("Save as PDF file"), SAVE_AS_PDF)
        for name in names:
            combo.addItem(name, name)
        if combo.findData(current) < 0:  # a printer that is away now stays chosen, and says so
            combo.addItem(self.tr("{value} (not found)").format(value=current), current)
        combo.setCurrentIndex(combo.findData(current))
        return combo

    def _row(self, form: QFormLayout, label: str, name: str, widget: QWidget) -> None:
        widget.setAccessibleName(label.replace("&", ""))
        box, err = with_error(widget)
        lbl = QLabel(label)
        lbl.setBuddy(widget)
        form.addRow(lbl, box)
        self.errors[name] = err

    def values(self) -> dict[str, str | int | bool]:
        return {
            "platform_url": self.platform_url.text(),
            "station_name": self.station_name.text(),
            "theme": self.theme.currentData(),
            "scanner_suffix": self.scanner_suffix.currentData(),
            "sound": self.sound.isChecked(),
            "kiosk_idle_minutes": self.idle.value(),
            "kiosk_theme": self.kiosk_theme.isChecked(),
            "language": self.language.currentData(),
            "label_printer": self.label_printer.currentData(),
            "label_format": self.label_format.currentData(),
            "document_printer": self.document_printer.currentData(),
            "new_pin": self.new_pin.text(),
        }

    def save(self) -> None:
        from pydantic import ValidationError

        from services.core.errors import ValidationFailed, validation_details
        from services.core.station import StationSettings

        for err in self.errors.values():
            err.clear()
        raw = self.values()
        try:
            parsed = StationSettings.model_validate(raw)
        except ValidationError as exc:
            messages = field_messages(ValidationFailed("invalid settings", validation_details(exc)))
            for name, msg in messages.items():
                if name in self.errors:
                    self.errors[name].show_error(msg)
            self._fit()
            return
        if parsed.new_pin and parsed.new_pin != self.confirm_pin.text():
            self.errors["confirm_pin"].show_error(self.tr("The two PINs differ."))
            self._fit()
            return
        data = parsed.model_dump()
        pin = data.pop("new_pin")
        for key, value in data.items():
            self.prefs.set(key, value)
        if pin:
            self.prefs.set_pin(pin)
        self.prefs.sync()
        self.saved = data
        self.accept()

    def _fit(self) -> None:
        """Lay out again at once and grow to hold the error lines just shown."""
        lay = self.layout()
        if lay is None:
            return
        lay.activate()
        # Not adjustSize(): it caps a window at 2/3 of the screen, and at 800 px high the error
        # lines then overlap the next field.
        need = lay.totalHeightForWidth(self.width()) if lay.hasHeightForWidth() else lay.totalSizeHint().height()
        self.resize(self.width(), max(need, lay.totalMinimumSize().height()))

    def show_error(self, message: str) -> None:
        set_role(self.message, "message-error")
        self.message.setText(message)
        self.message.show()
