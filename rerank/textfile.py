"""Reading a user's text file for the command line: one clear error line, never a traceback.

Why: a directory, a missing file or a file that is not UTF-8 given to ``select``, ``equiv`` or
``perturb`` used to end in ``IsADirectoryError`` / ``UnicodeDecodeError`` tracebacks.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["read_text"]


def read_text(source: str | Path) -> str:
    """The UTF-8 text of file ``source`` (``-``: stdin); ``ValueError`` with a one-line
    reason naming the file otherwise (missing, a directory, unreadable, not UTF-8)."""
    if str(source) == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        name = "standard input"
    else:
        path = Path(source)
        name = str(path)
        if not path.exists():
            raise ValueError(f"input file {name} does not exist")
        if path.is_dir():
            raise ValueError(f"{name} is a directory, not a file")
        try:
            data = path.read_bytes()
        except OSError as e:
            raise ValueError(f"cannot read {name}: {e.strerror or e}") from None
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ValueError(
            f"{name} is not UTF-8 text (byte 0x{data[e.start]:02x} at line {line}, "
            f"byte offset {e.start}); save it as UTF-8"
        ) from None
