"""The nine GHS pictograms (CLP Annex V) drawn as vectors of our own: a red-bordered diamond with a
black symbol on white, simplified from the official drawings so nothing is downloaded or bundled
from elsewhere. One description of shapes serves both the SVG the API answers and the reportlab
drawing in the SDS PDF, so the two never disagree."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # reportlab's graphics cost ~0.1 s of every start; only a sheet's PDF draws them
    from reportlab.graphics.shapes import Drawing

# Shapes on a 100 x 100 box, y downwards (as SVG): ("poly", [x, y, ...], fill), ("circle", cx, cy,
# r, fill), ("ellipse", cx, cy, rx, ry, fill), ("line", x1, y1, x2, y2, width), ("rect", x, y, w,
# h, fill). Fill "k" is black, "w" white.
Shape = tuple[Any, ...]
_FLAME = ("poly", [50, 22, 58, 36, 64, 30, 66, 48, 62, 62, 38, 62, 34, 50, 40, 38, 44, 44], "k")
SYMBOLS: dict[str, list[Shape]] = {
    "GHS01": [  # exploding bomb
        ("circle", 50, 58, 11, "k"),
        ("line", 50, 44, 50, 28, 3),
        ("line", 38, 46, 28, 34, 3),
        ("line", 62, 46, 72, 34, 3),
        ("line", 36, 58, 24, 58, 3),
        ("line", 64, 58, 76, 58, 3),
    ],
    "GHS02": [_FLAME, ("rect", 32, 66, 36, 5, "k")],
    "GHS03": [
        ("poly", [50, 20, 57, 32, 62, 28, 63, 42, 37, 42, 38, 32, 44, 36], "k"),
        ("circle", 50, 56, 12, "k"),
        ("circle", 50, 56, 6, "w"),
        ("rect", 32, 72, 36, 4, "k"),
    ],
    "GHS04": [("rect", 36, 34, 28, 40, "k"), ("ellipse", 50, 34, 14, 5, "k"), ("rect", 46, 26, 8, 6, "k")],
    "GHS05": [  # two tubes pouring on a bar and a hand
        ("poly", [30, 24, 38, 24, 42, 40, 34, 40], "k"),
        ("poly", [58, 24, 66, 24, 70, 40, 62, 40], "k"),
        ("circle", 36, 48, 2.5, "k"),
        ("circle", 66, 48, 2.5, "k"),
        ("rect", 26, 56, 22, 6, "k"),
        ("poly", [56, 56, 78, 56, 78, 66, 56, 66, 60, 61], "k"),
        ("rect", 22, 70, 56, 4, "k"),
    ],
    "GHS06": [  # skull and crossbones
        ("line", 28, 56, 72, 76, 5),
        ("line", 72, 56, 28, 76, 5),
        ("circle", 50, 40, 15, "k"),
        ("rect", 42, 48, 16, 10, "k"),
        ("circle", 44, 39, 4, "w"),
        ("circle", 56, 39, 4, "w"),
    ],
    "GHS07": [("poly", [45, 26, 55, 26, 53, 60, 47, 60], "k"), ("circle", 50, 69, 5, "k")],
    "GHS08": [  # bust with a star on the chest
        ("circle", 50, 30, 9, "k"),
        ("poly", [30, 76, 32, 50, 42, 42, 58, 42, 68, 50, 70, 76], "k"),
        ("poly", [50, 50, 53, 58, 61, 58, 55, 63, 57, 71, 50, 66, 43, 71, 45, 63, 39, 58, 47, 58], "w"),
    ],
    "GHS09": [  # dead tree and fish
        ("line", 36, 30, 36, 66, 3),
        ("line", 36, 42, 26, 34, 2.5),
        ("line", 36, 48, 46, 38, 2.5),
        ("rect", 22, 66, 56, 3, "k"),
        ("ellipse", 60, 74, 10, 4.5, "k"),
        ("poly", [70, 74, 77, 69, 77, 79], "k"),
    ],
}
CODES = tuple(sorted(SYMBOLS))
_DIAMOND = [50, 3, 97, 50, 50, 97, 3, 50]
_RED = "#e30613"


@cache
def svg(code: str) -> str:
    """The pictogram as a standalone SVG document (KeyError for an unknown code)."""
    shapes = SYMBOLS[code]
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">',
        f"<title>{code}</title>",
        f'<polygon points="{_pts(_DIAMOND)}" fill="#fff" stroke="{_RED}" stroke-width="6" stroke-linejoin="round"/>',
    ]
    for s in shapes:
        kind, fill = s[0], "#000" if s[-1] == "k" else "#fff"
        if kind == "poly":
            parts.append(f'<polygon points="{_pts(s[1])}" fill="{fill}"/>')
        elif kind == "circle":
            parts.append(f'<circle cx="{s[1]}" cy="{s[2]}" r="{s[3]}" fill="{fill}"/>')
        elif kind == "ellipse":
            parts.append(f'<ellipse cx="{s[1]}" cy="{s[2]}" rx="{s[3]}" ry="{s[4]}" fill="{fill}"/>')
        elif kind == "rect":
            parts.append(f'<rect x="{s[1]}" y="{s[2]}" width="{s[3]}" height="{s[4]}" fill="{fill}"/>')
        elif kind == "line":
            parts.append(
                f'<line x1="{s[1]}" y1="{s[2]}" x2="{s[3]}" y2="{s[4]}" stroke="#000" stroke-width="{s[5]}" '
                'stroke-linecap="round"/>'
            )
    parts.append("</svg>")
    return "".join(parts)


def _pts(flat: Sequence[float]) -> str:
    return " ".join(f"{flat[i]},{flat[i + 1]}" for i in range(0, len(flat), 2))


def drawing(code: str, size: float) -> Drawing:
    """The pictogram as a reportlab vector drawing ``size`` points wide."""
    from reportlab.graphics.shapes import Circle, Drawing, Ellipse, Line, Polygon, Rect
    from reportlab.lib import colors

    k = size / 100

    def y(v: float) -> float:
        return (100 - v) * k

    def flip(flat: Sequence[float]) -> list[float]:
        return [flat[i] * k if i % 2 == 0 else y(flat[i]) for i in range(len(flat))]

    d = Drawing(size, size)
    d.add(
        Polygon(
            flip(_DIAMOND),
            fillColor=colors.white,
            strokeColor=colors.HexColor(_RED),
            strokeWidth=6 * k,
            strokeLineJoin=1,
        )
    )
    for s in SYMBOLS[code]:
        kind, fill = s[0], colors.black if s[-1] == "k" else colors.white
        if kind == "poly":
            d.add(Polygon(flip(s[1]), fillColor=fill, strokeColor=None))
        elif kind == "circle":
            d.add(Circle(s[1] * k, y(s[2]), s[3] * k, fillColor=fill, strokeColor=None))
        elif kind == "ellipse":
            d.add(Ellipse(s[1] * k, y(s[2]), s[3] * k, s[4] * k, fillColor=fill, strokeColor=None))
        elif kind == "rect":
            d.add(Rect(s[1] * k, y(s[2] + s[4]), s[3] * k, s[4] * k, fillColor=fill, strokeColor=None))
        elif kind == "line":
            d.add(Line(s[1] * k, y(s[2]), s[3] * k, y(s[4]), strokeColor=colors.black, strokeWidth=s[5] * k))
    return d
