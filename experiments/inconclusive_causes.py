"""Why a clustering's pair checks ended inconclusive: one cause per pair, read off a cache.

Reads the per-pair decisions a ``paper_tables.py`` cache keeps (``evidence.decisions``) and
gives each ``inconclusive`` pair the first cause that applies, in this order:

1. a side the prover's own checker would reject (``ill_formed``: the statement has no meaning
   to decide, whatever the engine guesses);
2. the value route's pin of a side (the answer the premises give), where the reason says why it
   failed: no model of the premises found, the answer's uniqueness unproved, ...; the text of
   that failure is bucketed like ``diagnostics.inconclusive_cause`` plus the causes particular
   to MATH answers (Isabelle's unspecified ``ln``, a ``card`` the evaluator cannot enumerate,
   library functions without a model);
3. otherwise the reason of the whole check, bucketed the same way.

With ``--data`` it also counts the pairs by the human labels of their sides and by how the
sides read in Isabelle (``pair_sides``: a side the checker rejects, a side that applies a name
no theory defines, or neither), with the causes of the last group: what the engine itself
leaves undecided between two meaningful statements, and the problems that hold most of those
(``meaningful_by_problem``, with how many have a side the annotators judged correct).

It also says how concentrated the pairs are (how many problems hold half of them) and, with
``--plot``, draws the causes as a bar chart. It is how stop 45 read the 4.3 inconclusive
pairs per problem left on ``isabelle_math_400`` (docs/experiments.md).

    .venv/bin/python experiments/inconclusive_causes.py \\
        experiments/out/paper_clusters_symbolic_t1_vNN.jsonl --data ../shared/data/isabelle_math_400.jsonl \\
        --report causes.md --plot docs/img/inconclusive_causes.png
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from experiments.diagnostics import inconclusive_cause  # noqa: E402

#: Causes particular to MATH answers, looked for before the generic ones (first match wins).
MATH_CAUSES = (
    ("Isabelle ln is unspecified", "Isabelle's ln unspecified at x ≤ 0 (the answer truly depends on it)"),
    ("argument of card is not a known finite set", "card of a set the evaluator cannot enumerate"),
    ("domain of ∑ is not a known finite set", "card of a set the evaluator cannot enumerate"),
    ("card of a set", "card of a set the evaluator cannot enumerate"),
    ("not asked: the answers and premises involve", "joint value obligation not asked (sets, transcendental)"),
    ("not asked: the uniqueness", "a pin's uniqueness and the other side's model both missing"),
    ("GREATEST over", "GREATEST / LEAST / Inf over ℝ of a non-polynomial predicate"),
    ("LEAST over", "GREATEST / LEAST / Inf over ℝ of a non-polynomial predicate"),
    ("has no exact value", "the answer has no exact value at the model (transcendental)"),
    ("alignment budget", "alignment budget exhausted"),
    ("pinned answers are not proved equal", "closed forms of both answers not compared exactly"),
)

#: ``answer pins A: <why> ; B: <why>`` at the end of a value route's reason
_PINS = re.compile(r"answer pins A: (.*?)(?:; B: (.*))?$")


def cause_of(text: str) -> str:
    """The cause of one failure's text: a MATH cause, else the diagnostics' coarse category."""
    for key, cause in MATH_CAUSES:
        if key in text:
            return cause
    return inconclusive_cause(text)


def pair_cause(decision: dict[str, Any], candidates: list[dict[str, Any]]) -> str:
    """One cause for an inconclusive pair (the order of the module docstring)."""
    a, b = decision["a"], decision["b"]
    if any(candidates[i].get("ill_formed") for i in (a, b) if i < len(candidates)):
        return "a side the prover's checker would reject (ill-formed)"
    reason = decision.get("reason", "")
    m = _PINS.search(reason)
    if m:
        for why in (m.group(1), m.group(2) or ""):
            if why.startswith("unknown"):
                return "pin: " + cause_of(why)
    return cause_of(reason)


def attribute(rows: list[dict[str, Any]]) -> tuple[collections.Counter, collections.Counter, dict[str, Any]]:
    """(pairs by cause, pairs by problem, an example (problem, a, b) per cause)."""
    by_cause: collections.Counter = collections.Counter()
    by_problem: collections.Counter = collections.Counter()
    examples: dict[str, Any] = {}
    for r in rows:
        cands = r.get("evidence", {}).get("candidates", [])
        for d in r.get("evidence", {}).get("decisions", []):
            if d.get("status") != "inconclusive":
                continue
            c = pair_cause(d, cands)
            by_cause[c] += 1
            by_problem[r["id"]] += 1
            examples.setdefault(c, (_short(r["id"]), d["a"], d["b"]))
    return by_cause, by_problem, examples


def _short(pid: str) -> str:
    parts = pid.rstrip("/").split("/")
    return "/".join(parts[-2:]).removesuffix(".json")


def half_share(by_problem: collections.Counter) -> int:
    """How many problems (the most inconclusive first) hold half of the pairs."""
    total, running = sum(by_problem.values()), 0
    for n, (_, c) in enumerate(by_problem.most_common(), 1):
        running += c
        if 2 * running >= total:
            return n
    return 0


def by_label(rows: list[dict[str, Any]], data: Path) -> collections.Counter:
    """Inconclusive pairs by the human labels of their two sides (both correct, one, neither)
    and whether both pass the prover's own syntax check (the data's ``paper_syntax_ok``):
    which of them a decision could move 1@k for. Read from the data, never by the engine."""
    problems = {r["id"]: r for r in map(json.loads, data.open())}
    out: collections.Counter = collections.Counter()
    for r in rows:
        cands = problems.get(r["id"], {}).get("candidates")
        if not cands:
            continue
        for d in r.get("evidence", {}).get("decisions", []):
            if d.get("status") == "inconclusive":
                a, b = cands[d["a"]], cands[d["b"]]
                correct = ("both correct" if a["label"] and b["label"] else
                           "one correct" if a["label"] or b["label"] else "neither correct")
                syntax = "both syntax ok" if a["paper_syntax_ok"] and b["paper_syntax_ok"] else "a syntax error"
                out[(correct, syntax)] += 1
    return out


#: How the two sides of a pair read in Isabelle, worst first (``pair_sides``).
SIDES = ("a side the prover's checker would reject (ill-formed)",
         "a side with an invented function (an undefined name Isabelle reads as a free function variable)",
         "a side reading powr / ln at a base not known positive (Isabelle's ln is unspecified at x ≤ 0)",
         "both well-formed, every function defined, ln read only where positive")
#: The index of the last group: what the engine itself leaves undecided.
MEANINGFUL = len(SIDES) - 1


def side_kind(candidate: dict[str, Any], flags: dict[str, Any], language: str) -> int:
    """The index in ``SIDES`` of one candidate: ill-formed (the cache's checker flag), using a
    name no theory defines applied as a function (``is_prime n``, ``composite n``: Isabelle
    reads it as a free variable of function type, so the statement is about every such
    function; the parser's note ``… is not in `fixes`: read as an implicitly fixed variable of
    type … ⇒ …``), or neither."""
    if flags.get("ill_formed"):
        return 0
    from provers import parse
    from provers.isabelle.checker import IMPLICIT_NOTE

    try:
        statement = parse(candidate["formal"], language)
    except Exception:  # noqa: BLE001 - a text that does not parse has no verdicts to classify
        return MEANINGFUL
    invented = any(IMPLICIT_NOTE in n and "⇒" in n.split(" of type ", 1)[-1] for n in statement.notes)
    if invented:
        return 1
    return 2 if language == "isabelle" and _ln_where_unspecified(statement) else MEANINGFUL


#: Isabelle's operations that read ``ln`` at an argument (``powr`` and ``ln`` at the first).
_LN_READERS = frozenset({"powr", "ln", "isa_log"})


def _ln_where_unspecified(statement: Any) -> bool:
    """Whether the statement applies ``powr`` / ``ln`` / ``log`` to a base that is neither a
    positive closed number, a natural, nor a variable a premise keeps ≥ 0 (``0 powr a`` is 0): there the
    value is Isabelle's ``THE u. exp u = x`` of nothing, the same unknown number in every
    statement, so a verdict may depend on it (``x powr 2`` over ℤ, ``algebra/problem_442``).
    A reading for the report, not for verdicts: a base kept positive only through other
    premises counts as unknown."""
    from provers.engine.normal import normalize
    from provers.ir import NAT, App, Var, subterms
    from provers.semantics.evaluate import evaluate

    try:
        nf = normalize(statement)
    except Exception:  # noqa: BLE001 - no normal form, nothing to read
        return False
    kept: set[Var] = set()
    for p in nf.premises:
        if isinstance(p, App) and p.op in ("lt", "le") and isinstance(p.args[1], Var) \
                and evaluate(p.args[0], {}) == 0:
            kept.add(p.args[1])
        if isinstance(p, App) and p.op in ("gt", "ge") and isinstance(p.args[0], Var) \
                and evaluate(p.args[1], {}) == 0:
            kept.add(p.args[0])
    for t in (*nf.premises, nf.conclusion):
        for u in subterms(t):
            if not (isinstance(u, App) and u.op in _LN_READERS and u.args):
                continue
            for base in u.args if u.op == "isa_log" else u.args[:1]:  # log b x = ln x / ln b
                while isinstance(base, App) and base.op == "cast" and base.args:
                    base = base.args[0]
                if base.sort == NAT or (isinstance(base, Var) and base in kept):
                    continue  # a natural is ≥ 0, and 0 powr a is 0
                value = evaluate(base, {}) if not isinstance(base, Var) else None
                if isinstance(value, (int, Fraction)) and not isinstance(value, bool) and value > 0:
                    continue
                return True
    return False


def _sided_pairs(rows: list[dict[str, Any]], data: Path) -> Iterator[tuple[dict[str, Any], dict[str, Any], int]]:
    """Each inconclusive pair as (its problem's cache row, the decision, the ``SIDES`` index of
    its worse side); each candidate is read once."""
    problems = {r["id"]: r for r in map(json.loads, data.open())}
    for r in rows:
        problem = problems.get(r["id"], {})
        cands = problem.get("candidates") or []
        flags = r.get("evidence", {}).get("candidates", [])
        if not all("formal" in c for c in cands):
            continue
        kinds: dict[int, int] = {}
        for d in r.get("evidence", {}).get("decisions", []):
            if d.get("status") != "inconclusive":
                continue
            for i in (d["a"], d["b"]):
                if i not in kinds:
                    kinds[i] = side_kind(cands[i], flags[i] if i < len(flags) else {}, problem.get("language", "isabelle"))
            yield r, d, min(kinds[d["a"]], kinds[d["b"]])


def pair_sides(rows: list[dict[str, Any]], data: Path,
               sided: list[tuple[dict[str, Any], dict[str, Any], int]] | None = None
               ) -> tuple[collections.Counter, collections.Counter]:
    """Inconclusive pairs by the worse of their two sides (``SIDES``), and the causes of those
    between two well-formed sides with every function defined: what the engine itself leaves
    undecided, apart from statements Isabelle rejects or that quantify over invented functions.
    ``sided``: ``_sided_pairs``' output when the caller has it (each candidate is parsed there)."""
    sides: collections.Counter = collections.Counter()
    causes: collections.Counter = collections.Counter()
    for r, d, worst in sided if sided is not None else _sided_pairs(rows, data):
        sides[SIDES[worst]] += 1
        if worst == MEANINGFUL:
            causes[pair_cause(d, r.get("evidence", {}).get("candidates", []))] += 1
    return sides, causes


def meaningful_by_problem(rows: list[dict[str, Any]], data: Path,
                          sided: list[tuple[dict[str, Any], dict[str, Any], int]] | None = None
                          ) -> list[tuple[str, int, int, collections.Counter]]:
    """The problems holding inconclusive pairs between two meaningful sides, most first: (problem,
    pairs, pairs with a side the annotators judged correct — the ones a decision could move
    1@k for —, their causes). Where the next decisiveness work would pay."""
    out: dict[str, tuple[int, int, collections.Counter]] = {}
    for r, d, worst in sided if sided is not None else _sided_pairs(rows, data):
        if worst != MEANINGFUL:
            continue
        n, with_correct, causes = out.get(r["id"], (0, 0, collections.Counter()))
        correct = r.get("correct") or []
        hit = any(i < len(correct) and correct[i] for i in (d["a"], d["b"]))
        causes[pair_cause(d, r.get("evidence", {}).get("candidates", []))] += 1
        out[r["id"]] = (n + 1, with_correct + hit, causes)
    return sorted(((_short(pid), n, c, causes) for pid, (n, c, causes) in out.items()), key=lambda x: (-x[1], x[0]))


#: Problems listed by ``report`` with the most inconclusive pairs between meaningful sides.
TOP_PROBLEMS = 12


def report(rows: list[dict[str, Any]], source: str, data: Path | None = None) -> str:
    by_cause, by_problem, examples = attribute(rows)
    total = sum(by_cause.values())
    lines = [f"Inconclusive pairs in `{source}`: {total} over {len(rows)} problems "
             f"({total / max(1, len(rows)):.2f} per problem); {half_share(by_problem)} problems hold half.", "",
             "| cause (first that applies) | pairs | share | example (problem, a, b) |", "|---|---:|---:|---|"]
    for c, n in by_cause.most_common():
        ex = examples[c]
        lines.append(f"| {c} | {n} | {100 * n / max(1, total):.1f} % | {ex[0]} ({ex[1]}, {ex[2]}) |")
    if data is not None:
        lines += ["", "| human labels of the two sides | both syntax ok | a syntax error |", "|---|---:|---:|"]
        labels = by_label(rows, data)
        for correct in ("both correct", "one correct", "neither correct"):
            lines.append(f"| {correct} | {labels[(correct, 'both syntax ok')]} | {labels[(correct, 'a syntax error')]} |")
        sided = list(_sided_pairs(rows, data))  # every candidate parsed once for both tables
        sides, causes = pair_sides(rows, data, sided)
        if sides:
            lines += ["", "| sides of the pair (the worse one) | pairs | per problem |", "|---|---:|---:|"]
            for kind in SIDES:
                lines.append(f"| {kind} | {sides[kind]} | {sides[kind] / max(1, len(rows)):.2f} |")
            lines += ["", f"Causes between two well-formed sides with every function defined and ln read only "
                      f"where positive ({sides[SIDES[MEANINGFUL]]} pairs):",
                      "", "| cause | pairs |", "|---|---:|"]
            lines += [f"| {c} | {n} |" for c, n in causes.most_common()]
            lines += ["", f"The {TOP_PROBLEMS} problems with the most of those pairs:", "",
                      "| problem | pairs | with a correct side | causes (most first) |", "|---|---:|---:|---|"]
            for pid, n, with_correct, by in meaningful_by_problem(rows, data, sided)[:TOP_PROBLEMS]:
                lines.append(f"| {pid} | {n} | {with_correct} | "
                             + "; ".join(f"{c} ({k})" for c, k in by.most_common(3)) + " |")
    return "\n".join(lines) + "\n"


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_cause, _, _ = attribute(rows)
    items = by_cause.most_common()[::-1]
    fig, ax = plt.subplots(figsize=(11, 0.35 * len(items) + 1.2))
    ax.barh([c[:72] for c, _ in items], [n for _, n in items], color="#4a7ab0")
    ax.set_xlabel("inconclusive pairs (first cause per pair; \"pin:\" the value route's pin of a side)")
    ax.set_title("Inconclusive pairs by cause")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cache", type=Path, help="a paper_tables.py cache (one JSON object per problem)")
    ap.add_argument("--report", type=Path, help="write the table (markdown) here as well as to stdout")
    ap.add_argument("--plot", type=Path, help="draw the causes as a bar chart (PNG)")
    ap.add_argument("--data", type=Path, help="the problems' JSONL (isabelle_math_400): also count the pairs "
                    "by the human labels of their sides")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in args.cache.open() if line.strip()]
    text = report(rows, args.cache.name, args.data)
    print(text)
    if args.report:
        args.report.write_text(text)
    if args.plot:
        plot(rows, args.plot)


if __name__ == "__main__":
    main()
