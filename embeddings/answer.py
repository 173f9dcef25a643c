"""The answer part of a statement: "... The final answer is $\\frac{5}{2}$."

Competition problems are formalized together with their answer (MATH: "what is k?" plus
"The final answer is 7"; miniF2F: "Show that it is 36").  A back-translation ends the same
way.  Comparing a whole back-translation with the whole problem mixes two questions: is the
*setup* the same, and is the *answer* the same?  A sentence embedding answers the second
one badly (7 and 8 embed alike), so the semantic score compares the question parts by
embedding and the answers exactly (:func:`answer_value`).
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = ["answer_value", "split_answer"]

_ANSWER_SENTENCE = re.compile(
    r"(?:^|(?<=[\s.;:!?$]))"
    r"(?:the\s+final\s+answer\s+is|the\s+answer\s+is|show\s+that\s+it\s+is|"
    r"prove\s+that\s+it\s+is|so\s+the\s+answer\s+is)\b(?P<answer>.*)$",
    re.IGNORECASE | re.DOTALL,
)


def split_answer(text: str) -> tuple[str, str | None]:
    """``(question part, answer text)``; the answer is the last "the (final) answer is ..."
    / "show that it is ..." clause, or None when the text has none."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    found = None
    for m in _ANSWER_SENTENCE.finditer(text):
        found = m
    if found is None:
        return text.strip(), None
    answer = found.group("answer").strip().rstrip(".").strip()
    return text[: found.start()].strip(), answer or None


_WRAPPERS = (
    re.compile(r"^\\boxed\{(.*)\}$", re.S),
    re.compile(r"^\\(?:text(?:bf)?|mathrm)\{\s*\([A-E]\)\s*\}\s*(.+)$", re.S),
    re.compile(r"^\\text\{(.*)\}$", re.S),
    re.compile(r"^\((.*)\)$", re.S),
)
_FRAC = re.compile(r"^(-?)\\[dt]?frac\{(-?\d+)\}\{(-?\d+)\}$")
_FRAC_SHORT = re.compile(r"^(-?)\\[dt]?frac(\d)(\d)$")
_NUMBER = re.compile(r"^-?(\d+(\.\d*)?|\.\d+)$")
_THOUSANDS = re.compile(r"^-?\d{1,3}(,\d{3})+(\.\d+)?$")
_RATIO = re.compile(r"^(-?\d+)/(\d+)$")


def answer_value(text: str | None) -> Fraction | None:
    """The exact rational value of an answer written as a number (``7``, ``-6.5``,
    ``1,000``, ``\\frac{5}{2}``, ``-\\dfrac{1}{3}``, ``5/2``, ``$\\boxed{7}$``), else None
    (expressions, intervals, several values: no exact comparison is attempted)."""
    if text is None:
        return None
    s = text.strip().rstrip(".").strip()
    s = s.replace("\\ ", " ").replace("$", "").replace("\\!", "").replace("\\,", "").replace(" ", "")
    s = s.replace("\\left", "").replace("\\right", "")
    changed = True
    while changed and s:
        changed = False
        for w in _WRAPPERS:
            m = w.match(s)
            if m:
                s = m.group(1).strip()
                changed = True
    s = re.sub(r"^[a-zA-Z]\w*=", "", s)  # "k=7" -> "7"
    if _THOUSANDS.match(s):
        s = s.replace(",", "")
    try:
        if _NUMBER.match(s):
            return Fraction(s)
        m = _FRAC.match(s) or _FRAC_SHORT.match(s)
        if m:
            value = Fraction(int(m.group(2)), int(m.group(3)))
            return -value if m.group(1) else value
        m = _RATIO.match(s)
        if m:
            return Fraction(int(m.group(1)), int(m.group(2)))
    except (ValueError, ZeroDivisionError):
        return None
    return None
