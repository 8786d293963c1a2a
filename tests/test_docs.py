"""The README and docs/: the README stays a short manual (detail goes to docs/), every link inside
the repository leads somewhere, and the prose names the rule systems rather than the rulebook
texts' numbers (those stay only in the contract's copy)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
README_MOST = 15_000  # bytes: "at most 15 KB", read strictly
CONTRACT_COPY = ("\n## The contract\n", "\n## What Skill Check adds\n")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    found: set[str] = set()
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            name = slug(line.lstrip("#"))
            count = sum(1 for a in found if a == name or re.fullmatch(rf"{re.escape(name)}-\d+", a))
            found.add(f"{name}-{count}" if count else name)
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_inside_the_repository_leads_somewhere(doc):
    for target in (link or image for link, image in LINK.findall(doc.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (doc.parent / path).resolve() if path else doc
        assert linked.exists(), f"{doc.name}: {target} is missing"
        if anchor:
            assert anchor in anchors(linked), f"{doc.name}: {target} names no heading"


def test_the_readme_is_a_short_manual():
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_MOST, f"README.md is {size} bytes: move detail into docs/"


def test_the_slug_is_githubs():
    assert slug(" Card flip (`flip`)") == "card-flip-flip"
    assert slug("Secret difficulty — GM") == "secret-difficulty--gm"
    assert slug("The package's description of itself") == "the-packages-description-of-itself"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_prose_names_systems_not_rulebook_numbers(doc):
    text = doc.read_text(encoding="utf-8")
    if doc.name == "contract.md":  # the contract's own words are copied as they are
        start, end = (text.index(marker) for marker in CONTRACT_COPY)
        text = text[:start] + text[end:]
    assert not re.findall(r"\bseeds? 00\d", text, re.IGNORECASE)
