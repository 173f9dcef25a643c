"""Errors raised by the provers package, each saying which input, where, and why."""

from __future__ import annotations


class IRError(ValueError):
    """An ill-formed IR term (wrong sorts or arity). Frontends turn it into ParseError."""


class ParseError(ValueError):
    """Text that is not a well-formed statement in the given language.

    ``line`` and ``column`` are 1-based positions in the text given to ``parse``;
    ``reason`` is one line a user can act on.
    """

    def __init__(self, reason: str, line: int = 1, column: int = 1, text: str | None = None):
        self.reason = reason
        self.line = line
        self.column = column
        self.text = text
        super().__init__(f"line {line}, column {column}: {reason}")

    @classmethod
    def at_offset(cls, reason: str, text: str, offset: int) -> ParseError:
        """Build from a 0-based character offset into ``text``."""
        offset = max(0, min(offset, len(text)))
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        return cls(reason, line, column, text)


class InputTooLargeError(ParseError):
    """Input beyond the configured size or nesting limits (protects the batch)."""
