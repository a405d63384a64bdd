//! `hsir syntax [--text] FILE`: the tree, or the text rebuilt from it.

use std::io::Write;
use std::path::Path;

pub fn run(path: &Path, text: bool) -> u8 {
    let Ok(file) = super::load(path) else { return super::EXIT_USAGE_OR_IO };
    if let Some(error) = &file.decode_error {
        eprintln!("warning: {}: {}", file.name, error.message);
    }
    let tree = file.parse.tree();
    let mut stdout = std::io::stdout().lock();
    let written = if text {
        stdout.write_all(tree.rebuild_text().as_bytes())
    } else {
        write!(stdout, "{:#?}", tree.root())
    };
    match written.and_then(|()| stdout.flush()) {
        Ok(()) => 0,
        // A closed pipe (`hsir syntax f | head`) is not worth a message.
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(err) => {
            eprintln!("error: cannot write the output: {err}");
            super::EXIT_USAGE_OR_IO
        }
    }
}
