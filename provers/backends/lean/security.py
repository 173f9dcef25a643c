"""Screen untrusted Lean 4 text before it can reach a Lean process.

Lean runs code while it *elaborates* a file: `#eval`, `run_cmd`, `elab`, `macro`,
`initialize`, `@[extern]` and friends execute arbitrary programs (including `IO`) before any
proof is checked. Candidate statements come from an LLM, so they are untrusted. This module
accepts only the shape of a single theorem statement:

    [header: `import M` lines, then `open ...` lines, optionally `set_option maxHeartbeats N`]
    [comments / one docstring]
    theorem NAME binders : type [:= by sorry | := sorry | :=]      (or lemma / example)

and rejects everything else with :class:`UnsafeLeanError` naming what was found and where.
The screen is deliberately conservative (string literals, syntax quotations, attributes,
`by` blocks inside the statement, unknown commands at the start of a line ... are all
rejected): a rejected candidate costs one candidate, an accepted malicious one costs the
machine.

The configured header of a Lean session (from the user, trusted) is *not* screened here;
only text derived from candidates is.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from provers.lean4.commands import (
    AROUND_COMMANDS,
    COMMAND_KEYWORDS,
    DECLARATIONS,
    meta_namespace,
)

__all__ = [
    "UnsafeLeanError",
    "ScreenedStatement",
    "check_safe_statement",
    "check_safe_term",
    "check_safe_header",
    "screen_statement",
    "strip_comments",
    "FORBIDDEN_WORDS",
]

MAX_TEXT_CHARS = 20_000

DECL_KEYWORDS = frozenset({"theorem", "lemma", "example"})

# Words that start a command (Lean core, Batteries, Mathlib, Aesop, Qq, Plausible: the shared
# table in `provers.lean4.commands`), keywords that only make sense around commands, and names
# that run or reach compiled code. A word is checked on every dot-separated component of an
# identifier, outside comments. `#...` commands are caught separately (any `#` except the `#(`
# of Finset.card is rejected).
_COMMANDS = sorted(COMMAND_KEYWORDS | AROUND_COMMANDS | DECLARATIONS)

# Words that are fine as Lean terms but must not appear *inside* a statement we accept.
_STATEMENT_ONLY = """
by do sorry admit native_decide nativeDecide decide_native
""".split()

# Names that lead to compiled or unsafe code (checked on every identifier component).
_DANGEROUS_NAMES = """
implemented_by implementedBy extern export_name evalExpr evalConst ofReduceBool reduceBool
ofReduceNat reduceNat by_elab dbg_trace dbgTrace panic unreachable IO EIO BaseIO ST EST
System Process FS unsafeIO unsafeBaseIO unsafeEIO unsafeCast unsafeCoerce Unsafe
""".split()

FORBIDDEN_WORDS: frozenset[str] = frozenset(_COMMANDS) | frozenset(_DANGEROUS_NAMES)

# Allowed in a header `set_option` line, each with a plain numeral value.
DEFAULT_HEADER_OPTIONS = ("maxHeartbeats",)

# Characters that change how text is displayed without Lean seeing them (trojan source).
_INVISIBLE = set("\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                 "\u2066\u2067\u2068\u2069\ufeff\u00ad")

_WORD_CHARS_EXTRA = set("_'!?")
_NUMERAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")
# Multi-character symbols our structure checks care about.
_SYMBOLS = (":=", "@[", "=>", "<;>", "⁻¹'", "∑'", "∏'")


class UnsafeLeanError(ValueError):
    """Candidate text was refused before reaching Lean; says what and where (line:col)."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None,
                 snippet: str = "") -> None:
        self.reason = reason
        self.line = line
        self.column = column
        self.snippet = snippet
        where = f" at line {line}, column {column}" if line is not None else ""
        near = f" near {snippet!r}" if snippet else ""
        super().__init__(f"unsafe Lean text: {reason}{where}{near}")


@dataclass(frozen=True)
class Token:
    kind: str  # "word" | "num" | "sym"
    text: str
    pos: int  # offset in the text


@dataclass(frozen=True)
class ScreenedStatement:
    """A statement that passed the screen, split into the parts a session needs."""

    imports: tuple[str, ...]
    opens: tuple[str, ...]  # full `open ...` lines (including `set_option` lines allowed)
    declaration: str  # from the keyword to the end, comments removed (what Lean is sent)
    keyword: str
    name: str | None
    head: str = ""  # the declaration without its `:= ...` tail (the bare statement)


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1)
    return line, col


def _fail(text: str, pos: int, reason: str) -> UnsafeLeanError:
    line, col = _line_col(text, pos)
    end = text.find("\n", pos)
    snippet = text[pos: end if end != -1 else len(text)][:40]
    return UnsafeLeanError(reason, line, col, snippet)


def _check_characters(text: str) -> None:
    if len(text) > MAX_TEXT_CHARS:
        raise UnsafeLeanError(f"text longer than {MAX_TEXT_CHARS} characters")
    for i, ch in enumerate(text):
        if ch in "\n\t\r":
            continue
        if ch in _INVISIBLE:
            raise _fail(text, i, f"invisible/bidirectional control character U+{ord(ch):04X}")
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Co", "Cn"):
            raise _fail(text, i, f"control or unassigned character U+{ord(ch):04X}")
        if cat in ("Zs", "Zl", "Zp") and ch != " ":
            raise _fail(text, i, f"unusual space character U+{ord(ch):04X}")


def strip_comments(text: str) -> str:
    """Blank out comments exactly as Lean's scanner finds them (nested `/- -/`, `--`).

    Comment characters become spaces (newlines are kept) so offsets still point into the
    original text. Raises UnsafeLeanError on an unterminated block comment. The scan
    dispatches on the current character like Lean's `finishCommentBlock`, so `-/` and
    `/-` inside a comment nest and close the same way Lean does.
    """
    out = list(text)
    n = len(text)
    i = 0

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def check_opener(k: int) -> None:
        # Lean only opens a comment where a token may start. After a symbol, the two
        # characters may belong to a token (`//-`, `\\/-`, `<--`): refuse rather than guess.
        prev = text[k - 1] if k else " "
        if not (prev.isspace() or _is_word_rest(prev) or prev in "()[]{}⟨⟩,"):
            raise _fail(text, k, f"comment marker right after `{prev}`")

    while i < n:
        ch = text[i]
        if ch == '"':
            # Lean does not open comments inside string literals; strings are refused
            # later anyway, so do not interpret comment markers after an opening quote
            # here: keep scanning character by character (conservative).
            i += 1
            continue
        if ch == "-" and i + 1 < n and text[i + 1] == "-":
            check_opener(i)
            j = text.find("\n", i)
            j = n if j == -1 else j
            blank(i, j)
            i = j
            continue
        if ch == "/" and i + 1 < n and text[i + 1] == "-":
            check_opener(i)
            start = i
            depth = 1
            j = i + 2
            while j < n and depth:
                c = text[j]
                if c == "-" and j + 1 < n and text[j + 1] == "/":
                    depth -= 1
                    j += 2
                elif c == "/" and j + 1 < n and text[j + 1] == "-":
                    depth += 1
                    j += 2
                else:
                    j += 1
            if depth:
                raise _fail(text, start, "unterminated comment")
            blank(start, j)
            i = j
            continue
        i += 1
    return "".join(out)


def _letter_like(ch: str) -> bool:
    """Lean 4's `isLetterLike`: Greek (not λ Π Σ), Coptic, letterlike symbols, math alphanumerics."""
    c = ord(ch)
    return ((0x3B1 <= c <= 0x3C9 and c != 0x3BB) or (0x391 <= c <= 0x3A9 and c not in (0x3A0, 0x3A3))
            or 0x3CA <= c <= 0x3FB or 0x1F00 <= c <= 0x1FFE or 0x2100 <= c <= 0x214F
            or 0x1D49C <= c <= 0x1D59F)


def _subscript_alnum(ch: str) -> bool:
    c = ord(ch)
    return 0x2080 <= c <= 0x2089 or 0x2090 <= c <= 0x209C or 0x1D62 <= c <= 0x1D6A


def _is_word_start(ch: str) -> bool:
    """Lean's `isIdFirst` (ASCII letters, `_`, letter-like), so words split exactly where Lean's do."""
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ch == "_" or _letter_like(ch)


def _is_word_rest(ch: str) -> bool:
    """Lean's `isIdRest`."""
    return (_is_word_start(ch) or ("0" <= ch <= "9") or ch in _WORD_CHARS_EXTRA
            or _subscript_alnum(ch))


def _tokenize(text: str, code: str) -> list[Token]:
    """Tokenize comment-free `code`; refuse literals and syntax Lean treats as code-bearing."""
    toks: list[Token] = []
    n = len(code)
    i = 0
    while i < n:
        ch = code[i]
        if ch.isspace():
            i += 1
            continue
        if ch == '"':
            raise _fail(text, i, "string literal")
        if ch == "'":
            if code.startswith("''", i):  # image notation `f '' s` (never a char literal)
                toks.append(Token("sym", "''", i))
                i += 2
                continue
            raise _fail(text, i, "character literal")
        if ch == "`":
            raise _fail(text, i, "syntax quotation or name literal (`)")
        if ch in "«»":
            raise _fail(text, i, "escaped identifier («»)")
        if ch == "#" and not code.startswith("#(", i):
            raise _fail(text, i, "`#` command or literal")
        if ch == "$" and code.startswith("$(", i):
            raise _fail(text, i, "antiquotation `$(`")
        if _is_word_start(ch):
            j = i + 1
            while j < n:
                c = code[j]
                if _is_word_rest(c):
                    j += 1
                elif c == "." and j + 1 < n and _is_word_start(code[j + 1]):
                    j += 1
                else:
                    break
            word = code[i:j]
            if j < n and code[j] == "%" and len(word) > 1:
                raise _fail(text, i, f"elaborator keyword `{word}%`")
            toks.append(Token("word", word, i))
            i = j
            continue
        if "0" <= ch <= "9":
            # Digits (and one decimal part) only: letters right after a numeral start a new
            # word that is checked like any other (`2run_cmd` is `2` then `run_cmd` to Lean).
            m = _NUMERAL.match(code, i)
            assert m is not None
            toks.append(Token("num", m.group(), i))
            i = m.end()
            continue
        for sym in _SYMBOLS:
            if code.startswith(sym, i):
                if sym == "@[":
                    raise _fail(text, i, "attribute `@[...]`")
                toks.append(Token("sym", sym, i))
                i += len(sym)
                break
        else:
            toks.append(Token("sym", ch, i))
            i += 1
    return toks


def _check_word(text: str, tok: Token, extra: Iterable[str] = ()) -> None:
    extra = set(extra)
    for part in tok.text.split("."):
        if part in FORBIDDEN_WORDS or part in extra or part.rstrip("!?") in FORBIDDEN_WORDS:
            raise _fail(text, tok.pos, f"forbidden word `{part}`")
        if part.lower().startswith("unsafe"):
            raise _fail(text, tok.pos, f"forbidden word `{part}`")


_PAIRS = {")": "(", "]": "[", "}": "{", "⟩": "⟨", "⦄": "⦃", "⌋": "⌊", "⌉": "⌈"}
_OPENERS = frozenset(_PAIRS.values())
_CLOSERS = frozenset(_PAIRS)


def _check_balanced(text: str, toks: list[Token], start: int = 0, stop: int | None = None) -> None:
    pairs = _PAIRS
    stack: list[Token] = []
    for tok in toks[start:stop]:
        if tok.kind != "sym":
            continue
        if tok.text in pairs.values():
            stack.append(tok)
        elif tok.text in pairs:
            if not stack or stack[-1].text != pairs[tok.text]:
                raise _fail(text, tok.pos, f"unbalanced `{tok.text}`")
            stack.pop()
    if stack:
        raise _fail(text, stack[-1].pos, f"unclosed `{stack[-1].text}`")


def _line_numbers(code: str) -> Callable[[int], int]:
    """Offset -> 0-based line number, by bisection over the newline offsets."""
    newlines = [k for k, c in enumerate(code) if c == "\n"]
    return lambda pos: bisect.bisect_left(newlines, pos)


def _parse_header(text: str, code: str, toks: list[Token],
                  allowed_options: Iterable[str]) -> tuple[int, list[str], list[str]]:
    """Consume `import` / `open` / allowed `set_option` lines; return (next token, imports, opens)."""
    imports: list[str] = []
    opens: list[str] = []
    i = 0
    allowed = set(allowed_options)
    seen_other = False
    line_of = _line_numbers(code)
    while i < len(toks):
        tok = toks[i]
        if tok.kind != "word" or tok.text not in ("import", "open", "set_option"):
            break
        line_no = line_of(tok.pos)
        j = i + 1
        while j < len(toks) and line_of(toks[j].pos) == line_no:
            if tok.text in ("open", "set_option") and toks[j].kind == "word" and toks[j].text == "in":
                j += 1  # `open X in` / `set_option o n in` ends the line's header part
                break
            j += 1
        rest = toks[i + 1: j]
        if tok.text == "import":
            if seen_other:
                raise _fail(text, tok.pos, "`import` after other header lines")
            if len(rest) != 1 or rest[0].kind != "word":
                raise _fail(text, tok.pos, "`import` must name exactly one module")
            _check_word(text, rest[0])
            imports.append(rest[0].text)
        elif tok.text == "set_option":
            seen_other = True
            if len(rest) == 3 and rest[2].kind == "word" and rest[2].text == "in":
                # `set_option maxHeartbeats N in` only directly before the declaration
                if j < len(toks) and toks[j].text not in DECL_KEYWORDS | {"open", "set_option"}:
                    raise _fail(text, rest[2].pos, "`set_option ... in` not followed by the "
                                "statement")
                rest = rest[:2]
                suffix = " in"
            else:
                suffix = ""
            if (len(rest) != 2 or rest[0].text not in allowed or rest[1].kind != "num"
                    or not rest[1].text.isdigit()):
                raise _fail(text, tok.pos, "`set_option` (only "
                            + (", ".join(f"`{o} <n>`" for o in sorted(allowed)) or "none")
                            + " is allowed, in the header)")
            opens.append(code[tok.pos: rest[-1].pos + len(rest[-1].text)] + suffix)
        else:
            seen_other = True
            if not rest:
                raise _fail(text, tok.pos, "`open` without a namespace")
            body = rest
            if rest[-1].kind == "word" and rest[-1].text == "in":
                # `open X in` is only allowed directly before the declaration.
                if j < len(toks) and toks[j].text not in DECL_KEYWORDS | {"open"}:
                    raise _fail(text, rest[-1].pos, "`open ... in` not followed by the statement")
                body = rest[:-1]
            if not body:
                raise _fail(text, tok.pos, "`open` without a namespace")
            for k, t in enumerate(body):
                if t.kind == "word" and t.text in ("scoped", "hiding") and k <= 1:
                    continue
                if t.kind == "sym" and t.text in "()":
                    continue
                if t.kind != "word":
                    raise _fail(text, t.pos, f"unexpected `{t.text}` in `open` line")
                if t.text in DECL_KEYWORDS or t.text == "in":
                    raise _fail(text, t.pos, f"forbidden word `{t.text}` in `open` line")
                _check_word(text, t)
                meta = meta_namespace(t.text)
                if meta is not None:
                    raise _fail(text, t.pos, f"`open {t.text}` brings meta-programming or IO "
                                f"(`{meta}`) into scope")
            last = body[-1]
            opens.append("open " + code[body[0].pos: last.pos + len(last.text)])
        i = j
    return i, imports, opens


def _looks_like_command_line(code: str, tok: Token) -> bool:
    """A line starting at column 0 with a lowercase word: how unknown commands look."""
    line_start = code.rfind("\n", 0, tok.pos) + 1
    if tok.pos != line_start or tok.kind != "word":
        return False
    return bool(re.fullmatch(r"[a-z_][a-z_0-9]+", tok.text))


def _norm(s: str) -> str:
    return " ".join(s.split())


def screen_statement(text: str, *, allowed_proofs: Iterable[str] = (),
                     allowed_options: Iterable[str] = DEFAULT_HEADER_OPTIONS
                     ) -> ScreenedStatement:
    """Check `text` (header + one statement) and return its parts; raise UnsafeLeanError.

    `allowed_proofs` lists exact proof texts (compared up to whitespace) that may follow
    `:=` besides `sorry` / `by sorry` / nothing: the caller's trusted tactic portfolio.
    """
    if not isinstance(text, str):
        raise UnsafeLeanError(f"expected str, got {type(text).__name__}")
    _check_characters(text)
    code = strip_comments(text)
    toks = _tokenize(text, code)
    i, imports, opens = _parse_header(text, code, toks, allowed_options)
    if i >= len(toks):
        raise UnsafeLeanError("no theorem/lemma/example statement found")
    kw = toks[i]
    if kw.kind != "word" or kw.text not in DECL_KEYWORDS:
        raise _fail(text, kw.pos, "expected `theorem`, `lemma` or `example` "
                    f"(got `{kw.text}`)")
    decl_start = _declaration_start(toks, i)
    name: str | None = None
    j = i + 1
    if kw.text != "example":
        if j >= len(toks) or toks[j].kind != "word":
            raise _fail(text, kw.pos, f"`{kw.text}` without a name")
        name = toks[j].text
        _check_word(text, toks[j], DECL_KEYWORDS | set(_STATEMENT_ONLY))
        j += 1
    sig_start = j
    depth = 0
    while j < len(toks) and not (toks[j].text == ":=" and depth <= 0):
        if toks[j].kind == "sym" and toks[j].text in _OPENERS:
            depth += 1
        elif toks[j].kind == "sym" and toks[j].text in _CLOSERS:
            depth -= 1
        j += 1
    sig_end = j
    for t in toks[sig_start:sig_end]:
        if t.kind == "word":
            _check_word(text, t, DECL_KEYWORDS | set(_STATEMENT_ONLY) | {"import", "open"})
            if _looks_like_command_line(code, t):
                raise _fail(text, t.pos, f"line starting with `{t.text}` at column 0 looks "
                            "like a command")
    _check_balanced(text, toks, sig_start, sig_end)
    if sig_end < len(toks):
        tail = toks[sig_end + 1:]
        tail_text = code[tail[0].pos:] if tail else ""
        ok_tail = [t.text for t in tail] in ([], ["sorry"], ["by"], ["by", "sorry"])
        if not ok_tail and _norm(tail_text) not in {_norm(p) for p in allowed_proofs}:
            where = tail[0].pos if tail else toks[sig_end].pos
            raise _fail(text, where, "only `:= by sorry`, `:= sorry` or a bare `:=` may "
                        "follow the statement")
    last = toks[sig_end - 1]  # end of the statement proper: trailing comments stay out of it
    head_end = last.pos + len(last.text)
    # Lean is sent the text with comments removed: safety must not rest on our comment reader
    # agreeing with Lean's on every nesting trick
    return ScreenedStatement(tuple(imports), tuple(opens), code[decl_start:].strip(),
                             kw.text, name, code[decl_start:head_end].strip())


def _declaration_start(toks: list[Token], header_end: int) -> int:
    """Offset where the declaration text starts: right after the last header token."""
    if header_end == 0:
        return 0
    last = toks[header_end - 1]
    return last.pos + len(last.text)


def check_safe_statement(text: str, *, allowed_proofs: Iterable[str] = (),
                         allowed_options: Iterable[str] = DEFAULT_HEADER_OPTIONS) -> None:
    """Raise UnsafeLeanError unless `text` is a header plus one theorem statement."""
    screen_statement(text, allowed_proofs=allowed_proofs, allowed_options=allowed_options)


def check_safe_header(text: str, *,
                      allowed_options: Iterable[str] = DEFAULT_HEADER_OPTIONS) -> None:
    """Raise UnsafeLeanError unless `text` has only `import` / `open` (/ allowed option) lines."""
    _check_characters(text)
    code = strip_comments(text)
    toks = _tokenize(text, code)
    i, _, _ = _parse_header(text, code, toks, allowed_options)
    if i < len(toks):
        raise _fail(text, toks[i].pos, f"only `import`/`open` lines allowed in a header "
                    f"(got `{toks[i].text}`)")


def check_safe_term(text: str) -> None:
    """Raise UnsafeLeanError unless `text` is a plain term/binder fragment.

    Used on pieces (binders, premises, goal) spliced into rendered obligations: no
    commands, no `:=`, no `by`/`sorry`, balanced brackets, nothing at column 0 that looks
    like a command.
    """
    if not isinstance(text, str):
        raise UnsafeLeanError(f"expected str, got {type(text).__name__}")
    _check_characters(text)
    code = strip_comments(text)
    toks = _tokenize(text, code)
    depth = 0
    for t in toks:
        if t.kind == "sym" and t.text in _OPENERS:
            depth += 1
        elif t.kind == "sym" and t.text in _CLOSERS:
            depth -= 1
        if t.kind == "sym" and t.text == ":=" and depth <= 0:
            raise _fail(text, t.pos, "`:=` outside brackets in a term")
        if t.kind == "word":
            _check_word(text, t, DECL_KEYWORDS | set(_STATEMENT_ONLY) | {"import", "open"})
    _check_balanced(text, toks)
