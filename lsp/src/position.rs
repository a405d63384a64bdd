//! Byte offsets to LSP positions and back: 0-based lines, and columns in UTF-8 or UTF-16 code
//! units (the server's negotiated encoding; `hsir check --format json` uses UTF-16).
//!
//! A document keeps the start of each line (`LineIndex`), updated in place by each edit, so an
//! edit costs a splice of the line table, not a scan of the whole text. Columns are measured
//! on the line's text when asked for (`Lines`, a view over the index and the text), which is
//! cheap because lines are short. A long line (a generated file's 100,000 operands) would make
//! that quadratic over its diagnostics, so UTF-16 columns farther than `CHUNK` bytes from
//! their line's start are counted from a table of UTF-16 units per `CHUNK` bytes of text,
//! made on the first such question about a version of the text.

use std::sync::OnceLock;

use hsir_analysis::{TextRange, TextSize};

/// How the client counts columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// A line and column as the client counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub character: u32,
}

/// A range of positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: Pos,
    pub end: Pos,
}

/// The byte offset where each line starts; the first is 0. Lines end at `\n`.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<u32>,
    /// The UTF-16 units of the text before each multiple of `CHUNK` bytes, made when a column
    /// far from its line's start is first asked for, and forgotten by every edit.
    utf16: OnceLock<Vec<u32>>,
}

impl PartialEq for LineIndex {
    fn eq(&self, other: &LineIndex) -> bool {
        self.starts == other.starts
    }
}

impl Eq for LineIndex {}

/// Bytes of text per entry of the UTF-16 table: columns nearer their line's start are counted
/// directly.
const CHUNK: usize = 4096;

/// The UTF-16 units of UTF-8 `bytes`: one per character, two for those of four bytes. A slice
/// that starts inside a character counts none for it (it was counted where it started).
fn utf16_units(bytes: &[u8]) -> usize {
    bytes.iter().map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0)).sum()
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1));
        LineIndex { starts, utf16: OnceLock::new() }
    }

    /// Follows an edit: `range` of the old text became `new_text`.
    pub fn edit(&mut self, range: TextRange, new_text: &str) {
        let (start, end) = (u32::from(range.start()), u32::from(range.end()));
        let delta = new_text.len() as i64 - (end - start) as i64;
        // Line starts inside the replaced text (after `start`, up to and including `end`) go;
        // the new text's own line breaks come in; the rest move by the length difference.
        let first = self.starts.partition_point(|&s| s <= start);
        let last = self.starts.partition_point(|&s| s <= end);
        let inserted = new_text
            .bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'\n')
            .map(|(i, _)| start + i as u32 + 1);
        let tail: Vec<u32> =
            self.starts[last..].iter().map(|&s| (s as i64 + delta) as u32).collect();
        self.starts.truncate(first);
        self.starts.extend(inserted);
        self.starts.extend(tail);
        self.utf16 = OnceLock::new();
    }

    /// A view for converting positions in `text`, which must be the indexed text.
    pub fn view<'a>(&'a self, text: &'a str) -> Lines<'a> {
        Lines { starts: &self.starts, utf16: &self.utf16, text }
    }
}

/// The UTF-16 units of `text` before byte `offset`, through `table` (made on first use): the
/// units before each multiple of `CHUNK` bytes.
fn utf16_before(text: &str, table: &OnceLock<Vec<u32>>, offset: usize) -> usize {
    let table = table.get_or_init(|| {
        let mut total = 0u32;
        let mut table = vec![0];
        for chunk in text.as_bytes().chunks(CHUNK) {
            total += utf16_units(chunk) as u32;
            table.push(total);
        }
        table
    });
    let chunk = offset / CHUNK;
    table[chunk] as usize + utf16_units(&text.as_bytes()[chunk * CHUNK..offset])
}

/// The column of byte `offset` on the line that starts at byte `start`, as `encoding` counts.
fn column(
    text: &str,
    utf16: &OnceLock<Vec<u32>>,
    start: usize,
    offset: usize,
    encoding: Encoding,
) -> u32 {
    let before = &text[start..offset];
    let character = match encoding {
        Encoding::Utf16 if before.len() > CHUNK => {
            utf16_before(text, utf16, offset) - utf16_before(text, utf16, start)
        }
        Encoding::Utf16 if !before.is_ascii() => before.encode_utf16().count(),
        _ => before.len(),
    };
    character as u32
}

/// `offset` within `text`, moved back to the start of the character it falls in.
fn char_start(text: &str, offset: TextSize) -> usize {
    let mut offset = (u32::from(offset) as usize).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The line breaks in `bytes`, counted by `memchr` a vector at a time.
fn line_breaks(bytes: &[u8]) -> u32 {
    memchr::memchr_iter(b'\n', bytes).count() as u32
}

/// Positions of offsets asked for mostly in increasing order (a file's sorted diagnostics),
/// found by counting the line breaks since the last offset asked rather than through an index
/// of every line: `hsir check` shows a thousand positions of a file of a million lines. The
/// positions are `Lines::pos`'s.
pub struct LineCursor<'a> {
    text: &'a str,
    /// The last offset asked, its line and the start of that line.
    offset: usize,
    line: u32,
    line_start: usize,
    utf16: OnceLock<Vec<u32>>,
}

impl<'a> LineCursor<'a> {
    pub fn new(text: &'a str) -> LineCursor<'a> {
        LineCursor { text, offset: 0, line: 0, line_start: 0, utf16: OnceLock::new() }
    }

    pub fn pos(&mut self, offset: TextSize, encoding: Encoding) -> Pos {
        let offset = char_start(self.text, offset);
        let bytes = self.text.as_bytes();
        if offset >= self.offset {
            let passed = &bytes[self.offset..offset];
            self.line += line_breaks(passed);
            if let Some(at) = memchr::memrchr(b'\n', passed) {
                self.line_start = self.offset + at + 1;
            }
        } else {
            let back = line_breaks(&bytes[offset..self.offset]);
            if back > 0 {
                self.line -= back;
                self.line_start = memchr::memrchr(b'\n', &bytes[..offset]).map_or(0, |at| at + 1);
            }
        }
        self.offset = offset;
        let character = column(self.text, &self.utf16, self.line_start, offset, encoding);
        Pos { line: self.line, character }
    }

    pub fn range(&mut self, range: TextRange, encoding: Encoding) -> Span {
        let start = self.pos(range.start(), encoding);
        Span { start, end: self.pos(range.end(), encoding) }
    }
}

/// A line index together with its text.
#[derive(Debug, Clone, Copy)]
pub struct Lines<'a> {
    starts: &'a [u32],
    utf16: &'a OnceLock<Vec<u32>>,
    text: &'a str,
}

impl Lines<'_> {
    /// The byte range of line `line`, without its `\n`.
    pub fn line(&self, line: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(line)? as usize;
        let end = self.starts.get(line + 1).map_or(self.text.len(), |&next| next as usize - 1);
        Some((start, end.max(start).min(self.text.len())))
    }

    pub fn pos(&self, offset: TextSize, encoding: Encoding) -> Pos {
        let offset = char_start(self.text, offset);
        let line = self.starts.partition_point(|&s| s as usize <= offset).saturating_sub(1);
        let start = self.starts.get(line).map_or(0, |&s| s as usize);
        Pos { line: line as u32, character: column(self.text, self.utf16, start, offset, encoding) }
    }

    pub fn range(&self, range: TextRange, encoding: Encoding) -> Span {
        Span { start: self.pos(range.start(), encoding), end: self.pos(range.end(), encoding) }
    }

    /// The offset of a position. A column past the end of its line means the line's end, as
    /// the protocol asks; a line past the last means the end of the text.
    pub fn offset(&self, pos: Pos, encoding: Encoding) -> Option<TextSize> {
        let Some((start, end)) = self.line(pos.line as usize) else {
            return Some(TextSize::from(self.text.len() as u32));
        };
        let line = &self.text[start..end];
        let col = pos.character as usize;
        let within = match encoding {
            Encoding::Utf8 => {
                let mut at = col.min(line.len());
                while !line.is_char_boundary(at) {
                    at -= 1;
                }
                at
            }
            Encoding::Utf16 => {
                let mut units = 0;
                let mut at = line.len();
                for (i, c) in line.char_indices() {
                    if units >= col {
                        at = i;
                        break;
                    }
                    units += c.len_utf16();
                }
                at
            }
        };
        Some(TextSize::from((start + within) as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_follow_the_encoding_and_round_trip() {
        let text = "a\n\u{e9}\u{1d11e}x\nlast";
        let index = LineIndex::new(text);
        let lines = index.view(text);
        let x = TextSize::from(text.find('x').unwrap() as u32);
        // `é` is 2 bytes and 1 UTF-16 unit; the G clef is 4 bytes and 2 UTF-16 units.
        assert_eq!(lines.pos(x, Encoding::Utf16), Pos { line: 1, character: 3 });
        assert_eq!(lines.pos(x, Encoding::Utf8), Pos { line: 1, character: 6 });
        assert_eq!(lines.offset(Pos { line: 1, character: 3 }, Encoding::Utf16), Some(x));
        assert_eq!(lines.offset(Pos { line: 1, character: 6 }, Encoding::Utf8), Some(x));
    }

    #[test]
    fn columns_far_along_a_long_line_are_counted_through_the_table() {
        let text = format!(
            "x\n\u{e9}{}\u{1f600}\u{301}{}\nend",
            "<".repeat(3 * CHUNK),
            "%x ".repeat(CHUNK)
        );
        let index = LineIndex::new(&text);
        let lines = index.view(&text);
        for (offset, _) in text.char_indices().step_by(97).chain(text.char_indices().rev().take(9))
        {
            let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            let expected = text[line_start..offset].encode_utf16().count() as u32;
            let pos = lines.pos(TextSize::from(offset as u32), Encoding::Utf16);
            assert_eq!(pos.character, expected, "at byte {offset}");
            assert_eq!(lines.offset(pos, Encoding::Utf16), Some(TextSize::from(offset as u32)));
        }
    }

    #[test]
    fn positions_past_a_line_or_the_text_clamp() {
        let text = "ab\ncd";
        let index = LineIndex::new(text);
        let lines = index.view(text);
        assert_eq!(lines.offset(Pos { line: 0, character: 99 }, Encoding::Utf16), Some(2.into()));
        assert_eq!(lines.offset(Pos { line: 7, character: 0 }, Encoding::Utf16), Some(5.into()));
    }

    #[test]
    fn edits_keep_the_index_equal_to_a_fresh_one() {
        let mut text = String::from("one\ntwo\n\nthree\nfour");
        let mut index = LineIndex::new(&text);
        let edits: [(u32, u32, &str); 6] = [
            (0, 0, "x\n"),
            (3, 9, ""),
            (4, 4, "\n\n\n"),
            (0, 0, ""),
            (2, 5, "ab\ncd"),
            (0, 0, "\n"),
        ];
        for (start, end, new_text) in edits {
            let end = end.min(text.len() as u32);
            let range = TextRange::new(start.into(), end.into());
            text.replace_range(start as usize..end as usize, new_text);
            index.edit(range, new_text);
            assert_eq!(index, LineIndex::new(&text), "after replacing {start}..{end} in {text:?}");
        }
    }

    /// The cursor gives `Lines`' positions, in order or not: forward, backward, on one line
    /// and across many, on short lines and along a long one, inside characters of several
    /// bytes, at line starts and past the end.
    #[test]
    fn the_cursor_agrees_with_the_index_in_any_order() {
        let text = format!(
            "a\r\n\u{e9}\u{1d11e}x\n\n{}\u{1f600}{}\nlast line\n",
            "<".repeat(3 * CHUNK),
            "%x ".repeat(CHUNK)
        );
        let index = LineIndex::new(&text);
        let lines = index.view(&text);
        let len = text.len() as u32;
        // Sorted offsets, then a scramble that steps back now and then.
        let mut offsets: Vec<u32> = (0..=len + 2).step_by(7).chain([0, 1, 2, 3, 4, 5, 6]).collect();
        offsets.sort();
        let mut scrambled = offsets.clone();
        let mut seed = 12345u64;
        for i in (1..scrambled.len()).rev() {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            if seed >> 61 == 0 {
                scrambled.swap(i, (seed >> 33) as usize % (i + 1));
            }
        }
        for order in [offsets, scrambled] {
            for encoding in [Encoding::Utf16, Encoding::Utf8] {
                let mut cursor = LineCursor::new(&text);
                for &offset in &order {
                    let offset = TextSize::from(offset);
                    assert_eq!(
                        cursor.pos(offset, encoding),
                        lines.pos(offset, encoding),
                        "at {offset:?}"
                    );
                }
            }
        }
    }
}
