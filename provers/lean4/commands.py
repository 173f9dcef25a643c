"""Lean 4 command keywords, and which of them a statement may contain.

One table for the two places that read candidate text: the frontend (``provers.lean4.header``
raises ``ParseError``) and the security screen (``provers.backends.lean.security`` raises
``UnsafeLeanError``). A statement is a header plus one declaration; any other command changes
what the text means to Lean (notation, instances, attributes, scopes) or runs code, so the
frontend refuses it with the advice below rather than reading past it.

The keywords are the commands of Lean core, Batteries, Mathlib, Aesop, Qq and Plausible (the
command list of a Mathlib environment, ``#help command``): every word that can start a
command. ``#``-commands (``#eval``, ``#exit``, ``#print``, ...) are recognised by their ``#``.
"""

from __future__ import annotations

#: Commands the frontend models (in the header, before the declaration).
HEADER_COMMANDS = frozenset({"import", "open", "universe", "variable", "set_option", "def",
                             "abbrev", "noncomputable"})

#: Declaration keywords of the one statement.
DECLARATIONS = frozenset({"theorem", "lemma", "example"})

#: Modifiers that may precede the declaration without changing what it states.
HARMLESS_MODIFIERS = frozenset({"private", "protected", "nonrec", "noncomputable"})

_ADVICE = {
    "notation": "it changes how the text after it is read (notation, syntax, macros, "
                "elaborators); write the statement with standard notation and no such command",
    "environment": "it adds or changes declarations, instances, attributes or simp sets the "
                   "statement may rely on; give the theorem on its own (definitions only as "
                   "`def`/`abbrev`)",
    "scope": "scopes change how names resolve; state the theorem at top level (use "
             "`open ... in` before it if needed)",
    "run": "it runs code while Lean reads the file; it is never part of a statement: remove it",
    "modifier": "this modifier changes how the declaration is compiled or checked; remove it",
    "declaration": "a statement is exactly one theorem/lemma/example (optionally after "
                   "`def`/`abbrev` definitions it uses)",
    "header": "header commands (import, open, universe, variable, set_option) go before the "
              "declaration, each on its own",
}

_BY_KIND = {
    "notation": """
        notation notation3 infix infixl infixr prefix postfix binder_predicate syntax macro
        macro_rules elab elab_rules declare_syntax_cat unif_hint elab_stx_quot
        declare_simp_like_tactic declare_config_elab declare_command_config_elab
    """,
    "environment": """
        instance instances attribute deriving class structure inductive coinductive axiom
        axioms constant opaque alias export mutual seal unseal irreducible_def init_quot
        add_decl_doc gen_injective_theorems simproc dsimproc simproc_decl dsimproc_decl
        builtin_simproc builtin_dsimproc builtin_simproc_decl builtin_dsimproc_decl
        simproc_pattern builtin_simproc_pattern register_simp_attr register_label_attr
        register_option register_builtin_option register_tactic_tag register_error_explanation
        register_hint add_aesop_rules erase_aesop_rules declare_aesop_rule_sets
        norm_cast_add_elim initialize_simps_projections mk_iff_of_inductive_prop
        compile_inductive compile_def declare_uint_theorems declare_bitwise_uint_theorems
        declare_int_theorems declare_uint_simprocs grind_pattern recommended_spelling
        set_premise_selector insert_to_additive_translation deprecated_alias extend_docs
        library_note add_tactic_doc tactic_extension recall proof_wanted lrat_proof
        suppress_compilation unsuppress_compilation show_panel_widgets assert_exists
        assert_not_exists assert_not_imported assert_no_sorry deprecate sudo unset_option
        test_extern open_locale localized restate_axiom mk_all definition partial_fixpoint
        prelude module
    """,
    "scope": "namespace section end include omit with_weak_namespace",
    "run": """
        run_cmd run_elab run_meta run_tac initialize builtin_initialize count_heartbeats
        whatsnew
    """,
    "modifier": "unsafe partial meta public local scoped",
    "declaration": "theorem lemma example def abbrev",
    "header": "import open universe universes variable variables set_option",
}

#: keyword -> kind (a key of the advice table)
COMMAND_KIND: dict[str, str] = {w: kind for kind, words in _BY_KIND.items() for w in words.split()}
#: Every word that starts a Lean command (``#``-commands aside).
COMMAND_KEYWORDS: frozenset[str] = frozenset(COMMAND_KIND) | HARMLESS_MODIFIERS

#: Words that only occur around commands (never inside a statement's type).
AROUND_COMMANDS = frozenset({"where", "extends", "termination_by", "decreasing_by",
                             "show_term"})

#: Namespaces whose opening brings IO, processes, the file system, unsafe code or the command
#: and term elaborators into scope: refused in `open`. (`open Lean Meta Qq`, a boilerplate line
#: of published prover headers, only brings names into scope and is accepted: opening a
#: namespace runs nothing, and every identifier is still screened.)
META_NAMESPACE_ROOTS = frozenset({"IO", "EIO", "BaseIO", "EST", "ST", "System"})
#: ... and namespace components that do the same anywhere in a dotted name.
META_NAMESPACE_PARTS = frozenset({"Elab", "Command", "Parser", "Macro", "Syntax", "Tactic",
                                  "Compiler", "IR", "Process", "FS", "Unsafe"})

#: Packages of a Mathlib environment (Mathlib and what it depends on): the modules a statement
#: may import. Another module can add instances or notation the frontend does not know.
MATHLIB_PACKAGES = frozenset({"Mathlib", "Aesop", "Batteries", "Qq", "ProofWidgets",
                              "Plausible", "ImportGraph", "LeanSearchClient", "Lean", "Std",
                              "Init"})

#: `set_option` names that cannot change what a statement means (resource limits, linters,
#: printing, tracing, binder-annotation checks). Anything else (``autoImplicit``,
#: ``relaxedAutoImplicit``, elaboration options) is refused by the frontend.
MEANING_NEUTRAL_OPTIONS = frozenset({"maxHeartbeats", "maxRecDepth", "synthInstance.maxHeartbeats",
                                     "synthInstance.maxSize", "checkBinderAnnotations",
                                     "exponentiation.threshold"})
MEANING_NEUTRAL_OPTION_PREFIXES = ("linter.", "pp.", "trace.")


def is_command_keyword(word: str) -> bool:
    return word in COMMAND_KEYWORDS


def command_reason(word: str) -> str:
    """Why the command ``word`` cannot be part of a statement, and what to do."""
    if word.startswith("#"):
        return f"`{word}` command: {_ADVICE['run']}"
    kind = COMMAND_KIND.get(word, "environment")
    return f"`{word}` command: {_ADVICE[kind]}"


def meta_namespace(name: str) -> str | None:
    """The offending component when opening ``name`` brings meta-programming or IO into scope."""
    parts = name.split(".")
    if parts[0] in META_NAMESPACE_ROOTS:
        return parts[0]
    for p in parts:
        if p in META_NAMESPACE_PARTS:
            return p
    return None


def meaning_neutral_option(name: str) -> bool:
    return name in MEANING_NEUTRAL_OPTIONS or name.startswith(MEANING_NEUTRAL_OPTION_PREFIXES)


__all__ = [
    "AROUND_COMMANDS",
    "COMMAND_KEYWORDS",
    "COMMAND_KIND",
    "DECLARATIONS",
    "HARMLESS_MODIFIERS",
    "HEADER_COMMANDS",
    "MATHLIB_PACKAGES",
    "command_reason",
    "is_command_keyword",
    "meaning_neutral_option",
    "meta_namespace",
]
