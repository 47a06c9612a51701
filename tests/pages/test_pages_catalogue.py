"""The pages' strings: every one extracted from the code and templates has a German translation."""

from __future__ import annotations

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from services.core import pages as P


def test_every_string_of_the_pages_is_translated_to_german() -> None:
    root = P.RESOURCES.parent
    with (P.LOCALES / "babel.cfg").open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    found = {msg for _file, _line, msg, _c, _ctx in extract_from_dir(str(root), method_map, options_map)}
    assert "Contact support" in found  # the extraction did read the templates
    with (P.LOCALES / "de" / "LC_MESSAGES" / "pages.po").open("rb") as fh:
        de = {m.id: m.string for m in read_po(fh) if m.id}
    missing = sorted(str(m) for m in found if not de.get(m))
    assert not missing, f"add to resources/locale/de/LC_MESSAGES/pages.po: {missing}"


def test_language_and_csrf_rules() -> None:
    assert P.pick_language("fr, de;q=0.8, en;q=0.5") == "de"
    assert P.pick_language("de-AT;q=0.1, en") == "en"
    assert P.pick_language("de;q=0") == "en" and P.pick_language(None) == "en"
    token = P.new_csrf("k1")
    assert P.csrf_ok("k1", token, token)
    assert not P.csrf_ok("k2", token, token)  # made without the server's key
    assert not P.csrf_ok("k1", token, P.new_csrf("k1")) and not P.csrf_ok("k1", None, token)
    assert P.brand_of({"brand_color": "red;}</style>", "logo_url": "javascript:x"}, "T").colour == P.DEFAULT_COLOUR
    assert P.brand_of({"logo_url": "javascript:x"}, "T").logo_url is None
