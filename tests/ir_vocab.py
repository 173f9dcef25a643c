"""Shorthand IR vocabulary shared by the semantics tests (evaluator, SMT encodings)."""

from provers.ir import INT, NAT, REAL, Var, num

x, y = Var("x", REAL), Var("y", REAL)
n, m = Var("n", NAT), Var("m", NAT)
i, j = Var("i", INT), Var("j", INT)


def R(v):
    return num(v, REAL)


def Z(v):
    return num(v, INT)


def N(v):
    return num(v, NAT)
