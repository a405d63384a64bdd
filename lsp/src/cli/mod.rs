//! The subcommands of `hsir`.

pub mod buffers;
pub mod check;
pub mod cosim;
mod pretty_json;
pub mod rtl;
pub mod sim;
pub mod syntax;
pub mod timing;

use std::path::Path;

/// Exit status for usage and IO problems.
pub const EXIT_USAGE_OR_IO: u8 = 2;

pub use crate::source::LoadedFile;

/// Reads and parses `path` (`crate::source::load`), or says on stderr why it cannot.
pub fn load(path: &Path) -> Result<LoadedFile, ()> {
    crate::source::load(path).map_err(|message| eprintln!("error: {message}"))
}

/// Reads and decodes `path` (`crate::source::read`), or says on stderr why it cannot.
pub fn read(path: &Path) -> Result<crate::source::SourceText, ()> {
    crate::source::read(path).map_err(|message| eprintln!("error: {message}"))
}
