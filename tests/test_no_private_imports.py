"""No module imports another module's private name (``from x import _name``): a name used
across modules is public, documented and kept; a private one may change without notice."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("provers", "rerank", "embeddings")


def private_imports(root: Path = ROOT) -> list[str]:
    out = []
    for pkg in PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    if node.module.split(".")[0] not in PACKAGES:
                        continue
                    for alias in node.names:
                        if alias.name.startswith("_") and not alias.name.startswith("__"):
                            out.append(f"{path.relative_to(root)}:{node.lineno}: from {node.module} import {alias.name}")
    return out


def test_no_private_name_is_imported_across_modules():
    assert private_imports() == []


def test_the_scan_finds_a_private_import(tmp_path):
    (tmp_path / "rerank").mkdir()
    (tmp_path / "rerank" / "m.py").write_text("from rerank.batch import _check_record\n")
    for pkg in ("provers", "embeddings"):
        (tmp_path / pkg).mkdir()
    assert private_imports(tmp_path) == ["rerank/m.py:1: from rerank.batch import _check_record"]
