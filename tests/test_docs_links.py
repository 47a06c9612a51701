"""Every relative link in README.md and docs/*.md leads to a file of the repository
(and, for a ``#heading`` of a Markdown file, to a heading that exists)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REF = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def links(text: str) -> list[str]:
    """Link targets outside code blocks and code spans (inline and reference links, images)."""
    text = _CODE.sub("", _FENCE.sub("", text))
    return _LINK.findall(text) + _REF.findall(text)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    return {slug(h) for h in _HEADING.findall(_FENCE.sub("", text))}


def broken(text: str, folder: Path, root: Path = ROOT) -> list[str]:
    """The links of a page in ``folder`` that lead nowhere in the repository at ``root``."""
    out = []
    for target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
            continue
        path_part, _, fragment = target.partition("#")
        dest = (folder / unquote(path_part)).resolve() if path_part else None
        if dest is not None and root.resolve() not in dest.parents:
            out.append(f"{target} (outside the repository)")
        elif dest is not None and not dest.exists():
            out.append(f"{target} (no such file)")
        elif fragment and (dest is None or dest.suffix == ".md"):
            heads = anchors(text if dest is None else dest.read_text())
            if fragment not in heads:
                out.append(f"{target} (no such heading)")
    return out


def test_every_relative_link_resolves_inside_the_repository() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    problems = {str(p.relative_to(ROOT)): b for p in pages if (b := broken(p.read_text(), p.parent))}
    assert problems == {}


def test_the_check_finds_what_is_wrong() -> None:
    sample = (
        "# Top\n[a](ARCHITECTURE.md) [b](../../shared/ARCHITECTURE.md) [c](nowhere.md)\n"
        "[d](DECISIONS.md#no-such) [e](DECISIONS.md#addresses) `[f](in-code.md)` [g](https://example.com)\n"
        "![h](screenshots/login.png) [i](#top) [j](#bottom)\n\n```\n[k](in-a-block.md)\n```\n"
    )
    assert broken(sample, ROOT / "docs") == [
        "../../shared/ARCHITECTURE.md (outside the repository)",
        "nowhere.md (no such file)",
        "DECISIONS.md#no-such (no such heading)",
        "#bottom (no such heading)",
    ]
    assert slug("The inspection bench (views/inspection/)") == "the-inspection-bench-viewsinspection"
