"""Verdict cache keyed by the alpha-canonical obligation, in memory and optionally in sqlite.

Why: a batch re-asks the same obligations (the same pair under several relations, the same
statement in many candidate pools); asking a solver twice wastes seconds. Keys ignore the
names of variables, so a model stored for one naming is returned renamed for another.
Definitive answers (Proved, Refuted) are kept for good; an Unknown is only reused for a
call whose timeout is not larger than the one that produced it.
"""

from __future__ import annotations

import hashlib
import pickle
import sqlite3
import threading
from pathlib import Path
from typing import Any

from provers.backends.base import ProofResult, Proved, Refuted, Unknown
from provers.ir import Quant, Term, Var, canonical, free_vars, subterms


def const_order(obligation: Term) -> list[Var]:
    """Outer ∀ variables in binding order, then free variables by first occurrence: the
    positions a model's values are stored under."""
    out: list[Var] = []
    body = obligation
    while isinstance(body, Quant) and body.kind == "forall":
        out.extend(body.vars)
        body = body.body
    fv = free_vars(body) - set(out)
    for s in subterms(body):
        if isinstance(s, Var) and s in fv and s not in out:
            out.append(s)
    return out


def cache_key(obligation: Term, backend: str) -> str:
    text = backend + "\x00" + repr(canonical(obligation, free_prefix="_v"))
    return hashlib.sha256(text.encode()).hexdigest()


def _to_positional(result: ProofResult, names: list[str]) -> ProofResult:
    if not isinstance(result, Refuted):
        return result
    pos = {n: i for i, n in enumerate(names)}
    model = {(f"#{pos[k]}" if k in pos else k): v for k, v in result.model.items()}
    return Refuted(model, result.backend, result.time)


def _from_positional(result: ProofResult, names: list[str]) -> ProofResult:
    if not isinstance(result, Refuted):
        return result
    model = {}
    for k, v in result.model.items():
        if k.startswith("#") and k[1:].isdigit():
            model[names[int(k[1:])]] = v
        else:
            model[k] = v
    return Refuted(model, result.backend, result.time)


class VerdictCache:
    """``get(obligation, backend, timeout)`` / ``put(obligation, backend, timeout, result)``."""

    def __init__(self, path: str | Path | None = None):
        self.mem: dict[str, tuple[float, ProofResult]] = {}
        self.lock = threading.Lock()
        self.db: sqlite3.Connection | None = None
        self.hits = 0
        self.misses = 0
        # identity memo: a batch often re-asks the very same Term object
        self._recent: dict[int, tuple[Term, str, str, list[str]]] = {}
        if path is not None:
            self.db = sqlite3.connect(str(path), check_same_thread=False)
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, timeout REAL, result BLOB)"
            )
            self.db.commit()

    def _key(self, obligation: Term, backend: str) -> tuple[str, list[str]]:
        hit = self._recent.get(id(obligation))
        if hit is not None and hit[0] is obligation and hit[1] == backend:
            return hit[2], hit[3]
        key = cache_key(obligation, backend)
        names = [v.name for v in const_order(obligation)]
        if len(self._recent) > 4096:
            self._recent.clear()
        self._recent[id(obligation)] = (obligation, backend, key, names)
        return key, names

    def get(self, obligation: Term, backend: str, timeout: float) -> ProofResult | None:
        key, names = self._key(obligation, backend)
        with self.lock:
            entry = self.mem.get(key)
            if entry is None and self.db is not None:
                row = self.db.execute("SELECT timeout, result FROM verdicts WHERE key = ?", (key,)).fetchone()
                if row is not None:
                    try:
                        entry = (row[0], pickle.loads(row[1]))
                        self.mem[key] = entry
                    except Exception:  # noqa: BLE001 - a corrupt row is a miss
                        entry = None
        if entry is None or (isinstance(entry[1], Unknown) and timeout > entry[0]):
            self.misses += 1
            return None
        self.hits += 1
        return _from_positional(entry[1], names)

    def put(self, obligation: Term, backend: str, timeout: float, result: ProofResult) -> None:
        if isinstance(result, Unknown) and ("crash" in result.reason or "could not send" in result.reason):
            return  # an accident, not a property of the obligation
        key, names = self._key(obligation, backend)
        stored = _to_positional(result, names)
        with self.lock:
            old = self.mem.get(key)
            if old is not None and isinstance(result, Unknown) and not isinstance(old[1], Unknown):
                return
            self.mem[key] = (timeout, stored)
            if self.db is not None:
                self.db.execute(
                    "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?)", (key, timeout, pickle.dumps(stored))
                )
                self.db.commit()

    def clear(self) -> None:
        with self.lock:
            self.mem.clear()
            if self.db is not None:
                self.db.execute("DELETE FROM verdicts")
                self.db.commit()

    def __len__(self) -> int:
        return len(self.mem)

    def stats(self) -> dict[str, Any]:
        return {"entries": len(self.mem), "hits": self.hits, "misses": self.misses}


__all__ = ["Proved", "Refuted", "Unknown", "VerdictCache", "cache_key", "const_order"]
