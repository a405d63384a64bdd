//! Diagnostics: codes, severities, messages, related notes and fixes, as plain data.
//!
//! Every code is listed once in `DiagnosticCode`, and its code string, default severity and
//! title are exhaustive matches below, so adding a code forces a decision on each. Codes are
//! stable and never reused: `HS0xxx` syntax, `HS1xxx` types and structure, `HS2xxx` dataflow
//! graph and buffers, `HS3xxx` ctrl-done and memory, `HS4xxx` pipelines, `HS5xxx` backend.

use hsir_parser::TextRange;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Information,
    Hint,
}

impl Severity {
    /// The LSP name, also used by `hsir check --format json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "information",
            Severity::Hint => "hint",
        }
    }
}

/// Declares `DiagnosticCode` from one table, one line per code, so that a code's string, default
/// severity and title are written together and adding a code is one line.
macro_rules! diagnostic_codes {
    ($($(#[$meta:meta])* $name:ident = $code:literal, $severity:ident, $title:literal;)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum DiagnosticCode {
            $($(#[$meta])* $name,)*
        }

        impl DiagnosticCode {
            pub const ALL: &'static [DiagnosticCode] = &[$(DiagnosticCode::$name,)*];

            pub fn code(self) -> &'static str {
                match self {
                    $(DiagnosticCode::$name => $code,)*
                }
            }

            pub fn default_severity(self) -> Severity {
                match self {
                    $(DiagnosticCode::$name => Severity::$severity,)*
                }
            }

            /// A short title, used as the heading of the code's documentation page.
            pub fn title(self) -> &'static str {
                match self {
                    $(DiagnosticCode::$name => $title,)*
                }
            }
        }
    };
}

diagnostic_codes! {
    // ---- HS0xxx: syntax -------------------------------------------------------------------
    /// The file is not valid UTF-8.
    InvalidUtf8 = "HS0001", Error, "file is not valid UTF-8";
    /// A token or line that fits no construct.
    UnexpectedToken = "HS0002", Error, "unexpected token";
    /// A delimiter or block that is never closed.
    UnclosedDelimiter = "HS0003", Error, "unclosed delimiter";
    /// A required piece of syntax is missing.
    ExpectedSyntax = "HS0004", Error, "missing syntax";
    /// Brackets nested beyond the parser's depth limit.
    NestingTooDeep = "HS0005", Error, "nesting too deep";
    /// Characters that form no MLIR token, or an unterminated string.
    InvalidToken = "HS0006", Error, "invalid token";

    // ---- HS1xxx: types ----------------------------------------------------------------------
    /// A channel's data or an extra signal that is not an integer or a float.
    SignalNotIntOrFloat = "HS1001", Error, "signal type is not an integer or a float";
    /// A channel's data type of width 0.
    ZeroWidthData = "HS1002", Error, "channel data of zero width";
    /// Two extra signals of one type with the same name.
    DuplicateSignalName = "HS1003", Error, "extra signal name used twice";
    /// An extra-signal name with characters other than letters, digits and `_`.
    BadSignalName = "HS1004", Error, "extra signal name with invalid characters";
    /// An extra signal named `valid` or `ready`.
    ReservedSignalName = "HS1005", Error, "reserved extra signal name";

    // ---- HS11xx: SSA and single use -----------------------------------------------------

    // ---- HS12xx: op signatures ------------------------------------------------------------

    // ---- HS4xxx: pipelines ------------------------------------------------------------------
}

impl DiagnosticCode {
    pub fn from_code(code: &str) -> Option<DiagnosticCode> {
        DiagnosticCode::ALL.iter().copied().find(|c| c.code() == code)
    }
}

/// A text edit: replace `range` with `new_text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// A quick fix: a label and the edits that apply it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub label: String,
    pub edits: Vec<TextEdit>,
}

/// Another location that explains a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    pub range: TextRange,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: DiagnosticCode,
    pub range: TextRange,
    pub severity: Severity,
    /// Lowercase, naming the objects involved; other locations go in `related`.
    pub message: String,
    pub related: Vec<Related>,
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    pub fn new(code: DiagnosticCode, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            range,
            severity: code.default_severity(),
            message: message.into(),
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn with_related(mut self, range: TextRange, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related { range, message: message.into() });
        self
    }
}
