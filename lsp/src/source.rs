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
    let Read { bytes, utf8 } =
        read_bytes(path).map_err(|err| format!("cannot read `{name}`: {err}"))?;
    if bytes.len() >= u32::MAX as usize {
        return Err(format!("`{name}` is {} bytes; hsir handles files under 4 GiB", bytes.len()));
    }
    let (text, decode_error) = if utf8 {
        // SAFETY: `utf8` says every byte was checked already (`read_halves`).
        #[allow(unsafe_code)]
        let text = unsafe { String::from_utf8_unchecked(bytes) };
        (text, None)
    } else {
        hsir_analysis::decode_bytes(bytes)
    };
    Ok(SourceText { name, text, decode_error })
}

/// A file's bytes, and whether they are known to be UTF-8 (checked as they were read).
struct Read {
    bytes: Vec<u8>,
    utf8: bool,
}

/// Files from this size up are read by two threads, each copying half: the copy out of the
/// kernel's page cache is most of a large read's time, and it runs at one core's speed.
const PARALLEL_READ_MIN: usize = 4 << 20;

/// The bytes of `path`, read into a buffer sized from its metadata. A large file's buffer is
/// backed by huge pages where the kernel allows (`hsir_parser::prefer_huge_pages`): reading
/// 10 MB into fresh 4 KiB pages faults 2,500 times, which is much of the read's time. A file
/// that grows while it is read is read to its end; one that shrinks is read again.
fn read_bytes(path: &Path) -> std::io::Result<Read> {
    use std::io::{Read as _, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    let size = usize::try_from(metadata.len()).unwrap_or(usize::MAX);
    if metadata.is_file() && size >= PARALLEL_READ_MIN && hsir_parser::cores() > 1 {
        if let Some((mut bytes, utf8)) = read_halves(&file, size) {
            file.seek(SeekFrom::Start(size as u64))?;
            file.read_to_end(&mut bytes)?;
            // Bytes the file grew by while it was read are checked with the rest, later.
            let utf8 = utf8 && bytes.len() == size;
            return Ok(Read { bytes, utf8 });
        }
        file.rewind()?;
    }
    // One byte more than the size, so that the read's end is seen without growing the buffer.
    let mut bytes = Vec::with_capacity(size.saturating_add(1));
    hsir_parser::prefer_huge_pages(&bytes);
    file.read_to_end(&mut bytes)?;
    Ok(Read { bytes, utf8: false })
}

/// The first `size` bytes of `file`, each half read by its own thread, and whether they are
/// UTF-8 (each thread checks its half, this one the character that may straddle them); `None`
/// if either read fails (the file shrank, say): the caller reads the file the ordinary way,
/// which says why.
///
/// The reads go straight into the buffer's spare capacity. A zeroed buffer (`vec![0; size]`)
/// would cost a pass of its own on the one thread: with the batch tunables' large `top_pad`
/// the allocator serves it from memory it has already mapped, and clears every byte (1.7 ms of
/// the 10 MB file's 4 ms read).
#[cfg(unix)]
#[allow(unsafe_code)]
fn read_halves(file: &std::fs::File, size: usize) -> Option<(Vec<u8>, bool)> {
    // One byte more than the size, as `read_bytes` leaves: the read's end is seen in place.
    let mut bytes: Vec<u8> = Vec::with_capacity(size.saturating_add(1));
    hsir_parser::prefer_huge_pages(&bytes);
    let (head, tail) = bytes.spare_capacity_mut()[..size].split_at_mut(size / 2);
    let tail_at = head.len() as u64;
    let (head_read, tail_read) = std::thread::scope(|scope| {
        let tail_read = scope.spawn(|| read_exact_at(file, tail, tail_at).map(|t| utf8_tail(t)));
        (read_exact_at(file, head, 0).map(|h| utf8_head(h)), tail_read.join())
    });
    let (Ok(head_end), Ok(Ok(tail_start))) = (head_read, tail_read) else { return None };
    // SAFETY: the two reads wrote every byte of `..size` (`read_exact_at` returns `Ok` only
    // then), and the capacity is at least `size`.
    unsafe { bytes.set_len(size) };
    let utf8 = match (head_end, tail_start) {
        (Some(end), Some(start)) => std::str::from_utf8(&bytes[end..size / 2 + start]).is_ok(),
        _ => false,
    };
    Some((bytes, utf8))
}

/// Where the first half of a text stops being UTF-8 if it is, but for a character its end
/// cuts: `None` if it is not.
fn utf8_head(head: &[u8]) -> Option<usize> {
    match std::str::from_utf8(head) {
        Ok(_) => Some(head.len()),
        Err(err) if err.error_len().is_none() => Some(err.valid_up_to()),
        Err(_) => None,
    }
}

/// Where the second half of a text starts being UTF-8 (after the bytes that end a character
/// begun in the first half), if the rest is: `None` if it is not.
fn utf8_tail(tail: &[u8]) -> Option<usize> {
    let start = tail.iter().take(3).take_while(|&&b| b & 0xC0 == 0x80).count();
    std::str::from_utf8(&tail[start..]).is_ok().then_some(start)
}

/// Fills `buf` with the bytes of `file` from `offset` and gives them back, or says why it
/// cannot (the end of the file comes first: `UnexpectedEof`). `FileExt::read_exact_at` for
/// memory not initialised yet.
#[cfg(unix)]
#[allow(unsafe_code)]
fn read_exact_at<'a>(
    file: &std::fs::File,
    buf: &'a mut [std::mem::MaybeUninit<u8>],
    mut offset: u64,
) -> std::io::Result<&'a mut [u8]> {
    use std::os::fd::AsRawFd;
    let mut at = 0;
    while at < buf.len() {
        let rest = &mut buf[at..];
        let Ok(position) = libc::off_t::try_from(offset) else {
            return Err(std::io::Error::from(std::io::ErrorKind::InvalidInput));
        };
        // SAFETY: `pread` writes at most `rest.len()` bytes, into `rest`, which this function
        // borrows mutably; bytes need no initialisation before they are written.
        let n = unsafe {
            libc::pread(file.as_raw_fd(), rest.as_mut_ptr().cast(), rest.len(), position)
        };
        match n {
            0 => return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof)),
            n if n < 0 => {
                let err = std::io::Error::last_os_error();
                if err.kind() != std::io::ErrorKind::Interrupted {
                    return Err(err);
                }
            }
            n => {
                at += n as usize;
                offset += n as u64;
            }
        }
    }
    // SAFETY: the loop ends only once `pread` has written every byte of `buf`.
    Ok(unsafe { &mut *(buf as *mut [std::mem::MaybeUninit<u8>] as *mut [u8]) })
}

#[cfg(not(unix))]
fn read_halves(_file: &std::fs::File, _size: usize) -> Option<(Vec<u8>, bool)> {
    None
}

/// Reads and parses `path`, or says why it cannot.
pub fn load(path: &Path) -> Result<LoadedFile, String> {
    let SourceText { name, text, decode_error } = read(path)?;
    Ok(LoadedFile { name, parse: hsir_parser::parse(text), decode_error })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A large file reads as `decode_bytes` decodes it, whatever straddles the middle, where
    /// the two reading threads' halves meet: a character of several bytes cut in two, a
    /// character cut short, a stray continuation byte, a bad byte elsewhere.
    #[test]
    #[cfg(unix)]
    fn a_file_read_in_halves_decodes_as_a_whole() {
        let size = PARALLEL_READ_MIN + 1000;
        let middle = size / 2;
        let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
        for back in 0..=4 {
            let mut bytes = vec![b'a'; size];
            bytes[middle - back..middle - back + 4].copy_from_slice("😀".as_bytes());
            cases.push(("a character of four bytes", bytes));
        }
        let mut bytes = vec![b'a'; size];
        bytes[middle - 1..middle + 1].copy_from_slice("é".as_bytes());
        cases.push(("a character of two bytes", bytes.clone()));
        bytes[middle - 1] = 0xE2;
        bytes[middle] = b'a';
        cases.push(("a character cut short before the middle", bytes));
        let mut bytes = vec![b'a'; size];
        bytes[middle] = 0x80;
        cases.push(("a continuation byte alone at the middle", bytes));
        let mut bytes = vec![b'a'; size];
        bytes[size - 3] = 0xFF;
        cases.push(("a bad byte near the end", bytes));
        let mut bytes = vec![b'a'; size];
        bytes[10] = 0xFF;
        cases.push(("a bad byte near the start", bytes));
        let dir = std::env::temp_dir().join(format!("hsir-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (i, (what, bytes)) in cases.into_iter().enumerate() {
            let path = dir.join(format!("{i}.mlir"));
            std::fs::write(&path, &bytes).unwrap();
            let read = read(&path).unwrap();
            // The two threads' path itself, whatever the cores of the machine running this.
            let file = std::fs::File::open(&path).unwrap();
            let (halves, utf8) = read_halves(&file, size).expect("the halves read");
            assert!(halves == bytes, "{what} ({i}): the halves' bytes differ");
            assert_eq!(utf8, std::str::from_utf8(&bytes).is_ok(), "{what} ({i})");
            let (text, error) = hsir_analysis::decode_bytes(bytes);
            assert!(read.text == text, "{what} ({i}): the text differs");
            assert_eq!(read.decode_error, error, "{what} ({i})");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
