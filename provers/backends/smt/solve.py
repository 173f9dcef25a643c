"""One solver call, start to finish: lower, emit, check, read the model back, validate it.

Runs inside a worker process (``provers.backends.smt.pool``), so a crash, hang or memory blow-up of
a solver (or of the evaluator on a huge model) never reaches the caller. A ``sat`` answer
becomes ``Refuted`` only when the exact evaluator confirms, on the ORIGINAL obligation, that
the model falsifies it; everything else is ``Unknown("spurious model: ...")``. A model with
irrational algebraic values (nlsat, cvc5's coverings) is re-checked by the exact field
evaluator ``algebraic.algebraic_truth`` instead (the rational evaluator has no such values).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from provers.backends.base import ProofResult, Proved, Refuted, Unknown
from provers.backends.smt.complex_pairs import complex_fun_parts, complex_parts, is_complex_fun
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
from provers.backends.smt.lower import Lowered, lower_obligation, summary_list
from provers.ir import BOOL, COMPLEX, NAT, REAL, App, FunSort, OpaqueSort, SetSort, Sort, Term, Var
from provers.semantics import PROBES, ExactComplex, FunTable, Opaque, decide, evaluate
from provers.semantics.algebraic import AlgebraicReal, algebraic_truth
from provers.semantics.approx import is_approx
from provers.semantics.values import Undetermined, Witness

SOLVERS = ("z3", "cvc5")
#: Lowering symbols for values Isabelle leaves unspecified -> their evaluator table name.
_UNSPECIFIED = {"%ln_neg": "@ln", "%arcsin_out": "@arcsin", "%arccos_out": "@arccos"}
#: Candidate models tried per call before answering "spurious model".
MAX_MODELS = 4
#: The question asked again with the quantifiers' facts conjoined (``_other_questions``) gets
#: at most this many seconds (no other question is asked with less than ``MIN_OTHER_SECONDS``
#: left): on the 30 median MATH problems' solver calls every proof it gave came within
#: 0.09 s, while the questions it does not settle run to their limit (asked that way first,
#: 7 calls that got a quick spurious model ran into their time limit instead).
CONSTRAINED_SECONDS = 0.03
MIN_OTHER_SECONDS = 0.02
#: The question asked again with an asserted ∃'s variables as constants gets at most this
#: many seconds (``_other_questions``; not tuned: it decided one pair on 64 MATH problems).
WITNESSED_SECONDS = 0.1
#: Evaluator obstacles that another model of the same call does not get past: a spurious
#: model undecided for one of these reasons ends the search for models at once. Blocking a
#: model changes only the scalar constants, while these come from the obligation's shape (a
#: symbol without a table, a set known only by membership, ∀ over ℝ, LEAST over ℝ) or from a
#: value the negated obligation needs (``ln`` at x ≤ 0). Measured on the z3 calls of 134
#: MATH problems: of the 224 calls that asked again after such a first model, none got a
#: validated one (after other spurious first models: 25 of 321), for ~15 % of z3's time
#: (docs/benchmarks.md, stop 34).
MODEL_INDEPENDENT = re.compile(
    r"uninterpreted symbol \S+ has no table"
    r"|LEAST/GREATEST over a sort other than"
    r"|(LEAST|GREATEST) over an unbounded domain of"
    r"|(LEAST|GREATEST) over \S+ of a predicate that is not polynomial in"
    r"|Isabelle ln is unspecified"
    r"|.* is not a known finite set"
    r"|equality of functions given by lambdas"
    r"|∀ over an unbounded domain"
    r"|table of .* looked up at an approximate point"
)


class CANCEL:
    """Set by the worker's SIGINT handler (``pool``): the caller no longer wants this job.

    ``received`` counts the worker's SIGINTs and ``base`` is the count the pool had sent
    before the job in flight: only a stop sent after the job counts for it (one that arrives
    late, after its own job was answered, would otherwise cancel the next). ``lock`` orders
    the worker's switch to its next job with ``pool``'s z3 interrupter."""

    requested = False
    received = 0
    base = 0
    lock = threading.Lock()


class PHASE:
    """The worker's hook (``pool``): ``report(kind, seconds)`` tells the pool that a check
    starts (``"check"``, its time limit) or has answered (``"checked"``, the time left for
    reading and validating its model), so that the pool waits past a solver's own limit only
    while an answer is on its way. None in-process."""

    report: Callable[[str, float], None] | None = None


def _phase(kind: str, seconds: float) -> None:
    if PHASE.report is not None:
        PHASE.report(kind, seconds)


def _canceled(name: str, took: float) -> Unknown:
    return Unknown("canceled: another solver answered", name, took)


def _emitter(name: str) -> Emitter:
    if name == "z3":
        return Z3Emitter()
    if name == "cvc5":
        return Cvc5Emitter()
    raise ValueError(f"unknown solver {name!r}; expected one of {SOLVERS}")


def solve(name: str, obligation: Term, timeout: float, fold: bool = True) -> ProofResult:
    """Decide validity of ``obligation`` with solver ``name`` within ``timeout`` seconds.

    ``fold=False`` skips constant folding by the evaluator (to test the encodings alone).
    An answer that is not definitive is asked again in other forms of the same question
    (``_other_questions``), each for a short time, while time is left.
    """
    t0 = time.monotonic()

    def took() -> float:
        return time.monotonic() - t0

    try:
        lowered = lower_obligation(obligation, fold=fold)
    except Unsupported as e:
        return Unknown(f"unsupported: {e.what}", name, took())
    result = _ask(name, lowered, timeout)
    for form, seconds in _other_questions(lowered, result):
        left = timeout - took()
        if left <= MIN_OTHER_SECONDS or CANCEL.requested:
            break
        try:
            other = lower_obligation(obligation, fold=fold, **form)
        except Unsupported:
            continue
        again = _ask(name, other, min(left, seconds))
        if isinstance(again, Refuted) or (isinstance(again, Proved) and not form.get("integral_exponents")):
            result = again  # a restricted question's unsat proves nothing
            break
    # the call's whole time, the other questions included
    return replace(result, time=took())


def _other_questions(lowered: Lowered, result: ProofResult) -> list[tuple[dict[str, bool], float]]:
    """The other forms of a question whose first answer was not definitive, with their time
    limits: (``lower_obligation`` options, seconds).

    * Where a quantifier the negated obligation asserts had facts the solver could make false
      (``Lowered.constrainable``): those facts conjoined, for ``CONSTRAINED_SECONDS``.
    * Where a model was spurious for want of a witness of an ∃ over an unbounded domain and
      the negated obligation asserts such an ∃ outside binders (``Lowered.witnessable``): its
      variables as constants, whose model values the evaluator probes first, for
      ``WITNESSED_SECONDS``. Asked that way first, it cost three decisions on 64 MATH
      problems (the solvers search differently) for two it made.
    * Where a model was spurious and a numeral's power has a symbolic exponent (``10 powr
      b``): the exponents restricted to integers, where the power is known exactly
      (``Lowered.real_exponents``), for ``WITNESSED_SECONDS`` — models only: its unsat is
      no proof."""
    if not isinstance(result, Unknown) or result.reason.startswith(("unsupported", "canceled")):
        return []
    out = []
    if lowered.constrainable:
        out.append(({"constrain_facts": True}, CONSTRAINED_SECONDS))
    if lowered.witnessable and result.satisfiable and "∃ over an unbounded domain" in result.reason:
        out.append(({"witness_existentials": True}, WITNESSED_SECONDS))
    if lowered.real_exponents and result.satisfiable and result.reason.startswith("spurious model"):
        out.append(({"integral_exponents": True}, WITNESSED_SECONDS))
    return out


def _ask(name: str, lowered: Lowered, timeout: float) -> ProofResult:
    """One question to the solver: is ``facts ∧ ¬formula`` unsatisfiable, or has it a model
    the exact evaluator confirms?"""
    t0 = time.monotonic()

    def took() -> float:
        return time.monotonic() - t0

    em = _emitter(name)
    try:
        s = em.solver(int(timeout * 1000), lowered)
        for f in lowered.facts:
            s.add(em.emit(f))
        s.add(em.Z.Not(em.emit(lowered.formula)))
    except Unsupported as e:
        return Unknown(f"unsupported: {e.what}", name, took())
    if CANCEL.requested:
        return _canceled(name, took())
    _phase("check", timeout)
    r = s.check()
    _phase("checked", max(timeout - took(), 0.0))
    if r == em.Z.unsat:
        return Proved(name, took(), "unsat")
    if r != em.Z.sat:
        return Unknown(_why_unknown(s, took() >= timeout * 0.95, timeout), name, took())
    if CANCEL.requested:
        return _canceled(name, took())
    env, why_spurious = _validated_countermodel(em, s, lowered, lambda: timeout - took())
    if env is not None:
        return Refuted(_settled(env), name, took())
    return Unknown(f"spurious model: {why_spurious}", name, took(), satisfiable=True)


def _why_unknown(s: Any, out_of_time: bool, timeout: float) -> str:
    why = ""
    try:
        why = str(s.reason_unknown())
    except Exception:  # noqa: BLE001 - not every API version has it
        why = "unknown"
    if out_of_time or "timeout" in why or "canceled" in why:
        why = f"timeout after {timeout:g}s ({why})"
    return why or "unknown"


def _validated_countermodel(em: Emitter, s: Any, lowered: Lowered,
                            remaining: Callable[[], float]) -> tuple[dict[str, Any] | None, str]:
    """(assignment, "") when a model of the negated obligation falsifies the ORIGINAL
    obligation under the exact evaluator; else (None, what was wrong with the last model).

    A model is only a candidate: a spurious one has its values of the outer variables
    blocked and the solver is asked again, a few times, within the time left, and only while
    that time exceeds what reading and checking the last model took (irrational models take
    ~0.2 s each: asking for more ran calls past their limit until the pool killed them)."""
    why_spurious = ""
    for _attempt in range(MAX_MODELS):
        started = time.monotonic()
        model = s.model()
        try:
            env = read_model(em, model, lowered)
            probes = _witness_values(em, model, lowered)
            if probes:  # the ∃s' witnesses: kept in the countermodel, which re-checks with them
                env[PROBES] = probes
            if any(isinstance(x, AlgebraicReal) for x in env.values()):
                # irrational point: the exact field evaluator decides; outside its fragment,
                # quadratic irrationals as closed terms (√, log, sin … at them: closed forms)
                holds = algebraic_truth(lowered.body, env)
                if holds is False and _still_false(env, lambda e: algebraic_truth(lowered.body, e) is False):
                    return env, ""
                surds = None if holds is not None else _as_surds(env)
                at_surds = None if surds is None else decide(lowered.body, surds)
                if at_surds is not None and at_surds.exact and at_surds.value is False \
                        and _still_false(surds, lambda e: _exactly_false(lowered.body, e)):
                    return surds, ""
                why_spurious = ("the obligation holds under the model (irrational point)" if holds
                                else "not exact (irrational point outside the exact field fragment)")
                d = None
            else:
                d = decide(lowered.body, env)
        except Untranslatable as e:
            why_spurious = f"not exact ({e})"
            d = None
        if d is not None and d.exact and d.value is False:
            if _still_false(env, lambda e: _exactly_false(lowered.body, e)):
                return env, ""
            why_spurious = "the model's functions, once settled, no longer refute the obligation"
        elif d is not None:
            if d.value is None and _false_once_settled(lowered.body, env):
                # the tables as read so far (each at its default elsewhere) are a function the
                # evaluator decides over an infinite domain (`quantifiers._through_tables`)
                return _settled(env), ""
            if d.value is None:
                why_spurious = f"evaluator undecided ({d.reason})"
                if MODEL_INDEPENDENT.match(d.reason):
                    break
            elif not d.exact:
                why_spurious = "falsity only approximate"
            else:
                why_spurious = "the obligation holds under the model"
        left = remaining()
        if left < max(0.05, time.monotonic() - started) or CANCEL.requested:
            break
        block = _blocking_clause(em, model, {w.name for w, _ in lowered.witnesses})
        if not block:
            break
        s.add(em.Z.Or(*block) if len(block) > 1 else block[0])
        _set_timeout(s, em.name, left)
        if s.check() != em.Z.sat:
            break
    return None, why_spurious


def _still_false(env: dict[str, Any], false_at: Callable[[dict[str, Any]], bool]) -> bool:
    """Whether a model the evaluator found to refute the obligation still does with its
    tables settled (``_settled``). Why: a table read from the solver's model lists only the
    points read so far, and a rule that reads a table's points (``f v = w`` holds only where
    the table lists w) may have looked before a later read added a point; the countermodel
    that leaves is the settled table, so that is the one checked. No table reading its
    model: nothing to check again."""
    if not any(isinstance(x, FunTable) and x.fill is not None for x in env.values()):
        return True
    return false_at(_settled(env))


def _false_once_settled(body: Term, env: dict[str, Any]) -> bool:
    """Whether the body, undecided at the model with its tables still reading it, is exactly
    False with them settled (``_settled``); only asked where a table was reading."""
    if not any(isinstance(x, FunTable) and x.fill is not None for x in env.values()):
        return False
    return _exactly_false(body, _settled(env))


def _exactly_false(body: Term, env: dict[str, Any]) -> bool:
    d = decide(body, env)
    return d is not None and d.exact and d.value is False


def _settled(env: dict[str, Any]) -> dict[str, Any]:
    """``env`` with its tables cut loose from the solver's model (``FunTable.settle``): what
    they read while the model was checked stays, and the countermodel can leave the process."""
    for x in env.values():
        if isinstance(x, FunTable):
            x.settle()
    return env


def _as_surds(env: dict[str, Any]) -> dict[str, Any] | None:
    """``env`` with every irrational value a closed term (``Witness``), or None when one is
    not a quadratic irrational."""
    out = dict(env)
    for k, x in env.items():
        if isinstance(x, AlgebraicReal):
            t = x.surd()
            if t is None:
                return None
            out[k] = Witness(t)
    return out


def _blocking_clause(em: Emitter, model: Any, witnesses: set[str]) -> list[Any]:
    """Disjuncts saying "some scalar constant differs from its value in ``model``" (the
    obligation's constants: another witness for the same point is no other model)."""
    Z = em.Z
    scalar = (Z.IntSort(), Z.RealSort(), Z.BoolSort())
    block = []
    for (name, _sort), c in em.consts.items():
        if c.sort() in scalar and name not in witnesses:
            v = model.eval(c, model_completion=True)
            # cvc5 aborts on asserted algebraic (witness) terms; z3 takes them
            if Z.is_int_value(v) or Z.is_rational_value(v) or Z.is_true(v) or Z.is_false(v) or (
                em.name == "z3" and Z.is_algebraic_value(v)
            ):
                block.append(c != v)
    return block


def _set_timeout(s: Any, name: str, seconds: float) -> None:
    ms = max(1, int(seconds * 1000))
    if name == "z3":
        s.set("timeout", ms)
    else:
        s.setOption("tlimit-per", ms)


def read_model(em: Emitter, model: Any, lowered: Lowered) -> dict[str, Any]:
    """Model → IR values by variable name; user symbols as tables by symbol name."""
    heads = {f for f, *_ in lowered.opaque_heads}
    env = {v.name: _variable_value(em, model, v) for v in lowered.consts if v not in heads}
    env.update((v.name, value) for v, value in lowered.defined)  # substituted away: put back
    for xs, total, length in lowered.summarized:  # a list seen through its sum and length
        value = summary_list(env.get(total.name), env.get(length.name), xs.sort.elem)  # type: ignore[attr-defined]
        if value is not None:
            env[xs.name] = value
    for f, name in lowered.set_functions:  # seen only through membership: its table of sets
        env[f.name] = _set_function_table(em, model, f, name)
    for f in sorted(heads, key=lambda f: f.name):  # seen only applied: a table at the model's arguments
        env[f.name] = _opaque_head_table(em, model, f, lowered, env)
    const_names = set(env)
    seen: dict[str, int] = {}
    for (kind, name, args, result), decl in em.funcs.items():
        if kind == VARIABLE:
            continue
        if name in _UNSPECIFIED:  # a constant (Isabelle's ln at x ≤ 0) as the table of a constant function
            env[_UNSPECIFIED[name]] = (em.table(model, decl, args, result) if args else
                                       FunTable(default=em.value(model.eval(decl, model_completion=True), result)))
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
    return env


def _set_function_table(em: Emitter, model: Any, f: Var, name: str) -> FunTable:
    """f : σ̄ → Set τ from its membership predicate ``name`` (e, x̄) (``Lowerer.membership``)."""
    fs = f.sort
    assert isinstance(fs, FunSort) and isinstance(fs.result, SetSort)
    key = ("symbol", name, (core_sort(fs.result.elem), *(core_sort(a) for a in fs.args)), BOOL)
    decl = em.funcs.get(key)
    if decl is None:  # never emitted: every set empty will do
        return FunTable({}, frozenset())
    table = em.set_table(model, decl, core_sort(fs.result.elem), tuple(core_sort(a) for a in fs.args))
    if fs.result.elem == NAT:  # the predicate is over ℤ: a negative member is no element of a Set ℕ
        table = FunTable({k: frozenset(x for x in v if x >= 0) for k, v in table.entries.items()},
                         frozenset(x for x in table.default if x >= 0))
    return table


def _opaque_head_table(em: Emitter, model: Any, f: Var, lowered: Lowered, env: dict[str, Any]) -> FunTable:
    """f (a function variable the solvers cannot declare, ``average : real list → real``)
    from its applications' opaque symbols: at each application's arguments, evaluated
    exactly at the model's point, the symbol's value there. The whole obligation is then
    re-checked with this table, so a table that disagrees with the symbols is only a
    spurious model."""
    entries: dict[tuple, Any] = {}
    for g, name, t, order in lowered.opaque_heads:
        if g != f:
            continue
        assert isinstance(t, App)
        decl = em.funcs.get(("symbol", name, tuple(core_sort(v.sort) for v in order), core_sort(t.sort)))
        consts = [em.consts.get((v.name, core_sort(v.sort))) for v in order]
        if decl is None or any(c is None for c in consts):
            continue
        # the symbol at the model's point (not a whole table of it, read for one lookup)
        symbol = decl(*consts) if consts else decl  # of no arguments: a constant, not a function
        value = em.value(model.eval(symbol, model_completion=True), core_sort(t.sort))
        d = _exact_arguments(t.args[1:], env)
        if d is None:
            raise Untranslatable(f"arguments of {f.name} not exact at the model")
        entries.setdefault(d, value)
    if not entries:
        return FunTable({}, _default(f.sort.result))  # type: ignore[attr-defined]
    return FunTable(entries, next(iter(entries.values())))


def _exact_arguments(args: tuple[Term, ...], env: dict[str, Any]) -> tuple | None:
    """The exact values of ``args`` under ``env``, or None."""
    out = []
    for a in args:
        x = evaluate(a, env)
        if isinstance(x, Undetermined) or is_approx(x):
            return None
        out.append(x)
    return tuple(out)


def _witness_values(em: Emitter, model: Any, lowered: Lowered) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """The model's witnesses of the ∃s the lowering replaced by constants
    (``Lowered.witnesses``), by the name of the ∃ variable, for the evaluator's probes: exact
    values only (another value is no use to it), and none the solver never mentioned."""
    by_name: dict[str, list[Any]] = {}
    for w, name in lowered.witnesses:
        c = em.consts.get((w.name, w.sort))
        if c is None:
            continue
        try:
            x = em.value(model.eval(c, model_completion=True), w.sort)
        except Untranslatable:
            continue
        if x not in by_name.setdefault(name, []):
            by_name[name].append(x)
    return tuple((name, tuple(xs)) for name, xs in sorted(by_name.items()))


def _variable_value(em: Emitter, model: Any, v: Var) -> Any:
    """The model's value of the obligation variable ``v`` (a default when the solver never
    saw it: any value will do)."""
    s = v.sort
    if is_complex_fun(s):
        return _complex_table(em, model, v)
    if isinstance(s, FunSort) and is_array_fun(core_sort(s)):
        c = em.consts.get((v.name, core_sort(s)))
        cs = core_sort(s)
        if c is None:
            return FunTable({}, _default(s.result))
        return _in_range(em.array_table(model, c, cs.args[0], cs.result), s)  # type: ignore[attr-defined]
    if isinstance(s, FunSort):
        key = (VARIABLE, v.name, tuple(core_sort(a) for a in s.args), core_sort(s.result))
        decl = em.funcs.get(key)
        return FunTable({}, _default(s.result)) if decl is None else _in_range(em.table(model, decl, key[2], key[3]), s)
    if isinstance(s, SetSort):
        c = em.consts.get((v.name, core_sort(s)))
        return frozenset() if c is None else _read_set(em, model, c, core_sort(s.elem))
    if s == COMPLEX:
        parts = []
        for pv in complex_parts(v):
            c = em.consts.get((pv.name, REAL))
            parts.append(0 if c is None else em.value(model.eval(c, model_completion=True), REAL))
        return ExactComplex(parts[0], parts[1])
    c = em.consts.get((v.name, core_sort(s)))
    return _default(s) if c is None else em.scalar_value(model.eval(c, model_completion=True), core_sort(s))


def _in_range(table: FunTable, s: FunSort) -> FunTable:
    """An ℕ-valued function's table with 0 wherever the model gave a negative value: the
    solvers see ℤ, and ``∀ args, f args ≥ 0`` is stated only where a binder needs it
    (``lower.lower_obligation``); every point an application reads has its fact ``f t ≥ 0``,
    so the values changed are at points the formula never reads."""
    if s.result != NAT:
        return table

    def nat(v: Any) -> Any:
        return 0 if isinstance(v, (int, Fraction)) and not isinstance(v, bool) and v < 0 else v

    fill = table.fill
    return FunTable({k: nat(v) for k, v in table.entries.items()}, nat(table.default),
                    None if fill is None else (lambda key: nat(fill(key))))


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
