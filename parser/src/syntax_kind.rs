//! `SyntaxKind`: one enum naming every token and every node of the tree.
//!
//! The lexer is derived from this enum (logos), so a token kind and the regular expression that
//! produces it are written once, side by side. Node kinds carry no lexer attributes; they come
//! after `NODE_START` so that `is_token` is a single comparison.

use logos::Logos;

/// Declares `SyntaxKind` and the table of kind names from one list of variants.
macro_rules! syntax_kinds {
    ($($(#[$meta:meta])* $kind:ident,)*) => {
        /// The lexer skips trivia: the gaps between tokens are whitespace and `//` comments by
        /// construction, and `lexer::split_trivia` splits them into `WHITESPACE` and `COMMENT` tokens
        /// where they are needed (in the tree and in `lex`). Skipping them in the automaton is faster
        /// than returning them. Skipping a line break sets the lexer's extra, so that whether a
        /// token starts a line costs nothing per token.
        ///
        /// The automaton reads bytes (`utf8 = false`). Every pattern spells out only ASCII bytes
        /// and takes other bytes only through a negated class (`[^\n]`, `[^"\\\n]`) or `.`,
        /// so on UTF-8 text it finds the tokens a char-wise automaton finds: a character of
        /// several bytes is taken whole or, outside strings and comments, its bytes join one run
        /// of unrecognised bytes (both lexers make one `ERROR` token of such a run). Stepping
        /// over a byte needs no char-boundary check.
        #[allow(non_camel_case_types)]
        #[derive(Logos, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[logos(extras = bool)]
        #[logos(utf8 = false)]
        #[logos(skip r"[ \t\r\x0C]+")]
        #[logos(skip(r"\n[ \t\r\n\x0C]*", |lex| lex.extras = true))]
        #[logos(skip(r"//[^\n]*", allow_greedy = true))]
        #[repr(u16)]
        pub enum SyntaxKind {
            $($(#[$meta])* $kind,)*
        }

        const KIND_NAMES: &[&str] = &[$(stringify!($kind)),*];
    };
}

syntax_kinds! {
    // ---- trivia -------------------------------------------------------------------------
    /// A run of spaces, tabs, carriage returns, newlines and form feeds.
    WHITESPACE,
    /// `//` to the end of the line (not `// -----`).
    COMMENT,

    // ---- tokens the parser sees ------------------------------------------------------------
    /// `// -----`: MLIR's split-input-file marker. It ends every open construct, as in MLIR,
    /// where the text is cut into independent cases before parsing.
    #[regex(r"// -----[^\n]*", priority = 10, allow_greedy = true)]
    SPLIT_MARKER,
    /// `%name`, `%0`, `%name#1`.
    #[regex(r"%([0-9]+|[a-zA-Z_$.\-][a-zA-Z0-9_$.\-]*)(#[0-9]+)?")]
    VALUE_ID,
    /// `^bb0`.
    #[regex(r"\^([0-9]+|[a-zA-Z_$.\-][a-zA-Z0-9_$.\-]*)")]
    CARET_ID,
    /// `@sym`, `@"quoted sym"`.
    #[regex(r#"@([a-zA-Z_$.\-0-9][a-zA-Z0-9_$.\-]*|"([^"\\\n]|\\.)*")"#)]
    AT_ID,
    /// `#alias`, `#handshake` (as in `#handshake<...>`).
    #[regex(r"#([a-zA-Z_$.\-][a-zA-Z0-9_$.\-]*|[0-9]+)")]
    HASH_ID,
    /// `!alias`, `!handshake.channel` (the `<...>` that may follow is lexed as ordinary tokens).
    #[regex(r"![a-zA-Z_$.][a-zA-Z0-9_$.\-]*")]
    BANG_ID,
    /// Bare identifiers, dotted or not: `handshake.func`, `i32`, `fork`, `x8xi32`.
    #[regex(r"[a-zA-Z_][a-zA-Z0-9_$.]*")]
    IDENT,
    #[regex(r"[0-9]+|0[xX][0-9a-fA-F]+")]
    INT,
    #[regex(r"[0-9]+\.[0-9]*([eE][+\-]?[0-9]+)?|[0-9]+[eE][+\-]?[0-9]+")]
    #[regex(r"0[xX][0-9a-fA-F]*\.[0-9a-fA-F]*[pP][+\-]?[0-9]+")]
    FLOAT,
    #[regex(r#""([^"\\\n]|\\.)*""#)]
    STRING,

    #[token("(")]
    L_PAREN,
    #[token(")")]
    R_PAREN,
    #[token("[")]
    L_BRACK,
    #[token("]")]
    R_BRACK,
    #[token("{")]
    L_BRACE,
    #[token("}")]
    R_BRACE,
    #[token("<")]
    L_ANGLE,
    #[token(">")]
    R_ANGLE,
    #[token(",")]
    COMMA,
    #[token(":")]
    COLON,
    #[token("=")]
    EQ,
    #[token("->")]
    ARROW,
    #[token("...")]
    ELLIPSIS,
    #[token("?")]
    QUESTION,
    #[token("*")]
    STAR,
    #[token("+")]
    PLUS,
    #[token("-")]
    MINUS,
    #[token("|")]
    PIPE,
    #[token("/")]
    SLASH,
    /// `{-#`: start of a file-metadata (resource) block.
    #[token("{-#")]
    FILE_METADATA_BEGIN,
    /// `#-}`: end of a file-metadata block.
    #[token("#-}")]
    FILE_METADATA_END,
    /// Anything the lexer does not recognise, an unterminated string, or a bracket nested
    /// deeper than the parser's depth limit.
    #[regex(r#""([^"\\\n]|\\.)*"#)]
    ERROR,

    // ---- nodes ------------------------------------------------------------------------------
    /// First node kind; never appears in a tree.
    NODE_START,
    SOURCE_FILE,
    /// Junk the parser could not place.
    ERROR_NODE,
    /// `#name = attr` or `!name = type` at the top level.
    ALIAS_DEF,
    /// `{-# ... #-}`.
    RESOURCE_BLOCK,
    /// Any operation, in generic or custom form.
    OP,
    /// `%a, %b:2 =` before an operation name.
    RESULT_LIST,
    /// One entry of a `RESULT_LIST`: `%b:2`.
    RESULT,
    /// The operation name: a bare identifier, or a string in the generic form.
    OP_NAME,
    /// A value used by an operation (`%x`, `%x#1`).
    OPERAND,
    /// A value an operation binds for its first region, written among its parts rather than
    /// in a block label: `%i` in `scf.for %i = %lb to %ub step %s`, `%acc` in
    /// `iter_args(%acc = %init)`, `%a` in `scf.while (%a = %x)`, `%i` in
    /// `scf.forall (%i) in (%n)`.
    REGION_ARG,
    /// A block successor: `^bb1` with optional `(operands : types)`.
    SUCCESSOR,
    /// `@sym`, `@a::@b`.
    SYMBOL_REF,
    /// `(...)` whose contents are operation items (operands, types, regions, ...).
    PAREN_GROUP,
    /// `[...]` in an operation: `fork [2]`, `memory[ld = 1, st = 0]`, `mux %s [%a, %b]`.
    BRACKET_GROUP,
    /// `<...>` whose contents are not a type: `<{props}>`, `#dialect<...>`, `dense<...>`.
    ANGLE_GROUP,
    /// `{...}` in an attribute or type that is neither a dictionary nor a region.
    BRACE_GROUP,
    /// `keyword(...)`: `regs(...)`, `pass(...)`, `stall(%s)`, `clock(%c)`.
    KEYWORD_GROUP,
    /// `loc(...)`.
    LOC,
    /// `{ key = value, unit_key }`.
    ATTR_DICT,
    /// `key = value`, inside a dictionary or inline in an operation (`numSlots = 1`).
    ATTR_ENTRY,
    /// An attribute value.
    ATTR,
    /// `[a, b]` as an attribute.
    ARRAY_ATTR,
    /// `: T, U` and `-> T` / `to T` after it.
    TYPE_LIST,
    /// One type.
    TYPE,
    /// `<...>` after a type name: `memref<4xi32>`, `!hw.array<...>`.
    TYPE_PARAMS,
    /// `<i32, [e: i1 (U)]>` after a channel type name, or on its own (Dynamatic's short form).
    CHANNEL_PARAMS,
    /// `[e: i1 (U), f: i2]` inside channel parameters.
    EXTRA_SIGNAL_LIST,
    /// One extra signal: `e: i1 (U)`, `(U) i1`, `tag1: i2`.
    EXTRA_SIGNAL,
    /// `(T, U) -> V`.
    FUNCTION_TYPE,
    /// `[T, U]` in a type list (Dynamatic's mux and control_merge forms).
    BRACKET_TYPE_LIST,
    /// `{ blocks }`.
    REGION,
    /// A block: an optional label and its operations.
    BLOCK,
    /// `^bb0(%a: i32, %b: i1):`.
    BLOCK_LABEL,
    /// The `(%a: i32, ...)` of a block label.
    BLOCK_ARG_LIST,
    /// `%a: i32 loc(...)` in a block label.
    BLOCK_ARG,
    /// The signature of a function-like op: `@f(args) -> results attributes {...}`.
    FUNC_SIGNATURE,
    /// `(%a: i32 {attrs}, ..., ...)` in a signature.
    FUNC_ARG_LIST,
    /// `%a: i32 {attrs}`, `i32 {attrs}` (declarations) or `in %a : i32` (hw.module).
    FUNC_ARG,
    /// `-> (T {attrs}, ...)` or `-> T` in a signature.
    FUNC_RESULT_LIST,
    /// One function result: `T {attrs}` or `name: T`.
    FUNC_RESULT,
    /// `attributes {...}` after a signature.
    FUNC_ATTRIBUTES,
    /// `(%a : T = %outer, ...)` of `pipeline.scheduled` / `pipeline.unscheduled`.
    PIPELINE_INPUT_LIST,
    /// `%a : T = %outer`.
    PIPELINE_INPUT,
    /// `-> (name : T, ...)` of a pipeline.
    PIPELINE_OUTPUT_LIST,
    /// `name : T`.
    PIPELINE_OUTPUT,
    /// Last kind; never appears in a tree.
    NODE_END,
}

use SyntaxKind::*;

impl SyntaxKind {
    pub const ALL_TOKENS_END: u16 = NODE_START as u16;

    pub fn is_token(self) -> bool {
        (self as u16) < NODE_START as u16
    }

    pub fn is_node(self) -> bool {
        !self.is_token()
    }

    /// Whitespace and comments: kept in the tree, invisible to the grammar.
    pub fn is_trivia(self) -> bool {
        matches!(self, WHITESPACE | COMMENT)
    }

    pub fn is_closer(self) -> bool {
        matches!(self, R_PAREN | R_BRACK | R_BRACE | R_ANGLE)
    }

    pub fn name(self) -> &'static str {
        KIND_NAMES[self as usize]
    }
}
