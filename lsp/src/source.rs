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

/// Files from this size up are read by two threads, each copying half: the copy out of the
/// kernel's page cache is most of a large read's time, and it runs at one core's speed.
const PARALLEL_READ_MIN: usize = 4 << 20;

/// The bytes of `path`, read into a buffer sized from its metadata. A large file's buffer is
/// backed by huge pages where the kernel allows (`hsir_parser::prefer_huge_pages`): reading
/// 10 MB into fresh 4 KiB pages faults 2,500 times, which is much of the read's time. A file
/// that grows while it is read is read to its end; one that shrinks is read again.
fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    let size = usize::try_from(metadata.len()).unwrap_or(usize::MAX);
    if metadata.is_file() && size >= PARALLEL_READ_MIN && hsir_parser::cores() > 1 {
        if let Some(mut bytes) = read_halves(&file, size) {
            file.seek(SeekFrom::Start(size as u64))?;
            file.read_to_end(&mut bytes)?;
            return Ok(bytes);
        }
        file.rewind()?;
    }
    // One byte more than the size, so that the read's end is seen without growing the buffer.
    let mut bytes = Vec::with_capacity(size.saturating_add(1));
    hsir_parser::prefer_huge_pages(&bytes);
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The first `size` bytes of `file`, each half read by its own thread; `None` if either read
/// fails (the file shrank, say): the caller reads the file the ordinary way, which says why.
#[cfg(unix)]
fn read_halves(file: &std::fs::File, size: usize) -> Option<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    // Zeroed by the kernel as it maps the pages: no pass over the buffer before the reads.
    let mut bytes = vec![0u8; size];
    hsir_parser::prefer_huge_pages(&bytes);
    let (head, tail) = bytes.split_at_mut(size / 2);
    let tail_at = head.len() as u64;
    let (head_read, tail_read) = std::thread::scope(|scope| {
        let tail_read = scope.spawn(|| file.read_exact_at(tail, tail_at));
        (file.read_exact_at(head, 0), tail_read.join())
    });
    (head_read.is_ok() && tail_read.is_ok_and(|r| r.is_ok())).then_some(bytes)
}

#[cfg(not(unix))]
fn read_halves(_file: &std::fs::File, _size: usize) -> Option<Vec<u8>> {
    None
}

/// Reads and parses `path`, or says why it cannot.
pub fn load(path: &Path) -> Result<LoadedFile, String> {
    let SourceText { name, text, decode_error } = read(path)?;
    Ok(LoadedFile { name, parse: hsir_parser::parse(text), decode_error })
}
