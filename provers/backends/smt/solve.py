"""One solver call, start to finish: lower, emit, check, read the model back, validate it.

Runs inside a worker process (``provers.backends.smt.pool``), so a crash, hang or memory blow-up of
a solver (or of the evaluator on a huge model) never reaches the caller. A ``sat`` answer
becomes ``Refuted`` only when the exact evaluator confirms, on the ORIGINAL obligation, that
the model falsifies it; everything else is ``Unknown("spurious model: ...")``.
"""

from __future__ import annotations

import time
from typing import Any

from provers.backends.base import ProofResult, Proved, Refuted, Unknown
from provers.backends.smt.core import Unsupported, core_sort
from provers.backends.smt.emit import (
    VARIABLE,
    Cvc5Emitter,
    Emitter,
    Untranslatable,
    Z3Emitter,
    is_array_fun,
    walk_literals,
)
from provers.backends.smt.lower import (
    Lowered,
    complex_fun_parts,
    complex_parts,
    is_complex_fun,
    lower_obligation,
)
from provers.ir import BOOL, COMPLEX, REAL, FunSort, OpaqueSort, SetSort, Sort, Term, Var
from provers.semantics import ExactComplex, FunTable, Opaque, decide

SOLVERS = ("z3", "cvc5")
#: Lowering symbols for values Isabelle leaves unspecified -> their evaluator table name.
_UNSPECIFIED = {"%ln_neg": "@ln", "%arcsin_out": "@arcsin", "%arccos_out": "@arccos"}
#: Candidate models tried per call before answering "spurious model".
MAX_MODELS = 4


def _emitter(name: str) -> Emitter:
    if name == "z3":
        return Z3Emitter()
    if name == "cvc5":
        return Cvc5Emitter()
    raise ValueError(f"unknown solver {name!r}; expected one of {SOLVERS}")


def solve(name: str, obligation: Term, timeout: float, fold: bool = True) -> ProofResult:
    """Decide validity of ``obligation`` with solver ``name`` within ``timeout`` seconds.

    ``fold=False`` skips constant folding by the evaluator (to test the encodings alone).
    """
    t0 = time.monotonic()

    def took() -> float:
        return time.monotonic() - t0

    try:
        lowered = lower_obligation(obligation, fold=fold)
    except Unsupported as e:
        return Unknown(f"unsupported: {e.what}", name, took())
    em = _emitter(name)
    Z = em.Z
    try:
        s = em.solver(int(timeout * 1000), lowered)
        for f in lowered.facts:
            s.add(em.emit(f))
        s.add(Z.Not(em.emit(lowered.formula)))
    except Unsupported as e:
        return Unknown(f"unsupported: {e.what}", name, took())
    r = s.check()
    if r == Z.unsat:
        return Proved(name, took(), "unsat")
    if r != Z.sat:
        why = ""
        try:
            why = str(s.reason_unknown())
        except Exception:  # noqa: BLE001 - not every API version has it
            why = "unknown"
        if took() >= timeout * 0.95 or "timeout" in why or "canceled" in why:
            why = f"timeout after {timeout:g}s ({why})"
        return Unknown(why or "unknown", name, took())
    # A model is only a candidate: validate it; if it is spurious, block its values of the
    # outer variables and ask again (a few times, within the time budget).
    why_spurious = ""
    for _attempt in range(MAX_MODELS):
        model = s.model()
        try:
            env = read_model(em, model, lowered)
            d = decide(lowered.body, env)
            if d.exact and d.value is False:
                return Refuted(env, name, took())
            if d.value is None:
                why_spurious = f"evaluator undecided ({d.reason})"
            elif not d.exact:
                why_spurious = "falsity only approximate"
            else:
                why_spurious = "the obligation holds under the model"
        except Untranslatable as e:
            why_spurious = f"not exact ({e})"
        remaining = timeout - took()
        block = []
        for c in em.consts.values():
            if c.sort() in _SCALAR(Z):
                v = model.eval(c, model_completion=True)
                # cvc5 aborts on asserted algebraic (witness) terms; z3 takes them
                if Z.is_int_value(v) or Z.is_rational_value(v) or Z.is_true(v) or Z.is_false(v) or (
                    name == "z3" and Z.is_algebraic_value(v)
                ):
                    block.append(c != v)
        if remaining < 0.05 or not block:
            break
        s.add(Z.Or(*block) if len(block) > 1 else block[0])
        _set_timeout(s, name, remaining)
        if s.check() != Z.sat:
            break
    return Unknown(f"spurious model: {why_spurious}", name, took())


def _SCALAR(Z: Any) -> tuple:
    return (Z.IntSort(), Z.RealSort(), Z.BoolSort())


def _set_timeout(s: Any, name: str, seconds: float) -> None:
    ms = max(1, int(seconds * 1000))
    if name == "z3":
        s.set("timeout", ms)
    else:
        s.setOption("tlimit-per", ms)


def read_model(em: Emitter, model: Any, lowered: Lowered) -> dict[str, Any]:
    """Model → IR values by variable name; user symbols as tables by symbol name."""
    env: dict[str, Any] = {}
    Z = em.Z
    for v in lowered.consts:
        s = v.sort
        if is_complex_fun(s):
            env[v.name] = _complex_table(em, model, v)
            continue
        if isinstance(s, FunSort) and is_array_fun(core_sort(s)):
            c = em.consts.get((v.name, core_sort(s)))
            cs = core_sort(s)
            env[v.name] = (
                FunTable({}, _default(s.result)) if c is None
                else em.array_table(model, c, cs.args[0], cs.result)  # type: ignore[attr-defined]
            )
            continue
        if isinstance(s, FunSort):
            key = (VARIABLE, v.name, tuple(core_sort(a) for a in s.args), core_sort(s.result))
            decl = em.funcs.get(key)
            if decl is None:
                env[v.name] = FunTable({}, _default(s.result))
            else:
                env[v.name] = em.table(model, decl, key[2], key[3])
            continue
        if isinstance(s, SetSort):
            c = em.consts.get((v.name, core_sort(s)))
            env[v.name] = frozenset() if c is None else _read_set(em, model, c, core_sort(s.elem))
            continue
        if s == COMPLEX:
            parts = []
            for pv in complex_parts(v):
                c = em.consts.get((pv.name, REAL))
                parts.append(0 if c is None else em.value(model.eval(c, model_completion=True), REAL))
            env[v.name] = ExactComplex(parts[0], parts[1])
            continue
        c = em.consts.get((v.name, core_sort(s)))
        if c is None:
            env[v.name] = _default(s)
        else:
            env[v.name] = em.value(model.eval(c, model_completion=True), core_sort(s))
    const_names = {v.name for v in lowered.consts}
    seen: dict[str, int] = {}
    for (kind, name, args, result), decl in em.funcs.items():
        if kind == VARIABLE:
            continue
        if name in _UNSPECIFIED:
            env[_UNSPECIFIED[name]] = em.table(model, decl, args, result)
            continue
        if name.startswith("%"):
            continue
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1 or name in const_names:
            # the evaluator looks symbols and variables up by name: never let one stand for
            # the other (the engine renames variables apart from symbols; this is a backstop)
            raise Untranslatable(f"symbol {name} used at two signatures or as a variable name")
        if not args:
            env[name] = em.value(model.eval(decl, model_completion=True), result)
        else:
            env[name] = em.table(model, decl, args, result)
    del Z
    return env


def _complex_table(em: Emitter, model: Any, f: Var) -> FunTable:
    """Tables of f.re and f.im (over the real parts) combined into a table of f."""
    assert isinstance(f.sort, FunSort)
    parts = []
    for pv in complex_fun_parts(f):
        fs = pv.sort
        key = (VARIABLE, pv.name, fs.args, fs.result)  # type: ignore[attr-defined]
        decl = em.funcs.get(key)
        parts.append(FunTable({}, 0) if decl is None else em.table(model, decl, key[2], key[3]))
    re_t, im_t = parts

    def regroup(flat: tuple) -> tuple:
        out, i = [], 0
        for a in f.sort.args:  # type: ignore[attr-defined]
            if a == COMPLEX:
                out.append(ExactComplex(flat[i], flat[i + 1]))
                i += 2
            else:
                out.append(flat[i])
                i += 1
        return tuple(out)

    entries = {regroup(k): ExactComplex(re_t(*k), im_t(*k)) for k in set(re_t.entries) | set(im_t.entries)}
    return FunTable(entries, ExactComplex(re_t.default, im_t.default))


def _read_set(em: Emitter, model: Any, arr: Any, elem: Any) -> frozenset:
    Z = em.Z
    val = model.eval(arr, model_completion=True)
    lits: list[Any] = []
    walk_literals(Z, val, lits)
    cs = em.sort(elem)
    members = set()
    pts = {str(x): x for x in lits if x.sort() == cs}
    for p in pts.values():
        if Z.is_true(model.eval(Z.Select(arr, p), model_completion=True)):
            members.add(em.value(p, elem))
    out = em.outside(elem, list(pts.values()))
    if Z.is_true(model.eval(Z.Select(arr, out), model_completion=True)):
        raise Untranslatable("set model is not finite")
    return frozenset(members)


def _default(s: Sort) -> Any:
    """The value of a variable the solver never mentioned (any value will do)."""
    if s == BOOL:
        return False
    if isinstance(s, OpaqueSort):
        return Opaque(s.name, 0)
    return 0


__all__ = ["SOLVERS", "read_model", "solve"]
