//! Syntax errors from the parser, as diagnostics.

use hsir_parser::{SyntaxError, SyntaxErrorKind};

use crate::{Diagnostic, DiagnosticCode};

pub(crate) fn from_syntax_error(error: &SyntaxError) -> Diagnostic {
    let code = match error.kind {
        SyntaxErrorKind::InvalidUtf8 => DiagnosticCode::InvalidUtf8,
        SyntaxErrorKind::Unexpected => DiagnosticCode::UnexpectedToken,
        SyntaxErrorKind::Unclosed => DiagnosticCode::UnclosedDelimiter,
        SyntaxErrorKind::Expected => DiagnosticCode::ExpectedSyntax,
        SyntaxErrorKind::TooDeep => DiagnosticCode::NestingTooDeep,
        SyntaxErrorKind::InvalidToken => DiagnosticCode::InvalidToken,
    };
    Diagnostic::new(code, error.range, error.message.clone())
}
