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


def code128_image(value: str, *, module_width: float = 0.4, height_mm: float = 22.0) -> Image.Image:
    writer = ImageWriter()
    code = barcode.get("code128", value, writer=writer)
    buf = io.BytesIO()
    code.write(
        buf,
        options={
            "module_width": module_width,
            "module_height": height_mm,
            "dpi": DPI,
            "write_text": False,
            "quiet_zone": 4,
        },
    )
    buf.seek(0)
    return Image.open(buf).convert("L")


def label_image(title: str, lines: list[str], barcode_value: str) -> Image.Image:
    img = Image.new("L", (WIDTH, HEIGHT), 255)
    draw = ImageDraw.Draw(img)
    draw.rectangle((8, 8, WIDTH - 9, HEIGHT - 9), outline=0, width=4)
    draw.text((30, 30), title, font=_font(54), fill=0)
    y = 120
    for line in lines:
        draw.text((30, y), line, font=_font(34), fill=0)
        y += 48
    bc = code128_image(barcode_value)
    if bc.width > WIDTH - 40:
        bc = bc.resize((WIDTH - 40, bc.height))
    top = HEIGHT - bc.height - 110
    img.paste(bc, ((WIDTH - bc.width) // 2, top))
    text_font = _font(40)
    tw = draw.textlength(barcode_value, font=text_font)
    draw.text(((WIDTH - tw) / 2, top + bc.height + 20), barcode_value, font=text_font, fill=0)
    return img


def label_pdf(title: str, lines: list[str], barcode_value: str) -> bytes:
    """A one-page 4x6 inch PDF."""
    out = io.BytesIO()
    # Bilevel (CCITT G4 in the PDF): lossless bars, as a thermal printer prints them; JPEG would blur them.
    bilevel = label_image(title, lines, barcode_value).point(lambda v: 255 if v > 127 else 0).convert("1")
    bilevel.save(out, "PDF", resolution=DPI)
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
