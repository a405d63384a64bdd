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
    let bytes = read_bytes(path).map_err(|err| format!("cannot read `{name}`: {err}"))?;
    if bytes.len() >= u32::MAX as usize {
        return Err(format!("`{name}` is {} bytes; hsir handles files under 4 GiB", bytes.len()));
    }
    let (text, decode_error) = hsir_analysis::decode_bytes(bytes);
    Ok(SourceText { name, text, decode_error })
}

/// The bytes of `path`, read into a buffer sized from its metadata. A large file's buffer is
/// backed by huge pages where the kernel allows (`hsir_parser::prefer_huge_pages`): reading
/// 10 MB into fresh 4 KiB pages faults 2,500 times, which is most of the read's time.
fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    // One byte more than the size, so that the read's end is seen without growing the buffer.
    let size = file.metadata().map_or(0, |m| m.len() as usize);
    let mut bytes = Vec::with_capacity(size.saturating_add(1));
    hsir_parser::prefer_huge_pages(&bytes);
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads and parses `path`, or says why it cannot.
pub fn load(path: &Path) -> Result<LoadedFile, String> {
    let SourceText { name, text, decode_error } = read(path)?;
    Ok(LoadedFile { name, parse: hsir_parser::parse(text), decode_error })
}
