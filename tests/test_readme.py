"""The README's Python snippet runs as written (issue 16: it used ``informal`` and
``candidates`` without defining them), and says what it does."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_snippet_runs_as_is(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    ns: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), ns)  # noqa: S102 - our own documentation
    assert ns["v"].status == "equivalent"
    r = ns["r"]
    assert r.classes == [[0, 2], [1], [3]]
    assert r.selected == [0, 2, 1]  # the comments in the snippet
    assert capsys.readouterr().out.startswith("EQUIVALENT under sae")
