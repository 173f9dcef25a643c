"""Library functions the IR keeps uninterpreted but the evaluator computes exactly.

Why: ``Rat.den``, ``Nat.totient`` or ``Squarefree`` have no SMT lowering, so the solvers see
them as uninterpreted symbols: a proof over every interpretation is still a proof, but a
countermodel the solver finds holds only for the interpretation it chose, and is dropped
("depends on an interpretation"). At exact arguments their values are plain arithmetic, so
the evaluator computes them here and re-checks such countermodels (and sampled points)
against the one meaning Mathlib gives them, including its conventions at 0
(``Nat.totient 0 = 0``, ``Int.sqrt z = Nat.sqrt z.toNat``, ``Nat.primeFactors 0 = ∅``,
``Squarefree 0`` false, ``Nat.minFac 0 = 2``, ``Nat.log 1 n = 0``, ``Int.tdiv a 0 = 0``). Isabelle's ``Pow`` and Mathlib's ``Finset.powerset`` of a finite set
are its subsets; Isabelle's ``Max``/``Min`` of a finite nonempty set its largest / smallest
element, and ``Gcd`` / ``Lcm`` of a finite set of integers their gcd / lcm. A pair is a Python tuple (``fst``/``snd`` its parts).

One entry per symbol in ``LIBRARY``: a function of the exact argument values and the
arguments' sorts, returning the value or None (an argument not exact, or a sort it does not
cover: the symbol stays undecided).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.ir import INT, NAT, RAT, Sort
from provers.semantics.domains import MAX_DOMAIN
from provers.semantics.exact import MAX_FACTOR, prime_factors, tdiv, tmod
from provers.semantics.inverses import LIBRARY_ENTRIES as INVERSES
from provers.semantics.series import SERIES

#: Largest finite set whose power set is computed (2^12 subsets).
MAX_POWERSET_ELEMENTS = 12


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _rational(v: Any) -> Fraction | None:
    if isinstance(v, bool):
        return None
    return Fraction(v) if isinstance(v, (int, Fraction)) else None


def _num(args: list[Any], sorts: list[Sort]) -> Any:
    q = _rational(args[0])
    return None if q is None else q.numerator


def _den(args: list[Any], sorts: list[Sort]) -> Any:
    q = _rational(args[0])
    return None if q is None else q.denominator


def _totient(args: list[Any], sorts: list[Sort]) -> Any:
    n = _int(args[0])
    if n is None or n < 0:
        return None
    if n == 0:
        return 0
    ps = prime_factors(n)
    if ps is None:
        return None
    out = n
    for p in set(ps):
        out = out // p * (p - 1)
    return out


def _int_sqrt(args: list[Any], sorts: list[Sort]) -> Any:
    z = _int(args[0])
    return None if z is None else math.isqrt(max(z, 0))


def _factors_list(args: list[Any], sorts: list[Sort]) -> Any:
    n = _int(args[0])
    if n is None or n < 0:
        return None
    ps = prime_factors(n) if n else []
    return None if ps is None else tuple(ps)


def _prime_factors(args: list[Any], sorts: list[Sort]) -> Any:
    ps = _factors_list(args, sorts)
    return None if ps is None else frozenset(ps)


def _isabelle_prime_factors(args: list[Any], sorts: list[Sort]) -> Any:
    """Isabelle's ``prime_factors n``: the set of the prime factorization of ``normalize n``
    (positive primes; ∅ at 0 and at units), over ℕ and ℤ."""
    n = _int(args[0])
    if n is None or sorts[0] not in (NAT, INT):
        return None
    return _prime_factors([abs(n)], sorts)


#: Longest list an integer range ``[a..b]`` / ``[a..<b]`` is built for.
MAX_RANGE_LIST = 100_000


def _range_list(upper_open: bool) -> Callable[[list[Any], list[Sort]], Any]:
    """Isabelle's ``[a..b]`` (``upto``, over ℤ) and ``[a..<b]`` (``upt``, over ℕ): the integers
    from a to b, b itself excluded by ``upt``; empty when a is past the end."""
    def value(args: list[Any], sorts: list[Sort]) -> Any:
        a, b = _int(args[0]), _int(args[1])
        if a is None or b is None:
            return None
        end = b if upper_open else b + 1
        return tuple(range(a, end)) if end - a <= MAX_RANGE_LIST else None

    return value


# Lists, held as tuples (``[a, b, c]`` is Isabelle's symbol ``list``, Mathlib's
# ``List.literal``): the evaluator's ``list_sum`` / ``list_length`` already fold a tuple; these
# give the literals, Isabelle's integer ranges and the common functions their values.
# Unspecified cases (``hd []``) stay undecided.

def _list(args: list[Any], sorts: list[Sort]) -> Any:
    return tuple(args)


def _on_list(f: Callable[[tuple], Any]) -> Callable[[list[Any], list[Sort]], Any]:
    def value(args: list[Any], sorts: list[Sort]) -> Any:
        return f(args[0]) if isinstance(args[0], tuple) else None

    return value


def _sorted(xs: tuple) -> Any:
    if any(_rational(x) is None for x in xs):
        return None  # an order the evaluator does not compare
    return all(a <= b for a, b in zip(xs, xs[1:], strict=False))


LIST_FUNCTIONS: dict[str, tuple[int | None, Callable[[list[Any], list[Sort]], Any]]] = {
    "list": (None, _list),  # [a, b, c], any length
    "List.literal": (None, _list),  # Mathlib's [a, b, c]
    "upto": (2, _range_list(False)),  # Isabelle [a..b] over ℤ
    "upt": (2, _range_list(True)),  # Isabelle [a..<b] over ℕ
    "List.range": (1, lambda args, sorts: _range_list(True)([0, args[0]], sorts)),  # Mathlib: [0, …, n − 1]
    "set": (1, _on_list(frozenset)),
    "distinct": (1, _on_list(lambda xs: len(set(xs)) == len(xs))),
    "sorted": (1, _on_list(_sorted)),
    "rev": (1, _on_list(lambda xs: xs[::-1])),
    "hd": (1, _on_list(lambda xs: xs[0] if xs else None)),  # hd [] unspecified
    "last": (1, _on_list(lambda xs: xs[-1] if xs else None)),
    "append": (2, lambda args, sorts: args[0] + args[1] if all(isinstance(a, tuple) for a in args) else None),
}
#: the symbols above that build a list from their arguments (a list of numerals is ground:
#: ``lower.fold_ground`` folds ``sum_list [17, 10, 9]``)
LIST_CONSTRUCTORS = frozenset({"list", "List.literal", "upto", "upt", "List.range"})


#: Largest index ``Nat.fib`` is computed at (its value has about 0.69 n bits).
MAX_FIB_INDEX = 20_000


def _fib(args: list[Any], sorts: list[Sort]) -> Any:
    n = _int(args[0])
    if n is None or not 0 <= n <= MAX_FIB_INDEX:
        return None
    a, b = 0, 1  # Nat.fib 0 = 0, Nat.fib 1 = 1
    for _ in range(n):
        a, b = b, a + b
    return a


def _nat_log(args: list[Any], sorts: list[Sort]) -> Any:
    """Mathlib's ``Nat.log b n``: the largest k with b ^ k ≤ n, and 0 when b ≤ 1 or n < b."""
    b, n = _int(args[0]), _int(args[1])
    if b is None or n is None or b < 0 or n < 0:
        return None
    k = 0
    while b > 1 and n >= b:
        n //= b
        k += 1
    return k


def _nat_clog(args: list[Any], sorts: list[Sort]) -> Any:
    """Mathlib's ``Nat.clog b n``: the least k with n ≤ b ^ k, and 0 when b ≤ 1 or n ≤ 1."""
    b, n = _int(args[0]), _int(args[1])
    if b is None or n is None or b < 0 or n < 0:
        return None
    k = 0
    while b > 1 and n > 1:
        n = (n + b - 1) // b
        k += 1
    return k


def _min_fac(args: list[Any], sorts: list[Sort]) -> Any:
    """Mathlib's ``Nat.minFac``: the least prime factor; ``minFac 0 = 2``, ``minFac 1 = 1``."""
    n = _int(args[0])
    if n is None or n < 0:
        return None
    if n in (0, 1):
        return 2 if n == 0 else 1
    factors = prime_factors(n)
    return None if factors is None else factors[0]


def _on_integers(f: Callable[[int, int], int]) -> Callable[[list[Any], list[Sort]], Any]:
    """A function of two integers (``exact.tdiv``) as a library entry."""
    def value(args: list[Any], sorts: list[Sort]) -> Any:
        a, b = _int(args[0]), _int(args[1])
        return None if a is None or b is None else f(a, b)

    return value


#: Largest k ``Nat.descFactorial n k`` is computed at (a product of k factors).
MAX_DESC_FACTORIAL = 20_000


def _desc_factorial(args: list[Any], sorts: list[Sort]) -> Any:
    """``Nat.descFactorial n k`` = n · (n − 1) ⋯ (n − k + 1), 0 when k > n."""
    n, k = _int(args[0]), _int(args[1])
    if n is None or k is None or n < 0 or not 0 <= k <= MAX_DESC_FACTORIAL:
        return None
    return math.perm(n, k)


def _neg_succ(args: list[Any], sorts: list[Sort]) -> Any:
    n = _int(args[0])
    return None if n is None or n < 0 else -(n + 1)


def _squarefree(args: list[Any], sorts: list[Sort]) -> Any:
    n = _int(args[0])
    if n is None or sorts[0] not in (NAT, INT):
        return None
    n = abs(n)
    if n == 0:
        return False  # 2 * 2 ∣ 0 and 2 is not a unit
    ps = prime_factors(n)
    return None if ps is None else len(ps) == len(set(ps))


def _is_square(args: list[Any], sorts: list[Sort]) -> Any:
    if sorts[0] in (NAT, INT):
        n = _int(args[0])
        return None if n is None else n >= 0 and math.isqrt(n) ** 2 == n
    if sorts[0] == RAT:
        q = _rational(args[0])
        if q is None:
            return None
        return q >= 0 and math.isqrt(q.numerator) ** 2 == q.numerator and math.isqrt(q.denominator) ** 2 == q.denominator
    return None


def _of_digits(args: list[Any], sorts: list[Sort]) -> Any:
    b, digits = _int(args[0]), args[1]
    if b is None or not isinstance(digits, tuple) or any(_int(d) is None for d in digits):
        return None
    return sum(d * b**i for i, d in enumerate(digits))


def _powerset(args: list[Any], sorts: list[Sort]) -> Any:
    s = args[0]
    if not isinstance(s, frozenset) or len(s) > MAX_POWERSET_ELEMENTS:
        return None
    items = list(s)
    return frozenset(frozenset(x for j, x in enumerate(items) if mask >> j & 1) for mask in range(1 << len(items)))


#: symbol → (arity, function of the exact argument values and the arguments' sorts → value,
#: or None where not covered).
def _extreme(pick: Callable[..., Any]) -> Callable[[list[Any], list[Sort]], Any]:
    """Isabelle ``Max``/``Min`` of a finite nonempty set of exact numbers (unspecified on ∅
    and infinite sets: None)."""
    def extreme(args: list[Any], sorts: list[Sort]) -> Any:
        s = args[0]
        if not isinstance(s, frozenset) or not s or any(_rational(x) is None for x in s):
            return None
        return pick(s)

    return extreme


def _gcd_lcm(lcm: bool) -> Callable[[list[Any], list[Sort]], Any]:
    """Isabelle ``Gcd`` / ``Lcm`` of a finite set of integers: ``Gcd {} = 0``, ``Lcm {} = 1``,
    an element 0 makes the Lcm 0, both are ≥ 0 (normalized on ℤ). None on other sets (an
    infinite one: ``evaluate._gcd_of_polynomial_image`` reads its term)."""
    def value(args: list[Any], sorts: list[Sort]) -> Any:
        s = args[0]
        if not isinstance(s, frozenset) or any(_int(x) is None for x in s):
            return None
        out = 1 if lcm else 0
        for x in s:
            out = math.lcm(out, x) if lcm else math.gcd(out, x)
        return abs(out)

    return value


def _pair(args: list[Any], sorts: list[Sort]) -> Any:
    return tuple(args)


def _times(args: list[Any], sorts: list[Sort]) -> Any:
    """Isabelle's Cartesian product of sets ``A × B`` (``A <*> B``) of two finite sets, as
    its pairs (at most ``MAX_DOMAIN`` of them); None otherwise."""
    a, b = args
    if not (isinstance(a, frozenset) and isinstance(b, frozenset)) or len(a) * len(b) > MAX_DOMAIN:
        return None
    return frozenset((x, y) for x in a for y in b)


def _part(i: int) -> Callable[[list[Any], list[Sort]], Any]:
    def part(args: list[Any], sorts: list[Sort]) -> Any:
        p = args[0]
        return p[i] if isinstance(p, tuple) and len(p) == 2 else None

    return part


LIBRARY: dict[str, tuple[int | None, Callable[[list[Any], list[Sort]], Any]]] = {
    "Rat.num": (1, _num),
    "Rat.den": (1, _den),
    "Nat.totient": (1, _totient),
    "Nat.fib": (1, _fib),
    "Nat.log": (2, _nat_log),
    "Nat.clog": (2, _nat_clog),
    "Nat.minFac": (1, _min_fac),
    "Int.tdiv": (2, _on_integers(tdiv)),
    "Int.tmod": (2, _on_integers(tmod)),
    "Int.negSucc": (1, _neg_succ),
    "Nat.descFactorial": (2, _desc_factorial),
    "Int.sqrt": (1, _int_sqrt),
    "Nat.primeFactors": (1, _prime_factors),
    "prime_factors": (1, _isabelle_prime_factors),  # Isabelle (HOL-Computational_Algebra)
    "Nat.factors": (1, _factors_list),
    "Nat.primeFactorsList": (1, _factors_list),
    "Squarefree": (1, _squarefree),
    "IsSquare": (1, _is_square),
    "Nat.ofDigits": (2, _of_digits),
    "Pow": (1, _powerset),  # Isabelle
    "Finset.powerset": (1, _powerset),
    "Max": (1, _extreme(max)),  # Isabelle, of a finite nonempty set
    "Min": (1, _extreme(min)),
    "Gcd": (1, _gcd_lcm(False)),  # Isabelle, of a finite set of integers
    "Lcm": (1, _gcd_lcm(True)),
    # pairs as Python tuples (Isabelle Pair/fst/snd, Lean Prod.mk/Prod.fst/Prod.snd)
    "Pair": (2, _pair),
    "Times": (2, _times),  # Isabelle A × B of sets
    "Prod.mk": (2, _pair),
    "fst": (1, _part(0)),
    "snd": (1, _part(1)),
    "Prod.fst": (1, _part(0)),
    "Prod.snd": (1, _part(1)),
    # series of exponential polynomials (``semantics.series``): Isabelle's names, Mathlib's
    **SERIES,
    "∑'": SERIES["suminf"],
    "Summable": SERIES["summable"],
    # inverses of affine bijections (``semantics.inverses``): ``inv f y``, ``bij f``
    **INVERSES,
    # lists as tuples: literals, Isabelle's integer ranges, list functions
    **LIST_FUNCTIONS,
}


def library_value(symbol: str, args: list[Any], sorts: list[Sort]) -> Any:
    """The value of library function ``symbol`` at exact ``args``, or None."""
    entry = LIBRARY.get(symbol)
    if entry is None or entry[0] is not None and entry[0] != len(args):  # None: any number
        return None
    return entry[1](args, sorts)


__all__ = ["LIBRARY", "LIST_CONSTRUCTORS", "MAX_FACTOR", "library_value"]
