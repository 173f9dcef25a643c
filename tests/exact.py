"""Exact ground truth the engine's answers are compared with in tests (Fractions only)."""

from fractions import Fraction


def rank(rows: list[list[Fraction]]) -> int:
    """The rank of ``rows`` over ℚ (Gaussian elimination on exact fractions)."""
    m = [r[:] for r in rows]
    done, col, n = 0, 0, len(m[0]) if m else 0
    while done < len(m) and col < n:
        piv = next((i for i in range(done, len(m)) if m[i][col] != 0), None)
        if piv is None:
            col += 1
            continue
        m[done], m[piv] = m[piv], m[done]
        for i in range(len(m)):
            if i != done and m[i][col] != 0:
                f = m[i][col] / m[done][col]
                m[i] = [a - f * b for a, b in zip(m[i], m[done], strict=True)]
        done, col = done + 1, col + 1
    return done
