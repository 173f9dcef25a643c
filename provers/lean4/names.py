"""Table of the Mathlib / Lean core names the frontend interprets, and how each maps to the IR.

A spec is a tuple whose first element says how the elaborator handles it:

- ``("fixed", op, (arg sorts...), )``: arguments elaborated against the given sorts (casts are
  inserted on narrower arguments), result from ``provers.ir.app``.
- ``("poly", op, nargs)``: arguments unified to one numeric sort like ``binop%`` (expected type
  included); e.g. ``abs``, ``min``, ``gcd``.
- ``("pred", op, nargs)``: like ``poly`` but a proposition, so the expected type is not used.
- ``("const", op)``: a nullary operation (``Real.pi``, ``Complex.I``).
- ``("special", key)``: handled by a dedicated method of the elaborator (sums, intervals,
  filter, floor, ``IsLeast``...).
- ``("opaque", result)``: a known name kept ``Uninterpreted`` with a known result sort
  (``"arg0-codomain"`` = the codomain of the first argument's function sort).
"""

from __future__ import annotations

from provers.ir import BOOL, COMPLEX, INT, NAT, REAL, ListSort

R, N, Z = REAL, NAT, INT

NAMES: dict[str, tuple] = {
    # real analysis
    "Real.sqrt": ("fixed", "sqrt", (R,)),
    "NNReal.sqrt": ("opaque", "NNReal"),
    "Real.exp": ("fixed", "exp", (R,)),
    "Real.log": ("fixed", "log", (R,)),
    "Real.logb": ("fixed", "logb", (R, R)),
    "Real.rpow": ("fixed", "rpow", (R, R)),
    "Real.pi": ("const", "pi"),
    "π": ("const", "pi"),
    "Real.cos": ("fixed", "cos", (R,)),
    "Real.sin": ("fixed", "sin", (R,)),
    "Real.tan": ("fixed", "tan", (R,)),
    "Real.arcsin": ("fixed", "arcsin", (R,)),
    "Real.arccos": ("fixed", "arccos", (R,)),
    "Real.arctan": ("fixed", "arctan", (R,)),
    "Real.sinh": ("fixed", "sinh", (R,)),
    "Real.cosh": ("fixed", "cosh", (R,)),
    "Real.tanh": ("fixed", "tanh", (R,)),
    "abs": ("poly", "abs", 1),
    "|abs|": ("poly", "abs", 1),
    "min": ("poly", "min", 2),
    "max": ("poly", "max", 2),
    "Int.fract": ("special", "fract"),
    "round": ("special", "round"),
    "Int.floor": ("special", "floor"),
    "Int.ceil": ("special", "ceil"),
    "Nat.floor": ("special", "nat_floor"),
    "Nat.ceil": ("special", "nat_ceil"),
    "SignType.sign": ("poly", "sign", 1),
    # complex
    "Complex.I": ("const", "I"),
    "Complex.abs": ("fixed", "cabs", (COMPLEX,)),
    "Complex.re": ("fixed", "re", (COMPLEX,)),
    "Complex.im": ("fixed", "im", (COMPLEX,)),
    "Complex.conj": ("fixed", "conj", (COMPLEX,)),
    "Complex.normSq": ("special", "normsq"),
    "Complex.exp": ("opaque", COMPLEX),
    "Complex.log": ("opaque", COMPLEX),
    "Complex.cos": ("opaque", COMPLEX),
    "Complex.sin": ("opaque", COMPLEX),
    "Complex.arg": ("opaque", REAL),
    "Complex.ofReal": ("special", "ofReal"),
    # number theory
    "Nat.factorial": ("fixed", "fact", (N,)),
    "Nat.choose": ("fixed", "choose", (N, N)),
    "Nat.gcd": ("fixed", "gcd", (N, N)),
    "Nat.lcm": ("fixed", "lcm", (N, N)),
    "Int.gcd": ("special", "int_gcd"),
    "Int.lcm": ("special", "int_lcm"),
    "gcd": ("poly", "gcd", 2),
    "lcm": ("poly", "lcm", 2),
    "GCDMonoid.gcd": ("poly", "gcd", 2),
    "Nat.Prime": ("fixed", "prime", (N,)),
    "Prime": ("pred", "prime", 1),
    "Int.Prime": ("fixed", "prime", (Z,)),
    "Even": ("pred", "even", 1),
    "Odd": ("pred", "odd", 1),
    "Nat.Even": ("fixed", "even", (N,)),
    "Nat.Odd": ("fixed", "odd", (N,)),
    "Dvd.dvd": ("pred", "dvd", 2),
    "Nat.digits": ("fixed", "digits", (N, N)),
    "Nat.divisors": ("fixed", "divisors", (N,)),
    "Nat.properDivisors": ("special", "proper_divisors"),
    "Int.natAbs": ("fixed", "nat_abs", (Z,)),
    "Int.toNat": ("fixed", "to_nat", (Z,)),
    "Nat.succ": ("special", "succ"),
    "Nat.pred": ("special", "pred"),
    "Nat.ModEq": ("special", "nat_modeq"),
    "Int.ModEq": ("special", "int_modeq"),
    "Nat.Coprime": ("special", "coprime"),
    "Nat.sqrt": ("opaque", NAT),
    "Int.sqrt": ("opaque", INT),
    "Nat.totient": ("opaque", NAT),
    "Nat.ofDigits": ("opaque", NAT),
    "Nat.primeFactors": ("opaque", "set-nat"),
    "Nat.factors": ("opaque", ListSort(NAT)),
    "Nat.primeFactorsList": ("opaque", ListSort(NAT)),
    "Rat.num": ("opaque", INT),
    "Rat.den": ("opaque", NAT),
    "Int.emod": ("special", "emod"),
    "Int.ediv": ("special", "ediv"),
    "Int.fdiv": ("special", "fdiv"),
    "Int.fmod": ("special", "fmod"),
    "Int.toNat'": ("opaque", NAT),
    "Nat.cast": ("special", "cast"),
    "Int.cast": ("special", "cast"),
    "Rat.cast": ("special", "cast"),
    "Int.ofNat": ("special", "int_ofnat"),
    "orderOf": ("opaque", NAT),
    "Fintype.card": ("special", "card"),
    "Nat.card": ("special", "card"),
    "Polynomial.natDegree": ("opaque", NAT),
    "Irrational": ("special", "irrational"),
    "Squarefree": ("opaque", BOOL),
    "IsSquare": ("opaque", BOOL),
    "deriv": ("opaque", "arg0-codomain"),
    "iteratedDeriv": ("opaque", REAL),
    "Real.nnabs": ("opaque", "NNReal"),
    "Real.toNNReal": ("opaque", "NNReal"),
    "legendreSym": ("opaque", INT),
    # lists
    "List.sum": ("special", "list_sum"),
    "List.length": ("special", "list_length"),
    "List.prod": ("opaque", "list-elem"),
    # sets and finsets
    "Finset.range": ("fixed", "range", (N,)),
    "Finset.Icc": ("special", "Icc"),
    "Finset.Ico": ("special", "Ico"),
    "Finset.Ioc": ("special", "Ioc"),
    "Finset.Ioo": ("special", "Ioo"),
    "Set.Icc": ("special", "Icc"),
    "Set.Ico": ("special", "Ico"),
    "Set.Ioc": ("special", "Ioc"),
    "Set.Ioo": ("special", "Ioo"),
    "Set.Ici": ("opaque", "set-arg0"),
    "Set.Iic": ("opaque", "set-arg0"),
    "Set.Ioi": ("opaque", "set-arg0"),
    "Set.Iio": ("opaque", "set-arg0"),
    "Finset.card": ("special", "card"),
    "Set.ncard": ("special", "card"),
    "Finset.filter": ("special", "filter"),
    "Finset.image": ("special", "image"),
    "Set.image": ("special", "image"),
    "Finset.sum": ("special", "sum"),
    "Finset.prod": ("special", "prod"),
    "Set.Finite": ("special", "finite"),
    "Set.Infinite": ("special", "infinite"),
    "Finite": ("special", "finite"),
    "Set.toFinset": ("special", "identity_set"),
    "Finset.toSet": ("special", "identity_set"),
    "IsLeast": ("special", "is_least"),
    "IsGreatest": ("special", "is_greatest"),
    "Function.Injective": ("special", "injective"),
    "Set.univ": ("opaque", "set-expected"),
    "Finset.univ": ("opaque", "set-expected"),
    "True": ("const", "true"),
    "False": ("const", "false"),
    "Not": ("fixed", "not", (BOOL,)),
    "And": ("fixed", "and", (BOOL, BOOL)),
    "Or": ("fixed", "or", (BOOL, BOOL)),
    "Iff": ("fixed", "iff", (BOOL, BOOL)),
    "ite": ("special", "ite"),
    "id": ("special", "id"),
}

#: Namespaces searched for field notation ``x.f`` by the receiver's sort.
#: (Nat/Int/... receivers also see generic root names such as ``x.Prime`` → ``Nat.Prime``.)
ROOT_ALIASES = {"Real.sqrt": "√", "Nat.factorial": "!"}

#: Predicates / properties (not types) whose heads decide that ``(h : Head ...)`` is a hypothesis.
PROP_HEADS = {
    "Continuous", "ContinuousOn", "ContinuousAt", "Differentiable", "DifferentiableOn",
    "DifferentiableAt", "HasDerivAt", "Dense", "Nonempty", "Finite", "Infinite", "Countable",
    "Tendsto", "Filter.Tendsto", "Summable", "Monotone", "StrictMono", "Antitone", "StrictAnti",
    "MonotoneOn", "StrictMonoOn", "Injective", "Surjective", "Bijective", "Function.Injective",
    "Function.Surjective", "Function.Bijective", "Irrational", "Even", "Odd", "Prime",
    "Nat.Prime", "Squarefree", "IsOpen", "IsClosed", "IsCompact", "IsConnected", "Fact",
    "Nat.Coprime", "IsUnit", "Measurable", "Integrable", "UniformContinuous", "ConvexOn",
    "ConcaveOn", "Set.Finite", "Set.Infinite", "CauchySeq", "Bornology.IsBounded", "BddAbove",
    "BddBelow", "IsLeast", "IsGreatest", "IsLUB", "IsGLB", "Disjoint", "Irreducible",
    "Polynomial.Monic", "Nat.ModEq", "Int.ModEq", "Set.InjOn", "Set.SurjOn", "Set.BijOn",
    "AntitoneOn", "StrictAntiOn", "ContDiff", "AnalyticAt", "IsSquare", "Commute",
}

#: Heads of types the IR does not model: a binder ``(x : Head ...)`` is a variable of an opaque sort.
TYPE_HEADS = {
    "Fin", "ZMod", "Matrix", "Polynomial", "MvPolynomial", "Subgroup", "Ideal", "Sylow",
    "Equiv.Perm", "Equiv", "Submodule", "Module", "Multiset", "Option", "Prod", "Sum",
    "EuclideanSpace", "PowerSeries", "Units", "Subfield", "Subring", "IntermediateField",
    "Function.End", "Filter", "GaussianInt", "Zsqrtd", "Finsupp", "LinearMap", "RingHom",
    "MonoidHom", "AddSubgroup", "QuotientGroup.Quotient", "Cardinal", "Ordinal", "Quaternion",
}
