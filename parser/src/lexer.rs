//! The lexer: text to a flat list of tokens that covers every byte of the input.
//!
//! Every byte lands in exactly one token. Bytes the MLIR grammar does not know become `ERROR`
//! tokens; runs of them are merged so that one bad stretch gives one diagnostic.

use logos::Logos;

use crate::SyntaxKind::{self, ERROR};

/// A token of the input: its kind and the byte offset where it starts. It ends where the next
/// token starts, or at the end of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LexedToken {
    pub kind: SyntaxKind,
    pub start: u32,
}

/// Splits `text` into tokens, trivia included. Never fails and never panics.
///
/// The parser does not call this: it lexes in `input::prepare`, fused with its layout pass.
/// This plain loop is kept on purpose as the reference the parse path is tested against
/// (`tests/properties.rs`, `tests/corpus.rs`), and for tools that want the token stream alone.
///
/// Texts of 4 GiB or more do not fit the tree's `u32` offsets; the edges (CLI, server) refuse
/// them before they get here.
pub fn lex(text: &str) -> Vec<LexedToken> {
    assert!(text.len() < u32::MAX as usize, "texts of 4 GiB or more are refused at the edge");
    let bytes = text.as_bytes();
    let mut tokens: Vec<LexedToken> = Vec::with_capacity(text.len() / 2 + 1);
    let mut lexer = SyntaxKind::lexer(bytes);
    let mut end = 0u32;
    while let Some(result) = lexer.next() {
        let kind = result.unwrap_or(ERROR);
        let span = lexer.span();
        let start = span.start as u32;
        split_trivia(bytes, end, start, |kind, start| tokens.push(LexedToken { kind, start }));
        end = span.end as u32;
        // One run of unrecognised bytes is one token.
        if kind == ERROR && tokens.last().is_some_and(|t| t.kind == ERROR) {
            continue;
        }
        tokens.push(LexedToken { kind, start });
    }
    split_trivia(bytes, end, text.len() as u32, |kind, start| {
        tokens.push(LexedToken { kind, start })
    });
    tokens
}

/// Splits the trivia between `from` and `to` the way the lexer would have (see `trivia_piece`).
/// The lexer skips trivia; this and `trivia_piece` are the one place that turns it into tokens.
pub(crate) fn split_trivia(text: &[u8], from: u32, to: u32, mut emit: impl FnMut(SyntaxKind, u32)) {
    let mut at = from;
    while at < to {
        let (kind, end) = trivia_piece(text, at, to);
        emit(kind, at);
        at = end;
    }
}

/// The piece of trivia that starts at `at` in a gap ending at `end`: a maximal run of
/// whitespace, or a `//` comment up to (not including) the end of its line. Returns its kind
/// and where it ends.
pub(crate) fn trivia_piece(text: &[u8], at: u32, end: u32) -> (SyntaxKind, u32) {
    let (start, end) = (at as usize, end as usize);
    let mut at = start;
    let kind = if text[at] == b'/' && text.get(at + 1) == Some(&b'/') {
        at += text[at..end].iter().position(|&b| b == b'\n').unwrap_or(end - at);
        SyntaxKind::COMMENT
    } else {
        while at < end && matches!(text[at], b' ' | b'\t' | b'\r' | b'\n' | 0x0C) {
            at += 1;
        }
        SyntaxKind::WHITESPACE
    };
    // Only trivia lies between tokens; should that ever be false, keep the bytes as one error
    // token rather than loop.
    if at == start {
        (ERROR, end as u32)
    } else {
        (kind, at as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SyntaxKind::*;

    fn kinds(text: &str) -> Vec<(SyntaxKind, &str)> {
        let tokens = lex(text);
        tokens
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let end = tokens.get(i + 1).map_or(text.len(), |n| n.start as usize);
                (t.kind, &text[t.start as usize..end])
            })
            .filter(|(k, _)| *k != WHITESPACE)
            .collect()
    }

    #[test]
    fn ssa_names_labels_symbols() {
        assert_eq!(
            kinds("%x %0 %x#1 %r:2 ^bb0 @f @\"q s\""),
            vec![
                (VALUE_ID, "%x"),
                (VALUE_ID, "%0"),
                (VALUE_ID, "%x#1"),
                (VALUE_ID, "%r"),
                (COLON, ":"),
                (INT, "2"),
                (CARET_ID, "^bb0"),
                (AT_ID, "@f"),
                (AT_ID, "@\"q s\""),
            ]
        );
    }

    #[test]
    fn aliases_dialect_types_and_identifiers() {
        assert_eq!(
            kinds("#map !t !handshake.channel<i32> handshake.func"),
            vec![
                (HASH_ID, "#map"),
                (BANG_ID, "!t"),
                (BANG_ID, "!handshake.channel"),
                (L_ANGLE, "<"),
                (IDENT, "i32"),
                (R_ANGLE, ">"),
                (IDENT, "handshake.func"),
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(
            kinds("42 0x1F 1.5 2.0e-3 1e9 0x1.8p3 -7"),
            vec![
                (INT, "42"),
                (INT, "0x1F"),
                (FLOAT, "1.5"),
                (FLOAT, "2.0e-3"),
                (FLOAT, "1e9"),
                (FLOAT, "0x1.8p3"),
                (MINUS, "-"),
                (INT, "7"),
            ]
        );
    }

    #[test]
    fn strings_comments_and_split_markers() {
        assert_eq!(
            kinds("\"a\\\"b\" // c\n// -----\n\"open"),
            vec![
                (STRING, "\"a\\\"b\""),
                (COMMENT, "// c"),
                (SPLIT_MARKER, "// -----"),
                (ERROR, "\"open"),
            ]
        );
    }

    #[test]
    fn punctuation() {
        let all: Vec<_> = kinds("( ) [ ] { } < > , : = -> ... ? * + - | / {-# #-}")
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(
            all,
            vec![
                L_PAREN,
                R_PAREN,
                L_BRACK,
                R_BRACK,
                L_BRACE,
                R_BRACE,
                L_ANGLE,
                R_ANGLE,
                COMMA,
                COLON,
                EQ,
                ARROW,
                ELLIPSIS,
                QUESTION,
                STAR,
                PLUS,
                MINUS,
                PIPE,
                SLASH,
                FILE_METADATA_BEGIN,
                FILE_METADATA_END,
            ]
        );
    }

    /// The automaton reads bytes (`utf8 = false` in `SyntaxKind`): a character of several bytes
    /// is never cut, in a string, a comment or a quoted symbol, nor where no token may hold it,
    /// and the parse reports such characters whole.
    #[test]
    fn characters_of_several_bytes_stay_whole() {
        let text = "\"é\\😀\" @\"ü sym\" // ß\n%a€ é😀 \"open ✓";
        assert_eq!(
            kinds(text),
            vec![
                (STRING, "\"é\\😀\""),
                (AT_ID, "@\"ü sym\""),
                (COMMENT, "// ß"),
                (VALUE_ID, "%a"),
                (ERROR, "€"),
                (ERROR, "é😀"),
                (ERROR, "\"open ✓"),
            ]
        );
        let invalid: Vec<&str> = crate::parse(text)
            .errors()
            .iter()
            .filter(|e| e.kind == crate::SyntaxErrorKind::InvalidToken)
            .map(|e| &text[usize::from(e.range.start())..usize::from(e.range.end())])
            .collect();
        assert_eq!(invalid, vec!["€", "é😀", "\"open ✓"]);
    }

    #[test]
    fn unknown_bytes_become_one_error_token() {
        assert_eq!(kinds("a ¤¤` b"), vec![(IDENT, "a"), (ERROR, "¤¤`"), (IDENT, "b")]);
    }
}
