//! IR files read from disk: the one place where a file's bytes become the analysis's text.
//! Bytes that are not UTF-8 are decoded lossily (`hsir_parser::decode`), and the file comes with
//! an HS0001 diagnostic at the first bad byte rather than being refused or dropped.

use std::path::Path;

use hsir_analysis::Parse;

/// A file as the analysis sees it: decoded, parsed, with any decoding diagnostic.
pub struct LoadedFile {
    pub name: String,
    pub parse: Parse,
    pub decode_error: Option<hsir_analysis::Diagnostic>,
}

/// A file's decoded text, not parsed yet (`hsir check` lets the database parse it, in pieces
/// if it is large).
pub struct SourceText {
    pub name: String,
    pub text: String,
    pub decode_error: Option<hsir_analysis::Diagnostic>,
}

/// Reads and decodes `path`, or says why it cannot.
pub fn read(path: &Path) -> Result<SourceText, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|err| format!("cannot read `{name}`: {err}"))?;
    if bytes.len() >= u32::MAX as usize {
        return Err(format!("`{name}` is {} bytes; hsir handles files under 4 GiB", bytes.len()));
    }
    let (text, decode_error) = hsir_analysis::decode_bytes(bytes);
    Ok(SourceText { name, text, decode_error })
}

/// Reads and parses `path`, or says why it cannot.
pub fn load(path: &Path) -> Result<LoadedFile, String> {
    let SourceText { name, text, decode_error } = read(path)?;
    Ok(LoadedFile { name, parse: hsir_parser::parse(text), decode_error })
}
