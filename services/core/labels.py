"""Shipping and kit labels: 4x6 inch PDF (203 dpi, Code 128) and ZPL for thermal printers."""

from __future__ import annotations

import io

import barcode
from barcode.writer import ImageWriter
from PIL import Image, ImageDraw, ImageFont

DPI = 203  # the common thermal-printer resolution
WIDTH, HEIGHT = 4 * DPI, 6 * DPI


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for name in ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def code128_image(value: str, *, module_width: float = 0.4, height_mm: float = 22.0, dpi: int = DPI) -> Image.Image:
    writer = ImageWriter()
    code = barcode.get("code128", value, writer=writer)
    buf = io.BytesIO()
    code.write(
        buf,
        options={
            "module_width": module_width,
            "module_height": height_mm,
            "dpi": dpi,
            "write_text": False,
            "quiet_zone": 4,
        },
    )
    buf.seek(0)
    return Image.open(buf).convert("L")


# The pages a label is made for: width, height (mm) and the printer resolution it is drawn at. 62 mm is
# the continuous roll of small label printers (300 dpi), cut at the label's own 2:3 length.
LABEL_SIZES: dict[str, tuple[float, float, int]] = {
    "4x6in": (101.6, 152.4, DPI),
    "100x150mm": (100.0, 150.0, DPI),
    "62mm": (62.0, 93.0, 300),
}


def _fitting_code128(value: str, width_px: int, height_mm: float, dpi: int) -> Image.Image:
    """The widest bars that fit, in whole printer dots per module: a bar never falls between dots,
    which is what keeps a barcode readable on a small label (a resized one is not)."""
    dots = int(0.4 * dpi / 25.4)  # 0.4 mm modules when they fit (3 dots at 203 dpi)
    for n in range(max(dots, 1), 0, -1):
        bc = code128_image(value, module_width=n * 25.4 / dpi + 1e-6, height_mm=height_mm, dpi=dpi)
        if bc.width <= width_px:
            return bc
    return bc.resize((width_px, bc.height))  # longer than any label: squeezed rather than cut


def label_image(title: str, lines: list[str], barcode_value: str, size: str = "4x6in") -> Image.Image:
    """The label on a page of ``size`` (LABEL_SIZES): the 4x6 in layout scaled to the page, the
    barcode drawn at the page's own resolution."""
    w_mm, h_mm, dpi = LABEL_SIZES[size]
    width, height = round(w_mm / 25.4 * dpi), round(h_mm / 25.4 * dpi)
    k = width / WIDTH  # from the 4x6 in layout at 203 dpi to this page's dots

    def px(v: float) -> int:
        return max(1, round(v * k))

    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    draw.rectangle((px(8), px(8), width - px(9), height - px(9)), outline=0, width=px(4))
    draw.text((px(30), px(30)), title, font=_font(px(54)), fill=0)
    y = px(120)
    for line in lines:
        draw.text((px(30), y), line, font=_font(px(34)), fill=0)
        y += px(48)
    bc = _fitting_code128(barcode_value, width - px(40), 22.0 * w_mm / 101.6, dpi)
    top = height - bc.height - px(110)
    img.paste(bc, ((width - bc.width) // 2, top))
    text_font = _font(px(40))
    tw = draw.textlength(barcode_value, font=text_font)
    draw.text(((width - tw) / 2, top + bc.height + px(20)), barcode_value, font=text_font, fill=0)
    return img


def label_pdf(title: str, lines: list[str], barcode_value: str, size: str = "4x6in") -> bytes:
    """A one-page PDF of the label on a page of ``size`` (4x6 in unless asked)."""
    out = io.BytesIO()
    # Bilevel (CCITT G4 in the PDF): lossless bars, as a thermal printer prints them; JPEG would blur them.
    image = label_image(title, lines, barcode_value, size)
    bilevel = image.point(lambda v: 255 if v > 127 else 0).convert("1")
    bilevel.save(out, "PDF", resolution=LABEL_SIZES[size][2])
    return out.getvalue()


def _zpl_text(s: str) -> str:
    # ^ and ~ are ZPL command prefixes; keep them out of field data.
    return s.replace("^", " ").replace("~", " ")


def label_zpl(title: str, lines: list[str], barcode_value: str) -> str:
    """ZPL II for a 4x6 label at 203 dpi."""
    parts = ["^XA", "^CI28", f"^PW{WIDTH}", f"^LL{HEIGHT}", f"^FO30,30^A0N,54,54^FD{_zpl_text(title)}^FS"]
    y = 120
    for line in lines:
        parts.append(f"^FO30,{y}^A0N,34,34^FD{_zpl_text(line)}^FS")
        y += 48
    parts.append(f"^FO60,{HEIGHT - 330}^BY3^BCN,180,Y,N,N^FD{_zpl_text(barcode_value)}^FS")
    parts.append("^XZ")
    return "\n".join(parts) + "\n"
