"""``docs/architecture.md`` matches the tree: every module of the library is named in its map
(by file name, or by its package when the row describes the package as a whole)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def test_every_module_is_in_the_architecture_map():
    text = DOC.read_text(encoding="utf-8")
    missing = []
    for pkg in ("provers", "rerank", "embeddings"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if path.name == "__init__.py":
                continue
            rel = path.relative_to(ROOT)
            if f"`{path.name}`" in text or f"`{rel}`" in text or f"`{rel.parent}/`" in text:
                continue
            if any(f"`{p}/`" in text for p in rel.parents if str(p) not in (".", pkg)):
                continue
            missing.append(str(rel))
    assert missing == []


def test_every_module_the_map_names_exists():
    import re

    text = DOC.read_text(encoding="utf-8")
    names = {p.name for pkg in ("provers", "rerank", "embeddings", "experiments", "tests")
             for p in (ROOT / pkg).rglob("*.py")}
    named = set(re.findall(r"`(?:[\w/]*/)?(\w+\.py)`", text))
    assert named - names == set()
