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

/// Reads and parses `path`, or says why it cannot.
pub fn load(path: &Path) -> Result<LoadedFile, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|err| format!("cannot read `{name}`: {err}"))?;
    if bytes.len() >= u32::MAX as usize {
        return Err(format!("`{name}` is {} bytes; hsir handles files under 4 GiB", bytes.len()));
    }
    let (parse, decode_error) = hsir_analysis::parse_bytes(&bytes);
    Ok(LoadedFile { name, parse, decode_error })
}
