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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DiagnosticCode {
    /// The file is not valid UTF-8.
    InvalidUtf8,
    /// A token or line that fits no construct.
    UnexpectedToken,
    /// A delimiter or block that is never closed.
    UnclosedDelimiter,
    /// A required piece of syntax is missing.
    ExpectedSyntax,
    /// Brackets nested beyond the parser's depth limit.
    NestingTooDeep,
    /// Characters that form no MLIR token, or an unterminated string.
    InvalidToken,
    /// A channel's data or an extra signal that is not an integer or a float.
    SignalNotIntOrFloat,
    /// A channel's data type of width 0.
    ZeroWidthData,
    /// Two extra signals of one type with the same name.
    DuplicateSignalName,
    /// An extra-signal name with characters other than letters, digits and `_`.
    BadSignalName,
    /// An extra signal named `valid` or `ready`.
    ReservedSignalName,
}

impl DiagnosticCode {
    pub const ALL: &'static [DiagnosticCode] = &[
        DiagnosticCode::InvalidUtf8,
        DiagnosticCode::UnexpectedToken,
        DiagnosticCode::UnclosedDelimiter,
        DiagnosticCode::ExpectedSyntax,
        DiagnosticCode::NestingTooDeep,
        DiagnosticCode::InvalidToken,
        DiagnosticCode::SignalNotIntOrFloat,
        DiagnosticCode::ZeroWidthData,
        DiagnosticCode::DuplicateSignalName,
        DiagnosticCode::BadSignalName,
        DiagnosticCode::ReservedSignalName,
    ];

    pub fn code(self) -> &'static str {
        match self {
            DiagnosticCode::InvalidUtf8 => "HS0001",
            DiagnosticCode::UnexpectedToken => "HS0002",
            DiagnosticCode::UnclosedDelimiter => "HS0003",
            DiagnosticCode::ExpectedSyntax => "HS0004",
            DiagnosticCode::NestingTooDeep => "HS0005",
            DiagnosticCode::InvalidToken => "HS0006",
            DiagnosticCode::SignalNotIntOrFloat => "HS1001",
            DiagnosticCode::ZeroWidthData => "HS1002",
            DiagnosticCode::DuplicateSignalName => "HS1003",
            DiagnosticCode::BadSignalName => "HS1004",
            DiagnosticCode::ReservedSignalName => "HS1005",
        }
    }

    pub fn default_severity(self) -> Severity {
        match self {
            DiagnosticCode::InvalidUtf8
            | DiagnosticCode::UnexpectedToken
            | DiagnosticCode::UnclosedDelimiter
            | DiagnosticCode::ExpectedSyntax
            | DiagnosticCode::NestingTooDeep
            | DiagnosticCode::InvalidToken
            | DiagnosticCode::SignalNotIntOrFloat
            | DiagnosticCode::ZeroWidthData
            | DiagnosticCode::DuplicateSignalName
            | DiagnosticCode::BadSignalName
            | DiagnosticCode::ReservedSignalName => Severity::Error,
        }
    }

    /// A short title, used as the heading of the code's documentation page.
    pub fn title(self) -> &'static str {
        match self {
            DiagnosticCode::InvalidUtf8 => "file is not valid UTF-8",
            DiagnosticCode::UnexpectedToken => "unexpected token",
            DiagnosticCode::UnclosedDelimiter => "unclosed delimiter",
            DiagnosticCode::ExpectedSyntax => "missing syntax",
            DiagnosticCode::NestingTooDeep => "nesting too deep",
            DiagnosticCode::InvalidToken => "invalid token",
            DiagnosticCode::SignalNotIntOrFloat => "signal type is not an integer or a float",
            DiagnosticCode::ZeroWidthData => "channel data of zero width",
            DiagnosticCode::DuplicateSignalName => "extra signal name used twice",
            DiagnosticCode::BadSignalName => "extra signal name with invalid characters",
            DiagnosticCode::ReservedSignalName => "reserved extra signal name",
        }
    }

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
