//! The subcommands of `hsir`.

pub mod buffers;
pub mod check;
pub mod cosim;
pub mod rtl;
pub mod sim;
pub mod syntax;
pub mod timing;

use std::path::Path;

use hsir_analysis::Parse;

/// Exit status for usage and IO problems.
pub const EXIT_USAGE_OR_IO: u8 = 2;

/// A file as the analysis sees it: decoded, parsed, with any decoding diagnostic.
pub struct LoadedFile {
    pub name: String,
    pub parse: Parse,
    pub decode_error: Option<hsir_analysis::Diagnostic>,
}

/// Reads and parses `path`, or says on stderr why it cannot.
pub fn load(path: &Path) -> Result<LoadedFile, ()> {
    let name = path.display().to_string();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) => {
            eprintln!("error: cannot read `{name}`: {err}");
            return Err(());
        }
    };
    if bytes.len() >= u32::MAX as usize {
        eprintln!("error: `{name}` is {} bytes; hsir handles files under 4 GiB", bytes.len());
        return Err(());
    }
    let (parse, decode_error) = hsir_analysis::parse_bytes(&bytes);
    Ok(LoadedFile { name, parse, decode_error })
}
